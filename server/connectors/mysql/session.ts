import { splitTableEndpoint, type QueryOptions } from '../types';

/** What every statement shares: quoting names, and the session settings a statement runs under. */

/** The catalogue's statements (and KILL QUERY) stop after this long. */
export const CATALOG_TIME_LIMIT_MS = 30_000;

export type ServerFlavour = 'mariadb' | 'mysql';

export const quoteMysql = (identifier: string): string => `\`${identifier.replace(/`/g, '``')}\``;

export const tableName = (endpoint: string) => {
  const { schema, table } = splitTableEndpoint(endpoint);
  return schema === undefined ? quoteMysql(table) : `${quoteMysql(schema)}.${quoteMysql(table)}`;
};

/**
 * The session settings a statement runs under, set before each one (a pooled connection keeps
 * the last statement's otherwise). MariaDB limits any statement with `max_statement_time`
 * (seconds); MySQL limits SELECTs with `max_execution_time` (milliseconds). `sql_select_limit`
 * makes the server stop a SELECT at `maxRows` rows, unless the SELECT has a LIMIT of its own,
 * whose extra rows are then read and dropped here.
 */
export function sessionLimits(flavour: ServerFlavour, options: QueryOptions): string {
  const timeLimit =
    flavour === 'mariadb'
      ? `max_statement_time = ${Math.max(0.001, options.timeoutMs / 1000).toFixed(3)}`
      : `max_execution_time = ${Math.max(1, Math.ceil(options.timeoutMs))}`;
  const rowLimit = `sql_select_limit = ${options.maxRows === undefined ? 'DEFAULT' : Math.max(0, Math.floor(options.maxRows))}`;
  return `SET SESSION ${timeLimit}, ${rowLimit}`;
}
