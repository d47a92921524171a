import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../platform/context';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { MailResult } from '../mail/mailer';
import { activationMail, mailLinkBase } from '../mail/templates';
import { issueOneTimeToken, TOKEN_LIFETIME_MS } from './one-time-tokens';
import { generatePassword, hashPassword } from './passwords';
import type { Secrets } from './secrets';

/**
 * An invited user signs in for the first time with a temporary password and an activation link.
 * The temporary password's hash sits in users.passwordHash while the status stays 'invited' (sign-in
 * refuses such accounts), so activation can check it like any password.
 */
export interface TemporaryPassword {
  password: string;
  hash: string;
}

/** Hashing is slow on purpose: do it before opening a transaction. */
export async function newTemporaryPassword(): Promise<TemporaryPassword> {
  const password = generatePassword();
  return { password, hash: await hashPassword(password) };
}

/** Stores the temporary password and issues a fresh activation token (the earlier ones stop working). */
export async function renewInvitation(
  db: Db,
  secrets: Secrets,
  user: { id: string; companyId: string },
  temporary: TemporaryPassword,
): Promise<string> {
  await db
    .update(users)
    .set({ passwordHash: temporary.hash, updatedAt: new Date() })
    .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id)));
  return issueOneTimeToken(db, secrets, { companyId: user.companyId, userId: user.id }, 'activation');
}

export async function mailInvitation(
  ctx: AppContext,
  request: FastifyRequest,
  invitation: {
    user: { companyId: string; email: string; firstName: string };
    company: { name: string; hostname: string };
    temporaryPassword: string;
    token: string;
  },
): Promise<MailResult> {
  const { user, company } = invitation;
  const link = `${mailLinkBase(ctx.config, request)}/auth/activate-user-account?token=${encodeURIComponent(invitation.token)}`;
  const mail = activationMail({
    firstName: user.firstName,
    companyName: company.name,
    companyHostname: company.hostname,
    email: user.email,
    temporaryPassword: invitation.temporaryPassword,
    link,
    validDays: Math.round(TOKEN_LIFETIME_MS.activation / 86_400_000),
  });
  return ctx.mailer.send({ companyId: user.companyId, to: user.email, kind: 'activation', ...mail });
}
