import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { recordAccessEvent, type AccessEvent } from '../audit';
import { HttpError } from '../http/errors';
import { assertNotBlocked, consumeRate, recordFailure, SIGNIN_POLICY, type ThrottlePolicy } from './throttle';

/** A throttle key with the policy that governs it. */
export interface Limit {
  key: string;
  policy: ThrottlePolicy;
}

/**
 * Answers 429 when any of the keys is blocked, before any secret is checked: a blocked caller
 * learns nothing, not even whether the password was right. The refusal is an access event too.
 */
export async function refuseWhenBlocked(
  db: Db,
  request: FastifyRequest,
  limits: Limit[],
  event: Omit<AccessEvent, 'status' | 'reason'>,
): Promise<void> {
  try {
    for (const limit of limits) await assertNotBlocked(db, limit.key, limit.policy);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 429) {
      await recordAccessEvent(db, request, { ...event, status: 'blocked', reason: 'throttled' });
    }
    throw err;
  }
}

/**
 * Counts one failure against every key. When that failure is the one that starts a block, the
 * answer is the 429 itself, so the caller hears at once when to try again.
 */
export async function countFailure(db: Db, limits: Limit[]): Promise<void> {
  for (const limit of limits) await recordFailure(db, limit.key, limit.policy);
  for (const limit of limits) await assertNotBlocked(db, limit.key, limit.policy);
}

/**
 * A silent rate limit: false once the key has been used `limit` times in the window. For flows
 * that must answer the same whatever happens (a mail is simply not sent again), where a 429
 * would tell the caller something.
 */
export async function withinQuietRate(db: Db, key: string, limit: number, windowSeconds: number): Promise<boolean> {
  try {
    await consumeRate(db, key, limit, windowSeconds, 'requests');
    return true;
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 429) return false;
    throw err;
  }
}

/** Re-typing one's password inside a session (password change, turning two-factor off) is throttled like sign-in. */
export const reauthLimit = (userId: string): Limit => ({ key: `reauth:${userId}`, policy: SIGNIN_POLICY });
