import type { Db } from '../db/client';
import type { Dispatcher } from './dispatch';
import { INTERRUPTED, type FinishRun } from './run-ending';
import { CANCELED_MESSAGE } from './run-execution';
import { findRun, findWorkflow, staleRuns, workflowsWithQueuedRuns } from './run-store';

/**
 * Finds the runs no runner works any more, whoever left them: a running run whose heartbeat is
 * older than `staleAfterMs` is retried when attempts remain, else failed ("The server stopped
 * during the run"), or canceled when a cancel was asked for; a queued run that lost its queue
 * job (a crash between writing it and sending it) is sent again when its workflow has room.
 * Runners run it when they start and then every few seconds, so that no run stays running
 * without a runner.
 */

export interface RecoveryDeps {
  db: Db;
  dispatch: Dispatcher;
  finishRun: FinishRun;
  staleAfterMs: number;
  /** Runs this process works right now: a slow heartbeat of its own is not a lost runner. */
  isWorking(runId: string): boolean;
  log(message: string): void;
}

export async function recoverRuns(deps: RecoveryDeps): Promise<void> {
  const { db } = deps;
  for (const stale of await staleRuns(db, deps.staleAfterMs)) {
    if (deps.isWorking(stale.id)) continue;
    await attempt(deps, `Run ${stale.id} could not be recovered`, async () => {
      const run = await findRun(db, stale.companyId, stale.id);
      if (!run) return;
      const workflow = await findWorkflow(db, stale.companyId, stale.workflowId);
      const ending = stale.cancelRequested ? { status: 'canceled' as const, error: CANCELED_MESSAGE } : INTERRUPTED;
      await deps.finishRun(run, workflow, { staleAfterMs: deps.staleAfterMs }, ending);
    });
  }
  for (const waiting of await workflowsWithQueuedRuns(db)) {
    await attempt(deps, `The queued runs of workflow ${waiting.workflowId} could not be sent`, () =>
      deps.dispatch.releaseWaiting(waiting.companyId, waiting.workflowId),
    );
  }
}

/** One run's trouble must not keep the sweep from the others. */
async function attempt(deps: RecoveryDeps, what: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    deps.log(`${what}: ${(error as Error).message}`);
  }
}
