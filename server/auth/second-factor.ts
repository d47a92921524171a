import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { otpCode } from '../../common/schemas/security';
import type { AppContext } from '../platform/context';
import { recordAccessEvent } from '../audit';
import { users } from '../db/schema';
import { badRequest } from '../http/errors';
import { countFailure, refuseWhenBlocked, type Limit } from './attempts';
import { clearFailures, OTP_POLICY } from './throttle';
import { matchTotp } from './totp';

export const CODE_NOT_VALID_MESSAGE = 'The code is not valid';
export const CODE_ALREADY_USED_MESSAGE = 'This code has already been used';

/** The 6-digit code field (common/schemas/security.ts). */
export const otpCodeField = otpCode;

export interface CodeCheck {
  companyId: string;
  userId: string;
  email: string;
  /** The encrypted secret to check against: the enrolled one, or the one being enrolled. */
  secretEnc: string;
  code: string;
  /** 'otp' when signing in with a code, 'otp_setup' when confirming enrolment. */
  event: 'otp' | 'otp_setup';
}

export const otpLimit = (userId: string): Limit => ({ key: `otp:${userId}`, policy: OTP_POLICY });

/**
 * Accepts a code or throws: 429 while the user's code attempts are blocked, 400 for a wrong code,
 * 400 for a code of a step already used. The step is claimed with one conditional update, so two
 * requests racing with the same code cannot both pass. Every outcome is an access event.
 */
export async function acceptUserCode(ctx: AppContext, request: FastifyRequest, check: CodeCheck): Promise<void> {
  const { db } = ctx;
  const limits = [otpLimit(check.userId)];
  const event = { companyId: check.companyId, userId: check.userId, email: check.email, event: check.event };
  await refuseWhenBlocked(db, request, limits, event);

  const fail = async (reason: 'bad_code' | 'replayed_code', message: string): Promise<never> => {
    await recordAccessEvent(db, request, { ...event, status: 'failure', reason });
    await countFailure(db, limits);
    throw badRequest(message);
  };

  const step = await matchTotp(ctx.secrets.decrypt(check.secretEnc), check.code);
  if (step === null) return fail('bad_code', CODE_NOT_VALID_MESSAGE);
  const claimed = await db
    .update(users)
    .set({ otpLastStep: step })
    .where(
      and(eq(users.companyId, check.companyId), eq(users.id, check.userId), or(isNull(users.otpLastStep), lt(users.otpLastStep, step))),
    )
    .returning({ id: users.id });
  if (claimed.length === 0) return fail('replayed_code', CODE_ALREADY_USED_MESSAGE);

  await clearFailures(db, limits[0].key);
  await recordAccessEvent(db, request, { ...event, status: 'success' });
}
