import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { displayName } from '../auth/session-user';
import type { Choice } from '../http/lists';
import { searchCondition } from '../http/search';
import { usersSearch } from '../users/rows';

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
 * The ids of the company's users whose email, username or name holds `text` (a log's search also
 * finds the entries of the people it names), read as the users list searches: through its trigram
 * index (server/http/search.ts). Four `ilike`s over every user of a company of 100,000 took half a
 * second of every log search.
 */
export async function usersMatching(db: Db, companyId: string, text: string): Promise<string[]> {
  const matched = await searchCondition(db, usersSearch, companyId, text);
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

/** A log whose (company_id, user_id, created_at, …) index a loose scan can walk. */
export interface UserLog {
  table: PgTable;
  companyColumn: PgColumn;
  userColumn: PgColumn;
  createdColumn: PgColumn;
}

/**
 * The company's users a log mentions (since `since`, when given), as filter choices by name.
 * The log's distinct users are found by a loose scan of its (company_id, user_id, …) index, one
 * probe per distinct user (`user_id > previous order by user_id limit 1`): a log written by a
 * thousand of a company's hundred thousand users costs a thousand probes, where usersWho would
 * probe once per user of the company.
 */
export async function usersOf(db: Db, companyId: string, log: UserLog, since?: Date): Promise<Choice[]> {
  const { table, companyColumn: company, userColumn: user, createdColumn: created } = log;
  const c = (column: PgColumn) => sql.identifier(column.name);
  const found = sql`
    with recursive found(value) as (
      (select ${c(user)} from ${table} where ${c(company)} = ${companyId} and ${c(user)} is not null order by ${c(user)} limit 1)
      union all
      select (select ${c(user)} from ${table} where ${c(company)} = ${companyId} and ${c(user)} > found.value order by ${c(user)} limit 1)
      from found where found.value is not null
    )
    select value from found where value is not null`;
  const recent = since
    ? sql`exists (select 1 from ${table} where ${c(company)} = ${companyId} and ${c(user)} = ${users.id} and ${c(created)} >= ${since.toISOString()}::timestamptz)`
    : undefined;
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), sql`${users.id} in (${found})`, recent))
    .orderBy(users.firstName, users.lastName, users.email);
  return rows.map((u) => ({ id: u.id, name: displayName(u) }));
}
