import { ConnectorError, type StatementOutcome } from '../types';

/**
 * What every PostgreSQL-speaking source shares (a server through `pg`, and the embedded database
 * in embedded.ts): the session a statement runs on, how a source hands one out, and quoting.
 */

/**
 * Dates and times stay the text PostgreSQL sends ('2024-05-01 10:00:00' for a timestamp without
 * time zone): turned into a JavaScript Date they would be read in this server's time zone and
 * shown shifted in samples and observed values.
 */
export const DATE_TYPE_OIDS: readonly number[] = [
  1082 /* date */, 1083 /* time */, 1114 /* timestamp */, 1184 /* timestamptz */, 1266 /* timetz */,
];

/** One session of a PostgreSQL-speaking source: what the shared code needs of it. */
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
   * thread that runs it (pglite-host.ts), and one that ends just past it is rolled back (table-source.ts).
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

/** Copies and scripts are bounded by their run's own time limit (a signal), not by a statement's. */
export const LONG_WORK_MS = 24 * 60 * 60 * 1000;
