import { and, eq, gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ListSort } from '../../common/contract/routes';
import { ACCESS_EVENT_STATUSES } from '../../common/contract/access-events';
import type { Db } from '../db/client';
import { enumChoiceFilter } from './enum-filter';
import { accessEvents } from '../db/schema';
import { choicesOf, idChoiceFilter, orEmpty, searchText, type Card, type Choice, type ListAnswer } from '../http/lists';
import { cappedCount, countCard, daysAgo, startOfTodayUtc } from './counts';
import { listLog, logFilterBody, type Log } from './log-list';
import { namesOf, usersOf } from './people';
import type { SearchedList } from '../http/search';

export const accessEventFilterBody = logFilterBody({
  user: idChoiceFilter,
  status: enumChoiceFilter(ACCESS_EVENT_STATUSES),
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
type StoredAccessEvent = Omit<AccessEventRow, 'userName' | 'impersonatorEmail'>;

/**
 * What an access-event search matches: email, event, reason, address and user agent, read through
 * access_events_search_trgm_idx (migration 0007); the events of the users whose email or name holds
 * the text are found beside them (log-list.ts).
 */
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

/** How the access-event lists read the table: the user and the impersonating admin, named. */
const accessEventLog: Log<StoredAccessEvent, AccessEventRow> = {
  search: accessEventsSearch,
  columns: {
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
  },
  async named(db, companyId, rows) {
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
  sortColumns: { createdAt: accessEvents.createdAt, event: accessEvents.event, status: accessEvents.status },
  userColumn: accessEvents.userId,
};

/**
 * The company's events, newest first. Events whose company is unknown (a sign-in naming a host
 * name that does not exist has a null company) are never shown to any tenant.
 */
export function listAccessEvents(
  db: Db,
  companyId: string,
  filter: AccessEventFilter,
  offset: number,
  limit: number,
  sort?: ListSort,
): Promise<ListAnswer<AccessEventRow>> {
  return listLog(
    db,
    accessEventLog,
    companyId,
    [
      { column: accessEvents.userId, values: filter.user ?? [], indexed: true },
      { column: accessEvents.status, values: filter.status ?? [], indexed: true },
    ],
    filter,
    offset,
    limit,
    sort,
  );
}

/** The statuses the company's events hold: one probe of (company_id, status, created_at) each. */
export async function presentStatuses(db: Db, companyId: string): Promise<string[]> {
  const probes = await Promise.all(
    ACCESS_EVENT_STATUSES.map(async (status) => {
      const [hit] = await db
        .select({ one: sql`1` })
        .from(accessEvents)
        .where(and(eq(accessEvents.companyId, companyId), eq(accessEvents.status, status)))
        .limit(1);
      return hit ? status : null;
    }),
  );
  return probes.filter((s): s is (typeof ACCESS_EVENT_STATUSES)[number] => s !== null);
}

export async function accessEventProps(db: Db, companyId: string): Promise<{ user: Choice[]; status: Choice[] }> {
  const [user, statuses] = await Promise.all([
    usersOf(db, companyId, {
      table: accessEvents,
      companyColumn: accessEvents.companyId,
      userColumn: accessEvents.userId,
      createdColumn: accessEvents.createdAt,
    }),
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
