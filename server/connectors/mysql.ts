import mysql from 'mysql2/promise';
import { isConnectionLost, mysqlError } from './sql-errors';
import {
  ConnectorError,
  databaseServerSettings,
  splitTableEndpoint,
  type ColumnInfo,
  type ConnectionConfig,
  type Endpoint,
  type QueryOptions,
  type TableSource,
} from './types';

/**
 * The `mysql` connection type: a MySQL or MariaDB server reached with `mysql2`, through a small
 * pool opened on first use. The two servers differ in how a statement's time is limited, so the
 * connector asks the server what it is once, on its first statement.
 */

const CONNECT_TIMEOUT_MS = 10_000;
const POOL_SIZE = 3;
const CATALOG_TIME_LIMIT_MS = 30_000;

type ServerFlavour = 'mariadb' | 'mysql';

const quoteMysql = (identifier: string): string => `\`${identifier.replace(/`/g, '``')}\``;

/**
 * The session settings a statement runs under, set before each one (a pooled connection keeps
 * the last statement's otherwise). MariaDB limits any statement with `max_statement_time`
 * (seconds); MySQL limits SELECTs with `max_execution_time` (milliseconds). `sql_select_limit`
 * makes the server stop a SELECT at `maxRows` rows, unless the SELECT has a LIMIT of its own,
 * whose extra rows are then read and dropped here.
 */
function sessionLimits(flavour: ServerFlavour, options: QueryOptions): string {
  const timeLimit =
    flavour === 'mariadb'
      ? `max_statement_time = ${Math.max(0.001, options.timeoutMs / 1000).toFixed(3)}`
      : `max_execution_time = ${Math.max(1, Math.ceil(options.timeoutMs))}`;
  const rowLimit = `sql_select_limit = ${options.maxRows === undefined ? 'DEFAULT' : Math.max(0, Math.floor(options.maxRows))}`;
  return `SET SESSION ${timeLimit}, ${rowLimit}`;
}

export function openMysqlConnector(config: ConnectionConfig): TableSource {
  let pool: mysql.Pool | undefined;
  let flavour: Promise<ServerFlavour> | undefined;
  const connectionOptions = (): mysql.ConnectionOptions => {
    const settings = databaseServerSettings(config, 3306);
    return {
      host: settings.host,
      port: settings.port,
      database: settings.database,
      user: settings.user,
      password: settings.password,
      ssl: settings.tls === false ? undefined : settings.tls,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Dates as the server writes them (no shift into this server's time zone); big numbers as text, never rounded.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    };
  };
  const poolOf = () => {
    if (!pool) {
      pool = mysql.createPool({ ...connectionOptions(), connectionLimit: POOL_SIZE, maxIdle: POOL_SIZE, idleTimeout: 30_000, enableKeepAlive: true });
      // An idle connection whose server goes away must not crash the process; the next use reports it.
      pool.on('connection', (connection) => connection.on('error', () => {}));
    }
    return pool;
  };
  const flavourOf = (connection: mysql.PoolConnection) => {
    flavour ??= connection.query('SELECT VERSION() AS version').then(
      ([rows]) => (/mariadb/i.test(String((rows as mysql.RowDataPacket[])[0]?.version)) ? 'mariadb' : 'mysql'),
      (err: unknown) => {
        flavour = undefined;
        throw err;
      },
    );
    return flavour;
  };

  const query = async <Row extends Record<string, unknown>>(sql: string, params: readonly unknown[], options: QueryOptions): Promise<Row[]> => {
    let connection: mysql.PoolConnection;
    try {
      connection = await poolOf().getConnection();
    } catch (err) {
      throw mysqlError(err);
    }
    let failure: ConnectorError | undefined;
    let inTransaction = false;
    try {
      await connection.query(sessionLimits(await flavourOf(connection), options));
      if (options.readOnly) {
        await connection.query('START TRANSACTION READ ONLY');
        inTransaction = true;
      }
      const [result] = await connection.query(sql, [...params]);
      if (inTransaction) await connection.query('COMMIT');
      inTransaction = false;
      const rows = Array.isArray(result) ? (result as Row[]) : [];
      return options.maxRows === undefined ? rows : rows.slice(0, options.maxRows);
    } catch (err) {
      failure = mysqlError(err);
      if (inTransaction) await connection.query('ROLLBACK').catch(() => {});
      throw failure;
    } finally {
      // A connection that lost its server is discarded rather than handed to the next statement.
      if (failure && isConnectionLost(failure)) connection.destroy();
      else connection.release();
    }
  };

  const tableName = (endpoint: string) => {
    const { schema, table } = splitTableEndpoint(endpoint);
    return schema === undefined ? quoteMysql(table) : `${quoteMysql(schema)}.${quoteMysql(table)}`;
  };

  return {
    dialect: 'mysql',
    quote: quoteMysql,
    tableName,
    query,
    async test() {
      const started = performance.now();
      let connection: mysql.Connection | undefined;
      try {
        connection = await mysql.createConnection(connectionOptions());
        const [rows] = await connection.query('SELECT VERSION() AS version, @@version_comment AS comment');
        const { version, comment } = (rows as mysql.RowDataPacket[])[0] ?? {};
        return { latencyMs: Math.round(performance.now() - started), detail: comment ? `${version} (${comment})` : String(version ?? '') };
      } catch (err) {
        throw mysqlError(err);
      } finally {
        await connection?.end().catch(() => {});
      }
    },
    /** The tables and views of the configured database, as `database.table`. */
    async endpoints(): Promise<Endpoint[]> {
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
    },
    /** SHOW COLUMNS lists them in order and names a missing table in the server's own words. */
    async columns(endpoint): Promise<ColumnInfo[]> {
      const rows = await query(`SHOW COLUMNS FROM ${tableName(endpoint)}`, [], { timeoutMs: CATALOG_TIME_LIMIT_MS, readOnly: true });
      return rows.map((row, index) => ({ name: String(row.Field), dataType: String(row.Type), nullable: row.Null === 'YES', position: index + 1 }));
    },
    async close() {
      const open = pool;
      pool = undefined;
      flavour = undefined;
      await open?.end();
    },
  };
}
