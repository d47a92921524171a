import {
  splitTableEndpoint,
  type ColumnInfo,
  type QueryOptions,
  type RowReading,
  type StatementRunning,
  type TableSource,
  type TableWriting,
} from '../types';
import { CATALOG_TIME_LIMIT_MS, COLUMNS_SQL, endpointOf, ENDPOINTS_SQL } from './catalog';
import { postgresRowReader } from './read-rows';
import { quotePostgres, timeLimitError, type PostgresAccess, type PostgresSession } from './session';
import { runPostgresStatements } from './statements';
import { withPostgresWriter } from './writer';

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
    readRows: postgresRowReader(access),
    withTableWriter: (work) => withPostgresWriter(access, tableName, work),
    runStatements: (statements, options) => runPostgresStatements(access, statements, options),
  };
}
