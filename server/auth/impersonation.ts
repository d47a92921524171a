import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../platform/context';
import { recordAccessEvent, recordAudit } from '../audit';
import { companies, sessions, users } from '../db/schema';
import { badRequest, forbidden, notFound } from '../http/errors';
import { isActiveAccount } from './accounts';
import type { AuthContext } from './guard';
import { companySessionLifetime, openSession, sessionExpiry } from './session-service';
import { sessionUserOf, type SessionUser } from './session-user';

export const NESTED_IMPERSONATION_MESSAGE = 'End the current impersonation first';

/**
 * Some things only the account's owner may do (change the password, turn two-factor on or off):
 * an admin impersonating them is refused.
 */
export function refuseWhileImpersonating(auth: AuthContext): void {
  if (auth.impersonatorUserId) throw forbidden('This is not allowed while impersonating another user');
}

/**
 * Opens a full session as another user of the admin's company. The target's two-factor step is
 * skipped (the admin is signed in already); the session names the admin and the admin's session,
 * and never outlives the latter.
 */
export async function startImpersonation(
  ctx: AppContext,
  request: FastifyRequest,
  admin: AuthContext,
  targetUserId: string,
): Promise<SessionUser> {
  const { db } = ctx;
  if (admin.impersonatorUserId) throw badRequest(NESTED_IMPERSONATION_MESSAGE);
  if (targetUserId === admin.userId) throw badRequest('userId: you cannot impersonate yourself');
  const [target] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, admin.companyId), eq(users.id, targetUserId)));
  if (!target) throw notFound('User');
  if (target.user.status === 'invited') throw badRequest('userId: this user has not activated the account yet');
  if (!isActiveAccount(target.user, target.company)) throw badRequest('userId: this user is deactivated');

  const [adminSession] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.companyId, admin.companyId), eq(sessions.id, admin.sessionId)));
  const fullExpiry = sessionExpiry(await companySessionLifetime(db, ctx.config, admin.companyId), 'full');
  const expiresAt = adminSession && adminSession.expiresAt < fullExpiry ? adminSession.expiresAt : fullExpiry;

  const session = await db.transaction(async (tx) => {
    const opened = await openSession(tx, request, {
      companyId: admin.companyId,
      userId: target.user.id,
      stage: 'full',
      expiresAt,
      impersonatorUserId: admin.userId,
      impersonatorSessionId: admin.sessionId,
    });
    // Both records name the target as the user and the admin as the impersonator, like every
    // action taken inside the impersonation will.
    await recordAccessEvent(tx, request, {
      companyId: admin.companyId,
      userId: target.user.id,
      email: target.user.email,
      event: 'impersonation',
      status: 'success',
      impersonatorUserId: admin.userId,
    });
    await recordAudit(tx, request, {
      companyId: admin.companyId,
      userId: target.user.id,
      impersonatorUserId: admin.userId,
      model: 'session',
      operation: 'impersonate',
      recordId: opened.id,
      changes: { targetUserId: target.user.id, targetEmail: target.user.email, adminUserId: admin.userId, adminSessionId: admin.sessionId },
    });
    return opened;
  });
  return sessionUserOf(ctx, session);
}
