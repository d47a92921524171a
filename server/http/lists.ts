import { and, asc, desc, eq, getTableName, gte, ilike, inArray, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgSelect, type PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../db/client';
import { KeptAnswers, tablesRead } from '../db/table-watch';
import { limitParam, offsetParam } from './schemas';

/**
 * The list engine every administration area pages with.
 *
 * Counting is the expensive part of a list over a big table: an exact count of a million rows
 * costs far more than the page itself, and on PGlite every query waits for it. So the count stops
 * at COUNT_CAP (the answer then says `countExact: false`), and it is skipped altogether when the
 * page itself shows where the list ends (a page shorter than its limit).
 */
export const COUNT_CAP = 10_000;

export interface ListAnswer<Row> {
  rows: Row[];
  count: number;
  countExact: boolean;
}

export interface ListQuery<Row> {
  /** Fetches one page: the caller builds the select, with its joins, conditions and order. */
  page: (offset: number, limit: number) => Promise<Row[]>;
  /** The base table and the same conditions, for the capped count. Conditions must be on the base table (use EXISTS for related rows). */
  countFrom: PgTable;
  where: SQL | undefined;
}

export async function listPage<Row>(db: Db, query: ListQuery<Row>, offset: number, limit: number): Promise<ListAnswer<Row>> {
  const rows = await query.page(offset, limit);
  // A short page (not the first one empty past the end) tells the total without counting.
  if (rows.length < limit && (rows.length > 0 || offset === 0)) {
    return { rows, count: offset + rows.length, countExact: true };
  }
  const { value, exact } = await cappedCount(db, query.countFrom, query.where);
  return { rows, count: value, countExact: exact };
}

/**
 * One page of a dynamic select's rows in `order`, counted from `countFrom` with the same
 * condition (or with `countWhere`, when the page's condition reads a joined table).
 */
export function orderedPage<Query extends PgSelect>(
  db: Db,
  query: {
    select: () => Query;
    where: SQL | undefined;
    order: Array<SQL | PgColumn>;
    countFrom: PgTable;
    countWhere?: SQL | undefined;
  },
  offset: number,
  limit: number,
): Promise<ListAnswer<Awaited<Query>[number]>> {
  const { select, where, order, countFrom } = query;
  return listPage(
    db,
    {
      page: (o, l) =>
        select()
          .where(where)
          .orderBy(...order)
          .offset(inlined(o))
          .limit(inlined(l)) as unknown as Promise<Awaited<Query>[number][]>,
      countFrom,
      where: 'countWhere' in query ? query.countWhere : where,
    },
    offset,
    limit,
  );
}

export interface CappedCount {
  value: number;
  /** False when the count stopped at COUNT_CAP: there are at least that many. */
  exact: boolean;
}

/**
 * The rows of `table` matching `where`, counted up to COUNT_CAP. The count is kept (per tenant
 * and filter, as the query's text and parameters say) until a table it reads is written, so
 * paging through a list counts once rather than on every page (server/db/table-watch.ts).
 */
export async function cappedCount(db: Db, table: PgTable, where: SQL | undefined): Promise<CappedCount> {
  const count = async (): Promise<CappedCount> => {
    const capped = db
      .select({ one: sql`1` })
      .from(table)
      .where(where)
      .limit(COUNT_CAP + 1)
      .as('capped');
    const [{ n }] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped);
    return n > COUNT_CAP ? { value: COUNT_CAP, exact: false } : { value: n, exact: true };
  };
  // The key is the table and the condition as SQL text and values: building only the condition
  // costs a fraction of building the whole count statement, and says everything that varies.
  const name = getTableName(table);
  const condition = where ? keyDialect.sqlToQuery(where) : { sql: '', params: [] };
  const key = `${name}\u0000${condition.sql}\u0000${JSON.stringify(condition.params)}`;
  return counts.read(db, key, [name, ...tablesRead(condition.sql)], count);
}

const keyDialect = new PgDialect();

/** Kept counts: a few thousand filters, each at most 15 s old for writes this process cannot see. */
const counts = new KeptAnswers<CappedCount>({ ttlMs: 15_000, maxEntries: 2_000 });

/**
 * A page's offset or limit, written into the statement rather than sent as a parameter. PostgreSQL
 * reuses a plan made without the values (a generic plan) only when it knows how many rows are
 * wanted: with `limit $3` it plans every call afresh, which costs more than running the page
 * itself. Both are validated integers, so writing them in is safe; each page is then a statement
 * of its own text, and server/db/statement-cache.ts bounds how many a connection keeps.
 * (Typed as a number for Drizzle's offset() and limit(), which write an SQL value in as it is.)
 */
export function inlined(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a number of rows: ${n}`);
  return sql.raw(String(n)) as unknown as number;
}

/** `{ offset, limit }` path parameters. */
export const pageParams = z.object({ offset: offsetParam, limit: limitParam });

/** One value or a list of values; empty means no filter. */
export const choiceFilter = <T extends z.ZodType<string>>(item: T) =>
  z
    .union([item, z.array(item).max(200, 'may hold at most 200 values')])
    .nullish()
    .transform((value): string[] => (value == null ? [] : (Array.isArray(value) ? value : [value]).filter((v) => v !== '')));

const textChoice = z.string({ error: 'must be a string or a list of strings' }).max(200, 'must be at most 200 characters');
/** A filter on a text column (status, model, operation...). */
export const textChoiceFilter = choiceFilter(textChoice);
/** A filter on ids; an empty string counts as "no filter". */
export const idChoiceFilter = choiceFilter(z.union([z.literal(''), z.uuid({ error: 'must be a valid id or a list of ids' })]));

/** true/false, as booleans or their text; one value or both (both, or none: no filter). */
const booleanChoice = z.union([z.boolean(), z.enum(['true', 'false', ''])], { error: 'must be true or false' });
export const booleanFilter = z
  .union([booleanChoice, z.array(booleanChoice).max(2, 'may hold at most 2 values')], { error: 'must be true or false' })
  .nullish()
  .transform((value): boolean[] => [
    ...new Set(
      (value == null ? [] : Array.isArray(value) ? value : [value]).filter((v) => v !== '').map((v) => v === true || v === 'true'),
    ),
  ]);

/** `2026-11-01` or a full ISO timestamp. A bare date as endDate covers that whole day (UTC). */
function dateFilter(endOfDay: boolean) {
  return z
    .union([z.string().max(40), z.null()])
    .optional()
    .transform((value, ctx): Date | null => {
      if (value == null || value === '') return null;
      const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
      const date = new Date(bare ? `${value}T00:00:00.000Z` : value);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'must be a date such as 2026-11-01' });
        return z.NEVER;
      }
      if (bare && endOfDay) {
        date.setUTCDate(date.getUTCDate() + 1);
        date.setUTCMilliseconds(-1);
      }
      return date;
    });
}
export const startDateFilter = dateFilter(false);
export const endDateFilter = dateFilter(true);
export const searchFilter = z
  .union([z.string().max(200, 'must be at most 200 characters'), z.null()])
  .optional()
  .transform((value) => (value ?? '').trim());

/** The filters most lists end with: when their rows were made, and a search text. */
export const periodAndSearchFilters = { startDate: startDateFilter, endDate: endDateFilter, search: searchFilter };

/** A filter body: known fields only, so a misspelt field is a 400 that names it rather than a silently ignored filter. */
export function filterBody<Shape extends z.ZodRawShape>(shape: Shape) {
  // No body at all is "no filter": the fields' own defaults (empty lists, no dates) still apply.
  return z.preprocess((body) => body ?? {}, z.object({ ...shape, offset: offsetParam.optional(), limit: limitParam.optional() }).strict());
}

/** `{ order, field }` path parameters of a filter route, restricted to the list's sortable fields. */
export function sortParams<F extends string>(fields: readonly [F, ...F[]]) {
  return z.object({
    order: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(['ASC', 'DESC'], { error: 'must be ASC or DESC' })),
    field: z.enum(fields, { error: `must be one of ${fields.join(', ')}` }),
  });
}

export function orderBy(column: AnyColumn | SQL, order: 'ASC' | 'DESC'): SQL {
  return order === 'ASC' ? asc(column) : desc(column);
}

// ---- Conditions -------------------------------------------------------------------------------

export function anyOf(column: AnyColumn, values: readonly string[]): SQL | undefined {
  if (values.length === 0) return undefined;
  return inArray(column, values as string[]);
}

/** A condition on a boolean column from a booleanFilter's values: both values (or none) filter nothing. */
export function booleanIs(column: AnyColumn, values: readonly boolean[]): SQL | undefined {
  return values.length === 1 ? eq(column, values[0]) : undefined;
}

export function within(column: AnyColumn, start: Date | null, end: Date | null): SQL | undefined {
  return and(start ? gte(column, start) : undefined, end ? lte(column, end) : undefined);
}

/** `%` and `_` typed by a user are literal characters, not wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Several text fields as one text to search: joined by a unit separator, which nobody types, so
 * that a search never matches across two fields. A big list searches one such expression, and a
 * trigram index over exactly the same expression answers `ilike '%text%'` (server/db/migrations
 * 0005 and 0007: change an expression only together with its index). The parts are written as
 * they are, without parentheses: the index matches only an expression of the same shape.
 */
export function searchText(...parts: Array<AnyColumn | SQL>): SQL {
  return sql`(${sql.join(parts, sql` || E'\x1f' || `)})`;
}

/** A nullable text as '' when null, for searchText. */
export const orEmpty = (text: AnyColumn | SQL): SQL => sql`coalesce(${text}, '')`;

export function searching(columns: Array<AnyColumn | SQL>, text: string): SQL | undefined {
  if (!text) return undefined;
  const pattern = likePattern(text);
  return or(...columns.map((column) => ilike(column as AnyColumn, pattern)));
}

/** The choices of a filter bar: `{ id, name }` pairs. */
export interface Choice {
  id: string;
  name: string;
}

export const choicesOf = (values: readonly string[], label: (value: string) => string = humanise): Choice[] =>
  values.map((id) => ({ id, name: label(id) }));

/** `password_change` → `Password change`. */
export function humanise(value: string): string {
  const spaced = value
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export interface Card {
  key: string;
  label: string;
  value: number;
  link?: string;
}

/** A card's figure: `count(*)` as a number, or only the rows `condition` holds for. */
export function counted(condition?: SQL): SQL<number> {
  return (condition ? sql<number>`count(*) filter (where ${condition})` : sql<number>`count(*)`).mapWith(Number);
}

/** The page a filter asks for: the body's offset and limit where it gives them, else the query's. */
export function bodyPage(body: { offset?: number; limit?: number }, query: { offset: number; limit: number }) {
  return { offset: body.offset ?? query.offset, limit: body.limit ?? query.limit };
}

/** Fixed choices from `{ id: name }`, in the order written: `{ true: 'Active', false: 'Inactive' }`. */
export const labelledChoices = (labels: Record<string, string>): Choice[] => Object.entries(labels).map(([id, name]) => ({ id, name }));
