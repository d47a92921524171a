import {
  and,
  asc,
  Column,
  desc,
  eq,
  getTableColumns,
  getTableName,
  gte,
  ilike,
  inArray,
  is,
  lte,
  or,
  Param,
  SQL,
  sql,
  StringChunk,
  type AnyColumn,
  type SQLWrapper,
} from 'drizzle-orm';
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
  // A condition that reads a joined table (countWhere given) or an order by one cannot cut the ids from the base table alone.
  const idColumn = (getTableColumns(countFrom) as Record<string, PgColumn | undefined>).id;
  const deferrable = idColumn !== undefined && !('countWhere' in query) && readsOnly(countFrom, where, ...order);
  return listPage(
    db,
    {
      page: async (o, l) =>
        (deferrable && o >= DEFERRED_JOIN_FROM
          ? select()
              .where(await deferredIds(db, { table: countFrom, id: idColumn, where, order }, o, l))
              .orderBy(...order)
              .limit(inlined(l))
          : select()
              .where(where)
              .orderBy(...order)
              .offset(inlined(o))
              .limit(inlined(l))) as unknown as Promise<Awaited<Query>[number][]>,
      countFrom,
      where: 'countWhere' in query ? query.countWhere : where,
    },
    offset,
    limit,
  );
}

/**
 * From this offset on, a page reads the ids of its rows first and then the rows by id (a deferred
 * join). The rows an offset skips are then read from the index of the list's order alone
 * (company_id, column, id: migration 0018) instead of each being fetched whole, which at offset
 * 500,000 is the difference between reading half a million table rows and half a million index
 * entries. The first pages read their rows directly, which is cheaper there.
 */
export const DEFERRED_JOIN_FROM = 1_000;

/**
 * `id = any(the ids of the page)`: the page's ids cut by `order`, `offset` and `limit` from `table`
 * alone. The select it goes into orders the rows again (a list of ids has no order). Written as an
 * array, the ids are read once, before the rows: as `id in (select …)` the planner may walk the
 * list's order and look each row up in the subquery, running the deep cut again for every row.
 *
 * Past ANCHOR_STRIDE rows the cut starts from a kept anchor (anchorAt) where the order allows one,
 * so that it reads fewer than ANCHOR_STRIDE index entries however deep the page is.
 */
export async function deferredIds(db: Db, source: DeferredSource, offset: number, limit: number): Promise<SQL> {
  const bucket = Math.floor(offset / ANCHOR_STRIDE);
  const keys = bucket > 0 ? anchorKeys(source) : null;
  const anchor = keys ? await anchorAt(db, source, keys, bucket * ANCHOR_STRIDE) : null;
  const cut = anchor
    ? { where: and(source.where, afterAnchor(keys!, anchor)), offset: offset - bucket * ANCHOR_STRIDE }
    : { where: source.where, offset };
  const ids = db
    .select({ id: source.id })
    .from(source.table)
    .where(cut.where)
    .orderBy(...source.order)
    .offset(inlined(cut.offset))
    .limit(inlined(limit));
  return idAmong(source.id, ids);
}

export interface DeferredSource {
  table: PgTable;
  id: PgColumn;
  where: SQL | undefined;
  order: Array<SQL | PgColumn>;
}

/**
 * Rows between two kept anchors. An anchor is the order's values at row ANCHOR_STRIDE × n of a
 * list: a page n × ANCHOR_STRIDE + k rows deep reads k index entries past it rather than all of
 * them. Finding one costs what the deep page cost without it, once; it is kept, like a count, until
 * a table it read is written (table-watch.ts).
 */
export const ANCHOR_STRIDE = 10_000;

interface OrderKey {
  column: PgColumn;
  descending: boolean;
}

/**
 * The order as columns of the base table, when a row comparison can stand for it: every key a
 * column of `table` that holds no nulls, all in one direction, the id last (so the order is total).
 * Read from the SQL Drizzle's asc() and desc() write (`"col" asc`), or a bare column.
 */
function anchorKeys(source: DeferredSource): OrderKey[] | null {
  const keys: OrderKey[] = [];
  for (const part of source.order) {
    let column: PgColumn | undefined;
    let words = '';
    if (is(part, Column)) column = part as PgColumn;
    else {
      for (const chunk of (part as SQL).queryChunks) {
        if (is(chunk, Column) && !column) column = chunk as PgColumn;
        else if (is(chunk, StringChunk)) words += (chunk as StringChunk).value.join('');
        else return null;
      }
    }
    const direction = words.trim().toLowerCase();
    if (
      !column ||
      column.table !== source.table ||
      (!column.notNull && column !== source.id) ||
      (direction !== '' && direction !== 'asc' && direction !== 'desc')
    )
      return null;
    keys.push({ column, descending: direction === 'desc' });
  }
  if (keys.length === 0 || keys.at(-1)!.column !== source.id || keys.some((key) => key.descending !== keys[0].descending)) return null;
  return keys;
}

/** The order's values, as text, at row `position` of the list (1-based); null when the list is shorter. */
function anchorAt(db: Db, source: DeferredSource, keys: OrderKey[], position: number): Promise<string[] | null> {
  const name = getTableName(source.table);
  const condition = source.where ? keyDialect.sqlToQuery(source.where) : { sql: '', params: [] };
  const order = keys.map((key) => `${key.column.name} ${key.descending ? 'desc' : 'asc'}`).join(',');
  const cacheKey = `${name}\u0000${condition.sql}\u0000${JSON.stringify(condition.params)}\u0000${order}\u0000${position}`;
  return anchors.read(db, cacheKey, [name, ...tablesRead(condition.sql)], async () => {
    // Text keeps every digit (a timestamp's microseconds, which a JavaScript date would drop).
    const fields = Object.fromEntries(keys.map((key, i) => [`k${i}`, sql<string>`${key.column}::text`]));
    const [row] = await db
      .select(fields)
      .from(source.table)
      .where(source.where)
      .orderBy(...source.order)
      .offset(inlined(position - 1))
      .limit(1);
    return row ? keys.map((_, i) => String((row as Record<string, unknown>)[`k${i}`])) : null;
  });
}

/** The rows after an anchor in the keys' order: one row comparison, which the order's index reads as a range. */
function afterAnchor(keys: OrderKey[], anchor: string[]): SQL {
  const columns = sql.join(
    keys.map((key) => sql`${key.column}`),
    sql`, `,
  );
  const values = sql.join(
    keys.map((key, i) => sql`cast(${anchor[i]} as ${sql.raw(key.column.getSQLType())})`),
    sql`, `,
  );
  return keys[0].descending ? sql`(${columns}) < (${values})` : sql`(${columns}) > (${values})`;
}

/** Kept anchors: a list's position and filter each, until a table they read is written. */
const anchors = new KeptAnswers<string[] | null>({ ttlMs: 15_000, maxEntries: 1_000 });

/** `id = any(array(select …))`: the ids are read once, before the rows they name (deferredIds says why). */
export function idAmong(id: AnyColumn, ids: SQL | SQLWrapper): SQL {
  return sql`${id} = any(array(${ids}))`;
}

/**
 * Whether every column the parts name is one of `table`'s: a condition and an order the page's
 * ids can be cut by from that table alone. Anything else it cannot see into (a subquery, another
 * table's column) says no.
 */
export function readsOnly(table: PgTable, ...parts: Array<SQL | PgColumn | undefined>): boolean {
  const walk = (part: unknown): boolean => {
    if (part === undefined || part === null) return true;
    if (is(part, Column)) return (part as PgColumn).table === table;
    if (is(part, SQL)) return (part as SQL).queryChunks.every(walk);
    if (Array.isArray(part)) return part.every(walk);
    return is(part, StringChunk) || is(part, Param) || typeof part !== 'object';
  };
  return parts.every(walk);
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

/** Kept counts: a few thousand filters, each at most 15 s old for writes made without a server (psql). */
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
