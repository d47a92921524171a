import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { roles, users } from '../db/schema';
import { displayName } from '../auth/session-user';

/** At most this many admins are named to a user refused a page. */
export const ADMINS_NAMED = 10;

/** The company's active admins, by name: whom a user asks for access. */
export async function companyAdmins(db: Db, companyId: string): Promise<{ name: string; email: string }[]> {
  const rows = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(and(eq(users.companyId, companyId), eq(roles.isAdmin, true), eq(users.isActive, true), eq(users.status, 'active')))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email))
    .limit(ADMINS_NAMED);
  return rows.map((row) => ({ name: displayName(row), email: row.email }));
}
