import { ConnectorError } from '../types';

export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Rejects with a 'timeout' ConnectorError when `work` has not settled by the deadline. The work
 * itself goes on (neither PGlite nor isomorphic-git can be interrupted); only the caller stops
 * waiting. Work that holds the thread (PGlite computes on it) keeps the timer from firing, so an
 * answer that arrives after the deadline is refused too: the caller asked for one within it.
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  const started = performance.now();
  const late = () => new ConnectorError(`${what} did not finish within ${formatSeconds(timeoutMs)}`, 'timeout');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), timeoutMs);
  });
  try {
    const result = await Promise.race([work, deadline]);
    if (performance.now() - started > timeoutMs) throw late();
    return result;
  } finally {
    clearTimeout(timer);
  }
}
