import { asFoundCompany } from '../db/tenant-scope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { messageAnswer } from '../../common/contract/answers';
import { otpRegisterAnswer, otpSetupAnswer, resetLinkAnswer, sessionUserAnswer } from '../../common/contract/answers/auth';
import { securityActions } from '../../common/contract/security';
import { verifyOtpBody } from '../../common/schemas/security';
import { PASSWORD_UPDATED_MESSAGE } from '../../common/messages';
import { recordAccessEvent, recordAudit } from '../audit';
import { sessions, users } from '../db/schema';
import { findAccount, isActiveAccount, loadCaller } from '../auth/accounts';
import { countFailure, reauthLimit, refuseWhenBlocked, withinQuietRate } from '../auth/attempts';
import { requireAuth } from '../auth/guard';
import { refuseWhileImpersonating } from '../auth/impersonation';
import { findTokenHolder, issueOneTimeToken, oneTimeTokenField, spendToken, TOKEN_LIFETIME_MS } from '../auth/one-time-tokens';
import {
  assertPasswordChanges,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  mailPasswordChanged,
  SAME_PASSWORD_MESSAGE,
  storeNewPassword,
} from '../auth/password-change';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { replaceRecoveryCodes, spendRecoveryCode } from '../auth/recovery-codes';
import { acceptUserCode, otpCodeField } from '../auth/second-factor';
import { disableTwoFactor, otpStatusOf, regenerateRecoveryCodes, resetTwoFactorOf } from '../auth/two-factor';
import { completeSignIn } from '../auth/session-service';
import { sessionUserOf } from '../auth/session-user';
import { accountSigninKey, signIn } from '../auth/signin';
import { clearFailures, consumeRate } from '../auth/throttle';
import { newTotpSecret, totpUri } from '../auth/totp';
import { badRequest, conflict } from '../http/errors';
import { currentPasswordField, emailField, hostnameField, newPasswordField } from '../http/schemas';
import { mailLinkBase, passwordResetMail } from '../mail/templates';
import { actionRoute } from '../platform/action-route';
import type { RouteBase } from '../platform/answer-route';
import { endOwnSessionById, ownSessions } from '../sessions/own-sessions';
import { assertPasswordAllowed } from '../settings/enforce';
import { passwordPolicyOf } from '../settings/store';

export const FORGOT_PASSWORD_MESSAGE =
  'If an active account with that email exists for this company, a link to reset its password has been mailed to it.';
export const RESET_LINK_INVALID_MESSAGE = 'This password reset link is invalid or has expired';

/** Reset mails per account per hour; past it, the same answer is given and no mail is sent. */
const RESET_MAILS_PER_HOUR = 5;
/** Reset requests per address per hour, whatever the account. */
const RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 20;

const TAGS = ['Sign-in'];
const signinBody = z.object({ email: emailField, password: currentPasswordField, companyHostname: hostnameField });
const codeBody = z.object({ otp: otpCodeField });
const accountBody = z.object({ email: emailField, companyHostname: hostnameField });
// The console sends the token under either name (spec section 3).
const tokenVerifyBody = z
  .object({ resetPasswordToken: oneTimeTokenField.optional(), token: oneTimeTokenField.optional() })
  .transform((body, ctx) => {
    const token = body.resetPasswordToken ?? body.token;
    if (token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['resetPasswordToken'], message: 'is required (or token)' });
      return z.NEVER;
    }
    return { token };
  });
const resetBody = z.object({ email: emailField, newPassword: newPasswordField, clientId: oneTimeTokenField });
const changeBody = z.object({ oldPassword: currentPasswordField, newPassword: newPasswordField });

export async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db } = ctx;

  api.post(
    '/signin',
    {
      config: { public: true, acrossCompanies: 'the account is found by its company host name' },
      schema: { summary: 'Sign in with an email and a password', tags: TAGS, body: signinBody, response: { 200: sessionUserAnswer } },
    },
    async (request) => {
      return signIn(ctx, request, request.body);
    },
  );

  // ---- Two-factor authentication -------------------------------------------------------------

  api.post(
    '/user/otp/verify',
    {
      config: { stages: ['otp'] },
      schema: {
        summary: 'Finish signing in with a two-factor code or a recovery code',
        tags: TAGS,
        body: verifyOtpBody,
        response: { 200: sessionUserAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { user } = await loadCaller(db, auth);
      if (!user.otpEnabled || !user.otpSecretEnc) throw badRequest('Two-factor authentication is not set up for this account');
      const owner = { companyId: auth.companyId, userId: auth.userId, email: user.email };
      const { otp, recoveryCode } = request.body;
      if (recoveryCode !== undefined) await spendRecoveryCode(ctx, request, { ...owner, code: recoveryCode, event: 'otp' });
      else await acceptUserCode(ctx, request, { ...owner, secretEnc: user.otpSecretEnc, code: otp ?? '', event: 'otp' });
      const session = await db.transaction((tx) => completeSignIn(tx, request, ctx.config, auth));
      return { message: 'Signed in', user: await sessionUserOf(ctx, session) };
    },
  );

  api.get(
    '/user/otp/setup',
    {
      config: { stages: ['otp_setup', 'full'] },
      schema: { summary: 'Start setting up two-factor authentication (a new QR code)', tags: TAGS, response: { 200: otpSetupAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      refuseWhileImpersonating(auth);
      const { user, company } = await loadCaller(db, auth);
      // 409: the console then opens the profile's Security section, where it can be turned off.
      if (user.otpEnabled) throw conflict('Two-factor authentication is already on; turn it off before setting it up again');
      // Each call offers a new secret: a QR code seen by someone else can be replaced by asking again.
      const secret = newTotpSecret();
      await db
        .update(users)
        .set({ otpPendingSecretEnc: ctx.secrets.encrypt(secret) })
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
      const otpauthUrl = totpUri(secret, company.hostname, user.email);
      // Loaded at the first enrolment, not with the server.
      const { default: QRCode } = await import('qrcode');
      const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl);
      return {
        message: 'Scan the QR code with your authenticator app, then enter the code it shows',
        data: { secret, otpauthUrl, qrCodeDataUrl },
      };
    },
  );

  api.post(
    '/user/otp/register',
    {
      config: { stages: ['otp_setup', 'full'] },
      schema: {
        summary: 'Turn two-factor authentication on with a code',
        tags: TAGS,
        body: codeBody,
        response: { 200: otpRegisterAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      refuseWhileImpersonating(auth);
      const { user } = await loadCaller(db, auth);
      if (user.otpEnabled) throw conflict('Two-factor authentication is already on');
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
      let recoveryCodes: string[] = [];
      const session = await db.transaction(async (tx) => {
        // Only the secret the code was checked against is turned on, not one a parallel restart put there.
        const enabled = await tx
          .update(users)
          .set({ otpSecretEnc: pendingSecret, otpPendingSecretEnc: null, otpEnabled: true, updatedAt: new Date() })
          .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId), eq(users.otpPendingSecretEnc, pendingSecret)))
          .returning({ id: users.id });
        if (enabled.length === 0) throw badRequest('The set-up was restarted meanwhile; scan the new QR code and try again');
        await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'enable_two_factor', recordId: auth.userId });
        // Ten single-use codes for the day the phone is lost, shown with this answer only.
        recoveryCodes = await replaceRecoveryCodes(tx, ctx.secrets, auth);
        if (auth.stage === 'otp_setup') return completeSignIn(tx, request, ctx.config, auth);
        const [current] = await tx
          .select()
          .from(sessions)
          .where(and(eq(sessions.companyId, auth.companyId), eq(sessions.id, auth.sessionId)));
        return current;
      });
      return { message: 'Two-factor authentication is on', user: await sessionUserOf(ctx, session), recoveryCodes };
    },
  );

  // ---- The profile's Security section: two-factor status, turning it off, recovery codes, own sessions ----

  const own: RouteBase = { config: { apiKeys: false }, tags: TAGS };
  actionRoute(app, own, securityActions.otpStatus, async ({ auth }) => ({
    message: 'Two-factor status',
    data: await otpStatusOf(ctx, auth),
  }));

  actionRoute(app, own, securityActions.disableOtp, async ({ auth, body, request }) => {
    await disableTwoFactor(ctx, request, auth, body);
    return { message: 'Two-factor authentication is off' };
  });

  actionRoute(app, own, securityActions.regenerateRecoveryCodes, async ({ auth, body, request }) => ({
    message: 'New recovery codes: save them now, they are shown only this once. The earlier codes no longer work.',
    data: { codes: await regenerateRecoveryCodes(ctx, request, auth, body.password) },
  }));

  actionRoute(app, own, securityActions.ownSessions, async ({ auth }) => ({
    message: 'Your sessions',
    data: await ownSessions(db, ctx.config, auth),
  }));

  actionRoute(app, own, securityActions.endOwnSession, async ({ auth, params, request }) => {
    await endOwnSessionById(db, request, auth, params.id);
    return { message: 'The session has been ended' };
  });

  // An admin's reset of someone's two-factor: the users update permission, in the admin's company only.
  actionRoute(
    app,
    { config: { policy: ['users', 'update'], apiKeys: false }, tags: TAGS },
    securityActions.resetUserOtp,
    async ({ auth, params, request }) => {
      refuseWhileImpersonating(auth);
      const user = await resetTwoFactorOf(ctx, request, auth, params.userId);
      return { message: `The two-factor authentication of ${user.email} has been reset, and they have been told by mail` };
    },
  );

  // ---- Forgotten password --------------------------------------------------------------------

  api.post(
    '/user/password/forgot',
    {
      config: { public: true, acrossCompanies: 'the account is found by its company host name' },
      schema: { summary: 'Mail a link to reset a forgotten password', tags: TAGS, body: accountBody, response: { 200: messageAnswer } },
    },
    async (request) => {
      await consumeRate(
        db,
        `forgot:ip:${request.ip}`,
        RESET_REQUESTS_PER_ADDRESS_PER_HOUR,
        3600,
        'password reset requests from this address',
      );
      const { email, companyHostname } = request.body;
      const { company, user } = await findAccount(db, companyHostname, email);
      // The account's company is known (or known not to exist): the rest is its work alone.
      return asFoundCompany(company?.id, async () => {
        const event = { companyId: company?.id ?? null, userId: user?.id ?? null, email, event: 'password_reset_request' as const };
        if (!company || !user || !isActiveAccount(user, company)) {
          await recordAccessEvent(db, request, { ...event, status: 'failure', reason: user ? 'not_active' : 'unknown_account' });
          return { message: FORGOT_PASSWORD_MESSAGE };
        }
        if (!(await withinQuietRate(db, `forgot:acct:${user.id}`, RESET_MAILS_PER_HOUR, 3600))) {
          await recordAccessEvent(db, request, { ...event, status: 'blocked', reason: 'throttled' });
          return { message: FORGOT_PASSWORD_MESSAGE };
        }
        const token = await issueOneTimeToken(db, ctx.secrets, { companyId: company.id, userId: user.id }, 'reset');
        const link = `${mailLinkBase(ctx.config, request)}/auth/reset-password?token=${encodeURIComponent(token)}`;
        const mail = passwordResetMail({
          firstName: user.firstName,
          companyName: company.name,
          link,
          validMinutes: TOKEN_LIFETIME_MS.reset / 60_000,
        });
        await ctx.mailer.send({ companyId: company.id, to: user.email, kind: 'password_reset', ...mail });
        await recordAccessEvent(db, request, { ...event, status: 'success' });
        return { message: FORGOT_PASSWORD_MESSAGE };
      });
    },
  );

  api.post(
    '/user/password/token/verify',
    {
      config: { public: true, acrossCompanies: 'the account is found by its mailed token' },
      schema: { summary: 'Check a password reset link', tags: TAGS, body: tokenVerifyBody, response: { 200: resetLinkAnswer } },
    },
    async (request) => {
      const { token } = request.body;
      const holder = await findTokenHolder(db, ctx.secrets, 'reset', token);
      if (!holder || !isActiveAccount(holder.user, holder.company)) throw badRequest(RESET_LINK_INVALID_MESSAGE);
      // The token itself is the grant the console sends back with the new password.
      return {
        message: 'The link is valid: choose a new password',
        data: { email: holder.user.email, clientId: token, passwordPolicy: await passwordPolicyOf(db, holder.company.id) },
      };
    },
  );

  api.post(
    '/user/password/reset',
    {
      config: { public: true, acrossCompanies: 'the account is found by its mailed token' },
      schema: { summary: 'Reset a password with a mailed link', tags: TAGS, body: resetBody, response: { 200: messageAnswer } },
    },
    async (request) => {
      const { email, newPassword, clientId } = request.body;
      const holder = await findTokenHolder(db, ctx.secrets, 'reset', clientId);
      if (!holder || !isActiveAccount(holder.user, holder.company)) throw badRequest(RESET_LINK_INVALID_MESSAGE);
      const { user, company } = holder;
      // The link's company is known: the rest is its work alone.
      return asFoundCompany(company.id, async () => {
        if (user.email !== email) throw badRequest('email: is not the address this reset link was sent to');
        await assertPasswordAllowed(db, company.id, newPassword);
        await assertPasswordChanges(user.passwordHash, newPassword);
        const passwordHash = await hashPassword(newPassword);
        await db.transaction(async (tx) => {
          if (!(await spendToken(tx, holder.tokenId))) throw badRequest(RESET_LINK_INVALID_MESSAGE);
          await storeNewPassword(tx, user, passwordHash);
          await recordAudit(tx, request, {
            companyId: company.id,
            userId: user.id,
            model: 'user',
            operation: 'password_reset',
            recordId: user.id,
          });
          await recordAccessEvent(tx, request, {
            companyId: company.id,
            userId: user.id,
            email,
            event: 'password_reset',
            status: 'success',
          });
        });
        // Whoever proved they own the mailbox may sign in at once, even after earlier failures.
        await clearFailures(db, accountSigninKey(company.hostname, email));
        await mailPasswordChanged(ctx, user, company);
        return { message: 'Your password has been reset. Sign in with your new password.' };
      });
    },
  );

  // ---- Changing one's password -----------------------------------------------------------------

  api.post(
    '/user/password',
    { schema: { summary: 'Change your password', tags: TAGS, body: changeBody, response: { 200: messageAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      refuseWhileImpersonating(auth);
      const { oldPassword, newPassword } = request.body;
      const { user, company } = await loadCaller(db, auth);
      await assertPasswordAllowed(db, company.id, newPassword);
      const limits = [reauthLimit(user.id)];
      const event = { companyId: auth.companyId, userId: user.id, email: user.email, event: 'password_change' as const };
      await refuseWhenBlocked(db, request, limits, event);
      if (!(await verifyPassword(user.passwordHash, oldPassword))) {
        await recordAccessEvent(db, request, { ...event, status: 'failure', reason: 'bad_password' });
        await countFailure(db, limits);
        throw badRequest(CURRENT_PASSWORD_WRONG_MESSAGE);
      }
      if (newPassword === oldPassword) throw badRequest(SAME_PASSWORD_MESSAGE);
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await storeNewPassword(tx, user, passwordHash);
        await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'password_change', recordId: user.id });
        await recordAccessEvent(tx, request, { ...event, status: 'success' });
      });
      await clearFailures(db, limits[0].key);
      await mailPasswordChanged(ctx, user, company);
      return { message: PASSWORD_UPDATED_MESSAGE };
    },
  );
}
