import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { companies, roles, sessions, users } from '../db/schema';
import { KeptAnswers } from '../db/table-watch';
import { forbidden, unauthorized } from '../http/errors';
import { authenticateApiKey, API_KEY_HEADER } from './api-key-auth';
import { holderColumns, holderMayAct } from './holder';
import { isAllowed, type PolicyConfig } from './policies';
import type { AuthContext } from '../platform/auth-context';
import { verifyAccessToken, type SessionStage } from './tokens';
import { withTenant } from '../db/tenant-scope';
import { registerRateLimits } from './rate-limit';

export type { AuthContext } from '../platform/auth-context';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No token needed (sign-in, password reset, onboarding, health). */
    public?: boolean;
    /** Sign-in stages this route accepts; only 'full' when unset. */
    stages?: SessionStage[];
    /** Only a user whose role is an admin role may call it. */
    adminOnly?: boolean;
    /** The resource and action a policy must allow: `['users', 'update']`. Admin roles may do everything. */
    policy?: PolicyConfig;
    /** `false` for routes an API key can never call (sign-in, sessions, passwords, impersonation). */
    apiKeys?: boolean;
    /**
     * A public route that must find its account across companies before it knows one (by host
     * name, by a mailed token): why. Its handler runs in the system scope (server/db/tenant-scope.ts);
     * any other public route runs in none and sees no company's rows.
     */
    acrossCompanies?: string;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const TOKEN_HEADER = 'x-access-token';

/** lastSeenAt is refreshed at most this often: one write a minute per session, not one per request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** The admin behind an impersonation session: deactivating them ends their impersonations too. */
const impersonators = alias(users, 'impersonators');

/**
 * The one guard every API request passes: token → open session row → active user and company →
 * calls a minute (rate-limit.ts) → stage and admin checks. A failure before the session is found
 * is 401 "Invalid JWT token", so the console sends the user back to sign-in; a missing right is 403
 * "Resource Access not provided".
 */
export function registerAuthGuard(app: FastifyInstance) {
  app.decorateRequest('auth', null);
  const rateLimits = registerRateLimits(app);
  app.addHook('onRequest', async (request) => {
    const routeConfig = request.routeOptions.config ?? {};
    if (routeConfig.public || !request.routeOptions.url) return;
    const auth =
      request.headers[TOKEN_HEADER] || !request.headers[API_KEY_HEADER]
        ? await authenticate(app, request)
        : await authenticateApiKey(app, request, routeConfig.apiKeys !== false);
    // Counted once the caller is known, before its rights are checked: refused calls cost the server too.
    await rateLimits?.admit(auth);
    const allowed = routeConfig.stages ?? ['full'];
    if (!allowed.includes(auth.stage)) throw unauthorized();
    if (routeConfig.adminOnly && !auth.isAdmin) throw forbidden();
    if (
      routeConfig.policy &&
      !(await withTenant(auth.companyId, () => isAllowed(app.ctx.db, auth, routeConfig.policy![0], routeConfig.policy![1])))
    )
      throw forbidden();
    request.auth = auth;
  });
}

/** The session behind the request's access token, checked as the guard checks it (also for public routes that serve signed-in callers too). */
export async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<AuthContext> {
  const header = request.headers[TOKEN_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) throw unauthorized();
  const claims = await verifyAccessToken(app.ctx.secrets.tokenKey, token);
  if (!claims) throw unauthorized();
  // The token is signed: the company it names is the one to look in.
  return withTenant(claims.cid, () => sessionOf(app, claims));
}

async function sessionOf(app: FastifyInstance, claims: NonNullable<Awaited<ReturnType<typeof verifyAccessToken>>>): Promise<AuthContext> {
  const now = new Date();
  const load = async () =>
    (await sessionLookup(app).execute({ companyId: claims.cid, sessionId: claims.sid, userId: claims.sub, now }))[0] ?? null;
  const row = await sessionRows.read(app.ctx.db, `${claims.cid}/${claims.sid}/${claims.sub}`, SESSION_TABLES, load);
  if (!row || row.session.expiresAt.getTime() <= now.getTime() || !holderMayAct(row) || row.session.stage !== claims.stg)
    throw unauthorized();
  if (row.session.impersonatorUserId && (!row.impersonatorActive || row.impersonatorStatus !== 'active')) throw unauthorized();
  if (now.getTime() - row.session.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
    await touchSession(app, row.session.id, now);
  }
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

/**
 * The query every authenticated request runs, built once per app and prepared: building a
 * five-table select on every request cost more than running it.
 */
const sessionLookups = new WeakMap<FastifyInstance, ReturnType<typeof buildSessionLookup>>();
function sessionLookup(app: FastifyInstance) {
  let lookup = sessionLookups.get(app);
  if (!lookup) sessionLookups.set(app, (lookup = buildSessionLookup(app)));
  return lookup;
}

function buildSessionLookup(app: FastifyInstance) {
  return app.ctx.db
    .select({
      session: sessions,
      ...holderColumns,
      impersonatorActive: impersonators.isActive,
      impersonatorStatus: impersonators.status,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.companyId, sessions.companyId), eq(users.id, sessions.userId)))
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .innerJoin(companies, eq(companies.id, sessions.companyId))
    .leftJoin(impersonators, and(eq(impersonators.companyId, sessions.companyId), eq(impersonators.id, sessions.impersonatorUserId)))
    .where(
      and(
        eq(sessions.companyId, sql.placeholder('companyId')),
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('session_lookup');
}

/**
 * Session rows are kept between requests until any server writes the tables they come from for
 * that company (an ended session, a deactivated user, a changed role: the next request reads
 * afresh), so the common request costs no session query at all. See server/db/table-watch.ts;
 * the time limit only matters for writes made without a server (psql).
 */
const SESSION_TABLES = ['sessions', 'users', 'roles', 'companies'];
type SessionRow = Awaited<ReturnType<ReturnType<typeof buildSessionLookup>['execute']>>[number];
const sessionRows = new KeptAnswers<SessionRow | null>({ ttlMs: 5_000, maxEntries: 10_000 });

async function touchSession(app: FastifyInstance, sessionId: string, now: Date) {
  // The condition keeps concurrent requests of one session from all writing.
  await app.ctx.db
    .update(sessions)
    .set({ lastSeenAt: now })
    .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS))));
}

/** The caller's identity inside a route that is not public. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
