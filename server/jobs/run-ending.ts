import crypto from 'node:crypto';
import type { Db } from '../db/client';
import type { Dispatcher } from './dispatch';
import { sendFailureNotice, type NoticeDeps } from './failure-notice';
import { retryDelaySeconds } from './limits';
import { closeRun, insertQueuedRun, type EndGuard, type RunEnding, type RunRecord, type WorkflowForRun } from './run-store';

/**
 * What happens when a run ends, however it ended (its worker finished it, the runner stopped
 * under it, or a recovery found it abandoned): the run is written as ended; a failure or time-out
 * with attempts left is queued again as a new run, the next attempt, after the backoff; a final
 * failure sends its notices; and the workflow's waiting runs get the place it leaves.
 *
 * The attempts are linked in words, the tables having no column for it: the ended run's error
 * ends with "Retrying as run <id> (attempt 2 of 3) in 20 s", and the new run's first step log
 * starts with "Attempt 2 of 3, retrying run <id>, which failed: …".
 */

/** What a run left running by a runner that went away is written as. */
export const INTERRUPTED: RunEnding = { status: 'failed', error: 'The server stopped during the run' };

export type FinishRun = (run: RunRecord, workflow: WorkflowForRun | undefined, guard: EndGuard, ending: RunEnding) => Promise<void>;

export interface FinishDeps {
  db: Db;
  dispatch: Dispatcher;
  notices: NoticeDeps;
  log(message: string): void;
}

export function createRunFinisher(deps: FinishDeps): FinishRun {
  const { db, dispatch } = deps;

  return async (run, workflow, guard, ending) => {
    const failed = ending.status === 'failed' || ending.status === 'timed_out';
    const retrying = failed && !!workflow && run.attempt <= workflow.maxRetries;
    const outcome = await db.transaction(async (tx): Promise<{ ended: boolean; retry?: RunRecord }> => {
      if (!retrying || !workflow) return { ended: await closeRun(tx, run.companyId, run.id, guard, ending) };
      const next = run.attempt + 1;
      const of = workflow.maxRetries + 1;
      const nextId = crypto.randomUUID();
      const wait = formatWait(retryDelaySeconds(workflow.retryBackoffSeconds, next));
      const said = `${ending.error ?? 'It failed'}. Retrying as run ${nextId} (attempt ${next} of ${of}) in ${wait}`;
      if (!(await closeRun(tx, run.companyId, run.id, guard, { ...ending, error: said }))) return { ended: false };
      const what = ending.status === 'timed_out' ? 'timed out' : 'failed';
      const retry = await insertQueuedRun(tx, {
        id: nextId,
        workflow,
        trigger: run.trigger,
        userId: run.triggeredBy,
        apiKeyId: run.apiKeyId,
        attempt: next,
        note: `Attempt ${next} of ${of}, retrying run ${run.id}, which ${what}: ${ending.error ?? 'no reason was given'}`,
      });
      return { ended: true, retry };
    });
    // Someone else ended it first (a recovery raced its worker): what follows is theirs to do.
    if (!outcome.ended || !workflow) return;
    // One after another: the release must see the retry's job, or it would send a second one.
    const followUps = [
      () =>
        outcome.retry
          ? dispatch.send(outcome.retry, workflow)
          : failed
            ? sendFailureNotice(deps.notices, run, workflow, ending)
            : undefined,
      () => dispatch.releaseWaiting(run.companyId, workflow.id),
    ];
    for (const followUp of followUps) {
      // A retry or a waiting run whose job could not be sent is sent again by the next recovery sweep.
      await Promise.resolve()
        .then(followUp)
        .catch((error: unknown) => deps.log(`After run ${run.id} ended: ${(error as Error).message}`));
    }
  };
}

function formatWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}
