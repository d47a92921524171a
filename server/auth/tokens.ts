import { SignJWT, jwtVerify } from 'jose';

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

/** Returns the claims of a valid token, or null for a forged, expired or malformed one. */
export async function verifyAccessToken(key: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
    const { sid, cid, stg, sub } = payload as Record<string, unknown>;
    if (typeof sid !== 'string' || typeof cid !== 'string' || typeof sub !== 'string') return null;
    if (stg !== 'full' && stg !== 'otp' && stg !== 'otp_setup') return null;
    return { sid, cid, sub, stg };
  } catch {
    return null;
  }
}
