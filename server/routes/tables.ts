import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { and, asc, desc, eq, exists, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { CONNECTION_TYPE_CATALOGUE, connectionTypeOf } from '../../common/connections';
import { messageAnswer } from '../../common/contract/answers';
import { dictionaryCsvFile, dictionaryListAnswer, dictionaryUploadAnswer } from '../../common/contract/answers/dictionary';
import { qualityRuleAnswer, qualityRuleListAnswer, qualityRunAnswer, type QualityRule } from '../../common/contract/answers/quality';
import {
  connectionTablesAnswer,
  tableAnswer,
  tableCardsAnswer,
  tableColumnsRefreshAnswer,
  tableFilterPropsAnswer,
  tableListAnswer,
} from '../../common/contract/tables';
import { FUNCTION_TYPE_OF, PARAMS_OF, qualityRuleBody } from '../../common/schemas/quality';
import { activateRoleBody as activationBody } from '../../common/schemas/roles';
import { registerTableBody, updateTableBody } from '../../common/schemas/tables';
import { recordAudit } from '../audit';
import { requireAuth } from '../auth/guard';
import { connectionConfig } from '../connections/records';
import { within as withinTime } from '../connectors/registry';
import { ConnectorError, isTableSource, type ColumnInfo, type ConnectionConfig } from '../connectors/types';
import { connections, dataTables, qualityRules, qualityRuns, tableColumns } from '../db/schema';
import { usersWho } from '../audits/people';
import { liveWorkspaceId, workspaceChoices } from '../workspaces/records';
import { isUniqueViolation } from '../http/database-errors';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import {
  anyOf,
  endDateFilter,
  filterBody,
  idChoiceFilter,
  inlined,
  listPage,
  pageParams,
  searchFilter,
  searching,
  startDateFilter,
  textChoiceFilter,
  within,
  type Card,
  type ListAnswer,
} from '../http/lists';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import { checkCompanySql, companySqlDialectOf } from '../sql/company-sql';
import { runTableChecks } from '../tables/run-checks';
import { applyDictionaryEdits, dictionaryCsv, DICTIONARY_UPLOAD_MAX_BYTES, readDictionaryUpload } from '../tables/dictionary';
import { newestRulesFirst, rulesOf, selectRules, type RuleRow } from '../tables/quality';
import { companyTables, dictionaryOf, findTable, selectDictionary, selectTables, wholeDictionary } from '../tables/records';
import { built, type Built } from '../platform/answers';

const TAGS = ['Tables'];

/** A rule as its query reads it; the query types its newest result (read with json_build_object) as any object. */
type RuleWithResult = Omit<RuleRow, 'lastResult'> & { lastResult: Built<QualityRule['lastResult']> };
const idParams = z.object({ id: uuidParam });
const tablePageParams = z.object({ id: uuidParam, offset: offsetParam, limit: limitParam });
const read = { policy: ['tables', 'read'] as const };
const update = { policy: ['tables', 'update'] as const };

export const TABLE_TAKEN = 'endpoint: this table is already registered from this connection';
/** How long reading a table's columns may take. */
const DISCOVERY_TIMEOUT_MS = 30_000;

const tableFilter = filterBody({
  connection: idChoiceFilter,
  user: idChoiceFilter,
  workspace: idChoiceFilter,
  startDate: startDateFilter,
  endDate: endDateFilter,
  search: searchFilter,
  endpoint: textChoiceFilter,
  source: textChoiceFilter,
});
type TableFilter = z.output<typeof tableFilter>;

const tableSearch = (text: string) => searching([dataTables.name, dataTables.description, dataTables.endpoint], text);

function tableConditions(filter: TableFilter): SQL | undefined {
  return and(
    anyOf(dataTables.connectionId, filter.connection ?? []),
    anyOf(dataTables.createdBy, filter.user ?? []),
    anyOf(dataTables.workspaceId, filter.workspace ?? []),
    anyOf(dataTables.endpoint, filter.endpoint ?? []),
    anyOf(connections.type, filter.source ?? []),
    within(dataTables.createdAt, filter.startDate ?? null, filter.endDate ?? null),
    tableSearch(filter.search ?? ''),
  );
}

const ruleFilter = filterBody({
  functionType: textChoiceFilter,
  functionName: textChoiceFilter,
  searchText: searchFilter,
  tableId: z.string().optional(),
});

const ruleSearch = (text: string) => searching([qualityRules.name, qualityRules.functionName, qualityRules.columnName], text);

/**
 * A custom rule's query is checked as it is saved, in the dialect of the table's connection, so a
 * query that may not run is refused now rather than at every run (where it is checked again).
 * A connection whose SQL is not checked here (Databricks) saves it as it is.
 */
async function checkCustomSql(query: string, connectionType: string | null | undefined): Promise<void> {
  const dialect = companySqlDialectOf(connectionType);
  if (!dialect) return;
  try {
    await checkCompanySql(dialect, query);
  } catch (err) {
    if (err instanceof ConnectorError) throw badRequest(`params.sql: ${err.message}`);
    throw err;
  }
}

/** The table's name when none is given: the endpoint's last part, without a file's extension. */
function defaultName(endpoint: string): string {
  const last = endpoint.split(/[/.]/).filter(Boolean);
  const file = endpoint.split('/').pop() ?? endpoint;
  return /\.(csv|parquet)$/i.test(file) ? file.replace(/\.(csv|parquet)$/i, '') : (last.pop() ?? endpoint);
}

/**
 * Tables registered from connections' endpoints, their data dictionaries, and their data-quality
 * rules and runs (docs/api/tables.md).
 */
export async function tableRoutes(app: FastifyInstance) {
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(multipart, { limits: { files: 1, fileSize: DICTIONARY_UPLOAD_MAX_BYTES, fields: 5, parts: 6 } });
  }
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, connectors } = api.ctx;

  const listOf = (companyId: string, where: SQL | undefined, offset: number, limit: number) => {
    const condition = companyTables(companyId, where);
    return listPage(
      db,
      {
        page: (o, l) =>
          selectTables(db).where(condition).orderBy(desc(dataTables.createdAt), desc(dataTables.id)).offset(inlined(o)).limit(inlined(l)),
        countFrom: dataTables,
        // The count reads data_tables alone: a condition on the connection's type goes through EXISTS.
        where: companyTables(
          companyId,
          where &&
            sql`exists (select 1 from ${connections} where ${connections.companyId} = ${dataTables.companyId} and ${connections.id} = ${dataTables.connectionId} and ${where})`,
        ),
      },
      offset,
      limit,
    );
  };

  /** The columns of an endpoint, read from the source now. */
  const discover = (config: ConnectionConfig, endpoint: string): Promise<ColumnInfo[]> =>
    connectors.use(config, async (connector) => {
      if (!isTableSource(connector))
        throw badRequest(`connectionId: a ${connectionTypeOf(config.type)?.label ?? config.type} connection has no tables`);
      return withinTime(DISCOVERY_TIMEOUT_MS, 'Reading the columns', connector.columns(endpoint));
    });

  const tableConfig = async (companyId: string, table: { connectionId: string; connectionName: string }) => {
    const config = await connectionConfig(db, secrets, companyId, table.connectionId);
    if (!config.isActive) throw badRequest(`The connection "${table.connectionName}" is deactivated; activate it first`);
    return config;
  };

  // ---- Lists ----------------------------------------------------------------------------------------

  api.get(
    '/tables/:offset/:limit',
    { config: read, schema: { summary: 'List the tables', tags: TAGS, params: pageParams, response: { 200: tableListAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return built(tableListAnswer, {
        message: 'Tables',
        data: await listOf(companyId, undefined, request.params.offset, request.params.limit),
      });
    },
  );

  api.post(
    '/tables/filters/:offset/:limit',
    {
      config: read,
      schema: { summary: 'Filter the tables', tags: TAGS, params: pageParams, body: tableFilter, response: { 200: tableListAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return built(tableListAnswer, {
        message: 'Tables',
        data: await listOf(companyId, tableConditions(request.body), request.params.offset, request.params.limit),
      });
    },
  );

  api.get(
    '/tables/search/:offset/:limit',
    {
      config: read,
      schema: {
        summary: 'Search the tables',
        tags: TAGS,
        params: pageParams,
        querystring: z.object({ searchText: searchFilter }),
        response: { 200: tableListAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return built(tableListAnswer, {
        message: 'Tables',
        data: await listOf(companyId, tableSearch(request.query.searchText), request.params.offset, request.params.limit),
      });
    },
  );

  api.get(
    '/tables/filters',
    { config: read, schema: { summary: 'Choices of the table filters', tags: TAGS, response: { 200: tableFilterPropsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [connectionChoices, user, workspace, endpoints] = await Promise.all([
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
        usersWho(
          db,
          companyId,
          (userId) =>
            sql`exists (select 1 from ${dataTables} where ${dataTables.companyId} = ${companyId} and ${dataTables.createdBy} = ${userId})`,
        ),
        workspaceChoices(db, companyId),
        db
          .selectDistinct({ endpoint: dataTables.endpoint })
          .from(dataTables)
          .where(eq(dataTables.companyId, companyId))
          .orderBy(asc(dataTables.endpoint)),
      ]);
      const types = new Set(connectionChoices.map((c) => c.type));
      return {
        message: 'Table filters',
        data: {
          connection: connectionChoices.map(({ id, name }) => ({ id, name })),
          user,
          workspace,
          endpoint: endpoints.map(({ endpoint }) => ({ id: endpoint, name: endpoint })),
          source: CONNECTION_TYPE_CATALOGUE.filter((t) => types.has(t.type)).map((t) => ({ id: t.type, name: t.label })),
        },
      };
    },
  );

  api.get(
    '/tables/topCards',
    { config: read, schema: { summary: 'Counts of tables', tags: TAGS, response: { 200: tableCardsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [[tables], [columns], [rules], [failing]] = await Promise.all([
        db
          .select({
            total: sql<number>`count(*)`.mapWith(Number),
            active: sql<number>`count(*) filter (where ${dataTables.isActive})`.mapWith(Number),
          })
          .from(dataTables)
          .where(eq(dataTables.companyId, companyId)),
        db
          .select({
            total: sql<number>`count(*)`.mapWith(Number),
            described: sql<number>`count(*) filter (where ${tableColumns.description} <> '')`.mapWith(Number),
          })
          .from(tableColumns)
          .where(and(eq(tableColumns.companyId, companyId), eq(tableColumns.present, true))),
        db
          .select({ total: sql<number>`count(*)`.mapWith(Number) })
          .from(qualityRules)
          .where(eq(qualityRules.companyId, companyId)),
        db
          .select({
            total: sql<number>`count(*)`.mapWith(Number),
          })
          .from(dataTables)
          .where(
            and(
              eq(dataTables.companyId, companyId),
              sql`(select r.status from ${qualityRuns} r where r.company_id = ${dataTables.companyId} and r.table_id = ${dataTables.id} order by r.started_at desc limit 1) in ('failed', 'error')`,
            ),
          ),
      ]);
      const cards: Card[] = [
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
      return { message: 'Table cards', data: { cards } };
    },
  );

  api.get(
    '/table/connection/:id',
    {
      config: read,
      schema: { summary: 'The tables of a connection', tags: TAGS, params: idParams, response: { 200: connectionTablesAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const rows = await selectTables(db)
        .where(companyTables(companyId, eq(dataTables.connectionId, request.params.id)))
        .orderBy(asc(sql`lower(${dataTables.name})`));
      return built(connectionTablesAnswer, { message: 'Tables of the connection', data: rows });
    },
  );

  // ---- One table --------------------------------------------------------------------------------------

  api.get(
    '/table/:id',
    { config: read, schema: { summary: 'One table', tags: TAGS, params: idParams, response: { 200: tableAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return built(tableAnswer, { message: 'Table', data: await findTable(db, companyId, request.params.id) });
    },
  );

  api.post(
    '/table',
    {
      config: { policy: ['tables', 'create'] },
      schema: {
        summary: "Register a table from a connection's endpoint",
        tags: TAGS,
        body: registerTableBody,
        response: { 201: tableAnswer },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const body = request.body;
      const config = await connectionConfig(db, secrets, auth.companyId, body.connectionId).catch((err) => {
        if (err instanceof HttpError && err.statusCode === 404) throw badRequest('connectionId: no such connection');
        throw err;
      });
      if (!config.isActive) throw badRequest(`connectionId: the connection "${config.name}" is deactivated`);
      const workspaceId = await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      const columns = await discover(config, body.endpoint);
      if (columns.length === 0) throw badRequest(`endpoint: "${body.endpoint}" has no columns`);
      const name = body.name || defaultName(body.endpoint);
      let id: string;
      try {
        id = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(dataTables)
            .values({
              companyId: auth.companyId,
              connectionId: body.connectionId,
              endpoint: body.endpoint,
              name,
              description: body.description ?? '',
              workspaceId,
              discoveredAt: new Date(),
              createdBy: auth.userId,
            })
            .returning({ id: dataTables.id });
          await tx.insert(tableColumns).values(
            columns.map((column) => ({
              companyId: auth.companyId,
              tableId: created.id,
              name: column.name,
              position: column.position,
              dataType: column.dataType,
              nullable: column.nullable,
            })),
          );
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: 'create',
            recordId: created.id,
            changes: { after: { name, endpoint: body.endpoint, connectionId: body.connectionId, workspaceId, columns: columns.length } },
          });
          return created.id;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(TABLE_TAKEN);
        throw err;
      }
      return reply.code(201).send(
        built(tableAnswer, {
          message: `Table "${name}" registered with ${columns.length} columns`,
          data: await findTable(db, auth.companyId, id),
        }),
      );
    },
  );

  api.put(
    '/table/:id',
    {
      config: update,
      schema: {
        summary: 'Edit a table and its dictionary entries',
        tags: TAGS,
        params: idParams,
        body: updateTableBody,
        response: { 200: tableAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const body = request.body;
      const table = await findTable(db, auth.companyId, id);
      const dictionary = body.columns ? await wholeDictionary(db, auth.companyId, id) : [];
      if (body.columns) {
        const known = new Set(dictionary.map((entry) => entry.name));
        const unknown = body.columns.filter((c) => !known.has(c.name)).map((c) => `"${c.name}"`);
        if (unknown.length > 0)
          throw badRequest(`columns: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a column' : 'are not columns'} of this table`);
        const names = body.columns.map((c) => c.name);
        const twice = names.filter((n, i) => names.indexOf(n) !== i);
        if (twice.length > 0) throw badRequest(`columns: "${twice[0]}" is given twice`);
      }
      const workspaceId = body.workspaceId === undefined ? table.workspaceId : await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      const before = { name: table.name, description: table.description, workspaceId: table.workspaceId };
      const after = { name: body.name ?? table.name, description: body.description ?? table.description, workspaceId };
      const was: Record<string, unknown> = {};
      const now: Record<string, unknown> = {};
      for (const key of Object.keys(after) as Array<keyof typeof after>) {
        if (before[key] !== after[key]) {
          was[key] = before[key];
          now[key] = after[key];
        }
      }
      const outcome = await db.transaction(async (tx) => {
        if (Object.keys(now).length > 0)
          await tx
            .update(dataTables)
            .set({ ...now, updatedAt: new Date() })
            .where(companyTables(auth.companyId, eq(dataTables.id, id)));
        const edits = body.columns ? await applyDictionaryEdits(tx, auth.companyId, id, auth.userId, dictionary, body.columns) : null;
        const columnChanges = edits && edits.updated > 0 ? edits.changes : undefined;
        if (Object.keys(now).length > 0 || columnChanges) {
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: 'update',
            recordId: id,
            changes: { before: was, after: now, ...(columnChanges ? { columns: columnChanges } : {}) },
          });
        }
        return { tableChanged: Object.keys(now).length > 0, columnsUpdated: edits?.updated ?? 0 };
      });
      const message =
        !outcome.tableChanged && outcome.columnsUpdated === 0
          ? 'Nothing to change'
          : outcome.columnsUpdated > 0
            ? `Table "${after.name}" saved (${outcome.columnsUpdated} dictionary ${outcome.columnsUpdated === 1 ? 'entry' : 'entries'})`
            : `Table "${after.name}" saved`;
      return built(tableAnswer, { message, data: await findTable(db, auth.companyId, id) });
    },
  );

  api.post(
    '/table/activate/:id',
    {
      config: update,
      schema: {
        summary: 'Activate or deactivate a table',
        tags: TAGS,
        params: idParams,
        body: activationBody,
        response: { 200: tableAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const { isActive } = request.body;
      const table = await findTable(db, auth.companyId, id);
      if (table.isActive !== isActive) {
        await db.transaction(async (tx) => {
          await tx
            .update(dataTables)
            .set({ isActive, updatedAt: new Date() })
            .where(companyTables(auth.companyId, eq(dataTables.id, id)));
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: isActive ? 'activate' : 'deactivate',
            recordId: id,
            changes: { before: { isActive: !isActive }, after: { isActive } },
          });
        });
      }
      return built(tableAnswer, {
        message: `Table "${table.name}" is ${isActive ? 'active' : 'deactivated'}`,
        data: await findTable(db, auth.companyId, id),
      });
    },
  );

  api.post(
    '/table/configure/:id',
    {
      config: update,
      schema: {
        summary: "Read a table's columns from the source again",
        tags: TAGS,
        params: idParams,
        response: { 200: tableColumnsRefreshAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const table = await findTable(db, auth.companyId, id);
      const columns = await discover(await tableConfig(auth.companyId, table), table.endpoint);
      const stored = await wholeDictionary(db, auth.companyId, id);
      const storedByName = new Map(stored.map((entry) => [entry.name, entry]));
      const found = new Set(columns.map((c) => c.name));
      const added = columns.filter((c) => !storedByName.has(c.name));
      const removed = stored.filter((entry) => entry.present && !found.has(entry.name));
      const changed = columns.filter((c) => {
        const entry = storedByName.get(c.name);
        return entry && (entry.dataType !== c.dataType || entry.nullable !== c.nullable || entry.position !== c.position || !entry.present);
      });
      await db.transaction(async (tx) => {
        if (added.length > 0) {
          await tx.insert(tableColumns).values(
            added.map((c) => ({
              companyId: auth.companyId,
              tableId: id,
              name: c.name,
              position: c.position,
              dataType: c.dataType,
              nullable: c.nullable,
            })),
          );
        }
        for (const c of changed) {
          await tx
            .update(tableColumns)
            .set({ dataType: c.dataType, nullable: c.nullable, position: c.position, present: true, updatedAt: new Date() })
            .where(dictionaryOf(auth.companyId, id, eq(tableColumns.name, c.name)));
        }
        if (removed.length > 0) {
          await tx
            .update(tableColumns)
            .set({ present: false, updatedAt: new Date() })
            .where(
              dictionaryOf(
                auth.companyId,
                id,
                inArray(
                  tableColumns.name,
                  removed.map((r) => r.name),
                ),
              ),
            );
        }
        await tx
          .update(dataTables)
          .set({ discoveredAt: new Date() })
          .where(companyTables(auth.companyId, eq(dataTables.id, id)));
        if (added.length + changed.length + removed.length > 0) {
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: 'refresh_columns',
            recordId: id,
            changes: {
              after: { added: added.map((c) => c.name), removed: removed.map((r) => r.name), changed: changed.map((c) => c.name) },
            },
          });
        }
      });
      const summary = { added: added.map((c) => c.name), removed: removed.map((r) => r.name), changed: changed.map((c) => c.name) };
      const message =
        added.length + removed.length + changed.length === 0
          ? `The columns of "${table.name}" are as the source has them`
          : `Columns of "${table.name}": ${added.length} added, ${removed.length} gone, ${changed.length} changed`;
      return { message, data: summary };
    },
  );

  // ---- Data dictionary ---------------------------------------------------------------------------

  const dictionaryPage = async (companyId: string, tableId: string, extra: SQL | undefined, offset: number, limit: number) => {
    await findTable(db, companyId, tableId);
    const where = dictionaryOf(companyId, tableId, extra);
    return listPage(
      db,
      {
        page: (o, l) =>
          selectDictionary(db)
            .where(where)
            .orderBy(asc(tableColumns.position), asc(tableColumns.name))
            .offset(inlined(o))
            .limit(inlined(l)),
        countFrom: tableColumns,
        where,
      },
      offset,
      limit,
    );
  };

  api.get(
    '/tables/dataDictionary/tableId/:id/:offset/:limit',
    {
      config: read,
      schema: {
        summary: "A table's data dictionary, by position",
        tags: TAGS,
        params: tablePageParams,
        response: { 200: dictionaryListAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { id, offset, limit } = request.params;
      return built(dictionaryListAnswer, {
        message: 'Data dictionary',
        data: await dictionaryPage(companyId, id, undefined, offset, limit),
      });
    },
  );

  api.get(
    '/tables/dataDictionary/search/tableId/:id/:offset/:limit',
    {
      config: read,
      schema: {
        summary: "Search a table's data dictionary",
        tags: TAGS,
        params: tablePageParams,
        querystring: z.object({ searchText: searchFilter }),
        response: { 200: dictionaryListAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { id, offset, limit } = request.params;
      const search = searching(
        [tableColumns.name, tableColumns.description, tableColumns.businessName, tableColumns.owner],
        request.query.searchText,
      );
      return built(dictionaryListAnswer, { message: 'Data dictionary', data: await dictionaryPage(companyId, id, search, offset, limit) });
    },
  );

  api.get(
    '/table/dictionary/:id',
    {
      config: read,
      schema: {
        summary: "A table's data dictionary as CSV (also the upload template)",
        tags: TAGS,
        params: idParams,
        response: { 200: dictionaryCsvFile },
      },
    },
    async (request, reply) => {
      const { companyId } = requireAuth(request);
      const table = await findTable(db, companyId, request.params.id);
      const csv = dictionaryCsv(await wholeDictionary(db, companyId, table.id));
      const file = `${table.name.replace(/[^\w.-]+/g, '_') || 'table'}-dictionary.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .header('cache-control', 'no-store')
        .send(`\uFEFF${csv}\r\n`);
    },
  );

  api.post(
    '/tables/dictionary/upload/:id',
    {
      config: update,
      schema: {
        summary: 'Describe columns from a CSV file (all or nothing)',
        tags: TAGS,
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: dictionaryUploadAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const table = await findTable(db, auth.companyId, request.params.id);
      if (!request.isMultipart()) throw badRequest('file: send the CSV as a file of a multipart/form-data body');
      let text: string;
      try {
        const file = await request.file();
        if (!file) throw badRequest('file: no file was sent');
        const bytes = await file.toBuffer();
        if (file.file.truncated) throw new HttpError(413, `file: must be at most ${DICTIONARY_UPLOAD_MAX_BYTES / 1024 / 1024} MB`);
        text = bytes.toString('utf8');
      } catch (err) {
        if (err instanceof HttpError) throw err;
        const code = (err as { code?: string }).code ?? '';
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(413, `file: must be at most ${DICTIONARY_UPLOAD_MAX_BYTES / 1024 / 1024} MB`);
        if (code === 'FST_FILES_LIMIT_REACHED' || code === 'FST_PARTS_LIMIT_REACHED') throw badRequest('file: send one file only');
        throw badRequest('file: the multipart form could not be read');
      }
      if (text.includes('\u0000')) throw badRequest('file: this is not a text file; send a CSV file');
      const dictionary = await wholeDictionary(db, auth.companyId, table.id);
      const read = readDictionaryUpload(text, new Set(dictionary.map((entry) => entry.name)));
      if (!read.ok)
        throw badRequest(
          read.problems.slice(0, 50).join('; ') + (read.problems.length > 50 ? `; and ${read.problems.length - 50} more` : ''),
        );
      const outcome = await db.transaction(async (tx) => {
        const applied = await applyDictionaryEdits(tx, auth.companyId, table.id, auth.userId, dictionary, read.edits);
        if (applied.updated > 0) {
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: 'upload_dictionary',
            recordId: table.id,
            changes: { columns: applied.changes },
          });
        }
        return applied;
      });
      return {
        message: `${outcome.updated} ${outcome.updated === 1 ? 'entry' : 'entries'} updated, ${outcome.unchanged} unchanged`,
        data: { updated: outcome.updated, unchanged: outcome.unchanged },
      };
    },
  );

  // ---- Data-quality rules -------------------------------------------------------------------------

  const rulesPage = async (
    companyId: string,
    tableId: string,
    extra: SQL | undefined,
    offset: number,
    limit: number,
  ): Promise<ListAnswer<RuleWithResult>> => {
    await findTable(db, companyId, tableId);
    const where = rulesOf(companyId, tableId, extra);
    return listPage<RuleRow>(
      db,
      {
        page: (o, l) =>
          selectRules(db)
            .where(where)
            .orderBy(...newestRulesFirst)
            .offset(inlined(o))
            .limit(inlined(l)),
        countFrom: qualityRules,
        where,
      },
      offset,
      limit,
    ) as Promise<ListAnswer<RuleWithResult>>;
  };

  api.get(
    '/table/dataQuality/:id/:offset/:limit',
    {
      config: read,
      schema: {
        summary: "A table's data-quality rules, each with its last result",
        tags: TAGS,
        params: tablePageParams,
        response: { 200: qualityRuleListAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { id, offset, limit } = request.params;
      return built(qualityRuleListAnswer, {
        message: 'Data-quality rules',
        data: await rulesPage(companyId, id, undefined, offset, limit),
      });
    },
  );

  api.get(
    '/tables/dataQuality/search/tableId/:id/:offset/:limit',
    {
      config: read,
      schema: {
        summary: "Search a table's rules",
        tags: TAGS,
        params: tablePageParams,
        querystring: z.object({ searchText: searchFilter }),
        response: { 200: qualityRuleListAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { id, offset, limit } = request.params;
      return built(qualityRuleListAnswer, {
        message: 'Data-quality rules',
        data: await rulesPage(companyId, id, ruleSearch(request.query.searchText), offset, limit),
      });
    },
  );

  api.post(
    '/tables/dataQuality/filter/tableId/:id/:offset/:limit',
    {
      config: read,
      schema: {
        summary: "Filter a table's rules",
        tags: TAGS,
        params: tablePageParams,
        body: ruleFilter,
        response: { 200: qualityRuleListAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { id, offset, limit } = request.params;
      const f = request.body;
      const where = and(
        anyOf(qualityRules.functionType, f.functionType ?? []),
        anyOf(qualityRules.functionName, f.functionName ?? []),
        ruleSearch(f.searchText ?? ''),
      );
      return built(qualityRuleListAnswer, { message: 'Data-quality rules', data: await rulesPage(companyId, id, where, offset, limit) });
    },
  );

  api.post(
    '/table/dataQuality/:id',
    {
      config: update,
      schema: {
        summary: 'Add a data-quality rule to a table, or change one (with its id)',
        tags: TAGS,
        params: idParams,
        body: qualityRuleBody,
        response: { 200: qualityRuleAnswer, 201: qualityRuleAnswer },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const table = await findTable(db, auth.companyId, request.params.id);
      const body = request.body;
      if (body.columnName) {
        const [column] = await db
          .select({ name: tableColumns.name })
          .from(tableColumns)
          .where(dictionaryOf(auth.companyId, table.id, and(eq(tableColumns.name, body.columnName), eq(tableColumns.present, true))));
        if (!column) throw badRequest(`columnName: "${body.columnName}" is not a column of this table`);
      }
      const values = {
        name: body.name,
        functionType: FUNCTION_TYPE_OF[body.functionName],
        functionName: body.functionName,
        columnName: body.columnName || null,
        params: PARAMS_OF[body.functionName].parse(body.params ?? {}) as Record<string, unknown>,
        severity: body.severity,
        tolerance: body.tolerance,
        isActive: body.isActive ?? true,
      };
      if (values.functionName === 'custom_sql') await checkCustomSql(String(values.params.sql ?? ''), table.connectionType);
      let ruleId = body.id;
      const existing = ruleId
        ? (await selectRules(db).where(rulesOf(auth.companyId, table.id, eq(qualityRules.id, ruleId))))[0]
        : undefined;
      if (ruleId && !existing) throw notFound('Data-quality rule');
      ruleId = await db.transaction(async (tx) => {
        if (existing) {
          await tx
            .update(qualityRules)
            .set({ ...values, updatedAt: new Date() })
            .where(rulesOf(auth.companyId, table.id, eq(qualityRules.id, existing.id)));
          const before = {
            name: existing.name,
            functionName: existing.functionName,
            columnName: existing.columnName,
            params: existing.params,
            severity: existing.severity,
            tolerance: existing.tolerance,
            isActive: existing.isActive,
          };
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'quality_rule',
            operation: 'update',
            recordId: existing.id,
            changes: { before, after: values },
          });
          return existing.id;
        }
        const [created] = await tx
          .insert(qualityRules)
          .values({ companyId: auth.companyId, tableId: table.id, ...values, createdBy: auth.userId })
          .returning({ id: qualityRules.id });
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'quality_rule',
          operation: 'create',
          recordId: created.id,
          changes: { after: { tableId: table.id, ...values } },
        });
        return created.id;
      });
      const [rule] = (await selectRules(db).where(rulesOf(auth.companyId, table.id, eq(qualityRules.id, ruleId)))) as RuleWithResult[];
      return reply
        .code(existing ? 200 : 201)
        .send(built(qualityRuleAnswer, { message: `Rule "${rule.name}" ${existing ? 'saved' : 'added'}`, data: rule }));
    },
  );

  api.delete(
    '/table/dataQuality/:id',
    {
      config: { policy: ['tables', 'delete'] },
      schema: {
        summary: 'Delete a data-quality rule (its past results stay)',
        tags: TAGS,
        params: idParams,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const [rule] = await selectRules(db).where(and(eq(qualityRules.companyId, auth.companyId), eq(qualityRules.id, request.params.id)));
      if (!rule) throw notFound('Data-quality rule');
      await db.transaction(async (tx) => {
        await tx.delete(qualityRules).where(and(eq(qualityRules.companyId, auth.companyId), eq(qualityRules.id, rule.id)));
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'quality_rule',
          operation: 'delete',
          recordId: rule.id,
          changes: { before: { tableId: rule.tableId, name: rule.name, functionName: rule.functionName, columnName: rule.columnName } },
        });
      });
      return { message: `Rule "${rule.name}" deleted` };
    },
  );

  // ---- Runs --------------------------------------------------------------------------------------

  api.post(
    '/table/:id/configure',
    {
      config: update,
      schema: {
        summary: "Run a table's data-quality rules now",
        tags: TAGS,
        params: idParams,
        body: z.preprocess((body) => body ?? {}, z.object({ ruleIds: z.array(uuidParam).max(500).optional() }).strict()),
        response: { 200: qualityRunAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { run, outcome, tableName } = await runTableChecks(
        { db, secrets, connectors },
        { companyId: auth.companyId, tableId: request.params.id, ruleIds: request.body.ruleIds, trigger: 'manual', userId: auth.userId },
        (tx, runId, result, rules) =>
          recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: 'run_checks',
            recordId: request.params.id,
            changes: { after: { runId, status: result.status, rules } },
          }),
      );
      const failed = outcome.results.filter((r) => r.status !== 'passed').length;
      const message =
        outcome.status === 'error'
          ? `The checks of "${tableName}" could not run: ${outcome.error}`
          : `Checks of "${tableName}": ${outcome.results.length - failed} passed, ${failed} did not`;
      return built(qualityRunAnswer, { message, data: run });
    },
  );
}
