import pg from 'pg';
import { isConnectionLost, postgresError } from './sql-errors';
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
 * PostgreSQL sources. The first half is what every PostgreSQL-speaking source shares (a server
 * through `pg`, and the embedded database in embedded.ts): the catalog queries, quoting, and how
 * one statement is run. The second half is the `postgresql` connection type.
 */

/** A connection attempt gives up after this long (a connection test answers within 15 s). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Clients per connector: work reads one statement at a time; a few let a test and a run overlap. */
const POOL_SIZE = 3;
/** How long past its own limit a statement may go unanswered before the client stops waiting (a host gone silent sends no error). */
const UNANSWERED_GRACE_MS = 5_000;
/** Catalog reads (endpoints, columns) are small; a source slower than this is not answering. */
const CATALOG_TIME_LIMIT_MS = 30_000;

/**
 * Dates and times stay the text PostgreSQL sends ('2024-05-01 10:00:00' for a timestamp without
 * time zone): turned into a JavaScript Date they would be read in this server's time zone and
 * shown shifted in samples and observed values.
 */
export const DATE_TYPE_OIDS: readonly number[] = [1082 /* date */, 1083 /* time */, 1114 /* timestamp */, 1184 /* timestamptz */, 1266 /* timetz */];

/** One session of a PostgreSQL-speaking source: what the shared code below needs of it. */
export interface PostgresSession {
  /** Statements without parameters, possibly several in one string (the simple protocol). */
  exec(sql: string): Promise<void>;
  /** Exactly one statement with $n parameters (the extended protocol, which refuses a second statement). */
  query(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

export interface PostgresAccess {
  /**
   * Runs `work` on a session of its own, given the moment by which it must be done; any failure
   * comes out as a ConnectorError.
   */
  withSession<T>(work: (session: PostgresSession, deadline: number) => Promise<T>, timeoutMs: number): Promise<T>;
  /**
   * Whether the source stops a statement at `statement_timeout` itself. A server does; the
   * embedded database has no timer, so its statements are checked against the deadline when
   * they end instead.
   */
  enforcesStatementTimeout: boolean;
}

/** The answer to a statement that ran out of time, on a source that cannot interrupt it. */
export function timeLimitError(timeoutMs: number): ConnectorError {
  return new ConnectorError(`The statement took longer than ${Number((timeoutMs / 1000).toFixed(1))} s`, 'timeout');
}

export const quotePostgres = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** Tables, views, materialized views and foreign tables of every schema but PostgreSQL's own; partitions are reached through their parent. */
const ENDPOINTS_SQL = `
  select n.nspname as schema_name, c.relname as table_name, c.relkind as kind, c.reltuples::float8 as row_estimate
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'f')
    and not c.relispartition
    and n.nspname <> 'information_schema'
    and n.nspname not like 'pg\\_%'
  order by n.nspname, c.relname`;

/** `$1::regclass` lets PostgreSQL say in its own words that a table is missing. */
const COLUMNS_SQL = `
  select a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as data_type,
         not a.attnotnull as nullable, row_number() over (order by a.attnum) as position
  from pg_catalog.pg_attribute a
  where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
  order by a.attnum`;

const VIEW_KINDS = new Set(['v', 'm']);

function endpointOf(row: Record<string, unknown>): Endpoint {
  const schema = String(row.schema_name);
  const table = String(row.table_name);
  const isView = VIEW_KINDS.has(String(row.kind));
  // reltuples is -1 until the table is first vacuumed or analysed: no estimate then.
  const estimate = Number(row.row_estimate);
  return {
    id: `${schema}.${table}`,
    name: table,
    kind: 'table',
    group: schema,
    format: isView ? 'view' : 'table',
    ...(!isView && estimate >= 0 ? { rows: Math.round(estimate) } : {}),
  };
}

/**
 * One statement in a transaction of its own, read-only when asked. A server stops it at
 * `statement_timeout`; elsewhere (`deadline`) a statement that ends after its deadline is rolled
 * back, so nothing it did is kept, and answered as a timeout. With `maxRows` the statement is read
 * through a cursor (`DECLARE … CURSOR FOR`, then `FETCH maxRows`), so the source produces no more
 * rows than that; such a statement must be a query (SELECT, VALUES, WITH … SELECT).
 */
async function runStatement(session: PostgresSession, sql: string, params: readonly unknown[], options: QueryOptions, deadline: number | undefined) {
  const opening = [options.readOnly ? 'begin read only' : 'begin'];
  if (deadline === undefined) opening.push(`set local statement_timeout = ${Math.max(1, Math.ceil(options.timeoutMs))}`);
  await session.exec(opening.join('; '));
  try {
    let rows: Record<string, unknown>[];
    if (options.maxRows !== undefined) {
      await session.query(`declare limited_read no scroll cursor for ${sql}`, params);
      rows = await session.query(`fetch forward ${Math.max(0, Math.floor(options.maxRows))} from limited_read`, []);
    } else {
      rows = await session.query(sql, params);
    }
    if (deadline !== undefined && Date.now() > deadline) throw timeLimitError(options.timeoutMs);
    await session.exec('commit');
    return rows;
  } catch (err) {
    // A lost connection cannot roll back; the server ends its transaction with the session.
    await session.exec('rollback').catch(() => {});
    throw err;
  }
}

/** The TableSource of a PostgreSQL-speaking source, less what differs between them (test, close). */
export function postgresTableSource(access: PostgresAccess): Omit<TableSource, 'test' | 'close'> {
  const tableName = (endpoint: string) => {
    const { schema, table } = splitTableEndpoint(endpoint);
    return schema === undefined ? quotePostgres(table) : `${quotePostgres(schema)}.${quotePostgres(table)}`;
  };
  const query = <Row extends Record<string, unknown>>(sql: string, params: readonly unknown[], options: QueryOptions) =>
    access.withSession(
      (session, deadline) => runStatement(session, sql, params, options, access.enforcesStatementTimeout ? undefined : deadline),
      options.timeoutMs,
    ) as Promise<Row[]>;
  return {
    dialect: 'postgres',
    quote: quotePostgres,
    tableName,
    query,
    async endpoints() {
      const rows = await query(ENDPOINTS_SQL, [], { timeoutMs: CATALOG_TIME_LIMIT_MS, readOnly: true });
      return rows.map(endpointOf);
    },
    async columns(endpoint): Promise<ColumnInfo[]> {
      const rows = await query(COLUMNS_SQL, [tableName(endpoint)], { timeoutMs: CATALOG_TIME_LIMIT_MS, readOnly: true });
      return rows.map((row) => ({ name: String(row.name), dataType: String(row.data_type), nullable: Boolean(row.nullable), position: Number(row.position) }));
    },
  };
}

const textDates = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    DATE_TYPE_OIDS.includes(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function sessionOf(client: pg.ClientBase, readTimeoutMs: number): PostgresSession {
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query(sql, params) {
      // queryMode 'extended' even without parameters: the simple protocol would run a second statement hidden in `sql`.
      const config = { text: sql, values: [...params], queryMode: 'extended', query_timeout: readTimeoutMs } as pg.QueryConfig;
      return (await client.query(config)).rows;
    },
  };
}

/** The `postgresql` connection type: a PostgreSQL server reached with `pg`, through a small pool opened on first use. */
export function openPostgresConnector(config: ConnectionConfig): TableSource {
  let pool: pg.Pool | undefined;
  const clientConfig = (): pg.ClientConfig => {
    const settings = databaseServerSettings(config, 5432);
    return {
      host: settings.host,
      port: settings.port,
      database: settings.database,
      user: settings.user,
      password: settings.password,
      ssl: settings.tls,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'DataOps Console',
      types: textDates,
    };
  };
  const poolOf = () => {
    if (!pool) {
      pool = new pg.Pool({ ...clientConfig(), max: POOL_SIZE, idleTimeoutMillis: 30_000 });
      // An idle client whose server goes away must not crash the process; the next use reports it.
      pool.on('error', () => {});
    }
    return pool;
  };
  const access: PostgresAccess = {
    enforcesStatementTimeout: true,
    async withSession(work, timeoutMs) {
      let client: pg.PoolClient;
      try {
        client = await poolOf().connect();
      } catch (err) {
        throw postgresError(err);
      }
      // A server that goes away mid-statement is also reported as an 'error' event: the statement's own failure says it.
      const ignore = () => {};
      client.on('error', ignore);
      let failure: ConnectorError | undefined;
      try {
        return await work(sessionOf(client, timeoutMs + UNANSWERED_GRACE_MS), Date.now() + timeoutMs);
      } catch (err) {
        failure = postgresError(err);
        throw failure;
      } finally {
        client.off('error', ignore);
        // A client that lost its server, or stopped waiting for it, is discarded rather than reused.
        client.release(failure && isConnectionLost(failure) ? failure : undefined);
      }
    },
  };
  return {
    ...postgresTableSource(access),
    async test() {
      const started = performance.now();
      const client = new pg.Client(clientConfig());
      try {
        await client.connect();
        const { rows } = await client.query('select version() as version');
        return { latencyMs: Math.round(performance.now() - started), detail: String(rows[0]?.version ?? '') };
      } catch (err) {
        throw postgresError(err);
      } finally {
        await client.end().catch(() => {});
      }
    },
    async close() {
      const open = pool;
      pool = undefined;
      await open?.end();
    },
  };
}
