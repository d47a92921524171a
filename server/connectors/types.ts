import type { ConnectionType, EndpointKind } from '../../common/connections';

/**
 * What the server does with a connection, whatever its type: test it, list what it reaches, and
 * for the types that hold tables, describe and read them. Each type has one module in this folder
 * (postgresql.ts, mysql.ts, …) and registry.ts opens the right one.
 */

/** A connection as a connector needs it: its type, plain settings and decrypted secrets. */
export interface ConnectionConfig {
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

/** The SQL dialect a table source speaks. */
export type Dialect = 'postgres' | 'mysql';

export interface QueryOptions {
  /** The statement is stopped after this long, with a ConnectorError saying so. */
  timeoutMs: number;
  /** Run in a read-only transaction: a statement that writes fails. */
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
  /** Runs one statement with positional parameters ($1 on PostgreSQL, ? on MySQL). */
  query<Row extends Record<string, unknown> = Record<string, unknown>>(sql: string, params: readonly unknown[], options: QueryOptions): Promise<Row[]>;
}

export function isTableSource(connector: Connector): connector is TableSource {
  return typeof (connector as TableSource).query === 'function' && typeof (connector as TableSource).columns === 'function';
}

/** A failure reported by a source, in its own words: shown to the user as it is. */
export class ConnectorError extends Error {
  constructor(
    message: string,
    /** 'unreachable' (network, refused, timeout), 'auth', 'not_found', 'timeout', 'read_only', 'invalid' or 'failed'. */
    readonly kind: 'unreachable' | 'auth' | 'not_found' | 'timeout' | 'read_only' | 'invalid' | 'failed' = 'failed',
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}

/** Where a database server connection (PostgreSQL, MySQL) points, read from its declared settings. */
export interface DatabaseServerSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string | undefined;
  /** `ssl` 'disable' → false; 'require' → encrypted, any certificate; 'verify-full' → certificate and host name verified. */
  tls: false | { rejectUnauthorized: boolean };
}

/**
 * The settings shared by the database server types of common/connections.ts. Settings arrive
 * checked by their declarations; a required one missing here (a config built by hand) is a
 * ConnectorError naming it rather than a driver's puzzling default.
 */
export function databaseServerSettings(config: ConnectionConfig, defaultPort: number): DatabaseServerSettings {
  const text = (key: string): string => {
    const value = config.settings[key];
    if (value === undefined || value === null || String(value).trim() === '') throw new ConnectorError(`settings.${key}: is required`, 'invalid');
    return String(value).trim();
  };
  const portSetting = config.settings.port;
  const port = portSetting === undefined || portSetting === null || portSetting === '' ? defaultPort : Number(portSetting);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConnectorError('settings.port: must be a whole number from 1 to 65535', 'invalid');
  const ssl = String(config.settings.ssl ?? 'disable');
  if (!['disable', 'require', 'verify-full'].includes(ssl)) throw new ConnectorError('settings.ssl: must be one of disable, require, verify-full', 'invalid');
  return {
    host: text('host'),
    port,
    database: text('database'),
    user: text('user'),
    password: config.secrets.password || undefined,
    tls: ssl === 'disable' ? false : { rejectUnauthorized: ssl === 'verify-full' },
  };
}

/** A table endpoint's parts: `schema.table` (the first dot separates them), or a bare table name. */
export function splitTableEndpoint(endpoint: string): { schema: string | undefined; table: string } {
  const dot = endpoint.indexOf('.');
  const [schema, table] = dot < 0 ? [undefined, endpoint] : [endpoint.slice(0, dot), endpoint.slice(dot + 1)];
  if (!table || schema === '') throw new ConnectorError(`"${endpoint}" is not a table: name it as schema.table`, 'invalid');
  return { schema, table };
}
