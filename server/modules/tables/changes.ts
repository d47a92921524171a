import type { FastifyInstance } from 'fastify';
import { eq, inArray } from 'drizzle-orm';
import { connectionTypeOf } from '../../../common/connections';
import { tableAnswer, tablesContract } from '../../../common/contract/tables';
import { isWatermarkType, registerTableBody, updateTableBody } from '../../../common/schemas/tables';
import { recordAudit } from '../../audit';
import { connectionConfig } from '../../connections/records';
import { within as withinTime } from '../../connectors/registry';
import { isTableSource, type ColumnInfo, type ConnectionConfig } from '../../connectors/types';
import { dataTables, tableColumns } from '../../db/schema';
import { badRequest, HttpError } from '../../http/errors';
import { actionRoute } from '../../platform/action-route';
import { answerRoute } from '../../platform/answer-route';
import { auditedCreate, fieldChanges, unlessTaken } from '../../platform/audited';
import { applyDictionaryEdits } from '../../tables/dictionary';
import { companyTables, dictionaryOf, findTable, wholeDictionary } from '../../tables/records';
import { liveWorkspaceId } from '../../workspaces/records';
import { allowed, idParams } from './routing';

const TABLE_TAKEN = 'endpoint: this table is already registered from this connection';
/** How long reading a table's columns may take. */
const DISCOVERY_TIMEOUT_MS = 30_000;

/** The table's name when none is given: the endpoint's last part, without a file's extension. */
function defaultName(endpoint: string): string {
  const last = endpoint.split(/[/.]/).filter(Boolean);
  const file = endpoint.split('/').pop() ?? endpoint;
  return /\.(csv|parquet)$/i.test(file) ? file.replace(/\.(csv|parquet)$/i, '') : (last.pop() ?? endpoint);
}

/** The dictionary rows of columns read from the source. */
const columnRows = (companyId: string, tableId: string, columns: ColumnInfo[]) =>
  columns.map(({ name, position, dataType, nullable }) => ({ companyId, tableId, name, position, dataType, nullable }));

/**
 * The changes that read the table's source: registering a table from a connection's endpoint (its
 * columns are read then), editing it with its dictionary entries, reading its columns again (the
 * contract's action `/table/configure/{id}`).
 */
export function registerTableChanges(app: FastifyInstance): void {
  const { db, secrets, connectors } = app.ctx;
  const updating = allowed('update');

  /** The columns of an endpoint, read from the source now. */
  const discover = (config: ConnectionConfig, endpoint: string): Promise<ColumnInfo[]> =>
    connectors.use(config, async (connector) => {
      if (!isTableSource(connector))
        throw badRequest(`connectionId: a ${connectionTypeOf(config.type)?.label ?? config.type} connection has no tables`);
      return withinTime(DISCOVERY_TIMEOUT_MS, 'Reading the columns', connector.columns(endpoint));
    });

  answerRoute(
    app,
    allowed('create'),
    {
      method: 'POST',
      path: '/table',
      summary: "Register a table from a connection's endpoint",
      body: registerTableBody,
      answer: tableAnswer,
      status: 201,
    },
    async ({ auth, body, request }) => {
      const config = await connectionConfig(db, secrets, auth.companyId, body.connectionId).catch((err) => {
        if (err instanceof HttpError && err.statusCode === 404) throw badRequest('connectionId: no such connection');
        throw err;
      });
      if (!config.isActive) throw badRequest(`connectionId: the connection "${config.name}" is deactivated`);
      const workspaceId = await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      const columns = await discover(config, body.endpoint);
      if (columns.length === 0) throw badRequest(`endpoint: "${body.endpoint}" has no columns`);
      const name = body.name || defaultName(body.endpoint);
      const after = { name, endpoint: body.endpoint, connectionId: body.connectionId, workspaceId, columns: columns.length };
      const id = await unlessTaken(TABLE_TAKEN, () =>
        auditedCreate(db, request, { companyId: auth.companyId, model: 'table', after }, async (tx) => {
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
          await tx.insert(tableColumns).values(columnRows(auth.companyId, created.id, columns));
          return created.id;
        }),
      );
      return { message: `Table "${name}" registered with ${columns.length} columns`, data: await findTable(db, auth.companyId, id) };
    },
  );

  answerRoute(
    app,
    updating,
    {
      method: 'PUT',
      path: '/table/:id',
      summary: 'Edit a table and its dictionary entries',
      params: idParams,
      body: updateTableBody,
      answer: tableAnswer,
    },
    async ({ auth, params: { id }, body, request }) => {
      const table = await findTable(db, auth.companyId, id);
      const dictionary = body.columns || body.watermarkColumn ? await wholeDictionary(db, auth.companyId, id) : [];
      if (body.watermarkColumn) {
        const entry = dictionary.find((c) => c.name === body.watermarkColumn && c.present);
        if (!entry) throw badRequest(`watermarkColumn: "${body.watermarkColumn}" is not a column of this table`);
        if (!isWatermarkType(entry.dataType))
          throw badRequest(
            `watermarkColumn: "${entry.name}" is ${entry.dataType}; a watermark column must be a timestamp, a date or a number that only grows`,
          );
      }
      if (body.columns) {
        const known = new Set(dictionary.map((entry) => entry.name));
        const unknown = body.columns.filter((c) => !known.has(c.name)).map((c) => `"${c.name}"`);
        if (unknown.length === 1) throw badRequest(`columns: ${unknown[0]} is not a column of this table`);
        if (unknown.length > 1) throw badRequest(`columns: ${unknown.join(', ')} are not columns of this table`);
        const names = body.columns.map((c) => c.name);
        const twice = names.filter((n, i) => names.indexOf(n) !== i);
        if (twice.length > 0) throw badRequest(`columns: "${twice[0]}" is given twice`);
      }
      const workspaceId = body.workspaceId === undefined ? table.workspaceId : await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      const before = {
        name: table.name,
        description: table.description,
        workspaceId: table.workspaceId,
        watermarkColumn: table.watermarkColumn,
      };
      const after = {
        name: body.name ?? table.name,
        description: body.description ?? table.description,
        workspaceId,
        watermarkColumn: body.watermarkColumn === undefined ? table.watermarkColumn : body.watermarkColumn,
      };
      const { before: was, after: now } = fieldChanges(before, after);
      const tableChanged = Object.keys(now).length > 0;
      const entriesUpdated = await db.transaction(async (tx) => {
        if (tableChanged)
          await tx
            .update(dataTables)
            .set({ ...now, updatedAt: new Date() })
            .where(companyTables(auth.companyId, eq(dataTables.id, id)));
        const edits = body.columns ? await applyDictionaryEdits(tx, auth.companyId, id, auth.userId, dictionary, body.columns) : null;
        const columns = edits && edits.updated > 0 ? edits.changes : undefined;
        if (tableChanged || columns) {
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'table',
            operation: 'update',
            recordId: id,
            changes: { before: was, after: now, ...(columns ? { columns } : {}) },
          });
        }
        return edits?.updated ?? 0;
      });
      const entries = entriesUpdated > 0 ? ` (${entriesUpdated} dictionary ${entriesUpdated === 1 ? 'entry' : 'entries'})` : '';
      const message = tableChanged || entriesUpdated > 0 ? `Table "${after.name}" saved${entries}` : 'Nothing to change';
      return { message, data: await findTable(db, auth.companyId, id) };
    },
  );

  actionRoute(app, updating, tablesContract.actions.refreshColumns, async ({ auth: { companyId }, params: { id }, request }) => {
    const table = await findTable(db, companyId, id);
    const config = await connectionConfig(db, secrets, companyId, table.connectionId);
    if (!config.isActive) throw badRequest(`The connection "${table.connectionName}" is deactivated; activate it first`);
    const columns = await discover(config, table.endpoint);
    const stored = await wholeDictionary(db, companyId, id);
    const storedByName = new Map(stored.map((entry) => [entry.name, entry]));
    const found = new Set(columns.map((c) => c.name));
    const added = columns.filter((c) => !storedByName.has(c.name));
    const removed = stored.filter((entry) => entry.present && !found.has(entry.name)).map((entry) => entry.name);
    const changed = columns.filter((c) => {
      const entry = storedByName.get(c.name);
      return entry && (entry.dataType !== c.dataType || entry.nullable !== c.nullable || entry.position !== c.position || !entry.present);
    });
    const summary = { added: added.map((c) => c.name), removed, changed: changed.map((c) => c.name) };
    await db.transaction(async (tx) => {
      if (added.length > 0) await tx.insert(tableColumns).values(columnRows(companyId, id, added));
      for (const c of changed) {
        await tx
          .update(tableColumns)
          .set({ dataType: c.dataType, nullable: c.nullable, position: c.position, present: true, updatedAt: new Date() })
          .where(dictionaryOf(companyId, id, eq(tableColumns.name, c.name)));
      }
      if (removed.length > 0) {
        await tx
          .update(tableColumns)
          .set({ present: false, updatedAt: new Date() })
          .where(dictionaryOf(companyId, id, inArray(tableColumns.name, removed)));
      }
      await tx
        .update(dataTables)
        .set({ discoveredAt: new Date() })
        .where(companyTables(companyId, eq(dataTables.id, id)));
      if (added.length + changed.length + removed.length > 0) {
        await recordAudit(tx, request, {
          companyId,
          model: 'table',
          operation: 'refresh_columns',
          recordId: id,
          changes: { after: summary },
        });
      }
    });
    const message =
      added.length + removed.length + changed.length === 0
        ? `The columns of "${table.name}" are as the source has them`
        : `Columns of "${table.name}": ${added.length} added, ${removed.length} gone, ${changed.length} changed`;
    return { message, data: summary };
  });
}
