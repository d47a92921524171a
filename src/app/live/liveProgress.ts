import { useSyncExternalStore } from 'react';

/**
 * What the live stream tells of a step's rows that the API does not keep: how many the source
 * expects (its own estimate). Kept per step while the console runs, for the run page's percentage.
 */

const totals = new Map<string, number>();
const listeners = new Set<() => void>();

export const liveProgress = {
  setTotal(stepId: string, rowsTotal: number) {
    if (totals.get(stepId) === rowsTotal) return;
    totals.set(stepId, rowsTotal);
    listeners.forEach((listener) => listener());
  },
  totalOf(stepId: string): number | undefined {
    return totals.get(stepId);
  },
  clear() {
    totals.clear();
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The rows a step expects, where the source said. */
export function useStepRowsTotal(stepId: string): number | undefined {
  return useSyncExternalStore(liveProgress.subscribe, () => liveProgress.totalOf(stepId));
}

/**
 * The share of a step's rows read, as a whole percentage; undefined when the total is not known.
 * Held below 100 until the step has ended (the total is an estimate), 100 once it succeeded.
 */
export function percentDone(rowsRead: number | null | undefined, rowsTotal: number | undefined, ended: boolean): number | undefined {
  if (rowsTotal === undefined || rowsTotal <= 0) return undefined;
  if (ended) return 100;
  return Math.min(99, Math.floor(((rowsRead ?? 0) / rowsTotal) * 100));
}
