import crypto from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { authTokens, companies, users } from '../db/schema';
import type { Secrets } from './secrets';

/**
 * One-time tokens mailed to users (password reset, account activation). Only a keyed hash is
 * stored, so a copy of the database does not hold working links.
 */
export type OneTimeTokenKind = 'reset' | 'activation';

export const TOKEN_LIFETIME_MS: Record<OneTimeTokenKind, number> = {
  reset: 60 * 60 * 1000,
  activation: 7 * 24 * 60 * 60 * 1000,
};

/** The tokens we mail are 43 base64url characters; anything else cannot be one. */
export const oneTimeTokenField = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .min(1, 'is required')
  .max(200, 'is too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a link token (copy the whole link from the mail)');

export interface TokenOwner {
  companyId: string;
  userId: string;
}

/** Issues a new token and revokes the user's earlier ones of that kind: only the newest mailed link works. */
export async function issueOneTimeToken(db: Db, secrets: Secrets, owner: TokenOwner, kind: OneTimeTokenKind): Promise<string> {
  await revokeTokens(db, owner, kind);
  const token = crypto.randomBytes(32).toString('base64url');
  await db.insert(authTokens).values({
    ...owner,
    kind,
    tokenHash: secrets.hashToken(token),
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[kind]),
  });
  return token;
}

/** Revoked tokens are marked used: the one column every check already looks at. */
export async function revokeTokens(db: Db, owner: TokenOwner, kind: OneTimeTokenKind): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authTokens.companyId, owner.companyId),
        eq(authTokens.userId, owner.userId),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
      ),
    );
}

export interface TokenHolder {
  tokenId: string;
  user: typeof users.$inferSelect;
  company: { id: string; name: string; hostname: string; isActive: boolean };
}

/** The user a token was issued to, while the token is unused and unexpired; null otherwise. */
export async function findTokenHolder(db: Db, secrets: Secrets, kind: OneTimeTokenKind, token: string): Promise<TokenHolder | null> {
  const [row] = await db
    .select({
      tokenId: authTokens.id,
      user: users,
      company: { id: companies.id, name: companies.name, hostname: companies.hostname, isActive: companies.isActive },
    })
    .from(authTokens)
    .innerJoin(users, and(eq(users.companyId, authTokens.companyId), eq(users.id, authTokens.userId)))
    .innerJoin(companies, eq(companies.id, authTokens.companyId))
    .where(
      and(
        eq(authTokens.tokenHash, secrets.hashToken(token)),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

/** Marks the token used; false when another request spent it first (the loser must give up). */
export async function spendToken(db: Db, tokenId: string): Promise<boolean> {
  const rows = await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.id, tokenId), isNull(authTokens.usedAt), gt(authTokens.expiresAt, new Date())))
    .returning({ id: authTokens.id });
  return rows.length > 0;
}
