import { randomBytes } from 'node:crypto';
import type mysql from 'mysql2/promise';
import { ConnectorError, splitTableEndpoint, type CellValue, type ColumnDefinition, type TableWriter } from '../types';
import { quoteMysql } from './session';

/** Writing tables (a copy's destination): made, filled with multi-row INSERTs, promoted in one step. */

/** One INSERT holds rows up to about this many bytes, well under the servers' smallest default packet limit (16 MB on MariaDB). */
const INSERT_BYTES = 4 * 1024 * 1024;

function estimatedBytes(row: readonly CellValue[]): number {
  let bytes = 8;
  for (const value of row) bytes += value === null ? 4 : typeof value === 'string' ? value.length * 2 + 3 : value.byteLength * 2 + 3;
  return bytes;
}

function mysqlColumnSql(column: ColumnDefinition): string {
  return `${quoteMysql(column.name)} ${column.dataType} ${column.nullable ? 'NULL' : 'NOT NULL'}`;
}

export function mysqlTableWriter(connection: mysql.Connection, tableName: (endpoint: string) => string): TableWriter {
  const exists = async (endpoint: string) => {
    const { schema, table } = splitTableEndpoint(endpoint);
    const [rows] = await connection.query(
      'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?',
      [schema ?? null, table],
    );
    return Number((rows as mysql.RowDataPacket[])[0]?.n ?? 0) > 0;
  };
  return {
    exists,
    async create(endpoint, columns) {
      await connection.query(`CREATE TABLE ${tableName(endpoint)} (${columns.map(mysqlColumnSql).join(', ')})`);
    },
    async drop(endpoint) {
      await connection.query(`DROP TABLE IF EXISTS ${tableName(endpoint)}`);
    },
    /** RENAME TABLE moves several tables in one step, so readers never miss the target. */
    async promote(staging, target, replace) {
      if (!replace || !(await exists(target))) {
        await connection.query(`RENAME TABLE ${tableName(staging)} TO ${tableName(target)}`);
        return;
      }
      const { schema, table } = splitTableEndpoint(target);
      const replaced = `${schema === undefined ? '' : `${schema}.`}${table.slice(0, 40)}_replaced_${randomBytes(4).toString('hex')}`;
      await connection.query(`RENAME TABLE ${tableName(target)} TO ${tableName(replaced)}, ${tableName(staging)} TO ${tableName(target)}`);
      await connection.query(`DROP TABLE ${tableName(replaced)}`);
    },
    /** Multi-row INSERTs of at most INSERT_BYTES each, in one transaction per batch. */
    async append(endpoint, columns, batch) {
      if (batch.format !== 'values')
        throw new ConnectorError('A MySQL destination takes rows as values, not as PostgreSQL COPY text', 'invalid');
      const into = `INSERT INTO ${tableName(endpoint)} (${columns.map(quoteMysql).join(', ')}) VALUES ?`;
      await connection.query('START TRANSACTION');
      try {
        let chunk: CellValue[][] = [];
        let bytes = 0;
        for (const row of batch.rows) {
          const size = estimatedBytes(row);
          if (chunk.length > 0 && bytes + size > INSERT_BYTES) {
            await connection.query(into, [chunk]);
            chunk = [];
            bytes = 0;
          }
          chunk.push(row);
          bytes += size;
        }
        if (chunk.length > 0) await connection.query(into, [chunk]);
        await connection.query('COMMIT');
      } catch (err) {
        await connection.query('ROLLBACK').catch(() => {});
        throw err;
      }
      return batch.rows.length;
    },
  };
}
