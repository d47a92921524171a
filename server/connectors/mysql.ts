import { randomBytes } from 'node:crypto';
import mysqlCore from 'mysql2';
import mysql from 'mysql2/promise';
import type { Reach } from '../reach/reach';
import { connectingError, isConnectionLost, mysqlError } from './sql-errors';
import {
  abortReason,
  ConnectorError,
  databaseServerSettings,
  splitTableEndpoint,
  type CellValue,
  type ColumnDefinition,
  type ColumnInfo,
  type ConnectionConfig,
  type Endpoint,
  type QueryOptions,
  type RowReading,
  type StatementRunning,
  type TableSource,
  type TableWriter,
  type TableWriting,
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

export interface MysqlOptions {
  /** The guard the server's host goes through: checked once, and only its checked addresses dialled. */
  reach: Reach;
}

export function openMysqlConnector(
  config: ConnectionConfig,
  options: MysqlOptions,
): TableSource & RowReading & TableWriting & StatementRunning {
  let pool: mysql.Pool | undefined;
  let flavour: Promise<ServerFlavour> | undefined;
  let checked: ReturnType<Reach['check']> | undefined;
  const where = () => databaseServerSettings(config, 3306);
  const connectionOptions = async (): Promise<mysql.ConnectionOptions> => {
    const settings = databaseServerSettings(config, 3306);
    // A refusal is kept for the connector's life; a failed lookup is tried again on the next use.
    checked ??= options.reach.check({ host: settings.host, port: settings.port }).catch((error: unknown) => {
      if (!(error instanceof ConnectorError && error.kind === 'refused')) checked = undefined;
      throw error;
    });
    const target = await checked;
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
      const made = mysql.createPool({
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

  const tableName = (endpoint: string) => {
    const { schema, table } = splitTableEndpoint(endpoint);
    return schema === undefined ? quoteMysql(table) : `${quoteMysql(schema)}.${quoteMysql(table)}`;
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
      core = mysqlCore.createConnection(await connectionOptions());
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
    dialect: 'mysql',
    quote: quoteMysql,
    tableName,
    query,
    async test() {
      const started = performance.now();
      let connection: mysql.Connection | undefined;
      try {
        try {
          connection = await mysql.createConnection(await connectionOptions());
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
      return rows.map((row, index) => ({
        name: String(row.Field),
        dataType: String(row.Type),
        nullable: row.Null === 'YES',
        position: index + 1,
      }));
    },
    async close() {
      const open = pool;
      pool = undefined;
      flavour = undefined;
      await open?.end();
    },

    /**
     * Streams the query's rows in a read-only transaction with a consistent snapshot; the driver
     * reads ahead while a batch is written and pauses the socket beyond one batch. Values come
     * undecoded (text as the server wrote it, bytes for binary columns).
     */
    readRows(sql, params, options, sink) {
      const { batchSize, signal } = options;
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return withOwnConnection(async (connection, core) => {
        await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
        const query = core.query({ sql, values: [...params] as never[], rowsAsArray: true, typeCast: false });
        let fields: mysql.FieldPacket[] = [];
        query.on('fields', (received: mysql.FieldPacket[]) => {
          fields = received;
        });
        const stream = query.stream({ highWaterMark: batchSize });
        let decoders: Array<(value: Buffer | null) => CellValue> | undefined;
        const begin = async () => {
          decoders = fields.map(decoderOf);
          await sink.start(fields.map(columnOfField));
        };
        let batch: CellValue[][] = [];
        try {
          for await (const raw of stream as AsyncIterable<Array<Buffer | null>>) {
            if (!decoders) await begin();
            batch.push(raw.map((value, index) => decoders![index]!(value)));
            if (batch.length >= batchSize) {
              if (signal?.aborted) throw abortReason(signal);
              const full = batch;
              batch = [];
              await sink.write({ format: 'values', rows: full });
            }
          }
        } finally {
          stream.destroy();
        }
        if (!decoders) await begin();
        if (batch.length > 0) {
          if (signal?.aborted) throw abortReason(signal);
          await sink.write({ format: 'values', rows: batch });
        }
        await connection.query('COMMIT');
      });
    },

    withTableWriter(work) {
      return withOwnConnection((connection) => work(mysqlTableWriter(connection, tableName)));
    },

    runStatements(statements, options = {}) {
      const { signal } = options;
      return withOwnConnection(async (connection) => {
        // KILL QUERY from a pooled connection stops the statement under way on this one.
        const stop = () =>
          void query(`KILL QUERY ${Number(connection.threadId)}`, [], { timeoutMs: CATALOG_TIME_LIMIT_MS }).catch(() => {});
        signal?.addEventListener('abort', stop, { once: true });
        try {
          for (const [index, statement] of statements.entries()) {
            if (signal?.aborted) throw abortReason(signal);
            const [result] = await connection.query(statement);
            // KILL QUERY may end a statement without an error (SLEEP answers 1).
            if (signal?.aborted) throw abortReason(signal);
            await options.onStatement?.(index, statementOutcome(statement, result));
          }
          const [state] = await connection.query('DO 0');
          if (((state as mysql.ResultSetHeader).serverStatus & SERVER_STATUS_IN_TRANS) !== 0) {
            throw new ConnectorError(
              'The script ends inside a transaction (START TRANSACTION without COMMIT); its work was rolled back',
              'invalid',
            );
          }
        } catch (err) {
          if (signal?.aborted) throw abortReason(signal);
          throw err;
        } finally {
          signal?.removeEventListener('abort', stop);
        }
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading rows, writing tables and running scripts (workflow tasks)

/** The server's "a transaction is open" bit of an OK packet's status. */
const SERVER_STATUS_IN_TRANS = 1;
/** The character set number of binary strings. */
const BINARY_CHARSET = 63;
/** A flag of a column's metadata: UNSIGNED. */
const UNSIGNED_FLAG = 32;

/** The protocol's column type codes (MySQL's enum_field_types), by the name a column of that type is made with. */
const FIELD_TYPES: Record<number, string> = {
  0: 'decimal',
  1: 'tinyint',
  2: 'smallint',
  3: 'int',
  4: 'float',
  5: 'double',
  6: 'text',
  7: 'timestamp',
  8: 'bigint',
  9: 'mediumint',
  10: 'date',
  11: 'time',
  12: 'datetime',
  13: 'year',
  14: 'date',
  15: 'varchar',
  16: 'bit',
  245: 'json',
  246: 'decimal',
  247: 'enum',
  248: 'set',
  249: 'tinyblob',
  250: 'mediumblob',
  251: 'longblob',
  252: 'blob',
  253: 'varchar',
  254: 'char',
  255: 'geometry',
};
const STRING_TYPES = new Set([15, 249, 250, 251, 252, 253, 254, 247, 248]);
const BINARY_TYPES = new Set([15, 16, 249, 250, 251, 252, 253, 254, 255]);

const isBinaryField = (field: mysql.FieldPacket) =>
  BINARY_TYPES.has(field.columnType ?? -1) &&
  (field.characterSet === BINARY_CHARSET || field.columnType === 16 || field.columnType === 255);

function flagsOf(field: mysql.FieldPacket): number {
  return typeof field.flags === 'number' ? field.flags : 0;
}

/**
 * A query column's type as the server would name it, from the result's metadata: exact for
 * numbers, dates and times; strings and blobs without their length (a result does not say it in
 * characters), as text and longblob.
 */
function columnOfField(field: mysql.FieldPacket, index: number): ColumnInfo {
  const code = field.columnType ?? 6;
  const unsigned = (flagsOf(field) & UNSIGNED_FLAG) !== 0;
  const decimals = field.decimals ?? 0;
  let dataType = FIELD_TYPES[code] ?? 'text';
  if (code === 0 || code === 246) {
    const precision = (field.columnLength ?? 10) - (decimals > 0 ? 1 : 0) - (unsigned ? 0 : 1);
    dataType = `decimal(${Math.max(1, precision)},${decimals})`;
  } else if (code === 1 && field.columnLength === 1) dataType = 'tinyint(1)';
  else if ([7, 11, 12].includes(code) && decimals > 0 && decimals <= 6) dataType = `${dataType}(${decimals})`;
  else if (code === 16) dataType = `bit(${Math.max(1, field.columnLength ?? 1)})`;
  else if (isBinaryField(field)) dataType = 'longblob';
  else if (STRING_TYPES.has(code)) dataType = 'longtext';
  if (unsigned && [0, 1, 2, 3, 8, 9, 246].includes(code)) dataType += ' unsigned';
  return { name: field.name, dataType, nullable: true, position: index + 1 };
}

function decoderOf(field: mysql.FieldPacket): (value: Buffer | null) => CellValue {
  if (isBinaryField(field)) return (value) => value;
  return (value) => (value === null ? null : value.toString('utf8'));
}

/** "3 rows" of a SELECT, "3 rows affected" of the others: what the server said of one statement. */
function statementOutcome(statement: string, result: unknown): { command: string; rowCount: number | undefined } {
  const command = (/^(?:\s+|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*([A-Za-z]+)/.exec(statement)?.[1] ?? '').toUpperCase();
  if (Array.isArray(result)) return { command, rowCount: result.length };
  const header = result as Partial<mysql.ResultSetHeader> | undefined;
  return { command, rowCount: typeof header?.affectedRows === 'number' ? header.affectedRows : undefined };
}

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

function mysqlTableWriter(connection: mysql.Connection, tableName: (endpoint: string) => string): TableWriter {
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
