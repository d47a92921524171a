import crypto from 'node:crypto';
import { SignJWT } from 'jose';

export type SessionStage = 'full' | 'otp' | 'otp_setup';

export interface TokenClaims {
  /** Session id: the row every request checks. */
  sid: string;
  /** User id. */
  sub: string;
  /** Company id. */
  cid: string;
  stg: SessionStage;
}

const ISSUER = 'dataops-console';

/** Signs an access token that names a session row; it expires with the session. */
export async function signAccessToken(key: Uint8Array, claims: TokenClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sid, cid: claims.cid, stg: claims.stg })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

/**
 * Returns the claims of a valid token, or null for a forged, expired or malformed one.
 *
 * Every request verifies a token, so this is done with node:crypto's synchronous HMAC rather
 * than WebCrypto (which hops to a worker thread per call and showed as the single biggest cost of
 * an authenticated request). Only the exact header this server signs is accepted.
 */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<TokenClaims | null> {
  // A token verified before is known by its exact text: only its expiry needs checking again.
  let known = verified.get(key);
  const seen = known?.get(token);
  if (seen) {
    if (seen.expiresAt > Date.now()) return seen.claims;
    known!.delete(token);
  }
  const claims = checkToken(key, token);
  if (claims) {
    if (!known) verified.set(key, (known = new Map()));
    if (known.size >= VERIFIED_MAX) known.delete(known.keys().next().value!);
    known.set(token, { claims: claims.claims, expiresAt: claims.expiresAt });
  }
  return claims?.claims ?? null;
}

/** Tokens already verified, per signing key: a request costs a map lookup instead of an HMAC and two JSON parses. */
const verified = new WeakMap<Uint8Array, Map<string, { claims: TokenClaims; expiresAt: number }>>();
const VERIFIED_MAX = 10_000;

function checkToken(key: Uint8Array, token: string): { claims: TokenClaims; expiresAt: number } | null {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 4096) return null;
  const [header, body, signature] = parts;
  const expected = crypto.createHmac('sha256', key).update(`${header}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (head.alg !== 'HS256' || head.crit !== undefined) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { sid, cid, stg, sub, iss, exp } = payload;
    if (iss !== ISSUER || typeof exp !== 'number' || exp * 1000 <= Date.now()) return null;
    if (typeof sid !== 'string' || typeof cid !== 'string' || typeof sub !== 'string') return null;
    if (stg !== 'full' && stg !== 'otp' && stg !== 'otp_setup') return null;
    return { claims: { sid, cid, sub, stg }, expiresAt: exp * 1000 };
  } catch {
    return null;
  }
}
