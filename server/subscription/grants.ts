import crypto from 'node:crypto';
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import { isPlanId, type PlanId } from '../../common/plans';
import type { Secrets } from '../auth/secrets';
import { badRequest } from '../http/errors';

/**
 * Plan grants: an operator's signed word that a company may be on a plan (provider `self`).
 * `npm run plan -- <host name> <plan> --grant` prints one; a company admin pastes it on the
 * Subscription page, which sends it to POST /subscription/verify. A grant is a JWT (HS256) signed
 * with a key derived from the instance secret, so any server sharing APP_SECRET (or DATA_DIR)
 * accepts it, and only those.
 */

const ISSUER = 'dataops-console';
export const GRANT_AUDIENCE = 'dataops-console/plan-grant';
/** How long a grant can be redeemed unless the operator says otherwise. */
export const DEFAULT_GRANT_DAYS = 7;
export const MAX_GRANT_DAYS = 366;

export interface PlanGrant {
  /** Unique id of the grant: a grant is redeemed once. */
  id: string;
  hostname: string;
  plan: PlanId;
  issuedAt: Date;
  expiresAt: Date;
}

const grantKeys = new WeakMap<Secrets, Uint8Array>();
/** A key of its own, derived from the access-token key: a grant is never an access token, nor the reverse. */
function grantKey(secrets: Secrets): Uint8Array {
  let key = grantKeys.get(secrets);
  if (!key) {
    key = new Uint8Array(crypto.hkdfSync('sha256', secrets.tokenKey, Buffer.alloc(0), Buffer.from('dataops-console plan grants'), 32));
    grantKeys.set(secrets, key);
  }
  return key;
}

export async function signPlanGrant(
  secrets: Secrets,
  grant: { hostname: string; plan: PlanId; validDays?: number },
  now = new Date(),
): Promise<{ token: string; grant: PlanGrant }> {
  const days = grant.validDays ?? DEFAULT_GRANT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_GRANT_DAYS)
    throw new Error(`A grant is valid for 1 to ${MAX_GRANT_DAYS} days, not ${days}`);
  const issuedAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const expiresAt = new Date(issuedAt.getTime() + days * 86_400_000);
  const id = crypto.randomUUID();
  const token = await new SignJWT({ plan: grant.plan })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(GRANT_AUDIENCE)
    .setSubject(grant.hostname)
    .setJti(id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(grantKey(secrets));
  return { token, grant: { id, hostname: grant.hostname, plan: grant.plan, issuedAt, expiresAt } };
}

export const GRANT_INVALID_MESSAGE = 'token: this is not a valid plan grant of this server (it is damaged, or was signed elsewhere)';

/** The grant a token holds, or a 400 that says what is wrong with it; the company it names is checked by the caller. */
export async function readPlanGrant(secrets: Secrets, token: string): Promise<PlanGrant> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token.trim(), grantKey(secrets), { algorithms: ['HS256'], issuer: ISSUER, audience: GRANT_AUDIENCE }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      const exp = decodeJwt(token.trim()).exp;
      if (!exp) throw badRequest('token: this plan grant expired; ask your operator for a new one');
      const when = new Date(exp * 1000).toISOString().slice(0, 16).replace('T', ' ');
      throw badRequest(`token: this plan grant expired on ${when} UTC; ask your operator for a new one`);
    }
    if (error instanceof errors.JWTClaimValidationFailed)
      throw badRequest(`token: this is not a plan grant (${error.claim} does not match)`);
    throw badRequest(GRANT_INVALID_MESSAGE);
  }
  const { sub, jti, iat, exp, plan } = payload;
  if (!sub || !jti || !iat || !exp) throw badRequest(GRANT_INVALID_MESSAGE);
  if (!isPlanId(plan)) throw badRequest(`token: this grant names a plan this server does not know ("${String(plan)}")`);
  return { id: jti, hostname: sub, plan, issuedAt: new Date(iat * 1000), expiresAt: new Date(exp * 1000) };
}
