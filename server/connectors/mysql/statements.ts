import type mysql from 'mysql2/promise';
import { abortReason, ConnectorError, type RunStatementsOptions } from '../types';
import type { MysqlConnections } from './connection';
import { CATALOG_TIME_LIMIT_MS } from './session';

/** Running a script (a workflow task): its statements one by one, on a connection of its own. */

/** The server's "a transaction is open" bit of an OK packet's status. */
const SERVER_STATUS_IN_TRANS = 1;

export function runMysqlStatements(
  { query, withOwnConnection }: Pick<MysqlConnections, 'query' | 'withOwnConnection'>,
  statements: readonly string[],
  options: RunStatementsOptions = {},
): Promise<void> {
  const { signal } = options;
  return withOwnConnection(async (connection) => {
    // KILL QUERY from a pooled connection stops the statement under way on this one.
    const stop = () => void query(`KILL QUERY ${Number(connection.threadId)}`, [], { timeoutMs: CATALOG_TIME_LIMIT_MS }).catch(() => {});
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for (const [index, statement] of statements.entries()) {
        if (signal?.aborted) throw abortReason(signal);
        const [result] = await connection.query(statement);
        // KILL QUERY may end a statement without an error (SLEEP answers 1).
        if (signal?.aborted) throw abortReason(signal);
        await options.onStatement?.(index, statementOutcome(statement, result));
      }
      const [state] = await connection.query('DO 0');
      if (((state as mysql.ResultSetHeader).serverStatus & SERVER_STATUS_IN_TRANS) !== 0) {
        throw new ConnectorError(
          'The script ends inside a transaction (START TRANSACTION without COMMIT); its work was rolled back',
          'invalid',
        );
      }
    } catch (err) {
      if (signal?.aborted) throw abortReason(signal);
      throw err;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  });
}

/** "3 rows" of a SELECT, "3 rows affected" of the others: what the server said of one statement. */
function statementOutcome(statement: string, result: unknown): { command: string; rowCount: number | undefined } {
  const command = (/^(?:\s+|--[^\n]*(?:\n|$)|#[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*([A-Za-z]+)/.exec(statement)?.[1] ?? '').toUpperCase();
  if (Array.isArray(result)) return { command, rowCount: result.length };
  const header = result as Partial<mysql.ResultSetHeader> | undefined;
  return { command, rowCount: typeof header?.affectedRows === 'number' ? header.affectedRows : undefined };
}
