import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ZodObject } from 'zod';
import type { EntityContract } from '../../common/contract/define';
import { anyOf, DEFERRED_JOIN_FROM, deferredIds, inlined, listPage, orderBy, searching, type ListAnswer } from '../http/lists';
import type { EntityRepository, EntityRow, EntityScope, PageRequest } from './entity-routes';

/** A table of one company's records: an `id` and a `companyId` column beside the entity's own. */
export type CompanyTable = PgTable & { id: PgColumn; companyId: PgColumn };

export interface CompanyTableOptions<Table extends CompanyTable> {
  contract: EntityContract;
  table: Table;
  /** The 409 answer when a create or change breaks one of the table's unique keys (a name taken). */
  taken?: string;
  /** Columns a create fills beside the body (its creator, say). */
  created?: (scope: EntityScope) => Partial<Table['$inferInsert']>;
  /** The choices of the filter bar (`GET …/filter/props`). */
  filterProps?: EntityRepository['filterProps'];
  /** The related lists of the contract, by target: the column that holds the record's id. */
  related?: Readonly<Record<string, keyof Table['_']['columns'] & string>>;
}

/**
 * The repository of a plain company table, read and written as the contract says, for an entity
 * with no rule of its own beyond a unique key. A row answers the contract's row fields (each the
 * table column of the same name); lists order by its sortable fields, then by id; a filter body
 * keeps the rows whose column is one of a list's values (or equals a single value), and its
 * `search`, like the search route, looks in the searchable fields; activation flips the
 * contract's activation field. Every statement is bounded to the caller's company. An entity with
 * rules of its own (a join, a soft delete) writes its repository, or spreads this one and replaces
 * what differs. The names it needs are checked once, at start, so a misspelt field fails there.
 */
export function companyTableRepository<Row extends EntityRow, Table extends CompanyTable>(
  options: CompanyTableOptions<Table>,
): EntityRepository<Row> {
  const { contract, table } = options;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const column = (field: string, use: string): PgColumn => {
    const found = columns[field];
    if (!found) throw new Error(`The ${use} of ${contract.name} names "${field}", which is not a column of its table`);
    return found;
  };
  const rowShape = (contract.row as ZodObject | undefined)?.shape;
  if (!rowShape) throw new Error(`The contract of ${contract.name} has no row schema to read its table by`);
  const selected = Object.fromEntries(Object.keys(rowShape).map((field) => [field, column(field, 'row')]));
  const fields = contract.fields ?? [];
  const sortable = Object.fromEntries(fields.filter((f) => f.sortable).map((f) => [f.source, column(f.source, 'sortable field')]));
  const searchable = fields.filter((f) => f.searchable).map((f) => column(f.source, 'searchable field'));
  const filterShape = (contract.bodies?.filter as ZodObject | undefined)?.shape ?? {};
  const filterable = Object.fromEntries(
    Object.keys(filterShape)
      .filter((field) => field !== 'search')
      .map((field) => [field, column(field, 'filter body')]),
  );
  const relatedColumns = Object.fromEntries(
    Object.entries(options.related ?? {}).map(([target, field]) => [target, column(field, `related list ${target}`)]),
  );
  const activation = contract.activation?.field;
  if (activation) column(activation, 'activation field');

  const mine = (scope: EntityScope, ...conditions: Array<SQL | undefined>) => and(eq(table.companyId, scope.auth.companyId), ...conditions);
  const page = (scope: EntityScope, where: SQL | undefined, request: PageRequest) => {
    const sorted = sortable[request.sort.field] ?? table.id;
    // The id breaks ties in the same direction, so that one (company_id, column, id) index serves the order both ways.
    const order = [orderBy(sorted, request.sort.order), orderBy(table.id, request.sort.order)];
    return listPage(
      scope.db,
      {
        page: async (offset, limit) =>
          offset >= DEFERRED_JOIN_FROM
            ? scope.db
                .select(selected)
                .from(table as PgTable)
                .where(await deferredIds(scope.db, { table, id: table.id, where, order }, offset, limit))
                .orderBy(...order)
                .limit(inlined(limit))
            : scope.db
                .select(selected)
                .from(table as PgTable)
                .where(where)
                .orderBy(...order)
                .offset(inlined(offset))
                .limit(inlined(limit)),
        countFrom: table,
        where,
      },
      request.offset,
      request.limit,
    ) as Promise<ListAnswer<Row>>;
  };
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const condition = (field: string, value: unknown): SQL | undefined => {
    if (field === 'search') return searching(searchable, text(value));
    if (Array.isArray(value)) return anyOf(filterable[field], value as string[]);
    return value === undefined || value === null ? undefined : eq(filterable[field], value);
  };

  return {
    taken: options.taken,
    list: (scope, request) => page(scope, mine(scope), request),
    filter: (scope, body, request) =>
      page(scope, mine(scope, ...Object.entries(body).map(([field, value]) => condition(field, value))), request),
    search: (scope, value, request) => page(scope, mine(scope, searching(searchable, text(value))), request),
    filterProps: options.filterProps,
    async one(scope, id) {
      const [row] = await scope.db
        .select(selected)
        .from(table as PgTable)
        .where(mine(scope, eq(table.id, id)));
      return (row as Row | undefined) ?? null;
    },
    async create(scope, body) {
      const values = { ...body, ...options.created?.(scope), companyId: scope.auth.companyId };
      const [row] = await scope.db
        .insert(table)
        .values(values as Table['$inferInsert'])
        .returning({ id: table.id });
      return String(row.id);
    },
    async update(scope, id, body) {
      await scope.db
        .update(table)
        .set(body as Partial<Table['$inferInsert']>)
        .where(mine(scope, eq(table.id, id)));
    },
    async setActive(scope, id, active) {
      if (!activation) throw new Error(`The contract of ${contract.name} has no activation field`);
      await scope.db
        .update(table)
        .set({ [activation]: active } as Partial<Table['$inferInsert']>)
        .where(mine(scope, eq(table.id, id)));
    },
    async remove(scope, id) {
      await scope.db.delete(table).where(mine(scope, eq(table.id, id)));
    },
    related: Object.fromEntries(
      Object.entries(relatedColumns).map(([target, holder]) => [
        target,
        (scope: EntityScope, id: string, request: PageRequest) => page(scope, mine(scope, eq(holder, id)), request),
      ]),
    ),
  };
}
