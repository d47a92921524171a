import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import { z } from 'zod';
import { recordAccessEvent, recordAudit } from '../audit';
import { sessions, users } from '../db/schema';
import { loadCaller } from '../auth/accounts';
import { countFailure, reauthLimit, refuseWhenBlocked } from '../auth/attempts';
import { requireAuth } from '../auth/guard';
import { refuseWhileImpersonating } from '../auth/impersonation';
import { verifyPassword } from '../auth/passwords';
import { acceptUserCode, otpCodeField } from '../auth/second-factor';
import { completeSignIn } from '../auth/session-service';
import { sessionUserOf } from '../auth/session-user';
import { signIn } from '../auth/signin';
import { clearFailures } from '../auth/throttle';
import { newTotpSecret, totpUri } from '../auth/totp';
import { badRequest } from '../http/errors';
import { currentPasswordField, emailField, hostnameField } from '../http/schemas';

const signinBody = z.object({ email: emailField, password: currentPasswordField, companyHostname: hostnameField });
const codeBody = z.object({ otp: otpCodeField });
const passwordBody = z.object({ password: currentPasswordField });

export async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db } = ctx;

  api.post('/signin', { config: { public: true }, schema: { body: signinBody } }, async (request) => {
    return signIn(ctx, request, request.body);
  });

  // ---- Two-factor authentication -------------------------------------------------------------

  api.post('/user/otp/verify', { config: { stages: ['otp'] }, schema: { body: codeBody } }, async (request) => {
    const auth = requireAuth(request);
    const { user } = await loadCaller(db, auth);
    if (!user.otpEnabled || !user.otpSecretEnc) throw badRequest('Two-factor authentication is not set up for this account');
    await acceptUserCode(ctx, request, {
      companyId: auth.companyId,
      userId: auth.userId,
      email: user.email,
      secretEnc: user.otpSecretEnc,
      code: request.body.otp,
      event: 'otp',
    });
    const session = await db.transaction((tx) => completeSignIn(tx, request, ctx.config, auth));
    return { message: 'Signed in', user: await sessionUserOf(ctx, session) };
  });

  api.get('/user/otp/setup', { config: { stages: ['otp_setup', 'full'] } }, async (request) => {
    const auth = requireAuth(request);
    refuseWhileImpersonating(auth);
    const { user, company } = await loadCaller(db, auth);
    if (user.otpEnabled) throw badRequest('Two-factor authentication is already on; turn it off before setting it up again');
    // Each call offers a new secret: a QR code seen by someone else can be replaced by asking again.
    const secret = newTotpSecret();
    await db
      .update(users)
      .set({ otpPendingSecretEnc: ctx.secrets.encrypt(secret) })
      .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
    const otpauthUrl = totpUri(secret, company.hostname, user.email);
    const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl);
    return {
      message: 'Scan the QR code with your authenticator app, then enter the code it shows',
      data: { secret, otpauthUrl, qrCodeDataUrl },
    };
  });

  api.post('/user/otp/register', { config: { stages: ['otp_setup', 'full'] }, schema: { body: codeBody } }, async (request) => {
    const auth = requireAuth(request);
    refuseWhileImpersonating(auth);
    const { user } = await loadCaller(db, auth);
    if (user.otpEnabled) throw badRequest('Two-factor authentication is already on');
    const pendingSecret = user.otpPendingSecretEnc;
    if (!pendingSecret) throw badRequest('Start the set-up first: ask for a QR code (GET /user/otp/setup)');
    await acceptUserCode(ctx, request, {
      companyId: auth.companyId,
      userId: auth.userId,
      email: user.email,
      secretEnc: pendingSecret,
      code: request.body.otp,
      event: 'otp_setup',
    });
    const session = await db.transaction(async (tx) => {
      // Only the secret the code was checked against is turned on, not one a parallel restart put there.
      const enabled = await tx
        .update(users)
        .set({ otpSecretEnc: pendingSecret, otpPendingSecretEnc: null, otpEnabled: true, updatedAt: new Date() })
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId), eq(users.otpPendingSecretEnc, pendingSecret)))
        .returning({ id: users.id });
      if (enabled.length === 0) throw badRequest('The set-up was restarted meanwhile; scan the new QR code and try again');
      await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'enable_two_factor', recordId: auth.userId });
      if (auth.stage === 'otp_setup') return completeSignIn(tx, request, ctx.config, auth);
      const [current] = await tx.select().from(sessions).where(and(eq(sessions.companyId, auth.companyId), eq(sessions.id, auth.sessionId)));
      return current;
    });
    return { message: 'Two-factor authentication is on', user: await sessionUserOf(ctx, session) };
  });

  api.post('/user/otp/disable', { schema: { body: passwordBody } }, async (request) => {
    const auth = requireAuth(request);
    refuseWhileImpersonating(auth);
    const { user, company } = await loadCaller(db, auth);
    if (company.requireTwoFactor) {
      throw badRequest('Your company requires two-factor authentication, so it cannot be turned off');
    }
    if (user.otpRequired) {
      throw badRequest('Your administrator requires two-factor authentication for your account, so it cannot be turned off');
    }
    if (!user.otpEnabled) throw badRequest('Two-factor authentication is not on');
    const limits = [reauthLimit(user.id)];
    const event = { companyId: auth.companyId, userId: user.id, email: user.email, event: 'otp_setup' as const };
    await refuseWhenBlocked(db, request, limits, event);
    if (!(await verifyPassword(user.passwordHash, request.body.password))) {
      await recordAccessEvent(db, request, { ...event, status: 'failure', reason: 'bad_password' });
      await countFailure(db, limits);
      throw badRequest('password: is not correct');
    }
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ otpEnabled: false, otpSecretEnc: null, otpPendingSecretEnc: null, updatedAt: new Date() })
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, user.id)));
      await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'disable_two_factor', recordId: user.id });
      await recordAccessEvent(tx, request, { ...event, status: 'success', reason: 'disabled' });
    });
    await clearFailures(db, limits[0].key);
    return { message: 'Two-factor authentication is off' };
  });
}
