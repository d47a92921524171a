import { ConnectorError } from './types';

/**
 * How the SQL drivers' failures become ConnectorErrors: the driver's own message, unchanged (it
 * is what a person can search for), and a kind the product acts on. The kind matters beyond the
 * wording: the quality engine tells a rule the source rejected ('invalid') from a source that
 * stopped answering ('unreachable', 'not_found' for a table that went away).
 */

type Kind = ConnectorError['kind'];

/** Node's socket and name-resolution failures, and the drivers' own words for a dropped connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
]);
const NETWORK_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection.*closed state/i,
  /server closed the connection/i,
];

/** PostgreSQL's SQLSTATE classes and codes (appendix A of its manual), for a server and for the embedded database alike. */
function postgresKind(code: string): Kind {
  if (code === '28P01' || code === '28000' || code === '42501') return 'auth';
  if (code === '3D000' || code === '3F000' || code === '42P01') return 'not_found';
  if (code === '25006') return 'read_only';
  if (code === '57014') return 'timeout';
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return 'unreachable';
  if (code.startsWith('42') || code.startsWith('22') || code === '0A000' || code === '21000') return 'invalid';
  return 'failed';
}

/** MySQL's and MariaDB's error numbers (their "server error message reference"). */
const MYSQL_KINDS: Record<number, Kind> = {
  1044: 'auth', // database access denied
  1045: 'auth', // access denied (password)
  1142: 'auth', // command denied on a table
  1227: 'auth', // needs a privilege
  1251: 'auth', // authentication protocol refused
  1698: 'auth', // access denied (auth plugin)
  1049: 'not_found', // unknown database
  1146: 'not_found', // no such table
  1792: 'read_only', // write in a READ ONLY transaction
  1290: 'read_only', // server runs --read-only
  1969: 'timeout', // MariaDB: max_statement_time exceeded
  3024: 'timeout', // MySQL: max_execution_time exceeded
  1317: 'timeout', // query interrupted
  1040: 'unreachable', // too many connections
  1053: 'unreachable', // server shutdown in progress
};

function isNetworkFailure(code: unknown, message: string): boolean {
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || NETWORK_MESSAGES.some((pattern) => pattern.test(message));
}

/** Node reports a refused `localhost` (::1 and 127.0.0.1) as an AggregateError whose own message is empty. */
function messageOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return err.errors.map((inner) => messageOf(inner)).join('; ');
  if (err instanceof Error) return err.message;
  return String(err);
}

/** A failure of the `pg` driver or of PGlite, which both report PostgreSQL's SQLSTATE as `code`. */
export function postgresError(err: unknown): ConnectorError {
  if (err instanceof ConnectorError) return err;
  const message = messageOf(err);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return new ConnectorError(message, postgresKind(code));
  if (/query read timeout/i.test(message)) return new ConnectorError(message, 'timeout');
  if (isNetworkFailure(code, message)) return new ConnectorError(message, 'unreachable');
  return new ConnectorError(message, 'failed');
}

/** A failure of `mysql2`: a server error carries its number (`errno`) and SQLSTATE, a network one Node's code. */
export function mysqlError(err: unknown): ConnectorError {
  if (err instanceof ConnectorError) return err;
  const message = messageOf(err);
  const { errno, code, sqlState } = (err ?? {}) as { errno?: unknown; code?: unknown; sqlState?: unknown };
  if (isNetworkFailure(code, message)) return new ConnectorError(message, 'unreachable');
  if (typeof errno === 'number' && errno > 0) {
    const known = MYSQL_KINDS[errno];
    if (known) return new ConnectorError(message, known);
    // Syntax, unknown column, a rejected pattern or value: classes 42 and 22, as in PostgreSQL.
    if (typeof sqlState === 'string' && /^(42|22)/.test(sqlState)) return new ConnectorError(message, 'invalid');
  }
  return new ConnectorError(message, 'failed');
}

/** Whether a failure says the connection itself is gone, so the client holding it must not be reused. */
export function isConnectionLost(error: ConnectorError): boolean {
  return error.kind === 'unreachable' || error.kind === 'timeout';
}

/**
 * A failure while connecting, before any statement: a database that answered (its SQLSTATE or
 * error number: a wrong password, an unknown database) speaks in its own words; anything else — a
 * refused or closed port, a timeout, a port where something other than the database answered —
 * reads "could not reach the database at HOST:PORT" whatever the cause, so that the wording tells
 * nothing of what listens where. A host name that does not resolve says so.
 */
export function connectingError(err: unknown, dialect: 'postgres' | 'mysql', host: string, port: number): ConnectorError {
  if (err instanceof ConnectorError) return err;
  const error = dialect === 'postgres' ? postgresError(err) : mysqlError(err);
  const { code, errno } = (err ?? {}) as { code?: unknown; errno?: unknown };
  const serverSaid =
    dialect === 'postgres'
      ? typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
      : typeof errno === 'number' && errno > 0 && errno < 10_000;
  if (serverSaid && error.kind !== 'unreachable') return error;
  const name = dialect === 'postgres' ? 'PostgreSQL' : 'MySQL';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConnectorError(`${name} could not find the host ${host}`, 'unreachable');
  return new ConnectorError(`${name} could not reach the database at ${host.includes(':') ? `[${host}]` : host}:${port}`, 'unreachable');
}
