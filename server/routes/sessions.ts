import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { sent } from '../platform/answers';
import { messageAnswer } from '../../common/contract/answers';
import { sessionUserAnswer } from '../../common/contract/answers/auth';
import { sessionCardsAnswer, sessionFilterPropsAnswer, sessionListAnswer } from '../../common/contract/sessions';
import { recordAccessEvent, recordAudit } from '../audit';
import { sessions, users } from '../db/schema';
import { requireAuth, type AuthContext } from '../auth/guard';
import { startImpersonation } from '../auth/impersonation';
import { isAllowed } from '../auth/policies';
import { endSession } from '../auth/session-service';
import { badRequest, forbidden, notFound } from '../http/errors';
import { pageParams } from '../http/lists';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import { DEFAULT_SORT, SessionLists, sessionFilterBody, sessionSortParams } from '../sessions/session-lists';

const TAGS = ['Sessions'];
// The console sends no body, `{}`, or `{ sessionId }` (an admin ending someone's session).
const logoutBody = z.object({ sessionId: uuidParam.optional() }).nullish();
const impersonateBody = z.object({ userId: uuidParam });
const userSessionsQuery = z.object({ offset: offsetParam.default(0), limit: limitParam.default(100) });
const readSessions = { policy: ['sessions', 'read'] } as const;
const sessionList = sent(sessionListAnswer);

export async function sessionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db } = ctx;

  /** Ends the caller's own session. Open to every stage, so a half-finished sign-in can be abandoned. */
  async function logOut(auth: AuthContext, request: FastifyRequest) {
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
    return { message: 'Signed out' };
  }

  api.put(
    '/session/logout',
    {
      config: { stages: ['full', 'otp', 'otp_setup'] },
      schema: {
        summary: "Sign out, or end another user's session",
        tags: TAGS,
        body: logoutBody,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const sessionId = request.body?.sessionId;
      if (!sessionId || sessionId === auth.sessionId) return logOut(auth, request);

      if (auth.stage !== 'full' || !(await isAllowed(db, auth, 'sessions', 'delete'))) throw forbidden();
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
          model: 'session',
          operation: 'end',
          recordId: sessionId,
          changes: { userId: target.userId, email: target.email, endReason: 'ended_by_admin' },
        });
      });
      return { message: `The session of ${target.email} has been ended` };
    },
  );

  // ---- Lists -----------------------------------------------------------------------------------

  const lists = new SessionLists(db, ctx.config);

  api.get(
    '/session/:offset/:limit',
    {
      config: readSessions,
      schema: { summary: 'List the sessions', tags: TAGS, params: pageParams, response: { 200: sessionList } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Sessions', data: await lists.list(auth, {}, DEFAULT_SORT, offset, limit) };
    },
  );

  api.post(
    '/session/filter/:offset/:limit/:order/:field',
    {
      config: readSessions,
      schema: {
        summary: 'Filter and sort the sessions',
        tags: TAGS,
        params: pageParams.extend(sessionSortParams.shape),
        body: sessionFilterBody,
        response: { 200: sessionList },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { offset, limit, order, field } = request.params;
      return { message: 'Sessions', data: await lists.list(auth, request.body, { order, field }, offset, limit) };
    },
  );

  api.post(
    '/session/filter/:offset/:limit',
    {
      config: readSessions,
      schema: {
        summary: 'Filter the sessions',
        tags: TAGS,
        params: pageParams,
        body: sessionFilterBody,
        response: { 200: sessionList },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Sessions', data: await lists.list(auth, request.body, DEFAULT_SORT, offset, limit) };
    },
  );

  api.get(
    '/session/filter/props',
    {
      config: readSessions,
      schema: { summary: 'Choices of the session filters', tags: TAGS, response: { 200: sessionFilterPropsAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Session filters', data: await lists.props(companyId) };
    },
  );

  api.get(
    '/session/cards',
    { config: readSessions, schema: { summary: 'Counts of sessions', tags: TAGS, response: { 200: sessionCardsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Session cards', data: { cards: await lists.cards(companyId) } };
    },
  );

  // One's own sessions are always one's to see; another user's need the sessions/read policy.
  api.get(
    '/session/user/:id',
    {
      schema: {
        summary: "A user's sessions",
        tags: TAGS,
        params: z.object({ id: uuidParam }),
        querystring: userSessionsQuery,
        response: { 200: sessionList },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, id)));
      if (!user) throw notFound('User');
      if (id !== auth.userId && !(await isAllowed(db, auth, 'sessions', 'read'))) throw forbidden();
      const { offset, limit } = request.query;
      return { message: 'Sessions', data: await lists.list(auth, { user: [id] }, DEFAULT_SORT, offset, limit) };
    },
  );

  // ---- Impersonation -----------------------------------------------------------------------------

  api.post(
    '/user/impersonate',
    {
      config: { adminOnly: true },
      schema: {
        summary: 'Act as another user of the company',
        tags: TAGS,
        body: impersonateBody,
        response: { 200: sessionUserAnswer },
      },
    },
    async (request) => {
      const user = await startImpersonation(ctx, request, requireAuth(request), request.body.userId);
      return { message: `You are now acting as ${user.email}`, user };
    },
  );
}
