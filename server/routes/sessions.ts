import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordAccessEvent, recordAudit } from '../audit';
import { sessions, users } from '../db/schema';
import { requireAuth, type AuthContext } from '../auth/guard';
import { startImpersonation } from '../auth/impersonation';
import { endSession } from '../auth/session-service';
import { badRequest, forbidden, notFound } from '../http/errors';
import { uuidParam } from '../http/schemas';

// The console sends no body, `{}`, or `{ sessionId }` (an admin ending someone's session).
const logoutBody = z.object({ sessionId: uuidParam.optional() }).nullish();
const impersonateBody = z.object({ userId: uuidParam });

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
    { config: { stages: ['full', 'otp', 'otp_setup'] }, schema: { body: logoutBody } },
    async (request) => {
      const auth = requireAuth(request);
      const sessionId = request.body?.sessionId;
      if (!sessionId || sessionId === auth.sessionId) return logOut(auth, request);

      if (!auth.isAdmin || auth.stage !== 'full') throw forbidden();
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

  api.post('/user/impersonate', { config: { adminOnly: true }, schema: { body: impersonateBody } }, async (request) => {
    const user = await startImpersonation(ctx, request, requireAuth(request), request.body.userId);
    return { message: `You are now acting as ${user.email}`, user };
  });
}
