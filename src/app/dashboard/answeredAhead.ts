import type { Query } from '@tanstack/react-query';
import { takeAnsweredAhead } from '../../../providers/http';

/**
 * A dashboard query that starts with the answer of its call when that call, started as the
 * sign-in answered (dashboardCalls.ts), has already come back: the panel's first render shows its
 * figures, instead of a skeleton and, a turn later, a render for each answer one by one.
 */

/** How long an answer that came ahead counts as fresh: the panel mounting with it does not ask again. */
export const AHEAD_FRESH_MS = 5_000;

const cameAhead = new WeakSet<object>();

/** Query options taking the answered call for `path` as the query's first data, read by `read`. */
export function answeredAheadOptions<T>(path: string, read: (payload: unknown) => T) {
  let answeredAt: number | undefined;
  return {
    // Called once, when the query is first made: the answer is taken then, or never.
    initialData: (): T | undefined => {
      const answered = takeAnsweredAhead(path);
      if (!answered) return undefined;
      const data = read(answered.payload);
      answeredAt = answered.at;
      if (typeof data === 'object' && data !== null) cameAhead.add(data);
      return data;
    },
    initialDataUpdatedAt: () => answeredAt,
    staleTime: (query: Query<T, Error, T, readonly unknown[]>) => (cameAhead.has(query.state.data as object) ? AHEAD_FRESH_MS : 0),
  };
}
