import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { displayName } from '../auth/session-user';
import type { Choice } from '../http/lists';

export interface Person {
  email: string;
  name: string;
}

/**
 * Names of the users a page of rows mentions, in one query over the page's ids only. Lists fetch
 * their page first and name it after: a join in the page query would stop the list's index from
 * serving its order, and a million-row list would sort before it could page.
 */
export async function namesOf(db: Db, companyId: string, ids: ReadonlyArray<string | null | undefined>): Promise<Map<string, Person>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, wanted)));
  return new Map(rows.map((u) => [u.id, { email: u.email, name: displayName(u) }]));
}

/**
 * The company's users for whom `appearsIn(userId)` holds, as filter choices by name. The check is
 * meant to be an EXISTS probe on a (company_id, user_id, …) index: one index lookup per user,
 * instead of a DISTINCT over every row of a big table.
 */
export async function usersWho(db: Db, companyId: string, appearsIn: (userId: SQL) => SQL): Promise<Choice[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), appearsIn(sql`${users.id}`)))
    .orderBy(users.firstName, users.lastName, users.email);
  return rows.map((u) => ({ id: u.id, name: displayName(u) }));
}
