import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { recordAccessEvent, recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import { refuseWhileImpersonating } from '../auth/impersonation';
import { endSession } from '../auth/session-service';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';
import { notFound } from '../http/errors';
import type { ListAnswer } from '../http/lists';
import { SessionLists, type SessionRow } from './session-lists';

/** More open sessions than anyone has; the list is one page. */
const OWN_SESSIONS_LIMIT = 100;

/** The caller's own signed-in sessions (full, neither ended nor expired), newest first; `current` marks this one. */
export async function ownSessions(db: Db, config: Pick<Config, 'sessionTtlMinutes'>, auth: AuthContext): Promise<ListAnswer<SessionRow>> {
  return new SessionLists(db, config).list(
    auth,
    { user: [auth.userId], status: ['active'] },
    { field: 'createdAt', order: 'DESC' },
    0,
    OWN_SESSIONS_LIMIT,
  );
}

/**
 * Ends one of the caller's own open sessions (another browser, a lost laptop): at once, since
 * every request checks its session row. A session of anyone else is not found, whatever its id.
 */
export async function endOwnSessionById(db: Db, request: FastifyRequest, auth: AuthContext, sessionId: string): Promise<void> {
  refuseWhileImpersonating(auth);
  const [target] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.companyId, auth.companyId),
        eq(sessions.userId, auth.userId),
        eq(sessions.id, sessionId),
        isNull(sessions.endedAt),
        isNull(sessions.impersonatorUserId),
      ),
    );
  if (!target) throw notFound('Session');
  await db.transaction(async (tx) => {
    if (!(await endSession(tx, auth.companyId, sessionId, 'logout'))) throw notFound('Session');
    await recordAccessEvent(tx, request, {
      companyId: auth.companyId,
      userId: auth.userId,
      email: auth.email,
      event: sessionId === auth.sessionId ? 'logout' : 'session_end',
      status: 'success',
    });
    await recordAudit(tx, request, {
      companyId: auth.companyId,
      model: 'session',
      operation: 'end',
      recordId: sessionId,
      changes: { userId: auth.userId, email: auth.email, endReason: 'logout' },
    });
  });
}
