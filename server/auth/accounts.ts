import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, users } from '../db/schema';
import { unauthorized } from '../http/errors';

export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;

export interface Account {
  company: CompanyRow | null;
  user: UserRow | null;
}

/** The company a host name names and the user an email names within it; either may be missing. */
export async function findAccount(db: Db, hostname: string, email: string): Promise<Account> {
  const [company] = await db.select().from(companies).where(eq(companies.hostname, hostname));
  if (!company) return { company: null, user: null };
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, company.id), eq(users.email, email)));
  return { company, user: user ?? null };
}

/** The caller's own user and company rows (the guard has just seen both, so a miss means the session is gone). */
export async function loadCaller(db: Db, auth: { companyId: string; userId: string }): Promise<{ user: UserRow; company: CompanyRow }> {
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
  if (!row) throw unauthorized();
  return row;
}

/** May sign in: activated, not deactivated, and in a company that is not deactivated. */
export function isActiveAccount(user: UserRow, company: Pick<CompanyRow, 'isActive'>): boolean {
  return user.status === 'active' && user.isActive && company.isActive;
}
