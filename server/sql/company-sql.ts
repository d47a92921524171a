import type { ConnectionType } from '../../common/connections';
import { ConnectorError, type Dialect } from '../connectors/types';
import { checkInItsThread } from './check-thread';
import type { CheckedDialect } from './denied-functions';

/**
 * SQL a company writes and the server runs on its sources (custom data-quality rules, the query a
 * copy reads), checked before it runs: parsed by a real parser of its dialect (libpg_query, the
 * PostgreSQL parser itself; node-sql-parser for MySQL and MariaDB), refused unless it is exactly
 * one query (SELECT, VALUES, WITH … SELECT, set operations) that writes nothing, locks nothing and
 * calls no function of the deny list (denied-functions.ts) anywhere in its tree, and re-printed
 * from the tree. The re-printed text is what runs, never the company's own: comments are gone
 * with it (MySQL runs the code of a `/*! … *\/` comment, which a parser skips), and a text that
 * would read differently once printed is refused, so what runs is what was checked.
 *
 * A refusal is a ConnectorError of kind 'invalid' whose message says what is wrong.
 */

/**
 * The dialect a company's SQL is read in, by the type of the connection it runs on; null where no
 * SQL of a company runs through these checks (Databricks speaks Databricks SQL: checkCompanySql refuses it).
 */
export const COMPANY_SQL_DIALECTS: Record<ConnectionType, CheckedDialect | null> = {
  postgresql: 'postgres',
  // The embedded databases, and files loaded into one, are PostgreSQL (PGlite).
  embedded: 'postgres',
  files: 'postgres',
  s3: 'postgres',
  gcs: 'postgres',
  azure_blob: 'postgres',
  mysql: 'mysql',
  databricks: null,
  slack: null,
  bitbucket: null,
  git: null,
};

/** The dialect to check a connection type's SQL in, or undefined when it is not checked here (or the type is unknown). */
export function companySqlDialectOf(type: string | null | undefined): CheckedDialect | undefined {
  return (type && Object.hasOwn(COMPANY_SQL_DIALECTS, type) ? COMPANY_SQL_DIALECTS[type as ConnectionType] : null) ?? undefined;
}

/** Why a company's query does not run on Databricks. */
const DATABRICKS_REFUSAL =
  'Custom SQL does not run on Databricks connections: its queries cannot be checked to read only; write the check as a built-in rule';

/**
 * Checks a company's query and answers the text to run: the query re-printed from its parse
 * tree. `$1`-style parameters (PostgreSQL) and `?` (MySQL) stay as they are. The parsing runs in
 * a thread of its own (check-thread.ts): a text of 10,000 characters can take a parser a good
 * fraction of a second, which no other company's request should wait for.
 */
export function checkCompanySql(dialect: Dialect, text: string): Promise<string> {
  // Without a parser of Databricks SQL nothing could prove a query reads only: a warehouse has no
  // read-only transaction to fall back on, so a company's query is not run there at all.
  if (dialect === 'databricks') return Promise.reject(new ConnectorError(DATABRICKS_REFUSAL, 'invalid'));
  return checkInItsThread(dialect, text);
}
