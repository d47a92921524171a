import type mysql from 'mysql2/promise';
import { connectingError, mysqlError } from '../sql-errors';
import type { ConnectionConfig, RowReading, StatementRunning, TableSource, TableWriting } from '../types';
import { mysqlColumns, mysqlEndpoints } from './catalog';
import { mysqlConnections, type MysqlOptions } from './connection';
import { mysqlRowReader } from './read-rows';
import { quoteMysql, tableName } from './session';
import { runMysqlStatements } from './statements';
import { mysqlTableWriter } from './writer';

/**
 * The `mysql` connection type: a MySQL or MariaDB server reached with `mysql2`, through a small
 * pool opened on first use. The two servers differ in how a statement's time is limited, so the
 * connector asks the server what it is once, on its first statement.
 */
export function openMysqlConnector(
  config: ConnectionConfig,
  options: MysqlOptions,
): TableSource & RowReading & TableWriting & StatementRunning {
  const { where, connect, query, withOwnConnection, close } = mysqlConnections(config, options);

  return {
    dialect: 'mysql',
    quote: quoteMysql,
    tableName,
    query,
    async test() {
      const started = performance.now();
      let connection: mysql.Connection | undefined;
      try {
        try {
          connection = await connect();
        } catch (err) {
          throw connectingError(err, 'mysql', where().host, where().port);
        }
        const [rows] = await connection.query('SELECT VERSION() AS version, @@version_comment AS comment');
        const { version, comment } = (rows as mysql.RowDataPacket[])[0] ?? {};
        return { latencyMs: Math.round(performance.now() - started), detail: comment ? `${version} (${comment})` : String(version ?? '') };
      } catch (err) {
        throw mysqlError(err);
      } finally {
        await connection?.end().catch(() => {});
      }
    },
    endpoints: () => mysqlEndpoints(query),
    columns: (endpoint) => mysqlColumns(query, endpoint),
    close,

    readRows: mysqlRowReader(withOwnConnection),

    withTableWriter(work) {
      return withOwnConnection((connection) => work(mysqlTableWriter(connection, tableName)));
    },

    runStatements: (statements, options = {}) => runMysqlStatements({ query, withOwnConnection }, statements, options),
  };
}
