import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { roles, sessions, users } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import { verifyAccessToken, type SessionStage } from './tokens';

export interface AuthContext {
  sessionId: string;
  userId: string;
  companyId: string;
  roleId: string;
  email: string;
  isAdmin: boolean;
  stage: SessionStage;
  /** The admin behind an impersonation session, if this is one. */
  impersonatorUserId: string | null;
  impersonatorSessionId: string | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (sign-in, password reset, onboarding, health). */
    public?: boolean;
    /** Sign-in stages this route accepts; only 'full' when unset. */
    stages?: SessionStage[];
    /** Only a user whose role is an admin role may call it. */
    adminOnly?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const TOKEN_HEADER = 'x-access-token';

/**
 * The one guard every API request passes: token → open session row → active user and company →
 * stage and admin checks. A failure before the session is found is 401 "Invalid JWT token", so the
 * console sends the user back to sign-in; a missing right is 403 "Resource Access not provided".
 */
export function registerAuthGuard(app: FastifyInstance) {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const routeConfig = request.routeOptions.config ?? {};
    if (routeConfig.public || !request.routeOptions.url) return;
    const auth = await authenticate(app, request);
    const allowed = routeConfig.stages ?? ['full'];
    if (!allowed.includes(auth.stage)) throw unauthorized();
    if (routeConfig.adminOnly && !auth.isAdmin) throw forbidden();
    request.auth = auth;
  });
}

async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<AuthContext> {
  const header = request.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) throw unauthorized();
  const claims = await verifyAccessToken(app.ctx.secrets.tokenKey, token);
  if (!claims) throw unauthorized();
  const now = new Date();
  const [row] = await app.ctx.db
    .select({
      session: sessions,
      email: users.email,
      userActive: users.isActive,
      userStatus: users.status,
      roleId: users.roleId,
      isAdmin: roles.isAdmin,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.companyId, sessions.companyId), eq(users.id, sessions.userId)))
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(
      and(
        eq(sessions.companyId, claims.cid),
        eq(sessions.id, claims.sid),
        eq(sessions.userId, claims.sub),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .limit(1);
  if (!row || !row.userActive || row.userStatus !== 'active' || row.session.stage !== claims.stg) throw unauthorized();
  return {
    sessionId: row.session.id,
    userId: row.session.userId,
    companyId: row.session.companyId,
    roleId: row.roleId,
    email: row.email,
    isAdmin: row.isAdmin,
    stage: row.session.stage as SessionStage,
    impersonatorUserId: row.session.impersonatorUserId,
    impersonatorSessionId: row.session.impersonatorSessionId,
  };
}

/** The caller's identity inside a route that is not public. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
