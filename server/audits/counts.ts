import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { COUNT_CAP, type Card } from '../http/lists';

export interface CappedCount {
  value: number;
  /** False when the count stopped at COUNT_CAP: there are at least that many. */
  exact: boolean;
}

/**
 * A count that stops at COUNT_CAP, like the lists' own: cards over a table of a million rows
 * must not read all of them on every visit of the page.
 */
export async function cappedCount(db: Db, table: PgTable, where: SQL | undefined): Promise<CappedCount> {
  const capped = db.select({ one: sql`1` }).from(table).where(where).limit(COUNT_CAP + 1).as('capped');
  const [{ n }] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped);
  return n > COUNT_CAP ? { value: COUNT_CAP, exact: false } : { value: n, exact: true };
}

/** A card of a capped count: its label says when the value is a floor ("10,000 or more"). */
export function countCard(key: string, label: string, count: CappedCount, link?: string): Card {
  return {
    key,
    label: count.exact ? label : `${label} (${COUNT_CAP.toLocaleString('en')} or more)`,
    value: count.value,
    ...(link ? { link } : {}),
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** Midnight UTC of the day `now` falls in: "today" on cards is the UTC day. */
export function startOfTodayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export function daysAgo(days: number, now = new Date()): Date {
  return new Date(now.getTime() - days * DAY_MS);
}
