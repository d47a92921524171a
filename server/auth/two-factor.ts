import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { disableOtpBody } from '../../common/schemas/security';
import type { OtpStatus } from '../../common/contract/security';
import type { AppContext } from '../platform/context';
import { recordAccessEvent, recordAudit } from '../audit';
import { users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { escapeHtml } from '../mail/templates';
import { loadCaller, type UserRow } from './accounts';
import { countFailure, reauthLimit, refuseWhenBlocked } from './attempts';
import type { AuthContext } from './guard';
import { refuseWhileImpersonating } from './impersonation';
import { verifyPassword } from './passwords';
import { deleteRecoveryCodes, recoveryCodesLeft, replaceRecoveryCodes, spendRecoveryCode } from './recovery-codes';
import { acceptUserCode } from './second-factor';
import { endAllSessionsOfUser } from './session-service';
import { clearFailures } from './throttle';

export const PASSWORD_NOT_CORRECT_MESSAGE = 'password: is not correct';
export const TWO_FACTOR_NOT_ON_MESSAGE = 'Two-factor authentication is not on';

/** What the profile's Security section shows: on or off, whether it may be turned off, and the recovery codes left. */
export async function otpStatusOf(ctx: AppContext, auth: AuthContext): Promise<OtpStatus> {
  const { user, company } = await loadCaller(ctx.db, auth);
  const on = user.otpEnabled && user.otpSecretEnc !== null;
  return {
    otpEnabled: on,
    otpRequired: company.requireTwoFactor || user.otpRequired,
    recoveryCodesLeft: on ? await recoveryCodesLeft(ctx.db, auth) : 0,
  };
}

/**
 * Re-typing one's password inside a session, throttled like sign-in: a wrong one is a 400, an
 * access event of `event` and a counted failure; nothing else happens.
 */
async function checkPassword(
  ctx: AppContext,
  request: FastifyRequest,
  user: UserRow,
  password: string,
  event: 'otp_setup' | 'otp',
): Promise<void> {
  const limits = [reauthLimit(user.id)];
  const access = { companyId: user.companyId, userId: user.id, email: user.email, event };
  await refuseWhenBlocked(ctx.db, request, limits, access);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordAccessEvent(ctx.db, request, { ...access, status: 'failure', reason: 'bad_password' });
    await countFailure(ctx.db, limits);
    throw badRequest(PASSWORD_NOT_CORRECT_MESSAGE);
  }
  await clearFailures(ctx.db, limits[0].key);
}

/**
 * Turns the caller's two-factor off: the password, then a current code from the app or one of the
 * recovery codes. The recovery codes go with it. Refused while the company or an admin requires it.
 */
export async function disableTwoFactor(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  body: z.output<typeof disableOtpBody>,
): Promise<void> {
  refuseWhileImpersonating(auth);
  const { db } = ctx;
  const { user, company } = await loadCaller(db, auth);
  if (company.requireTwoFactor) throw badRequest('Your company requires two-factor authentication, so it cannot be turned off');
  if (user.otpRequired) {
    throw badRequest('Your administrator requires two-factor authentication for your account, so it cannot be turned off');
  }
  if (!user.otpEnabled || !user.otpSecretEnc) throw badRequest(TWO_FACTOR_NOT_ON_MESSAGE);
  await checkPassword(ctx, request, user, body.password, 'otp_setup');
  const owner = { companyId: auth.companyId, userId: user.id, email: user.email };
  if (body.recoveryCode !== undefined) {
    await spendRecoveryCode(ctx, request, { ...owner, code: body.recoveryCode, event: 'otp_setup' });
  } else {
    await acceptUserCode(ctx, request, { ...owner, secretEnc: user.otpSecretEnc, code: body.otp ?? '', event: 'otp_setup' });
  }
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ otpEnabled: false, otpSecretEnc: null, otpPendingSecretEnc: null, updatedAt: new Date() })
      .where(and(eq(users.companyId, auth.companyId), eq(users.id, user.id)));
    await deleteRecoveryCodes(tx, auth);
    await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'disable_two_factor', recordId: user.id });
    await recordAccessEvent(tx, request, { ...owner, event: 'otp_setup', status: 'success', reason: 'disabled' });
  });
}

/** Ten new recovery codes for the caller, after the password: every earlier code stops working. */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  request: FastifyRequest,
  auth: AuthContext,
  password: string,
): Promise<string[]> {
  refuseWhileImpersonating(auth);
  const { user } = await loadCaller(ctx.db, auth);
  if (!user.otpEnabled || !user.otpSecretEnc)
    throw badRequest('Turn two-factor authentication on first: recovery codes stand in for its codes');
  await checkPassword(ctx, request, user, password, 'otp_setup');
  return ctx.db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, ctx.secrets, auth);
    await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'regenerate_recovery_codes', recordId: user.id });
    return codes;
  });
}

/**
 * An admin's reset of another user's two-factor (a lost phone): the secret and the recovery codes
 * go, every session of the user ends, and the user is told by mail. Their next sign-in goes
 * through enrolment when the company or an admin requires two-factor, else needs the password only.
 */
export async function resetTwoFactorOf(ctx: AppContext, request: FastifyRequest, admin: AuthContext, userId: string): Promise<UserRow> {
  const { db } = ctx;
  if (userId === admin.userId) throw badRequest('userId: turn your own two-factor off from the Security section of your profile');
  const [target] = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, admin.companyId), eq(users.id, userId)));
  if (!target) throw notFound('User');
  if (!target.otpEnabled && !target.otpPendingSecretEnc) throw badRequest(`Two-factor authentication is not on for ${target.email}`);
  const { company } = await loadCaller(db, admin);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ otpEnabled: false, otpSecretEnc: null, otpPendingSecretEnc: null, updatedAt: new Date() })
      .where(and(eq(users.companyId, admin.companyId), eq(users.id, target.id)));
    await deleteRecoveryCodes(tx, { companyId: admin.companyId, userId: target.id });
    await endAllSessionsOfUser(tx, admin.companyId, target.id, 'ended_by_admin');
    await recordAudit(tx, request, {
      companyId: admin.companyId,
      model: 'user',
      operation: 'reset_two_factor',
      recordId: target.id,
      changes: { email: target.email, otpEnabled: false },
    });
    await recordAccessEvent(tx, request, {
      companyId: admin.companyId,
      userId: target.id,
      email: target.email,
      event: 'otp_setup',
      status: 'success',
      reason: 'reset_by_admin',
      impersonatorUserId: null,
    });
  });
  const mail = twoFactorResetMail({
    firstName: target.firstName,
    companyName: company.name,
    adminEmail: admin.email,
    setupRequired: company.requireTwoFactor || target.otpRequired,
  });
  await ctx.mailer.send({ companyId: admin.companyId, to: target.email, kind: 'two_factor_reset', ...mail });
  return target;
}

/** The mail that tells a user an admin reset their two-factor. */
export function twoFactorResetMail(input: { firstName: string; companyName: string; adminEmail: string; setupRequired: boolean }) {
  const product = 'DataOps Console';
  const lines = [
    input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    `An administrator of ${input.companyName} (${input.adminEmail}) has reset the two-factor authentication of your ${product} account.`,
    'Your authenticator app and your recovery codes no longer work for this account, and every signed-in session of it has been ended.',
    input.setupRequired
      ? 'The next time you sign in, you will be asked to set up two-factor authentication again.'
      : 'You can sign in with your password alone, and turn two-factor authentication on again from the Security section of your profile.',
    'If you did not ask for this, tell your administrator at once.',
  ];
  return {
    subject: `Your ${product} two-factor authentication was reset`,
    text: [...lines.flatMap((line) => [line, '']), `— ${product}`].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">',
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p style="color:#666">— ${product}</p>`,
      '</body></html>',
    ].join('\n'),
  };
}
