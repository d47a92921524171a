import type { ColumnInfo, Endpoint } from '../types';
import type { MysqlConnections } from './connection';
import { CATALOG_TIME_LIMIT_MS, tableName } from './session';

/** The catalogue: the tables of the configured database and their columns. */

/** The tables and views of the configured database, as `database.table`. */
export async function mysqlEndpoints(query: MysqlConnections['query']): Promise<Endpoint[]> {
  const rows = await query(
    `SELECT table_schema AS schema_name, table_name AS table_name, table_type AS table_type, table_rows AS row_estimate
     FROM information_schema.tables
     WHERE table_schema = DATABASE() AND table_type <> 'SEQUENCE'
     ORDER BY table_name`,
    [],
    { timeoutMs: CATALOG_TIME_LIMIT_MS, readOnly: true },
  );
  return rows.map((row) => {
    const schema = String(row.schema_name);
    const table = String(row.table_name);
    const isView = /view/i.test(String(row.table_type));
    const estimate = row.row_estimate === null || row.row_estimate === undefined ? undefined : Number(row.row_estimate);
    return {
      id: `${schema}.${table}`,
      name: table,
      kind: 'table' as const,
      group: schema,
      format: isView ? 'view' : 'table',
      ...(!isView && estimate !== undefined ? { rows: estimate } : {}),
    };
  });
}

/** SHOW COLUMNS lists them in order and names a missing table in the server's own words. */
export async function mysqlColumns(query: MysqlConnections['query'], endpoint: string): Promise<ColumnInfo[]> {
  const rows = await query(`SHOW COLUMNS FROM ${tableName(endpoint)}`, [], { timeoutMs: CATALOG_TIME_LIMIT_MS, readOnly: true });
  return rows.map((row, index) => ({
    name: String(row.Field),
    dataType: String(row.Type),
    nullable: row.Null === 'YES',
    position: index + 1,
  }));
}
