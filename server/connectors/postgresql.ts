import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Reach } from '../reach/reach';
import { connectingError, isConnectionLost, postgresError } from './sql-errors';
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
  type ReadRowsOptions,
  type RowReading,
  type RowSink,
  type RunStatementsOptions,
  type StatementOutcome,
  type StatementRunning,
  type TableSource,
  type TableWriter,
  type TableWriting,
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
export const DATE_TYPE_OIDS: readonly number[] = [
  1082 /* date */, 1083 /* time */, 1114 /* timestamp */, 1184 /* timestamptz */, 1266 /* timetz */,
];

/** One session of a PostgreSQL-speaking source: what the shared code below needs of it. */
export interface PostgresSession {
  /** Statements without parameters, possibly several in one string (the simple protocol). */
  exec(sql: string): Promise<void>;
  /** Exactly one statement with $n parameters (the extended protocol, which refuses a second statement). */
  query(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * One statement's rows as arrays of PostgreSQL's own text for each value, with its columns.
   * `typeIds` are the column types the caller expects (from an earlier look at the same rows):
   * PGlite decodes values by type unless told not to for each type.
   */
  queryText(sql: string, params: readonly unknown[], typeIds?: readonly number[]): Promise<TextRows>;
  /** One statement as a script tool sends it (the simple protocol): its command and row count. */
  run(sql: string): Promise<StatementOutcome>;
  /** `COPY <target> FROM STDIN` fed with COPY text (`target` is a table and its column list); answers the rows copied. */
  copyIn(target: string, data: Buffer): Promise<number>;
  /**
   * `COPY (…) TO STDOUT`, handed over `batchRows` lines at a time while the next ones arrive;
   * answers the rows copied. Only a server streams COPY; absent elsewhere.
   */
  copyOut?(copySql: string, batchRows: number, onBatch: (data: Buffer, rows: number) => Promise<void>): Promise<number>;
  /** Asks the source to stop the statement under way (from outside it); absent where nothing can interrupt one. */
  cancel?(): Promise<void>;
  /** Whether a transaction is open on the session. */
  inTransaction(): Promise<boolean>;
}

/** Rows as PostgreSQL writes them in text, and their columns. */
export interface TextRows {
  fields: Array<{ name: string; typeId: number; typeModifier: number }>;
  rows: Array<Array<string | null>>;
}

export interface SessionOptions {
  /** The session is not handed to anyone afterwards: a script may have changed its settings or left things behind. */
  discardAfter?: boolean;
  /**
   * Work with no time limit of its own (a copy's read, a script) ends when this aborts: a shared
   * session (the embedded database) answers at once and stops the statement under way with the
   * thread that runs it; a turn still waiting is never run.
   */
  signal?: AbortSignal;
}

export interface PostgresAccess {
  /**
   * Runs `work` on a session of its own, given the moment by which it must be done; any failure
   * comes out as a ConnectorError.
   */
  withSession<T>(work: (session: PostgresSession, deadline: number) => Promise<T>, timeoutMs: number, options?: SessionOptions): Promise<T>;
  /**
   * Whether the source stops a statement at `statement_timeout` itself. A server does; PGlite
   * has no timer, so the embedded database stops a statement at its deadline by ending the
   * thread that runs it (pglite-host.ts), and one that ends just past it is rolled back here.
   */
  enforcesStatementTimeout: boolean;
  /**
   * Whether every connector shares one session that takes turns (the embedded database). Work
   * that spans statements must not hold such a session between them, or nothing else runs
   * meanwhile: a read keeps its cursor open across turns instead, and a writer takes a turn per
   * statement.
   */
  sharedSession: boolean;
}

/** The answer to a statement that ran out of time, on a source without `statement_timeout` of its own (the embedded database). */
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
async function runStatement(
  session: PostgresSession,
  sql: string,
  params: readonly unknown[],
  options: QueryOptions,
  deadline: number | undefined,
) {
  const opening = [options.readOnly ? 'begin read only' : 'begin'];
  // A read-only statement may hold a company's query: its string constants read as libpg_query read them when it was checked (server/sql/company-sql.ts).
  if (options.readOnly) opening.push('set local standard_conforming_strings = on');
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

/** What every PostgreSQL-speaking database offers beyond a TableSource: reading rows in batches, writing tables, running scripts. */
export type PostgresCapabilities = RowReading & TableWriting & StatementRunning;

/** The TableSource of a PostgreSQL-speaking source, less what differs between them (test, close). */
export function postgresTableSource(access: PostgresAccess): Omit<TableSource, 'test' | 'close'> & PostgresCapabilities {
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
      return rows.map((row) => ({
        name: String(row.name),
        dataType: String(row.data_type),
        nullable: Boolean(row.nullable),
        position: Number(row.position),
      }));
    },
    readRows: (sql, params, options, sink) => readPostgresRows(access, sql, params, options, sink),
    withTableWriter: (work) => withPostgresWriter(access, tableName, work),
    runStatements: (statements, options) => runPostgresStatements(access, statements, options),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading rows in batches, writing tables and running scripts (workflow tasks)

/** Copies and scripts are bounded by their run's own time limit (a signal), not by a statement's. */
const LONG_WORK_MS = 24 * 60 * 60 * 1000;

/** Values as text in forms every PostgreSQL reads back the same, whatever the session or server defaults. */
const PORTABLE_TEXT_SETTINGS =
  "set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'; set local extra_float_digits = 3; set local bytea_output = 'hex'";

/** The source's own names of the types behind a result's columns (`integer`, `character varying(80)`). */
async function describeColumns(session: PostgresSession, fields: TextRows['fields']): Promise<ColumnInfo[]> {
  if (fields.length === 0) return [];
  const [row] = await session.query(
    'select array(select pg_catalog.format_type(u.type_id, u.modifier) from unnest($1::oid[], $2::int4[]) with ordinality as u(type_id, modifier, n) order by u.n) as names',
    [fields.map((field) => field.typeId), fields.map((field) => field.typeModifier)],
  );
  const names = (row?.names ?? []) as string[];
  return fields.map((field, index) => ({ name: field.name, dataType: names[index] ?? 'text', nullable: true, position: index + 1 }));
}

/**
 * Hands batches to the sink as `fetchBatch` reads them, reading the next one while the sink
 * writes the last (the source and the destination work at the same time).
 */
async function pumpBatches(
  fetchBatch: () => Promise<CellValue[][]>,
  batchSize: number,
  sink: RowSink,
  signal: AbortSignal | undefined,
): Promise<void> {
  let next: Promise<CellValue[][]> | undefined = fetchBatch();
  while (next) {
    const rows: CellValue[][] = await next;
    if (rows.length === 0) return;
    if (signal?.aborted) throw abortReason(signal);
    next = rows.length < batchSize ? undefined : fetchBatch();
    try {
      await sink.write({ format: 'values', rows });
    } catch (error) {
      // The read ahead must end before the session is given back.
      await next?.catch(() => undefined);
      throw error;
    }
  }
}

/**
 * Reads one query's rows through a cursor, read-only. A session of its own keeps the cursor in a
 * transaction (repeatable read, so every batch sees the same data) and, on a server and without
 * parameters, lets `COPY (query) TO STDOUT` stream the rows when COPY text is preferred. A shared
 * session (the embedded database) cannot be held from one batch to the next: the cursor is
 * declared WITH HOLD, which keeps its rows past the transaction, and each batch is a turn.
 */
async function readPostgresRows(
  access: PostgresAccess,
  sql: string,
  params: readonly unknown[],
  options: ReadRowsOptions,
  sink: RowSink,
): Promise<void> {
  const { batchSize, signal } = options;
  if (signal?.aborted) throw abortReason(signal);
  if (!access.sharedSession) {
    await access.withSession(async (session) => {
      await session.exec('begin isolation level repeatable read read only');
      try {
        await readInTransaction(session, sql, params, options, sink);
        await session.exec('commit');
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        throw error;
      }
    }, LONG_WORK_MS);
    return;
  }
  const cursor = `batch_read_${randomBytes(6).toString('hex')}`;
  // The query runs whole here (a cursor WITH HOLD keeps its rows at commit): a cancel stops it. Each batch after is a short read of
  // those rows, and the cancel is seen between batches.
  const { columns, typeIds } = await access.withSession(
    async (session) => {
      await session.exec(`begin read only; ${PORTABLE_TEXT_SETTINGS}`);
      try {
        await session.query(`declare ${cursor} no scroll cursor with hold for ${sql}`, params);
        await session.exec('commit');
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        throw error;
      }
      const head = await session.queryText(`fetch forward 0 from ${cursor}`, []);
      return { columns: await describeColumns(session, head.fields), typeIds: head.fields.map((field) => field.typeId) };
    },
    LONG_WORK_MS,
    { signal },
  );
  try {
    await sink.start(columns);
    const fetchTurn = () =>
      access.withSession(async (session) => {
        await session.exec(`begin; ${PORTABLE_TEXT_SETTINGS}`);
        try {
          return (await session.queryText(`fetch forward ${batchSize} from ${cursor}`, [], typeIds)).rows;
        } finally {
          await session.exec('commit');
        }
      }, LONG_WORK_MS);
    await pumpBatches(fetchTurn, batchSize, sink, signal);
  } finally {
    await access.withSession((session) => session.exec(`close ${cursor}`), LONG_WORK_MS).catch(() => {});
  }
}

/**
 * Reads a query's rows through a cursor on a session already in a (read-only) transaction that
 * nobody else uses meanwhile: with `COPY (query) TO STDOUT` when COPY text is preferred and the
 * session streams COPY (a server; the query then has no parameters), through FETCH otherwise.
 */
export async function readInTransaction(
  session: PostgresSession,
  sql: string,
  params: readonly unknown[],
  options: ReadRowsOptions,
  sink: RowSink,
): Promise<void> {
  const { batchSize, signal } = options;
  await session.exec(PORTABLE_TEXT_SETTINGS);
  await session.query(`declare batch_read no scroll cursor for ${sql}`, params);
  const head = await session.queryText('fetch forward 0 from batch_read', []);
  await sink.start(await describeColumns(session, head.fields));
  if (options.preferCopyText && session.copyOut && params.length === 0) {
    await session.exec('close batch_read');
    await session.copyOut(`copy (${sql}) to stdout`, batchSize, async (data, rowCount) => {
      if (signal?.aborted) throw abortReason(signal);
      await sink.write({ format: 'copy-text', rowCount, data });
    });
    return;
  }
  const typeIds = head.fields.map((field) => field.typeId);
  await pumpBatches(
    async () => (await session.queryText(`fetch forward ${batchSize} from batch_read`, [], typeIds)).rows,
    batchSize,
    sink,
    signal,
  );
  await session.exec('close batch_read');
}

/** A session whose every call is a turn of its own on a shared session. */
function turnTakingSession(access: PostgresAccess): PostgresSession {
  const turn = <T>(work: (session: PostgresSession) => Promise<T>) => access.withSession(work, LONG_WORK_MS);
  return {
    exec: (sql) => turn((session) => session.exec(sql)),
    query: (sql, params) => turn((session) => session.query(sql, params)),
    queryText: (sql, params, typeIds) => turn((session) => session.queryText(sql, params, typeIds)),
    run: (sql) => turn((session) => session.run(sql)),
    copyIn: (target, data) => turn((session) => session.copyIn(target, data)),
    inTransaction: () => turn((session) => session.inTransaction()),
  };
}

function withPostgresWriter<T>(
  access: PostgresAccess,
  tableName: (endpoint: string) => string,
  work: (writer: TableWriter) => Promise<T>,
): Promise<T> {
  if (access.sharedSession) return work(postgresTableWriter(turnTakingSession(access), tableName));
  return access.withSession((session) => work(transactionalWriter(session, postgresTableWriter(session, tableName))), LONG_WORK_MS);
}

/** A writer on a session of its own can also hold a transaction across its statements. */
function transactionalWriter(session: PostgresSession, writer: TableWriter): TableWriter {
  return {
    ...writer,
    async inTransaction(work) {
      await session.exec('begin');
      try {
        const result = await work();
        await session.exec('commit');
        return result;
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        throw error;
      }
    },
  };
}

function columnDefinitionSql(column: ColumnDefinition): string {
  return `${quotePostgres(column.name)} ${column.dataType}${column.nullable ? '' : ' not null'}`;
}

function postgresTableWriter(session: PostgresSession, tableName: (endpoint: string) => string): TableWriter {
  return {
    async exists(endpoint) {
      const [row] = await session.query('select pg_catalog.to_regclass($1) is not null as found', [tableName(endpoint)]);
      return Boolean(row?.found);
    },
    async create(endpoint, columns) {
      await session.run(`create table ${tableName(endpoint)} (${columns.map(columnDefinitionSql).join(', ')})`);
    },
    async drop(endpoint) {
      await session.run(`drop table if exists ${tableName(endpoint)}`);
    },
    async promote(staging, target, replace) {
      const { table } = splitTableEndpoint(target);
      const move = [
        ...(replace ? [`drop table if exists ${tableName(target)}`] : []),
        `alter table ${tableName(staging)} rename to ${quotePostgres(table)}`,
      ];
      // Inside the caller's transaction the move is part of it; on its own it is a transaction of its own.
      if (await session.inTransaction()) {
        await session.exec(move.join('; '));
        return;
      }
      try {
        await session.exec(['begin', ...move, 'commit'].join('; '));
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        throw error;
      }
    },
    async append(endpoint, columns, batch) {
      const data = batch.format === 'copy-text' ? batch.data : copyText(batch.rows);
      return session.copyIn(`${tableName(endpoint)} (${columns.map(quotePostgres).join(', ')})`, data);
    },
  };
}

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format: `\N` for null, bytes as bytea's hex, backslashes and line breaks escaped. */
function copyField(value: CellValue): string {
  if (value === null) return '\\N';
  const text = typeof value === 'string' ? value : `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIAL_ALL, (char) => COPY_ESCAPES[char]!) : text;
}

/** Rows in COPY's text format: tab-separated values, one line a row. */
function copyText(rows: readonly CellValue[][]): Buffer {
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i += 1) lines[i] = rows[i]!.map(copyField).join('\t') + '\n';
  return Buffer.from(lines.join(''));
}

/**
 * A script's statements on one session of their own, which nobody gets afterwards. A statement
 * under way is stopped when the signal aborts, where the source can stop one. A script that ends
 * with a transaction still open fails: its work would be rolled back without a word otherwise.
 */
async function runPostgresStatements(
  access: PostgresAccess,
  statements: readonly string[],
  options: RunStatementsOptions = {},
): Promise<void> {
  const { signal } = options;
  await access.withSession(
    async (session) => {
      const stop = () => void session.cancel?.().catch(() => {});
      signal?.addEventListener('abort', stop, { once: true });
      try {
        for (const [index, statement] of statements.entries()) {
          if (signal?.aborted) throw abortReason(signal);
          const outcome = await session.run(statement);
          // A statement stopped by the cancel may still end without an error (pg_sleep does).
          if (signal?.aborted) throw abortReason(signal);
          await options.onStatement?.(index, outcome);
        }
        if (await session.inTransaction())
          throw new ConnectorError('The script ends inside a transaction (BEGIN without COMMIT); its work was rolled back', 'invalid');
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        if (signal?.aborted) throw abortReason(signal);
        throw error;
      } finally {
        signal?.removeEventListener('abort', stop);
      }
    },
    LONG_WORK_MS,
    { discardAfter: true, signal },
  );
}

const textDates = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    DATE_TYPE_OIDS.includes(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Every value as the text PostgreSQL sent: a copy writes it back as it came. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

/** What a pg session may do to the client behind it, beyond statements. */
interface ClientControl {
  /** The client cannot be trusted with another statement (a COPY was cut short): it is discarded, not pooled. */
  spoil(): void;
  /** Stops the client's statement under way, from another connection. */
  cancel(): Promise<void>;
}

function sessionOf(client: pg.ClientBase, readTimeoutMs: number, control: ClientControl): PostgresSession {
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query(sql, params) {
      // queryMode 'extended' even without parameters: the simple protocol would run a second statement hidden in `sql`.
      const config = { text: sql, values: [...params], queryMode: 'extended', query_timeout: readTimeoutMs } as pg.QueryConfig;
      return (await client.query(config)).rows;
    },
    async queryText(sql, params) {
      const config = {
        text: sql,
        values: [...params],
        queryMode: 'extended',
        query_timeout: readTimeoutMs,
        rowMode: 'array',
        types: RAW_TEXT,
      } as pg.QueryArrayConfig;
      const result = await client.query(config);
      return {
        fields: result.fields.map((field) => ({ name: field.name, typeId: field.dataTypeID, typeModifier: field.dataTypeModifier })),
        rows: result.rows as Array<Array<string | null>>,
      };
    },
    async run(sql) {
      const answer = (await client.query({
        text: sql,
        query_timeout: readTimeoutMs,
        rowMode: 'array',
        types: RAW_TEXT,
      } as pg.QueryArrayConfig)) as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(answer) ? answer[answer.length - 1] : answer;
      return { command: last?.command ?? '', rowCount: last?.rowCount ?? undefined };
    },
    copyIn(target, data) {
      const copy = new CopyInQuery(`copy ${target} from stdin`, data);
      client.query(copy as unknown as pg.QueryConfig);
      return copy.done;
    },
    copyOut(copySql, batchRows, onBatch) {
      const copy = new CopyOutQuery(copySql, batchRows, onBatch, control.spoil);
      client.query(copy as unknown as pg.QueryConfig);
      return copy.done;
    },
    cancel: control.cancel,
    async inTransaction() {
      return client.getTransactionStatus() !== 'I';
    },
  };
}

// ---- COPY through pg's custom-query interface ----------------------------------------------------
//
// pg sends COPY data only through a "submittable" query: an object it hands the connection to and
// tells of each message. pg-copy-streams is the usual one; it is not a dependency, so these two
// speak the protocol's few COPY messages themselves (PostgreSQL's manual, "COPY Operations").

/** The part of pg's connection a COPY needs: sending a statement, and the socket for the data. */
interface PgConnection {
  query(text: string): void;
  stream: NodeJS.WritableStream & { pause(): void; resume(): void; destroy(): void };
}

/** CopyDone: 'c' and a length of 4. */
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);
/** A batch of COPY text starts this large and doubles when a batch needs more. */
const COPY_BUFFER_BYTES = 1 << 20;
/** Batches read ahead before the source is paused until the destination catches up. */
const COPY_BATCHES_AHEAD = 2;

function settled<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** The messages a COPY does not expect, which pg may still pass on. */
abstract class CopyQuery {
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(_connection: PgConnection): void {}
  handleCopyData(_message: { chunk: Buffer }): void {}
}

/** The rows a "COPY n" command tag counts. */
const copiedRows = (tag: string) => Number(/^COPY (\d+)/.exec(tag)?.[1] ?? 0);

/** `COPY … FROM STDIN`: the whole batch goes as one CopyData message once the server asks for it, then CopyDone. */
class CopyInQuery extends CopyQuery {
  private readonly outcome = settled<number>();
  readonly done = this.outcome.promise;
  private rows = 0;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
  ) {
    super();
  }

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  override handleCopyInResponse(connection: PgConnection): void {
    const header = Buffer.allocUnsafe(5);
    header[0] = 0x64; // CopyData: 'd' and the length of what follows, the length itself included
    header.writeUInt32BE(this.data.length + 4, 1);
    connection.stream.write(header);
    connection.stream.write(this.data);
    connection.stream.write(COPY_DONE);
  }

  handleCommandComplete(message: { text: string }): void {
    this.rows = copiedRows(message.text);
  }

  handleReadyForQuery(): void {
    this.outcome.resolve(this.rows);
  }

  handleError(error: Error): void {
    this.outcome.reject(error);
  }
}

/**
 * `COPY … TO STDOUT`, cut into batches of `batchRows` lines (in COPY text a line break inside a
 * value is written `\n`, so every line feed ends a row). A batch is handed over while the next
 * arrives; with `COPY_BATCHES_AHEAD` waiting, the socket is paused. A batch that fails to be
 * written ends the COPY: the connection is closed (the server then stops) and never reused.
 */
class CopyOutQuery extends CopyQuery {
  private readonly outcome = settled<number>();
  readonly done = this.outcome.promise;
  private connection: PgConnection | undefined;
  private buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
  private used = 0;
  private lines = 0;
  private readonly waiting: Array<{ data: Buffer; rows: number }> = [];
  private handedOver = 0;
  /** The batch being written, if any: a failure is answered once it has settled, so nothing is written after the answer. */
  private writing: Promise<void> | undefined;
  private paused = false;
  private serverDone = false;
  private failed = false;

  constructor(
    private readonly text: string,
    private readonly batchRows: number,
    private readonly onBatch: (data: Buffer, rows: number) => Promise<void>,
    private readonly spoil: () => void,
  ) {
    super();
  }

  submit(connection: PgConnection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  override handleCopyData(message: { chunk: Buffer }): void {
    if (this.failed) return;
    // Copied at once: pg reuses the memory the chunk points into for the messages that follow.
    const chunk = message.chunk;
    let start = 0;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) {
      this.lines += 1;
      if (this.lines === this.batchRows) {
        this.keep(chunk, start, at + 1);
        this.endBatch();
        start = at + 1;
      }
    }
    if (start < chunk.length) this.keep(chunk, start, chunk.length);
  }

  handleCommandComplete(): void {
    this.endBatch();
  }

  handleReadyForQuery(): void {
    this.serverDone = true;
    this.finishWhenWritten();
  }

  handleError(error: Error): void {
    this.fail(error);
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    const needed = this.used + (to - from);
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.used, from, to);
    this.used = needed;
  }

  private endBatch(): void {
    if (this.lines === 0) return;
    this.waiting.push({ data: this.buffer.subarray(0, this.used), rows: this.lines });
    this.buffer = Buffer.allocUnsafe(this.buffer.length);
    this.used = 0;
    this.lines = 0;
    if (this.waiting.length >= COPY_BATCHES_AHEAD && !this.paused) {
      this.paused = true;
      this.connection?.stream.pause();
    }
    this.handOver();
  }

  private handOver(): void {
    if (this.writing || this.failed) return;
    this.writing = (async () => {
      while (this.waiting.length > 0 && !this.failed) {
        const batch = this.waiting.shift()!;
        if (this.paused && this.waiting.length < COPY_BATCHES_AHEAD) {
          this.paused = false;
          this.connection?.stream.resume();
        }
        try {
          await this.onBatch(batch.data, batch.rows);
          this.handedOver += batch.rows;
        } catch (error) {
          this.writing = undefined;
          this.fail(error instanceof Error ? error : new Error(String(error)));
          return;
        }
      }
      this.writing = undefined;
      this.finishWhenWritten();
    })();
  }

  private finishWhenWritten(): void {
    if (this.serverDone && !this.writing && this.waiting.length === 0 && !this.failed) this.outcome.resolve(this.handedOver);
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.waiting.length = 0;
    if (!this.serverDone) {
      this.spoil();
      this.connection?.stream.destroy();
    }
    const reject = () => this.outcome.reject(error);
    if (this.writing) void this.writing.then(reject, reject);
    else reject();
  }
}

/** The `postgresql` connection type: a PostgreSQL server reached with `pg`, through a small pool opened on first use. */
export interface PostgresOptions {
  /** The guard the server's host goes through: checked once, and only its checked addresses dialled. */
  reach: Reach;
}

export function openPostgresConnector(config: ConnectionConfig, options: PostgresOptions): TableSource {
  let pool: pg.Pool | undefined;
  let checked: ReturnType<Reach['check']> | undefined;
  const where = () => databaseServerSettings(config, 5432);
  const clientConfig = async (): Promise<pg.ClientConfig> => {
    const settings = databaseServerSettings(config, 5432);
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
      stream: () => target.socket(),
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
  const poolOf = async () => {
    if (!pool) {
      const made = new pg.Pool({ ...(await clientConfig()), max: POOL_SIZE, idleTimeoutMillis: 30_000 });
      if (pool) {
        void made.end();
        return pool;
      }
      pool = made;
      // An idle client whose server goes away must not crash the process; the next use reports it.
      pool.on('error', () => {});
    }
    return pool;
  };
  const access: PostgresAccess = {
    enforcesStatementTimeout: true,
    sharedSession: false,
    async withSession(work, timeoutMs, options = {}) {
      let client: pg.PoolClient;
      try {
        client = await (await poolOf()).connect();
      } catch (err) {
        throw connectingError(err, 'postgres', where().host, where().port);
      }
      // A server that goes away mid-statement is also reported as an 'error' event: the statement's own failure says it.
      const ignore = () => {};
      client.on('error', ignore);
      let failure: ConnectorError | undefined;
      let spoiled = options.discardAfter === true;
      const control: ClientControl = {
        spoil: () => {
          spoiled = true;
        },
        async cancel() {
          const processId = (client as unknown as { processID?: number }).processID;
          if (processId !== undefined) await (await poolOf()).query('select pg_cancel_backend($1)', [processId]);
        },
      };
      try {
        return await work(sessionOf(client, timeoutMs + UNANSWERED_GRACE_MS, control), Date.now() + timeoutMs);
      } catch (err) {
        failure = postgresError(err);
        throw failure;
      } finally {
        // A client that lost its server, or stopped waiting for it, or that a COPY or a script left in doubt, is discarded rather than reused.
        let discard = spoiled || (failure !== undefined && isConnectionLost(failure));
        // A client given back to the pool carries nothing a statement left (settings, advisory locks, temporary tables, prepared
        // statements, LISTEN): DISCARD ALL, which runs outside a transaction. One that cannot be reset is discarded.
        if (!discard) {
          try {
            if (client.getTransactionStatus() !== 'I')
              await client.query({ text: 'rollback', query_timeout: UNANSWERED_GRACE_MS } as pg.QueryConfig);
            await client.query({ text: 'discard all', query_timeout: UNANSWERED_GRACE_MS } as pg.QueryConfig);
          } catch {
            discard = true;
          }
        }
        client.off('error', ignore);
        client.release(discard ? (failure ?? true) : undefined);
      }
    },
  };
  return {
    ...postgresTableSource(access),
    async test() {
      const started = performance.now();
      const client = new pg.Client(await clientConfig());
      try {
        try {
          await client.connect();
        } catch (err) {
          throw connectingError(err, 'postgres', where().host, where().port);
        }
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
