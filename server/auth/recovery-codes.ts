import crypto from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { normaliseRecoveryCode, RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from '../../common/schemas/security';
import type { AppContext } from '../platform/context';
import { recordAccessEvent } from '../audit';
import type { Db } from '../db/client';
import { recoveryCodes } from '../db/schema';
import { badRequest } from '../http/errors';
import { countFailure, refuseWhenBlocked } from './attempts';
import type { Secrets } from './secrets';
import { otpLimit } from './second-factor';
import { clearFailures } from './throttle';

/** How many codes a user is given at a time. */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_NOT_VALID_MESSAGE = 'The recovery code is not valid or has already been used';

const ALPHABET = RECOVERY_CODE_ALPHABET;

/** One new code, shown as two groups of five: "abcde-fghjk". */
function newCode(): string {
  let code = '';
  // Rejection sampling keeps every character equally likely.
  while (code.length < RECOVERY_CODE_LENGTH) {
    const byte = crypto.randomBytes(1)[0];
    if (byte < 256 - (256 % ALPHABET.length)) code += ALPHABET[byte % ALPHABET.length];
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** The stored form: a keyed hash bound to the user, so a code of one account is nothing in another. */
function codeHash(secrets: Secrets, userId: string, code: string): string {
  return secrets.hashToken(`recovery:${userId}:${normaliseRecoveryCode(code)}`);
}

export interface CodeOwner {
  companyId: string;
  userId: string;
}

/** Replaces every recovery code of the user with ten new ones, and gives them (the only time they are seen). Call in a transaction. */
export async function replaceRecoveryCodes(db: Db, secrets: Secrets, owner: CodeOwner): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await deleteRecoveryCodes(db, owner);
  await db.insert(recoveryCodes).values(codes.map((code) => ({ ...owner, codeHash: codeHash(secrets, owner.userId, code) })));
  return codes;
}

export async function deleteRecoveryCodes(db: Db, owner: CodeOwner): Promise<void> {
  await db.delete(recoveryCodes).where(and(eq(recoveryCodes.companyId, owner.companyId), eq(recoveryCodes.userId, owner.userId)));
}

/** How many of the user's codes are still unused. */
export async function recoveryCodesLeft(db: Db, owner: CodeOwner): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.companyId, owner.companyId), eq(recoveryCodes.userId, owner.userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export interface RecoveryCheck extends CodeOwner {
  email: string;
  code: string;
  event: 'otp' | 'otp_setup';
}

/**
 * Spends one recovery code or throws 400. The code is marked used by one conditional update, so
 * two requests racing with the same code cannot both pass. Wrong codes count against the same
 * limit as wrong authenticator codes; every outcome is an access event.
 */
export async function spendRecoveryCode(ctx: AppContext, request: FastifyRequest, check: RecoveryCheck): Promise<void> {
  const { db } = ctx;
  const limits = [otpLimit(check.userId)];
  const event = { companyId: check.companyId, userId: check.userId, email: check.email, event: check.event };
  await refuseWhenBlocked(db, request, limits, event);
  const spent = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.companyId, check.companyId),
        eq(recoveryCodes.userId, check.userId),
        eq(recoveryCodes.codeHash, codeHash(ctx.secrets, check.userId, check.code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ userId: recoveryCodes.userId });
  if (spent.length === 0) {
    await recordAccessEvent(db, request, { ...event, status: 'failure', reason: 'bad_code' });
    await countFailure(db, limits);
    throw badRequest(RECOVERY_CODE_NOT_VALID_MESSAGE);
  }
  await clearFailures(db, limits[0].key);
  await recordAccessEvent(db, request, { ...event, status: 'success', reason: 'recovery_code' });
}
