import { and, desc, eq, isNotNull, type AnyColumn, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { NOTIFICATION_STATUSES, notificationsContract } from '../../common/contract/notifications';
import type { ListSort } from '../../common/contract/routes';
import type { Db } from '../db/client';
import { enumChoiceFilter } from '../audits/enum-filter';
import { notifications } from '../db/schema';
import { mergeColumn } from '../audits/merge';
import { namesOf, usersOf } from '../audits/people';
import {
  DEFERRED_JOIN_FROM,
  deferredIds,
  cappedCount,
  anyOf,
  choicesOf,
  filterBody,
  idChoiceFilter,
  inlined,
  listPage,
  orderBy,
  periodAndSearchFilters,
  searching,
  textChoiceFilter,
  within,
  type Choice,
  type ListAnswer,
} from '../http/lists';

/** The latest notifications the app bar shows. */
export const APP_BAR_COUNT = 10;

export const notificationFilterBody = filterBody({
  status: enumChoiceFilter(NOTIFICATION_STATUSES),
  user: idChoiceFilter,
  type: textChoiceFilter,
  ...periodAndSearchFilters,
  createdBy: idChoiceFilter,
});
export type NotificationFilter = Partial<z.output<typeof notificationFilterBody>>;

/** The contract's sort fields (the filter route checks `{field}` against them), each with its column. */
type SortField = Extract<(typeof notificationsContract.fields)[number], { sortable: true }>['source'];
const SORTABLE: Record<SortField, AnyColumn> = {
  createdAt: notifications.createdAt,
  readAt: notifications.readAt,
  type: notifications.type,
  title: notifications.title,
  status: notifications.status,
};

/**
 * Whose notifications the caller sees: their own, or (with the notifications/read policy)
 * everyone's in the company. Reading the list never reveals another company's rows.
 */
export interface Reader {
  companyId: string;
  userId: string;
  seesEveryone: boolean;
}

export interface NotificationRow {
  id: string;
  userId: string;
  userName: string | null;
  type: string;
  title: string;
  message: string;
  link: string | null;
  status: string;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: Date;
  readAt: Date | null;
}

const visibleTo = (reader: Reader) =>
  and(eq(notifications.companyId, reader.companyId), reader.seesEveryone ? undefined : eq(notifications.userId, reader.userId));

/**
 * On the base table only: (company_id, user_id, created_at) serves one user's list and
 * (company_id, created_at) everyone's, both newest first.
 */
export function notificationConditions(reader: Reader, filter: NotificationFilter): SQL {
  return and(
    visibleTo(reader),
    anyOf(notifications.status, filter.status ?? []),
    anyOf(notifications.userId, filter.user ?? []),
    anyOf(notifications.type, filter.type ?? []),
    anyOf(notifications.createdBy, filter.createdBy ?? []),
    within(notifications.createdAt, filter.startDate ?? null, filter.endDate ?? null),
    searching([notifications.title, notifications.message], filter.search ?? ''),
  )!;
}

const columns = {
  id: notifications.id,
  userId: notifications.userId,
  type: notifications.type,
  title: notifications.title,
  message: notifications.message,
  link: notifications.link,
  status: notifications.status,
  createdBy: notifications.createdBy,
  createdAt: notifications.createdAt,
  readAt: notifications.readAt,
};
type StoredNotification = Omit<NotificationRow, 'userName' | 'createdByName'>;

/** Adds the recipient's and the sender's names, looked up for this page's ids only. */
export async function named(db: Db, companyId: string, rows: StoredNotification[]): Promise<NotificationRow[]> {
  const names = await namesOf(
    db,
    companyId,
    rows.flatMap((r) => [r.userId, r.createdBy]),
  );
  return rows.map((r) => ({
    ...r,
    userName: names.get(r.userId)?.name ?? null,
    createdByName: r.createdBy ? (names.get(r.createdBy)?.name ?? null) : null,
  }));
}

export async function listNotifications(
  db: Db,
  reader: Reader,
  filter: NotificationFilter,
  sort: ListSort,
  offset: number,
  limit: number,
): Promise<ListAnswer<NotificationRow>> {
  const where = notificationConditions(reader, filter);
  const order = [orderBy(SORTABLE[sort.field as SortField], sort.order)];
  if (sort.field !== 'createdAt') order.push(desc(notifications.createdAt));
  order.push(sort.field === 'createdAt' ? orderBy(notifications.id, sort.order) : desc(notifications.id));
  return listPage(
    db,
    {
      countFrom: notifications,
      where,
      page: async (o, l) => {
        const part = (value?: SQL) =>
          db
            .select(columns)
            .from(notifications)
            .where(and(where, value))
            .orderBy(...order);
        // Only the newest-first order is what a (company_id, user_id, created_at) range gives.
        const merge = sort.field === 'createdAt' && reader.seesEveryone ? mergeColumn([[notifications.userId, filter.user ?? []]]) : null;
        const rows = merge
          ? await unionAll(
              ...(merge.values.map((v) => part(eq(merge.column, v)).limit(inlined(o + l))) as [
                ReturnType<typeof part>,
                ReturnType<typeof part>,
              ]),
            )
              .orderBy(...order)
              .offset(inlined(o))
              .limit(inlined(l))
          : o >= DEFERRED_JOIN_FROM
            ? await part(await deferredIds(db, { table: notifications, id: notifications.id, where, order }, o, l)).limit(inlined(l))
            : await part().offset(inlined(o)).limit(inlined(l));
        return named(db, reader.companyId, rows);
      },
    },
    offset,
    limit,
  );
}

/** The caller's own latest notifications, for the app bar (whatever the caller's policies). */
export async function latestOwn(db: Db, companyId: string, userId: string): Promise<NotificationRow[]> {
  const rows = await db
    .select(columns)
    .from(notifications)
    .where(and(eq(notifications.companyId, companyId), eq(notifications.userId, userId)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(APP_BAR_COUNT);
  return named(db, companyId, rows);
}

/** The app bar's badge: counts of the caller's own, each stopping at the lists' cap. */
export async function ownCounts(db: Db, companyId: string, userId: string) {
  const own = and(eq(notifications.companyId, companyId), eq(notifications.userId, userId));
  const [unread, total] = await Promise.all([
    cappedCount(db, notifications, and(own, eq(notifications.status, 'unread'))),
    cappedCount(db, notifications, own),
  ]);
  return { unread: unread.value, total: total.value, countExact: unread.exact && total.exact };
}

/** Marks every unread notification of the caller read; answers how many changed. */
export async function markAllRead(db: Db, companyId: string, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ status: 'read', readAt: new Date() })
    .where(and(eq(notifications.companyId, companyId), eq(notifications.userId, userId), eq(notifications.status, 'unread')))
    .returning({ id: notifications.id });
  return rows.length;
}

/**
 * Marks one of the caller's notifications read (it stays read, with its first readAt, when it
 * already was). Null when the caller has no such notification: another user's or another
 * company's is answered like a missing one.
 */
export async function markOneRead(db: Db, companyId: string, userId: string, id: string): Promise<NotificationRow | null> {
  const own = and(eq(notifications.companyId, companyId), eq(notifications.userId, userId), eq(notifications.id, id));
  await db
    .update(notifications)
    .set({ status: 'read', readAt: new Date() })
    .where(and(own, eq(notifications.status, 'unread')));
  const [row] = await db.select(columns).from(notifications).where(own);
  return row ? (await named(db, companyId, [row]))[0] : null;
}

export type NotificationOptions = {
  status: Choice[];
  type: Choice[];
  user: Choice[];
  createdBy: Choice[];
};

export async function notificationOptions(db: Db, reader: Reader): Promise<NotificationOptions> {
  const scope = visibleTo(reader);
  const [types, senders, user] = await Promise.all([
    db.selectDistinct({ type: notifications.type }).from(notifications).where(scope).orderBy(notifications.type),
    db
      .selectDistinct({ id: notifications.createdBy })
      .from(notifications)
      .where(and(scope, isNotNull(notifications.createdBy))),
    reader.seesEveryone
      ? usersOf(db, reader.companyId, {
          table: notifications,
          companyColumn: notifications.companyId,
          userColumn: notifications.userId,
          createdColumn: notifications.createdAt,
        })
      : namesOf(db, reader.companyId, [reader.userId]).then((names) => [...names].map(([id, p]) => ({ id, name: p.name }))),
  ]);
  const senderNames = await namesOf(
    db,
    reader.companyId,
    senders.map((s) => s.id),
  );
  const createdBy = [...senderNames].map(([id, p]) => ({ id, name: p.name })).sort((a, b) => a.name.localeCompare(b.name));
  return { status: choicesOf(NOTIFICATION_STATUSES), type: choicesOf(types.map((t) => t.type)), user, createdBy };
}
