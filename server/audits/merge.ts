import { eq, type AnyColumn, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { inlined } from '../http/lists';

/** Past this many values a merge costs more queries than it saves; `IN (…)` serves. */
const MERGE_MAX_VALUES = 12;

/**
 * Which filtered column, if any, to page "one index range per value, merged". A list filtered on
 * several values of an indexed column (two models, three users) cannot read one index range in
 * order: the planner either walks the whole newest-first index filtering rows out, or collects
 * every matching row and sorts them, and without fresh statistics (PGlite never gathers them on
 * its own) it picks the sort. Reading `offset + limit` rows from each value's own
 * (company_id, value, created_at) range and merging them costs a few short index reads whatever
 * the statistics say.
 *
 * None when one of the indexed filters names a single value (that index serves directly) or
 * none names several.
 */
export function mergeColumn(
  filters: ReadonlyArray<readonly [AnyColumn, readonly string[]]>,
): { column: AnyColumn; values: string[] } | null {
  const distinct = filters.map(([column, values]) => [column, [...new Set(values)]] as const);
  if (distinct.some(([, values]) => values.length === 1)) return null;
  const several = distinct.find(([, values]) => values.length > 1 && values.length <= MERGE_MAX_VALUES);
  return several ? { column: several[0], values: [...several[1]] } : null;
}

/** One page of a list, read "one index range per value, merged" when mergeColumn says so, else directly. */
export async function readPage<Row>(
  part: (condition?: SQL) => { offset(n: number): { limit(n: number): PromiseLike<Row[]> }; limit(n: number): unknown },
  filters: ReadonlyArray<readonly [AnyColumn, readonly string[]]>,
  order: SQL[],
  offset: number,
  limit: number,
): Promise<Row[]> {
  const merge = mergeColumn(filters);
  if (!merge) return part().offset(inlined(offset)).limit(inlined(limit));
  // Each value's range gives its newest offset + limit rows; the merge keeps the page asked for.
  const ranges = merge.values.map((value) => part(eq(merge.column, value)).limit(inlined(offset + limit))) as unknown as Parameters<
    typeof unionAll
  >;
  return (await unionAll(...ranges)
    .orderBy(...order)
    .offset(inlined(offset))
    .limit(inlined(limit))) as Row[];
}
