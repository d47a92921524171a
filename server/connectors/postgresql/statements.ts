import { abortReason, ConnectorError, type RunStatementsOptions } from '../types';
import { LONG_WORK_MS, type PostgresAccess } from './session';

/**
 * A script's statements on one session of their own, which nobody gets afterwards. A statement
 * under way is stopped when the signal aborts, where the source can stop one. A script that ends
 * with a transaction still open fails: its work would be rolled back without a word otherwise.
 */
export async function runPostgresStatements(
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
