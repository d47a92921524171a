import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../platform/context';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { badRequest } from '../http/errors';
import { passwordChangedMail } from '../mail/templates';
import { verifyPassword } from './passwords';
import { endAllSessionsOfUser } from './session-service';

export const CURRENT_PASSWORD_WRONG_MESSAGE = 'The current password is not correct';
export const SAME_PASSWORD_MESSAGE = 'newPassword: must be different from the current password';

/** Refuses a "new" password that is the one the account already has. */
export async function assertPasswordChanges(currentHash: string | null, newPassword: string): Promise<void> {
  if (currentHash && (await verifyPassword(currentHash, newPassword))) throw badRequest(SAME_PASSWORD_MESSAGE);
}

/**
 * Stores a new password and ends every session of the user (and every impersonation they opened):
 * whoever knew the old password is signed out. Call inside the transaction of the change.
 */
export async function storeNewPassword(
  db: Db,
  user: { id: string; companyId: string },
  passwordHash: string,
  alsoSet: Partial<Pick<typeof users.$inferInsert, 'status'>> = {},
): Promise<void> {
  const now = new Date();
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: now, updatedAt: now, ...alsoSet })
    .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id)));
  await endAllSessionsOfUser(db, user.companyId, user.id, 'password_changed');
}

/** Tells the owner their password changed, so a change they did not make does not go unnoticed. */
export async function mailPasswordChanged(
  ctx: AppContext,
  user: { companyId: string; email: string; firstName: string },
  company: { name: string },
): Promise<void> {
  const mail = passwordChangedMail({ firstName: user.firstName, companyName: company.name, changedAt: new Date() });
  await ctx.mailer.send({ companyId: user.companyId, to: user.email, kind: 'password_changed', ...mail });
}
