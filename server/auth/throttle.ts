import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { throttles } from '../db/schema';
import { tooManyRequests } from '../http/errors';

/**
 * Failure counters kept in the database (so that several server instances share them). After
 * `freeFailures` failures inside `windowSeconds`, each further failure blocks the key for a delay
 * that doubles, from `baseBlockSeconds` up to `maxBlockSeconds`.
 */
export interface ThrottlePolicy {
  /** What is being slowed, for the message: "sign-in attempts". */
  what: string;
  freeFailures: number;
  windowSeconds: number;
  baseBlockSeconds: number;
  maxBlockSeconds: number;
}

export const SIGNIN_POLICY: ThrottlePolicy = {
  what: 'failed sign-in attempts',
  freeFailures: 5,
  windowSeconds: 15 * 60,
  baseBlockSeconds: 30,
  maxBlockSeconds: 15 * 60,
};

export const OTP_POLICY: ThrottlePolicy = {
  what: 'failed codes',
  freeFailures: 5,
  windowSeconds: 15 * 60,
  baseBlockSeconds: 30,
  maxBlockSeconds: 15 * 60,
};

export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Throws 429 when the key is blocked now. */
export async function assertNotBlocked(db: Db, key: string, policy: ThrottlePolicy): Promise<void> {
  const [row] = await db.select({ blockedUntil: throttles.blockedUntil }).from(throttles).where(eq(throttles.key, key));
  const until = row?.blockedUntil?.getTime() ?? 0;
  const now = Date.now();
  if (until > now) {
    const seconds = Math.ceil((until - now) / 1000);
    throw tooManyRequests(`Too many ${policy.what}. Try again in ${describeWait(seconds)}.`, seconds);
  }
}

/** Counts one failure against the key; returns the number of failures in the current window. */
export async function recordFailure(db: Db, key: string, policy: ThrottlePolicy): Promise<number> {
  const row = await countInWindow(db, key, policy.windowSeconds);
  const over = row.failures - policy.freeFailures;
  if (over > 0) {
    const seconds = Math.min(policy.maxBlockSeconds, policy.baseBlockSeconds * 2 ** Math.min(over - 1, 20));
    await db
      .update(throttles)
      .set({ blockedUntil: new Date(Date.now() + seconds * 1000) })
      .where(eq(throttles.key, key));
  }
  return row.failures;
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(throttles).where(eq(throttles.key, key));
}

/**
 * A plain rate limit: at most `limit` calls per `windowSeconds` for the key (every call counts,
 * not only failures). Throws 429 past the limit.
 */
export async function consumeRate(db: Db, key: string, limit: number, windowSeconds: number, what: string): Promise<void> {
  const row = await countInWindow(db, key, windowSeconds);
  if (row.failures > limit) {
    const seconds = Math.max(1, Math.ceil((row.windowStartedAt.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
    throw tooManyRequests(`Too many ${what}. Try again in ${describeWait(seconds)}.`, seconds);
  }
}

/** Adds one to the key's counter, starting a new window when the last one has passed. */
async function countInWindow(db: Db, key: string, windowSeconds: number) {
  const expired = sql`${throttles.windowStartedAt} < now() - ${`${windowSeconds} seconds`}::interval`;
  const [row] = await db
    .insert(throttles)
    .values({ key, failures: 1, windowStartedAt: new Date() })
    .onConflictDoUpdate({
      target: throttles.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${throttles.failures} + 1 end`,
        windowStartedAt: sql`case when ${expired} then now() else ${throttles.windowStartedAt} end`,
      },
    })
    .returning({ failures: throttles.failures, windowStartedAt: throttles.windowStartedAt });
  return row;
}
