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
    async create(endpoint, columns, key) {
      const primaryKey = key && key.length > 0 ? [`PRIMARY KEY (${key.map(quoteMysql).join(', ')})`] : [];
      await connection.query(`CREATE TABLE ${tableName(endpoint)} (${[...columns.map(mysqlColumnSql), ...primaryKey].join(', ')})`);
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
    async uniqueKeys(endpoint) {
      // A key on a prefix of a column (`name(10)`) does not make the column's values unique: it does not count.
      const { schema, table } = splitTableEndpoint(endpoint);
      const [rows] = await connection.query(
        `SELECT index_name AS name, column_name AS columnName, sub_part AS prefix FROM information_schema.statistics
          WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ? AND non_unique = 0 ORDER BY index_name, seq_in_index`,
        [schema ?? null, table],
      );
      const keys = new Map<string, { columns: string[]; whole: boolean }>();
      for (const row of rows as mysql.RowDataPacket[]) {
        const key = keys.get(String(row.name)) ?? { columns: [], whole: true };
        key.columns.push(String(row.columnName));
        if (row.prefix !== null) key.whole = false;
        keys.set(String(row.name), key);
      }
      return [...keys.values()].filter((key) => key.whole).map((key) => key.columns);
    },
    async repeatedKey(endpoint, keys) {
      const quoted = keys.map(quoteMysql);
      const [rows] = await connection.query(
        `SELECT ${quoted.map((key, index) => `CAST(${key} AS CHAR) AS k${index}`).join(', ')} FROM ${tableName(endpoint)}
          WHERE ${quoted.map((key) => `${key} IS NOT NULL`).join(' AND ')}
          GROUP BY ${quoted.join(', ')} HAVING COUNT(*) > 1 LIMIT 1`,
      );
      const row = (rows as mysql.RowDataPacket[])[0];
      return row ? keys.map((_, index) => (row[`k${index}`] as string | null) ?? null) : undefined;
    },
    async emptyKey(endpoint, keys) {
      const [rows] = await connection.query(
        `SELECT ${keys.map((key, index) => `MAX(${quoteMysql(key)} IS NULL) AS k${index}`).join(', ')} FROM ${tableName(endpoint)}`,
      );
      const row = (rows as mysql.RowDataPacket[])[0];
      return keys.find((_, index) => Number(row?.[`k${index}`] ?? 0) === 1);
    },
    async addUniqueKey(endpoint, keys) {
      const { table } = splitTableEndpoint(endpoint);
      const name = `${table.slice(0, 40)}_merge_key_${randomBytes(3).toString('hex')}`;
      const statement = `ALTER TABLE ${tableName(endpoint)} ADD UNIQUE ${quoteMysql(name)} (${keys.map(quoteMysql).join(', ')})`;
      await connection.query(statement);
      return statement;
    },
    /**
     * One INSERT … SELECT, atomic on InnoDB. ON DUPLICATE KEY UPDATE answers a conflict on any
     * unique key of the table, not only the one on `keys`; VALUES() is what both MySQL and MariaDB read.
     */
    async moveRows(from, into, columns, keys) {
      const list = columns.map(quoteMysql).join(', ');
      let onDuplicate = '';
      if (keys && keys.length > 0) {
        const others = columns.filter((column) => !keys.some((key) => key.toLowerCase() === column.toLowerCase())).map(quoteMysql);
        const set =
          others.length > 0
            ? others.map((column) => `${column} = VALUES(${column})`)
            : [`${quoteMysql(keys[0]!)} = ${quoteMysql(keys[0]!)}`];
        onDuplicate = ` ON DUPLICATE KEY UPDATE ${set.join(', ')}`;
      }
      await connection.query(`INSERT INTO ${tableName(into)} (${list}) SELECT ${list} FROM ${tableName(from)}${onDuplicate}`);
    },
  };
}
