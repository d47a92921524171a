import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { sessionsContract } from '../../../common/contract/sessions';
import { recordAccessEvent, recordAudit } from '../../audit';
import type { AuthContext } from '../../auth/guard';
import { endSession } from '../../auth/session-service';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import type { EntityRepository, EntityScope } from '../../platform/entity-routes';
import { SessionLists, type SessionFilter, type SessionRow, type SessionSort } from '../../sessions/session-lists';

const listsOf = ({ db, request }: EntityScope) => new SessionLists(db, request.server.ctx.config);

/** How sessions are listed: the caller's company's only. They are ended, not deleted (below). */
export const sessionRepository: EntityRepository<SessionRow> = {
  list: (scope, page) => listsOf(scope).list(scope.auth, {}, page.sort as SessionSort, page.offset, page.limit),
  filter: (scope, body, page) => listsOf(scope).list(scope.auth, body as SessionFilter, page.sort as SessionSort, page.offset, page.limit),
  filterProps: (scope) => listsOf(scope).props(scope.auth.companyId),
  cards: async (scope) => ({ cards: await listsOf(scope).cards(scope.auth.companyId) }),
};

/** Whether the user is one of the company's. */
export async function userExists(db: Db, companyId: string, userId: string): Promise<boolean> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return user !== undefined;
}

/** Ends the caller's own session, an impersonation's end when an admin was acting as someone. */
export async function endOwnSession(db: Db, request: FastifyRequest, auth: AuthContext): Promise<void> {
  await db.transaction(async (tx) => {
    await endSession(tx, auth.companyId, auth.sessionId, 'logout');
    await recordAccessEvent(tx, request, {
      companyId: auth.companyId,
      userId: auth.userId,
      email: auth.email,
      event: auth.impersonatorUserId ? 'impersonation_end' : 'logout',
      status: 'success',
      impersonatorUserId: auth.impersonatorUserId,
    });
  });
}

/** Ends another user's open session of the caller's company, with its access event and audit entry; gives the user's email. */
export async function endSessionOf(db: Db, request: FastifyRequest, auth: AuthContext, sessionId: string): Promise<string> {
  const [target] = await db
    .select({ id: sessions.id, userId: sessions.userId, endedAt: sessions.endedAt, email: users.email })
    .from(sessions)
    .innerJoin(users, and(eq(users.companyId, sessions.companyId), eq(users.id, sessions.userId)))
    .where(and(eq(sessions.companyId, auth.companyId), eq(sessions.id, sessionId)));
  if (!target) throw notFound('Session');
  if (target.endedAt) throw badRequest('sessionId: this session has already ended');
  await db.transaction(async (tx) => {
    await endSession(tx, auth.companyId, sessionId, 'ended_by_admin');
    await recordAccessEvent(tx, request, {
      companyId: auth.companyId,
      userId: target.userId,
      email: target.email,
      event: 'session_end',
      status: 'success',
      reason: 'ended_by_admin',
    });
    await recordAudit(tx, request, {
      companyId: auth.companyId,
      model: sessionsContract.audit.model,
      operation: 'end',
      recordId: sessionId,
      changes: { userId: target.userId, email: target.email, endReason: 'ended_by_admin' },
    });
  });
  return target.email;
}
