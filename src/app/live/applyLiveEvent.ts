import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { liveProgress } from './liveProgress';
import type { LiveMessage } from './liveStream';

/**
 * What the console does with a live event: the open run page shows a run's new status at once,
 * and every query of the resources the event names (react-admin's lists and records, the related
 * lists `<resource>.<list>`, the bell's `notifications`) is read again, once for a burst of events.
 */

/** The resources whose open queries a run of the stream's lifetime may have left behind. */
export const LIVE_RESOURCES = ['job-runs', 'workflows', 'notifications'] as const;

/** Whether a query belongs to one of these resources: `['job-runs', …]`, `['job-runs.ofWorkflow', …]`. */
export function belongsTo(queryKey: QueryKey, resources: readonly string[]): boolean {
  const head = queryKey[0];
  return typeof head === 'string' && resources.some((resource) => head === resource || head.startsWith(`${resource}.`));
}

interface RunRecord {
  id: unknown;
  status?: string;
  steps?: Array<{ id: string; status?: string; rowsRead?: number | null; rowsWritten?: number | null }>;
}

interface RunEvent {
  id: string;
  status?: string;
  step?: { id: string; status?: string; rowsRead?: number; rowsWritten?: number; rowsTotal?: number };
}

/** The open run's record with what the event says of it (the full record follows with the refetch). */
function patchRun(record: RunRecord | undefined, event: RunEvent): RunRecord | undefined {
  if (!record || String(record.id) !== event.id) return record;
  const { step } = event;
  const steps =
    step && record.steps
      ? record.steps.map((current) =>
          current.id !== step.id
            ? current
            : {
                ...current,
                ...(step.status ? { status: step.status } : {}),
                ...(step.rowsRead !== undefined ? { rowsRead: step.rowsRead } : {}),
                ...(step.rowsWritten !== undefined ? { rowsWritten: step.rowsWritten } : {}),
              },
        )
      : record.steps;
  return { ...record, ...(event.status ? { status: event.status } : {}), ...(steps ? { steps } : {}) };
}

/** Reads the named resources again, once per burst: events that come within `delayMs` share one refetch. */
export function createInvalidator(queryClient: QueryClient, delayMs = 50) {
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const resources = [...pending];
    pending.clear();
    void queryClient.invalidateQueries({ predicate: (query) => belongsTo(query.queryKey, resources) });
  };
  return {
    add(resources: readonly string[]) {
      resources.forEach((resource) => pending.add(resource));
      if (!timer) timer = setTimeout(flush, delayMs);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}

export function applyLiveEvent(queryClient: QueryClient, invalidator: ReturnType<typeof createInvalidator>, message: LiveMessage): void {
  const resources = Array.isArray(message.data.resources)
    ? message.data.resources.filter((resource): resource is string => typeof resource === 'string')
    : [];
  if (message.event === 'run' && typeof message.data.id === 'string') {
    const event = message.data as unknown as RunEvent;
    if (event.step) liveProgress.note(event.step.id, event.step);
    if (event.status || event.step) {
      queryClient.setQueriesData<RunRecord>({ queryKey: ['job-runs', 'getOne'] }, (record) => patchRun(record, event));
    }
  }
  if (resources.length > 0) invalidator.add(resources);
}
