import { useSyncExternalStore } from 'react';

/**
 * What the live stream tells of a step's rows that a read of the run may not: how many the source
 * expects (its own estimate, which the API does not keep), and the most rows read and written
 * that an event has told. A read of the run that set out before the latest event answers fewer
 * rows than the page already showed; the counts of a step only grow, so the page keeps the most.
 */

interface StepRows {
  total?: number;
  read?: number;
  written?: number;
}

const steps = new Map<string, StepRows>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const most = (a: number | null | undefined, b: number | null | undefined) =>
  a === undefined || a === null ? (b ?? undefined) : b === undefined || b === null ? a : Math.max(a, b);

export const liveProgress = {
  setTotal(stepId: string, rowsTotal: number) {
    liveProgress.note(stepId, { rowsTotal });
  },
  /** What an event told of a step's rows: its total as given, its counts where they grew. */
  note(stepId: string, counts: { rowsRead?: number; rowsWritten?: number; rowsTotal?: number }) {
    const current = steps.get(stepId) ?? {};
    const next: StepRows = {
      total: counts.rowsTotal ?? current.total,
      read: most(current.read, counts.rowsRead),
      written: most(current.written, counts.rowsWritten),
    };
    if (next.total === current.total && next.read === current.read && next.written === current.written) return;
    steps.set(stepId, next);
    notify();
  },
  totalOf(stepId: string): number | undefined {
    return steps.get(stepId)?.total;
  },
  rowsOf(stepId: string): StepRows | undefined {
    return steps.get(stepId);
  },
  clear() {
    steps.clear();
    notify();
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

/** A step's rows read and written as the page shows them: the most of its record and the events. */
export function useStepRows(step: { id: string; rowsRead: number | null; rowsWritten: number | null }): {
  rowsRead: number | null;
  rowsWritten: number | null;
} {
  const live = useSyncExternalStore(liveProgress.subscribe, () => liveProgress.rowsOf(step.id));
  return { rowsRead: most(step.rowsRead, live?.read) ?? null, rowsWritten: most(step.rowsWritten, live?.written) ?? null };
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
