import { databricksRequest, type DatabricksSettings } from '../connectors/databricks';
import type { HttpOptions } from '../connectors/http';
import type { RunStatus } from './types';

/**
 * The three calls of the Databricks Jobs API 2.1 that run a workflow as a job (run-now, runs/get,
 * runs/cancel), and how a run's state reads as one of our run statuses.
 */

/** A run as runs/get answers it; only what we read. */
export interface DatabricksRun {
  run_id: number;
  job_id?: number;
  run_page_url?: string;
  /** Always answered by the 2.1 API, though Databricks now prefers `status`. */
  state?: {
    life_cycle_state?: string;
    result_state?: string;
    state_message?: string;
    user_cancelled_or_timedout?: boolean;
  };
  /** The newer form of the state: `state` BLOCKED, PENDING, QUEUED, RUNNING, TERMINATING, TERMINATED or WAITING. */
  status?: {
    state?: string;
    termination_details?: { code?: string; type?: string; message?: string };
    queue_details?: { code?: string; message?: string };
  };
}

/** A run's state in Databricks' words, and what it means here. */
export interface RunReading {
  lifeCycleState: string | null;
  resultState: string | null;
  stateMessage: string | null;
  status: RunStatus;
  /** The run reached an end (whatever it was); anything Databricks may still change is not one. */
  finished: boolean;
  runPageUrl: string | null;
}

/** A Databricks run that ended other than in success: `status` tells the runner how to mark our run. */
export class DatabricksRunEndedError extends Error {
  constructor(
    message: string,
    readonly externalRunId: string,
    readonly status: 'failed' | 'canceled' | 'timed_out',
    /** Databricks' result state (TIMEDOUT, FAILED, …) or terminal life-cycle state (INTERNAL_ERROR, SKIPPED). */
    readonly resultState: string | null,
  ) {
    super(message);
    this.name = 'DatabricksRunEndedError';
  }
}

/**
 * Starts a run of the job. Databricks answers a token it has already seen with the run that token
 * started, so a retried request (after an answer lost on the way back) never starts a second run.
 */
export async function runNow(settings: DatabricksSettings, jobId: number, idempotencyToken: string, http: HttpOptions): Promise<string> {
  const answer = await databricksRequest<{ run_id?: number }>(
    settings,
    '/api/2.1/jobs/run-now',
    // The idempotency token makes a repeated run-now start one run: sent again after a 5xx that may have started it.
    { method: 'POST', body: { job_id: jobId, idempotency_token: idempotencyToken }, idempotent: true },
    http,
  );
  if (!Number.isSafeInteger(answer.run_id)) throw new Error(`Databricks started job ${jobId} but did not say which run it started`);
  return String(answer.run_id);
}

export function getRun(settings: DatabricksSettings, runId: string, http: HttpOptions): Promise<DatabricksRun> {
  return databricksRequest<DatabricksRun>(settings, '/api/2.1/jobs/runs/get', { query: { run_id: runId } }, http);
}

/** Asks Databricks to stop the run; it stops later (TERMINATING, then TERMINATED with CANCELED). */
export async function cancelRun(settings: DatabricksSettings, runId: string, http: HttpOptions): Promise<void> {
  await databricksRequest<unknown>(
    settings,
    '/api/2.1/jobs/runs/cancel',
    { method: 'POST', body: { run_id: Number(runId) }, idempotent: true },
    http,
  ); // cancelling twice cancels once
}

/** Life-cycle states after which a run never changes again. */
const TERMINAL_LIFE_CYCLES = new Set(['TERMINATED', 'SKIPPED', 'INTERNAL_ERROR']);
/** Not yet working on the job: waiting in a queue, for an upstream run, or for a cluster. */
const WAITING_LIFE_CYCLES = new Set(['QUEUED', 'PENDING', 'BLOCKED']);

/**
 * Reads `state` first, since only its result state tells a timeout (TIMEDOUT) apart; `status`
 * answers what `state` leaves out. A state this code does not know is taken as not finished:
 * Databricks says new states may appear, and giving up on a run that is still going is worse
 * than waiting for it.
 */
export function readRun(run: DatabricksRun): RunReading {
  const legacy = run.state ?? {};
  const details = run.status?.termination_details;
  const lifeCycleState = legacy.life_cycle_state || run.status?.state || null;
  const resultState = legacy.result_state || details?.code || null;
  const stateMessage = legacy.state_message || details?.message || run.status?.queue_details?.message || null;
  const finished = TERMINAL_LIFE_CYCLES.has(legacy.life_cycle_state ?? '') || run.status?.state === 'TERMINATED';
  let status: RunStatus;
  if (!finished) status = WAITING_LIFE_CYCLES.has(lifeCycleState ?? '') ? 'queued' : 'running';
  else if (legacy.life_cycle_state === 'SKIPPED' || legacy.life_cycle_state === 'INTERNAL_ERROR') status = 'failed';
  else if (legacy.result_state) status = statusOfResultState(legacy.result_state);
  else if (details?.code) status = statusOfTerminationCode(details.code);
  else status = 'failed';
  return { lifeCycleState, resultState, stateMessage, status, finished, runPageUrl: run.run_page_url || null };
}

/** `state.result_state` of a terminated run. */
function statusOfResultState(resultState: string): RunStatus {
  switch (resultState) {
    // The job's leaf tasks succeeded; the tasks that failed were ones the job was built to get past.
    case 'SUCCESS':
    case 'SUCCESS_WITH_FAILURES':
      return 'succeeded';
    case 'TIMEDOUT':
      return 'timed_out';
    case 'CANCELED':
      return 'canceled';
    default:
      return 'failed';
  }
}

/** `status.termination_details.code`, when `state` is not answered. */
function statusOfTerminationCode(code: string): RunStatus {
  switch (code) {
    case 'SUCCESS':
    case 'SUCCESS_WITH_FAILURES':
      return 'succeeded';
    case 'USER_CANCELED':
      return 'canceled';
    // Databricks' own cancel: "for example, if the maximum run duration was exceeded".
    case 'CANCELED':
      return 'timed_out';
    default:
      return 'failed';
  }
}

/** What a person reads when a run ended other than in success: "The Databricks run 42 failed (FAILED): <Databricks' words>". */
export function endedError(externalRunId: string, reading: RunReading): DatabricksRunEndedError {
  const status = reading.status === 'canceled' || reading.status === 'timed_out' ? reading.status : 'failed';
  const happened = { failed: 'failed', canceled: 'was canceled', timed_out: 'timed out' }[status];
  const state = reading.lifeCycleState === 'TERMINATED' ? reading.resultState : reading.lifeCycleState;
  const message = `The Databricks run ${externalRunId} ${happened}${state ? ` (${state})` : ''}${reading.stateMessage ? `: ${reading.stateMessage}` : ''}`;
  return new DatabricksRunEndedError(message, externalRunId, status, state);
}
