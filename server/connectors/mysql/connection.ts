import type mysqlCore from 'mysql2';
import type mysql from 'mysql2/promise';
import type { Reach } from '../../reach/reach';
import { connectingError, isConnectionLost, mysqlError } from '../sql-errors';
import { checkedServer, databaseServerSettings } from '../database-server';
import { ConnectorError, type ConnectionConfig, type QueryOptions } from '../types';
import { sessionLimits, type ServerFlavour } from './session';

/**
 * How statements reach the server: a small pool opened on first use, and a connection of their
 * own for copies and scripts. Which server it is (MariaDB or MySQL) is asked once, on the first
 * statement.
 */

const CONNECT_TIMEOUT_MS = 10_000;
const POOL_SIZE = 3;

/** The driver, imported at the first connection rather than with the server (docs/benchmarks.md, "Memory"). */
const promiseDriver = async () => (await import('mysql2/promise')).default;

export interface MysqlOptions {
  /** The guard the server's host goes through: checked once, and only its checked addresses dialled. */
  reach: Reach;
}

/** The connections of one connector. */
export interface MysqlConnections {
  /** The server's settings, for messages. */
  where(): ReturnType<typeof databaseServerSettings>;
  /** A plain connection of its own, with the server's own session settings (a connection test); the caller ends it. */
  connect(): Promise<mysql.Connection>;
  /** One statement on a pooled connection, under the session settings its options ask for. */
  query<Row extends Record<string, unknown>>(sql: string, params: readonly unknown[], options: QueryOptions): Promise<Row[]>;
  withOwnConnection<T>(work: (connection: mysql.Connection, core: mysqlCore.Connection) => Promise<T>): Promise<T>;
  /** Closes the pool; the next statement opens another. */
  close(): Promise<void>;
}

export function mysqlConnections(config: ConnectionConfig, options: MysqlOptions): MysqlConnections {
  let pool: mysql.Pool | undefined;
  let flavour: Promise<ServerFlavour> | undefined;
  const checkedTarget = checkedServer(config, 3306, options.reach);
  const where = () => databaseServerSettings(config, 3306);
  const connectionOptions = async (): Promise<mysql.ConnectionOptions> => {
    const settings = databaseServerSettings(config, 3306);
    const target = await checkedTarget();
    return {
      // The host stays the name the company gave (TLS checks the certificate against it); the socket dials only the checked addresses.
      host: settings.host,
      port: settings.port,
      stream: () => {
        const socket = target.connect();
        socket.setNoDelay(true);
        socket.setKeepAlive(true);
        return socket;
      },
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
  const poolOf = async () => {
    if (!pool) {
      const made = (await promiseDriver()).createPool({
        ...(await connectionOptions()),
        connectionLimit: POOL_SIZE,
        maxIdle: POOL_SIZE,
        idleTimeout: 30_000,
      });
      if (pool) {
        void made.end();
        return pool;
      }
      pool = made;
      // An idle connection whose server goes away must not crash the process; the next use reports it.
      pool.on('connection', (connection) => connection.on('error', () => {}));
    }
    return pool;
  };
  const flavourOf = (connection: Pick<mysql.Connection, 'query'>) => {
    flavour ??= connection.query('SELECT VERSION() AS version').then(
      ([rows]) => (/mariadb/i.test(String((rows as mysql.RowDataPacket[])[0]?.version)) ? 'mariadb' : 'mysql'),
      (err: unknown) => {
        flavour = undefined;
        throw err;
      },
    );
    return flavour;
  };

  const query = async <Row extends Record<string, unknown>>(
    sql: string,
    params: readonly unknown[],
    options: QueryOptions,
  ): Promise<Row[]> => {
    let connection: mysql.PoolConnection;
    try {
      connection = await (await poolOf()).getConnection();
    } catch (err) {
      throw connectingError(err, 'mysql', where().host, where().port);
    }
    let failure: ConnectorError | undefined;
    let inTransaction = false;
    try {
      // A read-only statement may hold a company's query: quotes and backslashes read as node-sql-parser read them when it was checked (server/sql/company-sql.ts).
      const parserModes = options.readOnly
        ? ", sql_mode = TRIM(BOTH ',' FROM REPLACE(REPLACE(REPLACE(CONCAT(',', @@SESSION.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','), ',ANSI_QUOTES,', ','), ',ANSI,', ','))"
        : '';
      await connection.query(sessionLimits(await flavourOf(connection), options) + parserModes);
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
      // A connection that lost its server is discarded rather than handed to the next statement; any other is reset first
      // (COM_RESET_CONNECTION), so that user variables, session settings, named locks and temporary tables a statement
      // left never reach the next one. A server that cannot reset a connection has it closed instead.
      let reset = !(failure && isConnectionLost(failure));
      if (reset) {
        // A server gone silent answers no reset either: the connection is closed after a while.
        const silence = new Promise<boolean>((resolve) => setTimeout(resolve, 5_000, false).unref());
        reset = await Promise.race([
          connection.reset().then(
            () => true,
            () => false,
          ),
          silence,
        ]);
      }
      if (reset) connection.release();
      else connection.destroy();
    }
  };

  /**
   * Copies and scripts work on a connection of their own, closed afterwards (destroyed after a
   * failure), so that the session settings they need — no statement time limit (the run has its
   * own), times in UTC — and whatever a script changes never reach a pooled connection.
   */
  const withOwnConnection = async <T>(work: (connection: mysql.Connection, core: mysqlCore.Connection) => Promise<T>): Promise<T> => {
    let core: mysqlCore.Connection | undefined;
    let connection: mysql.Connection;
    try {
      const { default: coreDriver } = await import('mysql2');
      core = coreDriver.createConnection(await connectionOptions());
      connection = core.promise();
      await connection.connect().catch((err: unknown) => {
        throw connectingError(err, 'mysql', where().host, where().port);
      });
      const timeLimitOff = (await flavourOf(connection)) === 'mariadb' ? 'max_statement_time = 0' : 'max_execution_time = 0';
      await connection.query(`SET SESSION ${timeLimitOff}, time_zone = '+00:00', sql_select_limit = DEFAULT`);
    } catch (err) {
      core?.destroy();
      throw mysqlError(err);
    }
    // A server that goes away is also reported as an 'error' event: the statement's own failure says it.
    core.on('error', () => {});
    try {
      const result = await work(connection, core);
      await connection.end().catch(() => core!.destroy());
      return result;
    } catch (err) {
      core.destroy();
      throw mysqlError(err);
    }
  };

  return {
    where,
    connect: async () => (await promiseDriver()).createConnection(await connectionOptions()),
    query,
    withOwnConnection,
    async close() {
      const open = pool;
      pool = undefined;
      flavour = undefined;
      await open?.end();
    },
  };
}
