import { and, desc, eq, inArray, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { ListSort } from '../../common/contract/routes';
import type { Db } from '../db/client';
import {
  anyOf,
  DEFERRED_JOIN_FROM,
  deferredIds,
  filterBody,
  inlined,
  listPage,
  periodAndSearchFilters,
  within,
  type ListAnswer,
} from '../http/lists';
import { searchCondition, type SearchedList } from '../http/search';
import { sortedOrder, type SortColumns } from '../platform/list-sort';
import { mergeColumn, readPage } from './merge';
import { usersMatching } from './people';

/**
 * One of the logs that grow without bound (system audits, access events), as its lists read it:
 * its table and search (`SearchedList` names the company, id and time columns), the columns a
 * page reads, and how a page is answered (the names of the people it mentions, looked up for
 * that page only: people.ts).
 */
export interface Log<Stored, Row> {
  search: SearchedList;
  /** The column of each field of a stored entry. */
  columns: Record<keyof Stored, PgColumn>;
  named(db: Db, companyId: string, rows: Stored[]): Promise<Row[]>;
  /** The columns its lists sort by (the contract's sortable fields), each with a (company_id, column, …) index. */
  sortColumns: SortColumns;
  /** The user an entry is about: a search also finds the entries of the users whose email or name holds the text. */
  userColumn: AnyColumn;
}

/** Columns of a log with the values they may hold (none: any); the `indexed` ones have a (company_id, column, created_at) index. */
export type LogChoices = ReadonlyArray<{ column: AnyColumn; values: readonly string[]; indexed?: boolean }>;

/** A log's filter body: its own choice filters, then the period and search that `listLog` reads. */
export function logFilterBody<Shape extends z.ZodRawShape>(choices: Shape) {
  return filterBody({ ...choices, ...periodAndSearchFilters });
}

/** The period and search of a log's filter. */
export interface LogFilter {
  startDate?: Date | null;
  endDate?: Date | null;
  search?: string;
}

/**
 * A page of one company's entries of a log, newest first. Every condition is on the log's own
 * table, with `company_id = …` first (an entry whose company is unknown is never any tenant's),
 * so that its (company_id, created_at) and (company_id, column, created_at) indexes serve both
 * the filter and the order; a filter on several values of an indexed column is read one index
 * range per value (merge.ts), and the search reads the trigram index (server/http/search.ts).
 */
export async function listLog<Stored, Row>(
  db: Db,
  log: Log<Stored, Row>,
  companyId: string,
  choices: LogChoices,
  filter: LogFilter,
  offset: number,
  limit: number,
  sort?: ListSort,
): Promise<ListAnswer<Row>> {
  const { table, companyColumn, newestColumn, idColumn } = log.search;
  const where = and(
    eq(companyColumn, companyId),
    ...choices.map(({ column, values }) => anyOf(column, values)),
    within(newestColumn, filter.startDate ?? null, filter.endDate ?? null),
    await searchedEntries(db, log, companyId, filter.search ?? ''),
  )!;
  const newestFirst = sortedOrder(sort, log.sortColumns, idColumn, [desc(newestColumn), desc(idColumn)]);
  const indexed = choices.filter((choice) => choice.indexed).map(({ column, values }) => [column, values] as const);
  return listPage(
    db,
    {
      countFrom: table,
      where,
      page: async (o, l) => {
        const part = (value?: SQL) =>
          db
            .select(log.columns)
            .from(table)
            .where(and(where, value))
            .orderBy(...newestFirst);
        // Deep in a list without a merge, the skipped entries are read from the order's index alone (lists.ts, DEFERRED_JOIN_FROM).
        const deferred = o >= DEFERRED_JOIN_FROM && !mergeColumn(indexed);
        // The columns are the log's, so the rows are its stored entries.
        const rows = (
          deferred
            ? await part(await deferredIds(db, { table, id: idColumn as PgColumn, where, order: newestFirst }, o, l)).limit(inlined(l))
            : await readPage(part, indexed, newestFirst, o, l)
        ) as Stored[];
        return log.named(db, companyId, rows);
      },
    },
    offset,
    limit,
  );
}

/**
 * A search of a log: its text (the trigram index), or the entries of the users whose email or name
 * holds it, read through the log's (company_id, user_id, created_at) index. The users are looked
 * up first, so a text that names nobody costs one small query more and nothing else.
 */
async function searchedEntries<Stored, Row>(db: Db, log: Log<Stored, Row>, companyId: string, search: string): Promise<SQL | undefined> {
  if (!search) return undefined;
  const people = await usersMatching(db, companyId, search);
  if (people.length === 0) return searchCondition(db, log.search, companyId, search);
  const { table, idColumn, companyColumn } = log.search;
  const theirs = and(eq(companyColumn, companyId), inArray(log.userColumn, people));
  return searchCondition(db, log.search, companyId, search, {
    rows: inArray(log.userColumn, people),
    ids: db
      .select({ id: idColumn as PgColumn })
      .from(table)
      .where(theirs)
      .getSQL(),
  });
}
