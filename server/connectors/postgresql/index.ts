/**
 * PostgreSQL sources. What every PostgreSQL-speaking source shares (a server through `pg`, and the
 * embedded database in embedded.ts): the session and quoting (session.ts), the catalog queries
 * (catalog.ts), how one statement is run (table-source.ts), reading rows (read-rows.ts), writing
 * tables (writer.ts) and running scripts (statements.ts). The `postgresql` connection type is
 * connector.ts: a pool of `pg` clients (client-session.ts), with COPY spoken by copy.ts.
 */

export { openPostgresConnector, type PostgresOptions } from './connector';
export { readInTransaction } from './read-rows';
export {
  DATE_TYPE_OIDS,
  quotePostgres,
  timeLimitError,
  type PostgresAccess,
  type PostgresSession,
  type SessionOptions,
  type TextRows,
} from './session';
export { postgresTableSource, type PostgresCapabilities } from './table-source';
