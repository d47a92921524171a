import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ListSort } from '../../common/contract/routes';

/** The column (or expression) each sortable field of a list is ordered by. */
export type SortColumns = Readonly<Record<string, AnyColumn | SQL>>;

/**
 * The ORDER BY of a list page: the field asked for (one the contract marks sortable, checked by
 * the route) with the row id as its tie-breaker in the same direction, so that paging is stable;
 * the list's own order when no field is asked for or the field is the list's default one.
 */
export function sortedOrder(
  sort: ListSort | undefined,
  columns: SortColumns,
  idColumn: AnyColumn,
  ownOrder: SQL[],
  defaultSort?: ListSort,
): SQL[] {
  if (!sort?.field) return ownOrder;
  if (defaultSort && sort.field === defaultSort.field && sort.order === defaultSort.order) return ownOrder;
  const column = columns[sort.field];
  if (!column) return ownOrder;
  const direction = sort.order === 'ASC' ? asc : desc;
  return [direction(column), direction(idColumn)];
}
