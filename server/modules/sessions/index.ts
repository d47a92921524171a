import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageAnswer } from '../../../common/contract/answers';
import { sessionUserAnswer } from '../../../common/contract/answers/auth';
import { sessionCardsAnswer, sessionFilterPropsAnswer, sessionListAnswer, sessionsContract } from '../../../common/contract/sessions';
import { requireAuth } from '../../auth/guard';
import { startImpersonation } from '../../auth/impersonation';
import { isAllowed } from '../../auth/policies';
import { forbidden, notFound } from '../../http/errors';
import { limitParam, offsetParam, uuidParam } from '../../http/schemas';
import { sent } from '../../platform/answers';
import type { EntityModule } from '../../platform/entity-routes';
import { DEFAULT_SORT, SessionLists, sessionFilterBody, type SessionRow } from '../../sessions/session-lists';
import { endOwnSession, endSessionOf, sessionRepository, userExists } from './repository';

const TAGS = ['Sessions'];
const { resource } = sessionsContract.policy;
// The console sends no body, `{}`, or `{ sessionId }` (an admin ending someone's session).
const logoutBody = z.object({ sessionId: uuidParam.optional() }).nullish();
const userSessionsQuery = z.object({ offset: offsetParam.default(0), limit: limitParam.default(100) });
const impersonateBody = z.object({ userId: uuidParam });

/**
 * Sessions: who is signed in, from where, since when. Served from their contract under the
 * sessions policy: the list `/session/{offset}/{limit}`, the filter
 * `/session/filter/{offset}/{limit}/{order}/{field}` (also answered without its sort), its choices
 * `/session/filter/props` and the cards `/session/cards`. Served here, as their access is not the
 * policy's alone: ending a session (the contract's delete), a user's sessions, and impersonation.
 */
export const sessionsModule: EntityModule<SessionRow> = {
  contract: sessionsContract,
  repository: sessionRepository,
  bodies: { filter: sessionFilterBody },
  unsortedFilter: true,
  own: ['delete'],
  ownRelated: ['user'],
  calls: {
    filterProps: { summary: 'Choices of the session filters', message: 'Session filters', data: sessionFilterPropsAnswer.shape.data },
    cards: { summary: 'Counts of sessions', message: 'Session cards', data: sessionCardsAnswer.shape.data },
  },
  routes(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const { db } = api.ctx;

    // One's own session may be ended at every stage, so a half-finished sign-in can be abandoned;
    // another's needs a full session and the sessions/delete policy.
    api.put(
      '/session/logout',
      {
        config: { stages: ['full', 'otp', 'otp_setup'] },
        schema: { summary: "Sign out, or end another user's session", tags: TAGS, body: logoutBody, response: { 200: messageAnswer } },
      },
      async (request) => {
        const auth = requireAuth(request);
        const sessionId = request.body?.sessionId;
        if (!sessionId || sessionId === auth.sessionId) {
          await endOwnSession(db, request, auth);
          return { message: 'Signed out' };
        }
        if (auth.stage !== 'full' || !(await isAllowed(db, auth, resource, 'delete'))) throw forbidden();
        return { message: `The session of ${await endSessionOf(db, request, auth, sessionId)} has been ended` };
      },
    );

    // One's own sessions are always one's to see; another user's need the sessions/read policy.
    const lists = new SessionLists(db, api.ctx.config);
    api.get(
      '/session/user/:id',
      {
        schema: {
          summary: "A user's sessions",
          tags: TAGS,
          params: z.object({ id: uuidParam }),
          querystring: userSessionsQuery,
          response: { 200: sent(sessionListAnswer) },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const { id } = request.params;
        if (!(await userExists(db, auth.companyId, id))) throw notFound('User');
        if (id !== auth.userId && !(await isAllowed(db, auth, resource, 'read'))) throw forbidden();
        const { offset, limit } = request.query;
        return { message: 'Sessions', data: await lists.list(auth, { user: [id] }, DEFAULT_SORT, offset, limit) };
      },
    );

    api.post(
      '/user/impersonate',
      {
        config: { adminOnly: true },
        schema: { summary: 'Act as another user of the company', tags: TAGS, body: impersonateBody, response: { 200: sessionUserAnswer } },
      },
      async (request) => {
        const user = await startImpersonation(api.ctx, request, requireAuth(request), request.body.userId);
        return { message: `You are now acting as ${user.email}`, user };
      },
    );
  },
};
