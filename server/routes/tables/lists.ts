import type { FastifyInstance } from 'fastify';
import { and, asc, desc, eq, exists, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { CONNECTION_TYPE_CATALOGUE } from '../../../common/connections';
import { connectionTablesAnswer, tableCardsAnswer, tableFilterPropsAnswer, tableListAnswer } from '../../../common/contract/tables';
import { connections, dataTables, qualityRules, qualityRuns, tableColumns } from '../../db/schema';
import { anyOf, counted, filterBody, idChoiceFilter, orderedPage, searching, textChoiceFilter, type Card } from '../../http/lists';
import { answerRoute } from '../../platform/answer-route';
import { registerListRoutes, type PagePlace } from '../../platform/list-routes';
import { ownedChoices, ownedConditions, ownedFilterFields } from '../../platform/owned-records';
import { companyTables, selectTables } from '../../tables/records';
import { idParams, reading } from './routing';

const tableFilter = filterBody({
  connection: idChoiceFilter,
  ...ownedFilterFields,
  endpoint: textChoiceFilter,
  source: textChoiceFilter,
});

const tableSearch = (text: string) => searching([dataTables.name, dataTables.description, dataTables.endpoint], text);

function tableConditions(filter: z.output<typeof tableFilter>): SQL | undefined {
  return and(
    anyOf(dataTables.connectionId, filter.connection ?? []),
    ownedConditions(dataTables, filter),
    anyOf(dataTables.endpoint, filter.endpoint ?? []),
    anyOf(connections.type, filter.source ?? []),
    tableSearch(filter.search ?? ''),
  );
}

/** The list of registered tables: its pages, filter, search, filter choices and cards, and the tables of one connection. */
export function tableListRoutes(app: FastifyInstance): void {
  const { db } = app.ctx;

  const listOf = (companyId: string, where: SQL | undefined, { offset, limit }: PagePlace) => {
    return orderedPage(
      db,
      {
        select: () => selectTables(db),
        where: companyTables(companyId, where),
        order: [desc(dataTables.createdAt), desc(dataTables.id)],
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
  };

  const filterChoices = async (companyId: string) => {
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
  };

  const cards = async (companyId: string): Promise<Card[]> => {
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
      db
        .select({ total: counted() })
        .from(dataTables)
        .where(
          and(
            eq(dataTables.companyId, companyId),
            sql`(select r.status from ${qualityRuns} r where r.company_id = ${dataTables.companyId} and r.table_id = ${dataTables.id} order by r.started_at desc limit 1) in ('failed', 'error')`,
          ),
        ),
    ]);
    return [
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
    ];
  };

  registerListRoutes(app, reading, {
    answer: tableListAnswer,
    message: 'Tables',
    page: listOf,
    list: { path: '/tables/:offset/:limit', summary: 'List the tables' },
    filter: { path: '/tables/filters/:offset/:limit', summary: 'Filter the tables', body: tableFilter, where: tableConditions },
    search: { path: '/tables/search/:offset/:limit', summary: 'Search the tables', where: tableSearch },
    props: {
      path: '/tables/filters',
      summary: 'Choices of the table filters',
      answer: tableFilterPropsAnswer,
      message: 'Table filters',
      data: filterChoices,
    },
    cards: { path: '/tables/topCards', summary: 'Counts of tables', answer: tableCardsAnswer, message: 'Table cards', cards },
  });

  answerRoute(
    app,
    reading,
    {
      method: 'GET',
      path: '/table/connection/:id',
      summary: 'The tables of a connection',
      params: idParams,
      answer: connectionTablesAnswer,
    },
    async ({ auth, params }) => {
      const rows = await selectTables(db)
        .where(companyTables(auth.companyId, eq(dataTables.connectionId, params.id)))
        .orderBy(asc(sql`lower(${dataTables.name})`));
      return { message: 'Tables of the connection', data: rows };
    },
  );
}
