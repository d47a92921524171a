import { connectionTypeOf, parseSettings, type ConnectionType, type EndpointKind, type ParsedSettings } from '../../common/connections';

/**
 * What the server does with a connection, whatever its type: test it, list what it reaches, and
 * for the types that hold tables, describe and read them. Each type has one module in this folder
 * (postgresql/, mysql.ts, …) and registry.ts opens the right one.
 */

/** A connection as a connector needs it: its type, plain settings and decrypted secrets. */
export interface ConnectionConfig {
  /** The company the connection belongs to: its embedded databases, folders and caches are its own (company-places.ts). */
  companyId: string;
  type: ConnectionType;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
}

/** What a connection reaches: a table, a file, a channel, a repository or a branch. */
export interface Endpoint {
  /** Stable reference: `schema.table`, a file's path in the folder or bucket, a channel id, a repository slug, a branch name. */
  id: string;
  /** What a person reads. */
  name: string;
  kind: EndpointKind;
  /** The schema (tables), the folder (files). */
  group?: string;
  /** For tables: 'table' or 'view'; for files: 'csv' or 'parquet'. */
  format?: string;
  /** Bytes, for files. */
  size?: number;
  /** A row estimate where the source keeps one. */
  rows?: number;
}

/** One column as the source describes it. */
export interface ColumnInfo {
  name: string;
  /** The source's own type name (`integer`, `varchar(80)`, `timestamp with time zone`, …). */
  dataType: string;
  nullable: boolean;
  /** 1-based. */
  position: number;
}

export interface TestResult {
  latencyMs: number;
  /** What the source says of itself: a server version, an account name, the number of files. */
  detail: string;
}

/** The SQL dialect a table source speaks: PostgreSQL, MySQL/MariaDB, or Databricks SQL (a SQL warehouse). */
export type Dialect = 'postgres' | 'mysql' | 'databricks';

export interface QueryOptions {
  /** The statement is stopped after this long, with a ConnectorError saying so. */
  timeoutMs: number;
  /**
   * Run in a read-only transaction: a statement that writes fails. Databricks SQL has no such
   * transaction: a Databricks source runs nothing but one query (SELECT, WITH) whatever this says.
   */
  readOnly?: boolean;
  /** At most this many rows are read back. */
  maxRows?: number;
}

export interface Connector {
  /** Connects for real and answers how long it took; a failure throws ConnectorError with the driver's own message. */
  test(): Promise<TestResult>;
  /** Discovered live from the source. */
  endpoints(): Promise<Endpoint[]>;
  /** Frees what the connector holds (pools, sockets). */
  close(): Promise<void>;
}

/** A connector whose endpoints are tables it can describe and query with SQL. */
export interface TableSource extends Connector {
  readonly dialect: Dialect;
  /** The columns of one endpoint (`schema.table`); a missing table is a ConnectorError. */
  columns(endpoint: string): Promise<ColumnInfo[]>;
  /** An identifier quoted for this dialect. */
  quote(identifier: string): string;
  /** The endpoint as a qualified, quoted table name for this dialect. */
  tableName(endpoint: string): string;
  /** Runs one statement with positional parameters ($1 on PostgreSQL, ? on MySQL, :p1 on Databricks). */
  query<Row extends Record<string, unknown> = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[],
    options: QueryOptions,
  ): Promise<Row[]>;
}

export function isTableSource(connector: Connector): connector is TableSource {
  return typeof (connector as TableSource).query === 'function' && typeof (connector as TableSource).columns === 'function';
}

/** A failure reported by a source, in its own words: shown to the user as it is. */
export class ConnectorError extends Error {
  constructor(
    message: string,
    /**
     * 'unreachable' (network, refused, timeout), 'auth', 'not_found', 'timeout', 'read_only', 'invalid', 'failed', or
     * 'refused': this server does not let companies reach that host, path or database (server/reach).
     */
    readonly kind: 'unreachable' | 'auth' | 'not_found' | 'timeout' | 'read_only' | 'invalid' | 'failed' | 'refused' = 'failed',
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

/**
 * A connection's settings and secrets checked against the declaration of `type`
 * (common/connections.ts): a ConnectorError ('invalid') names every problem at once.
 */
export function checkedSettings(config: ConnectionConfig, type: ConnectionType = config.type): ParsedSettings {
  const parsed = parseSettings(connectionTypeOf(type)!, { ...config.settings, ...config.secrets });
  if (!parsed.ok) throw new ConnectorError(parsed.problems.join('; '), 'invalid');
  return parsed.value;
}

/** A table endpoint's parts: `schema.table` (the first dot separates them), or a bare table name. */
export function splitTableEndpoint(endpoint: string): { schema: string | undefined; table: string } {
  const dot = endpoint.indexOf('.');
  const [schema, table] = dot < 0 ? [undefined, endpoint] : [endpoint.slice(0, dot), endpoint.slice(dot + 1)];
  if (!table || schema === '') throw new ConnectorError(`"${endpoint}" is not a table: name it as schema.table`, 'invalid');
  return { schema, table };
}

// ---------------------------------------------------------------------------------------------
// Copying rows and running scripts (what workflow tasks need of databases)

/** A value read for copying: the source's own text for it, bytes for a binary column, or null. */
export type CellValue = string | Uint8Array | null;

/**
 * A batch of rows, in the order of the read's columns: as values, or — from a PostgreSQL server
 * asked for it — as PostgreSQL's COPY text (one line a row), which a PostgreSQL-speaking
 * destination takes without decoding a value.
 */
export type RowBatch = { format: 'values'; rows: CellValue[][] } | { format: 'copy-text'; rowCount: number; data: Buffer };

export interface ReadRowsOptions {
  /** Rows per batch. */
  batchSize: number;
  /** COPY text batches where the source can send them; values otherwise. */
  preferCopyText?: boolean;
  /** Checked between batches: once aborted, no further batch is handed over and the read rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Where a read's rows go, in order; the source reads the next batch while one is being written. */
export interface RowSink {
  /** Called once, before the first batch, with the columns of the rows (the source's own type names). */
  start(columns: ColumnInfo[]): Promise<void>;
  write(batch: RowBatch): Promise<void>;
}

/** A table source that reads a query's rows in batches, read-only. */
export interface RowReading {
  /** Reads every row of one query (SELECT, WITH) into `sink`; answers once the last batch was written. */
  readRows(sql: string, params: readonly unknown[], options: ReadRowsOptions, sink: RowSink): Promise<void>;
}

/** A column to make: a name, a type in the database's own words, and whether it may hold null. */
export type ColumnDefinition = Pick<ColumnInfo, 'name' | 'dataType' | 'nullable'>;

/** What a copy does to the tables of a database it writes to; endpoints are `schema.table` (`database.table` on MySQL). */
export interface TableWriter {
  exists(endpoint: string): Promise<boolean>;
  /** Makes the table; fails when it exists. With `key`, those columns are its primary key. */
  create(endpoint: string, columns: readonly ColumnDefinition[], key?: readonly string[]): Promise<void>;
  /** Drops the table when it exists. */
  drop(endpoint: string): Promise<void>;
  /**
   * Puts `staging` in the place of `target` (same schema) in one step: an existing target is
   * dropped with it when `replace`, and makes the move fail otherwise.
   */
  promote(staging: string, target: string, replace: boolean): Promise<void>;
  /** Adds a batch to the table, all of it or none (one transaction), and answers how many rows it wrote. */
  append(endpoint: string, columns: readonly string[], batch: RowBatch): Promise<number>;
  /** The columns of each of the table's unique keys (its primary key among them), each in its index's order. */
  uniqueKeys(endpoint: string): Promise<string[][]>;
  /** A value of `keys` that two rows of the table share (each part as text), ignoring rows without one; none when no row repeats. */
  repeatedKey(endpoint: string, keys: readonly string[]): Promise<Array<string | null> | undefined>;
  /** The first of `keys` some row of the table holds no value in; none when every row has them all. */
  emptyKey(endpoint: string, keys: readonly string[]): Promise<string | undefined>;
  /** Adds a unique index on `keys`; answers the statement, for the run's log. */
  addUniqueKey(endpoint: string, keys: readonly string[]): Promise<string>;
  /**
   * Adds every row of `from` to `into` in one statement (all or nothing). With `keys` it merges:
   * a row whose key `into` already holds updates that row's other columns instead, which needs
   * a unique key of `into` on exactly those columns.
   */
  moveRows(from: string, into: string, columns: readonly string[], keys?: readonly string[]): Promise<void>;
  /**
   * Runs `work` as one transaction, kept whole at the end or not at all, where the destination
   * can hold one across statements (a PostgreSQL server); absent elsewhere (the embedded
   * database serves others between statements; MySQL commits at every CREATE and RENAME).
   */
  inTransaction?<T>(work: () => Promise<T>): Promise<T>;
}

/** A database a copy can write tables into. */
export interface TableWriting {
  /** Runs `work` with a writer on a session of its own, freed afterwards. */
  withTableWriter<T>(work: (writer: TableWriter) => Promise<T>): Promise<T>;
}

/** How one statement of a script ended: its command (`INSERT`, `CREATE TABLE`…) and the rows it returned or changed, when it counts any. */
export interface StatementOutcome {
  command: string;
  rowCount: number | undefined;
}

export interface RunStatementsOptions {
  /** Checked between statements, and stops the statement under way where the source can. */
  signal?: AbortSignal;
  /** Told of each statement as it ends (its 0-based index). */
  onStatement?(index: number, outcome: StatementOutcome): Promise<void>;
}

/** A database that runs a script's statements, in order, on one session, as a script tool would. */
export interface StatementRunning {
  /**
   * Each statement commits on its own unless the script opens a transaction itself; a failing
   * statement stops the script (an open transaction is rolled back) and rejects with the
   * source's message. Settings the script changes end with it.
   */
  runStatements(statements: readonly string[], options?: RunStatementsOptions): Promise<void>;
}

export function canReadRows(connector: Connector): connector is TableSource & RowReading {
  return isTableSource(connector) && typeof (connector as Partial<RowReading>).readRows === 'function';
}

export function canWriteTables(connector: Connector): connector is TableSource & TableWriting {
  return isTableSource(connector) && typeof (connector as Partial<TableWriting>).withTableWriter === 'function';
}

export function canRunStatements(connector: Connector): connector is TableSource & StatementRunning {
  return isTableSource(connector) && typeof (connector as Partial<StatementRunning>).runStatements === 'function';
}

/** The reason an aborted signal gives, as an Error (AbortSignal.abort() without one gives a DOMException). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'The work was stopped');
}
