import { and, eq, isNull, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { unauthorized } from '../http/errors';
import type { SessionStage } from './tokens';
import { sessionLifetimeOf } from '../settings/store';

export type SessionRow = typeof sessions.$inferSelect;
export type SessionEndReason = 'logout' | 'ended_by_admin' | 'password_changed' | 'user_deactivated' | 'replaced';

/** A half-finished sign-in (code or enrolment still missing) lasts long enough to type a code, and no longer. */
export const PARTIAL_SESSION_MINUTES = 10;

/** When a session opened now ends: a full one after the company's lifetime (`sessionTtlMinutes`), a half-finished one after 10 minutes. */
export function sessionExpiry(lifetime: Pick<Config, 'sessionTtlMinutes'>, stage: SessionStage, now = Date.now()): Date {
  const minutes = stage === 'full' ? lifetime.sessionTtlMinutes : PARTIAL_SESSION_MINUTES;
  return new Date(now + minutes * 60_000);
}

/** The lifetime of the company's full sessions: its service setting, else SESSION_TTL_MINUTES. */
export async function companySessionLifetime(
  db: Db,
  config: Pick<Config, 'sessionTtlMinutes'>,
  companyId: string,
): Promise<Pick<Config, 'sessionTtlMinutes'>> {
  return { sessionTtlMinutes: await sessionLifetimeOf(db, config, companyId) };
}

export interface NewSession {
  companyId: string;
  userId: string;
  stage: SessionStage;
  expiresAt: Date;
  impersonatorUserId?: string | null;
  impersonatorSessionId?: string | null;
}

export async function openSession(db: Db, request: FastifyRequest, input: NewSession): Promise<SessionRow> {
  const userAgent = request.headers['user-agent'];
  const [row] = await db
    .insert(sessions)
    .values({
      ...input,
      ip: request.ip,
      userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : null,
    })
    .returning();
  return row;
}

// An ended session is also flagged deleted: the session list sorts on isDeleted (spec section 9).
const ended = (reason: SessionEndReason) => ({ endedAt: new Date(), endReason: reason, isDeleted: true });

/** Ends one open session; false when it was not open (already ended, or not of this company). */
export async function endSession(db: Db, companyId: string, sessionId: string, reason: SessionEndReason): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set(ended(reason))
    .where(and(eq(sessions.companyId, companyId), eq(sessions.id, sessionId), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/**
 * Ends every open session of the user, and every impersonation session the user opened as an
 * admin: a password change or a deactivation must not leave a way in through either.
 */
export async function endAllSessionsOfUser(db: Db, companyId: string, userId: string, reason: SessionEndReason): Promise<number> {
  const rows = await db
    .update(sessions)
    .set(ended(reason))
    .where(
      and(
        eq(sessions.companyId, companyId),
        isNull(sessions.endedAt),
        or(eq(sessions.userId, userId), eq(sessions.impersonatorUserId, userId)),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}

/**
 * The last step of a sign-in: the half-finished session (code or enrolment) is replaced by a full
 * one, and the sign-in time is recorded. Call it inside a transaction.
 */
export async function completeSignIn(
  db: Db,
  request: FastifyRequest,
  config: Pick<Config, 'sessionTtlMinutes'>,
  partial: { sessionId: string; companyId: string; userId: string },
): Promise<SessionRow> {
  // A second request racing with the same half-finished session finds it ended and gets nothing.
  if (!(await endSession(db, partial.companyId, partial.sessionId, 'replaced'))) throw unauthorized();
  await recordLogin(db, partial.companyId, partial.userId);
  return openSession(db, request, {
    companyId: partial.companyId,
    userId: partial.userId,
    stage: 'full',
    expiresAt: sessionExpiry(await companySessionLifetime(db, config, partial.companyId), 'full'),
  });
}

export async function recordLogin(db: Db, companyId: string, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ lastLoginAt: new Date() })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
}
