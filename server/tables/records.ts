import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { connections, dataTables, qualityRuns, qualityRules, tableColumns, users, workspaces } from '../db/schema';
import { notFound } from '../http/errors';
import { userNameSql } from '../users/display-name';

/** How registered tables and their dictionaries are read and answered (docs/api/tables.md). */

const creators = alias(users, 'table_creators');
const editors = alias(users, 'dictionary_editors');

/** The newest run of a table, as `{ id, status, startedAt, endedAt }`, read beside the row. */
const lastRun = sql<{ id: string; status: string; startedAt: string; endedAt: string | null } | null>`(
  select json_build_object('id', r.id, 'status', r.status, 'startedAt', r.started_at, 'endedAt', r.ended_at)
  from ${qualityRuns} r where r.company_id = ${dataTables.companyId} and r.table_id = ${dataTables.id}
  order by r.started_at desc limit 1
)`;

const tableColumnsSelected = {
  id: dataTables.id,
  name: dataTables.name,
  description: dataTables.description,
  endpoint: dataTables.endpoint,
  connectionId: dataTables.connectionId,
  connectionName: connections.name,
  connectionType: connections.type,
  workspaceId: dataTables.workspaceId,
  workspaceName: workspaces.name,
  isActive: dataTables.isActive,
  columnCount:
    sql<number>`(select count(*) from ${tableColumns} c where c.company_id = ${dataTables.companyId} and c.table_id = ${dataTables.id} and c.present)`.mapWith(
      Number,
    ),
  describedCount:
    sql<number>`(select count(*) from ${tableColumns} c where c.company_id = ${dataTables.companyId} and c.table_id = ${dataTables.id} and c.present and c.description <> '')`.mapWith(
      Number,
    ),
  ruleCount:
    sql<number>`(select count(*) from ${qualityRules} q where q.company_id = ${dataTables.companyId} and q.table_id = ${dataTables.id})`.mapWith(
      Number,
    ),
  lastRun,
  discoveredAt: dataTables.discoveredAt,
  watermarkColumn: dataTables.watermarkColumn,
  createdBy: dataTables.createdBy,
  createdByName: userNameSql(creators),
  createdAt: dataTables.createdAt,
  updatedAt: dataTables.updatedAt,
};

/** The tables with their connection, workspace and counts; add `.where(…)`, order and paging. */
export function selectTables(db: Db) {
  return db
    .select(tableColumnsSelected)
    .from(dataTables)
    .innerJoin(connections, and(eq(connections.companyId, dataTables.companyId), eq(connections.id, dataTables.connectionId)))
    .leftJoin(
      workspaces,
      and(eq(workspaces.companyId, dataTables.companyId), eq(workspaces.id, dataTables.workspaceId), sql`${workspaces.deletedAt} is null`),
    )
    .leftJoin(creators, and(eq(creators.companyId, dataTables.companyId), eq(creators.id, dataTables.createdBy)))
    .$dynamic();
}

export type TableRow = Awaited<ReturnType<ReturnType<typeof selectTables>['execute']>>[number];

export const companyTables = (companyId: string, extra?: SQL) => and(eq(dataTables.companyId, companyId), extra)!;

/**
 * The company's tables whose newest data-quality run failed (or could not run): the tables page's
 * and the dashboard's "failing" cards. A condition for the WHERE of a statement on data_tables
 * alone, where Drizzle names the outer table's columns in full; in a select list it would leave
 * them bare, and `id` would then be the inner run's.
 */
export const failingTables = (companyId: string) =>
  companyTables(
    companyId,
    sql`(select r.status from ${qualityRuns} r where r.company_id = ${dataTables.companyId} and r.table_id = ${dataTables.id} order by r.started_at desc, r.id desc limit 1) in ('failed', 'error')`,
  );

export async function findTable(db: Db, companyId: string, id: string): Promise<TableRow> {
  const [row] = await selectTables(db).where(companyTables(companyId, eq(dataTables.id, id)));
  if (!row) throw notFound('Table');
  return row;
}

/** The dictionary entries of a table, by position; add `.where(…)` and paging. */
export function selectDictionary(db: Db) {
  return db
    .select({
      name: tableColumns.name,
      position: tableColumns.position,
      dataType: tableColumns.dataType,
      nullable: tableColumns.nullable,
      description: tableColumns.description,
      businessName: tableColumns.businessName,
      sensitivity: tableColumns.sensitivity,
      owner: tableColumns.owner,
      present: tableColumns.present,
      updatedAt: tableColumns.updatedAt,
      updatedByName: userNameSql(editors),
    })
    .from(tableColumns)
    .leftJoin(editors, and(eq(editors.companyId, tableColumns.companyId), eq(editors.id, tableColumns.updatedBy)))
    .$dynamic();
}

export type DictionaryEntry = Awaited<ReturnType<ReturnType<typeof selectDictionary>['execute']>>[number];

export const dictionaryOf = (companyId: string, tableId: string, extra?: SQL) =>
  and(eq(tableColumns.companyId, companyId), eq(tableColumns.tableId, tableId), extra)!;

/** Every entry of a table, for uploads, downloads and rule checks. */
export function wholeDictionary(db: Db, companyId: string, tableId: string): Promise<DictionaryEntry[]> {
  return selectDictionary(db).where(dictionaryOf(companyId, tableId)).orderBy(tableColumns.position, tableColumns.name);
}

/** The newest runs first. */
export const newestRunsFirst = [desc(qualityRuns.startedAt), desc(qualityRuns.id)];
