import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../platform/context';
import { recordAccessEvent } from '../audit';
import { forbidden, unauthorized } from '../http/errors';
import { findAccount, type CompanyRow, type UserRow } from './accounts';
import { countFailure, refuseWhenBlocked, type Limit } from './attempts';
import { verifyPassword } from './passwords';
import { companySessionLifetime, openSession, recordLogin, sessionExpiry } from './session-service';
import { sessionUserOf, type SessionUser } from './session-user';
import { clearFailures, SIGNIN_POLICY, type ThrottlePolicy } from './throttle';
import type { SessionStage } from './tokens';
import { asFoundCompany } from '../db/tenant-scope';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email, password or company host name';
export const DEACTIVATED_MESSAGE = 'Your account is deactivated. Contact your administrator.';
export const NOT_ACTIVATED_MESSAGE = 'Your account is not activated yet. Use the link in your invitation email.';

/** One address may try many accounts (an office behind one NAT), so it gets more room than one account. */
export const SIGNIN_ADDRESS_POLICY: ThrottlePolicy = {
  ...SIGNIN_POLICY,
  what: 'failed sign-in attempts from this address',
  freeFailures: 20,
};

export const accountSigninKey = (hostname: string, email: string) => `signin:acct:${hostname}:${email}`;

export function signinLimits(hostname: string, email: string, ip: string): Limit[] {
  return [
    { key: accountSigninKey(hostname, email), policy: SIGNIN_POLICY },
    { key: `signin:ip:${ip}`, policy: SIGNIN_ADDRESS_POLICY },
  ];
}

/** The step a correct password leads to: the code, two-factor enrolment, or straight in. */
export function signinStage(user: UserRow, company: CompanyRow): SessionStage {
  if (user.otpEnabled && user.otpSecretEnc) return 'otp';
  if (company.requireTwoFactor || user.otpRequired) return 'otp_setup';
  return 'full';
}

const STAGE_MESSAGES: Record<SessionStage, string> = {
  full: 'Signed in',
  otp: 'Enter the code from your authenticator app',
  otp_setup: 'Set up two-factor authentication to continue',
};

export interface Credentials {
  email: string;
  password: string;
  companyHostname: string;
}

/**
 * Checks the credentials and opens a session at the stage they lead to. Unknown companies, unknown
 * emails and wrong passwords get one answer and cost the same time; whether an account is
 * deactivated or not yet activated is only told to someone who knows its password.
 */
export async function signIn(
  ctx: AppContext,
  request: FastifyRequest,
  credentials: Credentials,
): Promise<{ message: string; user: SessionUser }> {
  const { db } = ctx;
  const { email, password, companyHostname } = credentials;
  const limits = signinLimits(companyHostname, email, request.ip);
  const { company, user } = await findAccount(db, companyHostname, email);
  // From here on the company is known (or known not to exist): the rest is its work alone.
  return asFoundCompany(company?.id, async () => {
    const event = { companyId: company?.id ?? null, userId: user?.id ?? null, email, event: 'signin' as const };
    await refuseWhenBlocked(db, request, limits, event);

    const passwordMatches = await verifyPassword(user?.passwordHash ?? null, password);
    if (!passwordMatches || !user || !company) {
      const reason = !company ? 'unknown_company' : !user ? 'unknown_account' : 'bad_password';
      await recordAccessEvent(db, request, { ...event, status: 'failure', reason });
      await countFailure(db, limits);
      throw unauthorized(INVALID_CREDENTIALS_MESSAGE);
    }
    if (!company.isActive || !user.isActive || user.status === 'inactive') {
      await recordAccessEvent(db, request, { ...event, status: 'failure', reason: 'deactivated' });
      throw forbidden(DEACTIVATED_MESSAGE);
    }
    if (user.status !== 'active') {
      await recordAccessEvent(db, request, { ...event, status: 'failure', reason: 'not_activated' });
      throw forbidden(NOT_ACTIVATED_MESSAGE);
    }

    await clearFailures(db, limits[0].key);
    const stage = signinStage(user, company);
    const expiresAt = sessionExpiry(stage === 'full' ? await companySessionLifetime(db, ctx.config, company.id) : ctx.config, stage);
    const session = await db.transaction(async (tx) => {
      const opened = await openSession(tx, request, { companyId: company.id, userId: user.id, stage, expiresAt });
      if (stage === 'full') await recordLogin(tx, company.id, user.id);
      await recordAccessEvent(tx, request, { ...event, status: 'success', reason: stage === 'full' ? null : `${stage}_required` });
      return opened;
    });
    return { message: STAGE_MESSAGES[stage], user: await sessionUserOf(ctx, session) };
  });
}
