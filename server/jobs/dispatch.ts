import type { Db } from '../db/client';
import { retryDelaySeconds, type RunnerLimits } from './limits';
import type { JobQueue } from './queue';
import { waitingLine, type RunRecord, type WorkflowForRun } from './run-store';

/**
 * Hands queued runs to the queue. A run whose workflow has no room when a worker takes it stays
 * queued without a queue job; it is handed over again when a run of its workflow ends, so that
 * waiting costs nothing.
 */

/** How many queued runs of one workflow a release looks at; the rest wait for the next release. */
const RELEASE_SCAN = 100;
/** Beyond a run's time limit and a task's grace to stop, room for the run to be written as ended. */
const HOLD_MARGIN_MS = 60_000;

export interface Dispatcher {
  /** Sends the run's queue job, not before its retry backoff has passed. */
  send(run: RunRecord, workflow: WorkflowForRun): Promise<void>;
  /** Sends the queue jobs of the workflow's oldest queued runs that have none, as many as it has room for. */
  releaseWaiting(companyId: string, workflowId: string): Promise<void>;
}

export function createDispatcher(deps: { db: Db; queue: () => Promise<JobQueue>; limits: RunnerLimits }): Dispatcher {
  const { db, limits } = deps;

  /** When a run may start: at once, or for a retry once its backoff has passed since it was queued. */
  const dueAt = (run: RunRecord, workflow: WorkflowForRun): number =>
    run.queuedAt.getTime() + retryDelaySeconds(workflow.retryBackoffSeconds, run.attempt) * limits.secondMs;

  async function send(run: RunRecord, workflow: WorkflowForRun): Promise<void> {
    const startAfter = dueAt(run, workflow);
    const holdMs = workflow.timeoutMinutes * 60 * limits.secondMs + limits.abortGraceMs + HOLD_MARGIN_MS;
    await (
      await deps.queue()
    ).sendRun(
      { companyId: run.companyId, runId: run.id },
      { expireInSeconds: holdMs / 1000, ...(startAfter > Date.now() ? { startAfter: new Date(startAfter) } : {}) },
    );
  }

  /**
   * Releases of one workflow in this process, one after another: the end of a run and the
   * recovery sweep release at once, and two releases looking before either sent would each send
   * the same run. (Releases in two processes may still both send; the second job finds the run
   * taken and is dropped.)
   */
  const releasing = new Map<string, Promise<void>>();

  function releaseWaiting(companyId: string, workflowId: string): Promise<void> {
    const key = `${companyId}/${workflowId}`;
    const mine = (releasing.get(key) ?? Promise.resolve()).then(() => releaseNow(companyId, workflowId));
    const settled = mine.catch(() => {});
    releasing.set(key, settled);
    void settled.then(() => {
      if (releasing.get(key) === settled) releasing.delete(key);
    });
    return mine;
  }

  async function releaseNow(companyId: string, workflowId: string): Promise<void> {
    const line = await waitingLine(db, companyId, workflowId, RELEASE_SCAN);
    if (!line || line.queued.length === 0) return;
    const queue = await deps.queue();
    let room = line.workflow.concurrency - line.running;
    const now = Date.now();
    for (const run of line.queued) {
      const due = dueAt(run, line.workflow) <= now;
      // A run due now takes a place; one still in its backoff only needs its (deferred) job to exist.
      if (due && room <= 0) continue;
      if (!(await queue.hasPendingRunJob(run.id))) await send(run, line.workflow);
      if (due) room -= 1;
    }
  }

  return { send, releaseWaiting };
}
