import { and, asc, desc, eq, exists, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { CONNECTION_TYPE_CATALOGUE } from '../../../common/connections';
import type { Db } from '../../db/client';
import { connections, dataTables, qualityRules, tableColumns } from '../../db/schema';
import { anyOf, counted, filterBody, idChoiceFilter, orderedPage, searching, textChoiceFilter } from '../../http/lists';
import type { EntityRepository } from '../../platform/entity-routes';
import type { ListSort } from '../../../common/contract/routes';
import { sortedOrder } from '../../platform/list-sort';
import { ownedChoices, ownedConditions, ownedFilterFields } from '../../platform/owned-records';
import { companyTables, failingTables, findTable, selectTables, type TableRow } from '../../tables/records';

export const tableFilterBody = filterBody({
  connection: idChoiceFilter,
  ...ownedFilterFields,
  endpoint: textChoiceFilter,
  source: textChoiceFilter,
});
type TableFilter = Partial<z.output<typeof tableFilterBody>>;

/** Name, description and endpoint hold the text. */
export const tableSearch = (text: string) => searching([dataTables.name, dataTables.description, dataTables.endpoint], text);

function tableConditions(filter: TableFilter): SQL | undefined {
  return and(
    anyOf(dataTables.connectionId, filter.connection ?? []),
    ownedConditions(dataTables, filter),
    anyOf(dataTables.endpoint, filter.endpoint ?? []),
    anyOf(connections.type, filter.source ?? []),
    tableSearch(filter.search ?? ''),
  );
}

/** The columns the table lists sort by (the contract's sortable fields). */
const sortColumns = {
  createdAt: dataTables.createdAt,
  name: sql`lower(${dataTables.name})`,
  endpoint: dataTables.endpoint,
  isActive: dataTables.isActive,
  discoveredAt: dataTables.discoveredAt,
  updatedAt: dataTables.updatedAt,
};

/** One page of the company's tables that `where` holds for, newest first unless `sort` says. */
export function tablePage(db: Db, companyId: string, where: SQL | undefined, offset: number, limit: number, sort?: ListSort) {
  return orderedPage(
    db,
    {
      select: () => selectTables(db),
      where: companyTables(companyId, where),
      order: sortedOrder(sort, sortColumns, dataTables.id, [desc(dataTables.createdAt), desc(dataTables.id)]),
      countFrom: dataTables,
      // The count reads data_tables alone: a condition on the connection's type goes through EXISTS.
      countWhere: companyTables(
        companyId,
        where &&
          sql`exists (select 1 from ${connections} where ${connections.companyId} = ${dataTables.companyId} and ${connections.id} = ${dataTables.connectionId} and ${where})`,
      ),
    },
    offset,
    limit,
  );
}

/**
 * How registered tables are read by the standard calls. Registering and editing one reads its
 * source and its dictionary, so those are the module's own.
 */
export const tableRepository: EntityRepository<TableRow> = {
  list: ({ db, auth }, page) => tablePage(db, auth.companyId, undefined, page.offset, page.limit),
  filter: ({ db, auth }, body, page) =>
    tablePage(db, auth.companyId, tableConditions(body as TableFilter), page.offset, page.limit, page.sort),
  search: ({ db, auth }, text, page) => tablePage(db, auth.companyId, tableSearch(text), page.offset, page.limit),

  // A missing table is findTable's 404, worded as every other call on a table words it.
  one: ({ db, auth }, id) => findTable(db, auth.companyId, id),

  async filterProps({ db, auth: { companyId } }) {
    const [connectionChoices, owned, endpoints] = await Promise.all([
      db
        .select({ id: connections.id, name: connections.name, type: connections.type })
        .from(connections)
        .where(
          and(
            eq(connections.companyId, companyId),
            exists(
              db
                .select({ one: sql`1` })
                .from(dataTables)
                .where(and(eq(dataTables.companyId, companyId), eq(dataTables.connectionId, connections.id))),
            ),
          ),
        )
        .orderBy(asc(sql`lower(${connections.name})`)),
      ownedChoices(db, companyId, dataTables),
      db
        .selectDistinct({ endpoint: dataTables.endpoint })
        .from(dataTables)
        .where(eq(dataTables.companyId, companyId))
        .orderBy(asc(dataTables.endpoint)),
    ]);
    const types = new Set(connectionChoices.map((c) => c.type));
    return {
      connection: connectionChoices.map(({ id, name }) => ({ id, name })),
      ...owned,
      endpoint: endpoints.map(({ endpoint }) => ({ id: endpoint, name: endpoint })),
      source: CONNECTION_TYPE_CATALOGUE.filter((t) => types.has(t.type)).map((t) => ({ id: t.type, name: t.label })),
    };
  },

  async cards({ db, auth: { companyId } }) {
    const [[tables], [columns], [rules], [failing]] = await Promise.all([
      db
        .select({ total: counted(), active: counted(sql`${dataTables.isActive}`) })
        .from(dataTables)
        .where(eq(dataTables.companyId, companyId)),
      db
        .select({ total: counted(), described: counted(sql`${tableColumns.description} <> ''`) })
        .from(tableColumns)
        .where(and(eq(tableColumns.companyId, companyId), eq(tableColumns.present, true))),
      db.select({ total: counted() }).from(qualityRules).where(eq(qualityRules.companyId, companyId)),
      db.select({ total: counted() }).from(dataTables).where(failingTables(companyId)),
    ]);
    return {
      cards: [
        { key: 'total', label: 'Tables', value: tables.total },
        { key: 'active', label: 'Active', value: tables.active },
        { key: 'columns', label: 'Columns', value: columns.total },
        {
          key: 'described',
          label: 'Columns described (%)',
          value: columns.total === 0 ? 0 : Math.round((100 * columns.described) / columns.total),
        },
        { key: 'rules', label: 'Data-quality rules', value: rules.total },
        { key: 'failing', label: 'Failing tables', value: failing.total },
      ],
    };
  },
};
