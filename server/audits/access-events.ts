import { and, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { enumChoiceFilter } from './enum-filter';
import { accessEvents } from '../db/schema';
import {
  anyOf,
  choicesOf,
  endDateFilter,
  filterBody,
  idChoiceFilter,
  listPage,
  orEmpty,
  searchFilter,
  searchText,
  startDateFilter,
  within,
  type Card,
  type Choice,
  type ListAnswer,
} from '../http/lists';
import { cappedCount, countCard, daysAgo, startOfTodayUtc } from './counts';
import { readPage } from './merge';
import { namesOf, usersWho } from './people';
import { searchCondition, type SearchedList } from '../http/search';

export const EVENT_STATUSES = ['blocked', 'failure', 'success'] as const;

export const accessEventFilterBody = filterBody({
  user: idChoiceFilter,
  status: enumChoiceFilter(EVENT_STATUSES),
  startDate: startDateFilter,
  endDate: endDateFilter,
  search: searchFilter,
});
export type AccessEventFilter = Partial<z.output<typeof accessEventFilterBody>>;

export interface AccessEventRow {
  id: string;
  userId: string | null;
  email: string | null;
  userName: string | null;
  event: string;
  status: string;
  reason: string | null;
  ip: string | null;
  userAgent: string | null;
  impersonatorUserId: string | null;
  impersonatorEmail: string | null;
  createdAt: Date;
}

/** What an access-event search matches: email, event, reason, address and user agent, read through access_events_search_trgm_idx (migration 0007). */
export const accessEventSearchText = searchText(
  orEmpty(accessEvents.email),
  accessEvents.event,
  orEmpty(accessEvents.reason),
  orEmpty(accessEvents.ip),
  orEmpty(accessEvents.userAgent),
);

export const accessEventsSearch: SearchedList = {
  name: 'access_events',
  table: accessEvents,
  text: accessEventSearchText,
  idColumn: accessEvents.id,
  companyColumn: accessEvents.companyId,
  newestColumn: accessEvents.createdAt,
};

/**
 * `company_id = …` comes first in every query, so events whose company is unknown (a sign-in
 * naming a host name that does not exist has a null company) are never shown to any tenant.
 */
export async function accessEventConditions(db: Db, companyId: string, filter: AccessEventFilter): Promise<SQL> {
  return and(
    eq(accessEvents.companyId, companyId),
    anyOf(accessEvents.userId, filter.user ?? []),
    anyOf(accessEvents.status, filter.status ?? []),
    within(accessEvents.createdAt, filter.startDate ?? null, filter.endDate ?? null),
    await searchCondition(db, accessEventsSearch, companyId, filter.search ?? ''),
  )!;
}

export async function listAccessEvents(
  db: Db,
  companyId: string,
  filter: AccessEventFilter,
  offset: number,
  limit: number,
): Promise<ListAnswer<AccessEventRow>> {
  const where = await accessEventConditions(db, companyId, filter);
  return listPage(
    db,
    {
      countFrom: accessEvents,
      where,
      page: async (o, l) => {
        const part = (value?: SQL) =>
          db
            .select({
              id: accessEvents.id,
              userId: accessEvents.userId,
              email: accessEvents.email,
              event: accessEvents.event,
              status: accessEvents.status,
              reason: accessEvents.reason,
              ip: accessEvents.ip,
              userAgent: accessEvents.userAgent,
              impersonatorUserId: accessEvents.impersonatorUserId,
              createdAt: accessEvents.createdAt,
            })
            .from(accessEvents)
            .where(and(where, value))
            .orderBy(desc(accessEvents.createdAt), desc(accessEvents.id));
        const rows = await readPage(
          part,
          [
            [accessEvents.userId, filter.user ?? []],
            [accessEvents.status, filter.status ?? []],
          ],
          [desc(accessEvents.createdAt), desc(accessEvents.id)],
          o,
          l,
        );
        const names = await namesOf(
          db,
          companyId,
          rows.flatMap((r) => [r.userId, r.impersonatorUserId]),
        );
        return rows.map((r) => ({
          id: r.id,
          userId: r.userId,
          email: r.email,
          userName: r.userId ? (names.get(r.userId)?.name ?? null) : null,
          event: r.event,
          status: r.status,
          reason: r.reason,
          ip: r.ip,
          userAgent: r.userAgent,
          impersonatorUserId: r.impersonatorUserId,
          impersonatorEmail: r.impersonatorUserId ? (names.get(r.impersonatorUserId)?.email ?? null) : null,
          createdAt: r.createdAt,
        }));
      },
    },
    offset,
    limit,
  );
}

/** The statuses the company's events hold: one probe of (company_id, status, created_at) each. */
export async function presentStatuses(db: Db, companyId: string): Promise<string[]> {
  const probes = await Promise.all(
    EVENT_STATUSES.map(async (status) => {
      const [hit] = await db
        .select({ one: sql`1` })
        .from(accessEvents)
        .where(and(eq(accessEvents.companyId, companyId), eq(accessEvents.status, status)))
        .limit(1);
      return hit ? status : null;
    }),
  );
  return probes.filter((s): s is (typeof EVENT_STATUSES)[number] => s !== null);
}

export async function accessEventProps(db: Db, companyId: string): Promise<{ user: Choice[]; status: Choice[] }> {
  const [user, statuses] = await Promise.all([
    usersWho(
      db,
      companyId,
      (userId) =>
        sql`exists (select 1 from ${accessEvents} where ${accessEvents.companyId} = ${companyId} and ${accessEvents.userId} = ${userId})`,
    ),
    presentStatuses(db, companyId),
  ]);
  return { user, status: choicesOf(statuses) };
}

export async function accessEventCards(db: Db, companyId: string, now = new Date()): Promise<Card[]> {
  const tenant = eq(accessEvents.companyId, companyId);
  const today = gte(accessEvents.createdAt, startOfTodayUtc(now));
  const lastWeek = gte(accessEvents.createdAt, daysAgo(7, now));
  const [signins, failures, blocked, impersonations] = await Promise.all([
    cappedCount(db, accessEvents, and(tenant, eq(accessEvents.event, 'signin'), eq(accessEvents.status, 'success'), today)),
    cappedCount(db, accessEvents, and(tenant, eq(accessEvents.status, 'failure'), today)),
    cappedCount(db, accessEvents, and(tenant, eq(accessEvents.status, 'blocked'), lastWeek)),
    cappedCount(db, accessEvents, and(tenant, eq(accessEvents.event, 'impersonation'), eq(accessEvents.status, 'success'), lastWeek)),
  ]);
  return [
    countCard('signinsToday', 'Successful sign-ins today', signins),
    countCard('failuresToday', 'Failures today', failures),
    countCard('blocked7Days', 'Blocked attempts in the last 7 days', blocked),
    countCard('impersonations7Days', 'Impersonations in the last 7 days', impersonations),
  ];
}
