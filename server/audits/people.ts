import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { displayName } from '../auth/session-user';
import { searching, type Choice } from '../http/lists';

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

/** At most this many people are looked for by a log search's text. */
const SEARCHED_PEOPLE_MAX = 200;

/**
 * The ids of the company's users whose email or name holds `text` (a log's search also finds the
 * entries of the people it names). One query over the users table, which is small beside the logs.
 */
export async function usersMatching(db: Db, companyId: string, text: string): Promise<string[]> {
  const matched = searching([users.email, users.firstName, users.lastName, sql`${users.firstName} || ' ' || ${users.lastName}`], text);
  if (!matched) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), matched))
    .limit(SEARCHED_PEOPLE_MAX);
  return rows.map((row) => row.id);
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
