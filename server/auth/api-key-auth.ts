import crypto from 'node:crypto';
import { and, eq, lt, or, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiKeys, companies, roles, users } from '../db/schema';
import { forbidden, unauthorized } from '../http/errors';
import type { AuthContext } from '../platform/auth-context';
import { holderColumns, holderMayAct } from './holder';
import type { Secrets } from './secrets';
import { asSystem, withTenant } from '../db/tenant-scope';

export const API_KEY_HEADER = 'x-api-key';

/** `dok_<prefix>_<secret>`: the prefix finds the row, the whole key is checked against its hash. */
const KEY_PATTERN = /^dok_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const LAST_USED_RESOLUTION_MS = 60_000;

export const API_KEY_REFUSED_MESSAGE = 'This API key is not valid, or is deactivated or expired';
export const OPERATION_NOT_GRANTED_MESSAGE = 'This API key is not allowed to call this operation';

export interface NewApiKey {
  key: string;
  prefix: string;
  keyHash: string;
}

/** A new key: shown once to its creator; only the prefix and a keyed hash are stored. */
export function generateApiKey(secrets: Secrets): NewApiKey {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const prefix = Array.from(crypto.randomBytes(12), (b) => alphabet[b % alphabet.length]).join('');
  const key = `dok_${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
  return { key, prefix, keyHash: secrets.hashToken(key) };
}

/**
 * The stable id of an operation of the API, used by the OpenAPI explorer and in a key's grants:
 * `GET /users/:offset/:limit` → `get_users_offset_limit`.
 */
export function operationIdOf(method: string, url: string): string {
  const path = url
    .replace(/^\/api\/v1/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^:/, '').replace(/[^A-Za-z0-9]+/g, '_'))
    .join('_');
  return `${method.toLowerCase()}_${path || 'root'}`;
}

/**
 * Authenticates a call made with `x-api-key`: the key must exist, be active, not deleted and not
 * expired; it acts as its access user (who must still be active), and only on the operations
 * granted to it.
 */
export async function authenticateApiKey(app: FastifyInstance, request: FastifyRequest, routeAcceptsKeys: boolean): Promise<AuthContext> {
  const header = request.headers[API_KEY_HEADER];
  const presented = Array.isArray(header) ? header[0] : header;
  const match = presented ? KEY_PATTERN.exec(presented) : null;
  if (!presented || !match) throw unauthorized(API_KEY_REFUSED_MESSAGE);
  const { db, secrets } = app.ctx;
  const now = new Date();
  // A key names no company until it is found.
  const [row] = await asSystem(
    'an API key is looked up by its prefix',
    async () =>
      await db
        .select({
          key: apiKeys,
          ...holderColumns,
        })
        .from(apiKeys)
        .innerJoin(users, and(eq(users.companyId, apiKeys.companyId), eq(users.id, apiKeys.accessUserId)))
        .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
        .innerJoin(companies, eq(companies.id, apiKeys.companyId))
        .where(eq(apiKeys.prefix, match[1]))
        .limit(1),
  );
  const expected = row ? Buffer.from(row.key.keyHash) : Buffer.alloc(0);
  const actual = Buffer.from(secrets.hashToken(presented));
  const hashMatches = expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
  if (
    !row ||
    !hashMatches ||
    !row.key.isActive ||
    row.key.isDeleted ||
    (row.key.expiresAt && row.key.expiresAt <= now) ||
    !holderMayAct(row)
  ) {
    throw unauthorized(API_KEY_REFUSED_MESSAGE);
  }
  const operationId = operationIdOf(request.method, request.routeOptions.url ?? '');
  // A grant of an operation that is (no longer) in the catalogue opens nothing: the catalogue's
  // exclusions hold even for a grant written before a route was excluded.
  const grantable = !app.hasDecorator('apiOperations') || app.apiOperations.has(operationId);
  if (!routeAcceptsKeys || !grantable || !row.key.operations.includes(operationId)) throw forbidden(OPERATION_NOT_GRANTED_MESSAGE);
  await withTenant(
    row.key.companyId,
    async () =>
      await db
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(apiKeys.id, row.key.id),
            or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
          ),
        ),
  );
  return {
    sessionId: '',
    apiKeyId: row.key.id,
    userId: row.key.accessUserId,
    companyId: row.key.companyId,
    roleId: row.roleId,
    email: row.email,
    isAdmin: row.isAdmin,
    stage: 'full',
    impersonatorUserId: null,
    impersonatorSessionId: null,
  };
}
