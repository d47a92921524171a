import { setTimeout as delay } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import type { Secrets } from '../auth/secrets';
import { connectionConfig } from '../connections/records';
import { databricksSettings, type DatabricksSettings } from '../connectors/databricks';
import { formatSeconds, type HttpOptions } from '../connectors/http';
import { ConnectorError } from '../connectors/types';
import type { Db } from '../db/client';
import { jobRuns, workflows } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import { cancelRun, endedError, getRun, readRun, runNow, type RunReading } from './databricks-runs';
import type { RunStatus, TaskContext, TaskExecutor } from './types';

export { DatabricksRunEndedError } from './databricks-runs';

/**
 * A workflow bound to a Databricks connection and job runs as that job: one run-now, then the
 * run's state followed until it ends, its run id kept on our run (job_runs.external_run_id). Our
 * cancel or time limit cancels the Databricks run too.
 */

export interface DatabricksEngineDeps {
  db: Db;
  secrets: Secrets;
  /** The reach guard, each call's time limit and its own retries of 429 and 5xx answers (server/connectors/http.ts). */
  http: HttpOptions;
  polling?: Partial<PollingOptions>;
}

export interface PollingOptions {
  /** The first wait between two reads of the run's state; it doubles up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /**
   * Reads in a row that may fail (a streak of 503s, a network outage) before the run is given up
   * on: the Databricks run goes on meanwhile, so a passing outage must not fail ours.
   */
  unansweredPollsAllowed: number;
  /** How long a canceled run is watched until Databricks says it stopped. */
  cancelWaitMs: number;
}

/** At the 30 s pace, ten failed reads in a row are about five minutes without an answer. */
export const DEFAULT_POLLING: PollingOptions = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  unansweredPollsAllowed: 10,
  cancelWaitMs: 120_000,
};

/** The run's single step for a workflow bound to a Databricks job. */
export function createDatabricksEngine(deps: DatabricksEngineDeps): TaskExecutor {
  const polling = { ...DEFAULT_POLLING, ...deps.polling };
  return async (_task, context) => {
    context.signal.throwIfAborted();
    const target = await databricksTarget(deps, context.companyId, context.workflowId);
    const attempt = await attemptOf(deps.db, context.companyId, context.runId);
    const run: FollowedRun = {
      id: await runNow(target.settings, target.jobId, idempotencyToken(context.runId, attempt), deps.http),
      settings: target.settings,
      http: deps.http,
      log: stateLogger(context),
    };
    await deps.db.update(jobRuns).set({ engine: 'databricks', externalRunId: run.id }).where(runOf(context.companyId, context.runId));
    await context.log(`Started Databricks run ${run.id} of job ${target.jobId}`);
    const ended = await followRun(run, context, polling);
    if (!ended) {
      await cancelAndWait(run, context, polling);
      throw context.signal.reason;
    }
    if (ended.status !== 'succeeded') throw endedError(run.id, ended);
    await context.log(`Databricks run ${run.id} succeeded`);
    return {};
  };
}

export interface DatabricksRunStatusAnswer {
  runId: string;
  externalRunId: string;
  lifeCycleState: string | null;
  resultState: string | null;
  stateMessage: string | null;
  status: RunStatus;
  runPageUrl: string | null;
}

/** Asked for the Databricks state of a run that has none: a 400 (an HttpError, so the routes answer it as it is). */
export class NotADatabricksRunError extends HttpError {
  constructor(message: string) {
    super(400, message);
    this.name = 'NotADatabricksRunError';
  }
}

/** `GET /workflow/databricks/job/status/{id}`: the run's state, asked of Databricks now. */
export async function databricksRunStatus(
  deps: Pick<DatabricksEngineDeps, 'db' | 'secrets' | 'http'>,
  companyId: string,
  jobRunId: string,
): Promise<DatabricksRunStatusAnswer> {
  const [run] = await deps.db
    .select({ engine: jobRuns.engine, externalRunId: jobRuns.externalRunId, workflowId: jobRuns.workflowId })
    .from(jobRuns)
    .where(runOf(companyId, jobRunId));
  if (!run) throw notFound('Run');
  if (!run.externalRunId) {
    throw new NotADatabricksRunError(
      run.engine === 'databricks'
        ? 'This run has not started its Databricks job yet, so Databricks has no state for it'
        : 'This run is worked by the local runner, not as a Databricks job, so Databricks has no state for it',
    );
  }
  const workflow = await boundWorkflow(deps.db, companyId, run.workflowId);
  const settings = await databricksConnection(deps, companyId, workflow);
  const reading = readRun(await getRun(settings, run.externalRunId, deps.http));
  return {
    runId: jobRunId,
    externalRunId: run.externalRunId,
    lifeCycleState: reading.lifeCycleState,
    resultState: reading.resultState,
    stateMessage: reading.stateMessage,
    status: reading.status,
    runPageUrl: reading.runPageUrl,
  };
}

// ---- Following a run -------------------------------------------------------------------------------

interface FollowedRun {
  /** Databricks' run id. */
  id: string;
  settings: DatabricksSettings;
  http: HttpOptions;
  log: (reading: RunReading) => Promise<void>;
}

/**
 * Reads the run's state until it ends (its last reading answered) or our run is aborted
 * (undefined). Failed reads are waited out within the budget.
 */
async function followRun(run: FollowedRun, context: TaskContext, polling: PollingOptions): Promise<RunReading | undefined> {
  let last: RunReading | undefined;
  let waitMs = polling.firstDelayMs;
  let unanswered = 0;
  while (!context.signal.aborted) {
    try {
      last = readRun(await getRun(run.settings, run.id, run.http));
      unanswered = 0;
      await run.log(last);
      if (last.finished) return last;
    } catch (error) {
      if (!isPassingFailure(error)) throw error;
      unanswered += 1;
      if (unanswered > polling.unansweredPollsAllowed) {
        const where = last?.runPageUrl ? ` (${last.runPageUrl})` : '';
        throw new Error(
          `Lost contact with Databricks while following run ${run.id}: ${error.message}. The run may still be going on in Databricks${where}`,
          { cause: error },
        );
      }
      await context.log(`Could not read the state of Databricks run ${run.id} (${error.message}); asking again`);
    }
    await pause(waitMs, context.signal);
    waitMs = Math.min(waitMs * 2, polling.maxDelayMs);
  }
  return undefined;
}

/**
 * Our run was canceled or timed out: the Databricks run is canceled too, and watched (for a
 * bounded time) until it stopped, so that the run's log says whether it did. Nothing here may
 * hide the abort itself, so a refused cancel is logged rather than thrown.
 */
async function cancelAndWait(run: FollowedRun, context: TaskContext, polling: PollingOptions): Promise<void> {
  await context.log(`Canceling Databricks run ${run.id}`);
  try {
    await cancelRun(run.settings, run.id, run.http);
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    await context.log(`Databricks did not take the cancel of run ${run.id}: ${error.message}`);
    return;
  }
  const deadline = Date.now() + polling.cancelWaitMs;
  let waitMs = polling.firstDelayMs;
  while (Date.now() < deadline) {
    await pause(Math.max(0, Math.min(waitMs, deadline - Date.now())));
    waitMs = Math.min(waitMs * 2, polling.maxDelayMs);
    try {
      const reading = readRun(await getRun(run.settings, run.id, run.http));
      await run.log(reading);
      if (reading.finished) return;
    } catch (error) {
      if (!(error instanceof ConnectorError)) throw error;
      await context.log(`Could not read the state of Databricks run ${run.id} (${error.message})`);
    }
  }
  await context.log(`Databricks had not stopped run ${run.id} within ${formatSeconds(polling.cancelWaitMs)}; it may still be stopping`);
}

/** Logs the run page once and each change of state, not every read. */
function stateLogger(context: TaskContext): (reading: RunReading) => Promise<void> {
  let lastState: string | undefined;
  let pageLogged = false;
  return async (reading) => {
    if (reading.runPageUrl && !pageLogged) {
      pageLogged = true;
      await context.log(`Databricks run page: ${reading.runPageUrl}`);
    }
    const state = [reading.lifeCycleState ?? 'no state', reading.resultState].filter(Boolean).join(' ');
    if (state === lastState) return;
    lastState = state;
    await context.log(`Databricks run state: ${state}${reading.stateMessage ? ` (${reading.stateMessage})` : ''}`);
  };
}

/**
 * A read that may work when asked again: a "later" answer (429, 5xx) that outlasted http.ts's own
 * tries, a network failure, a slow answer. 'failed' also covers other refusals (a 400), which
 * asking again does not mend (Databricks answers a run it does not know with a 400); they cost only
 * the budget. A refused token (401, 403) or a missing API (404) is final.
 */
function isPassingFailure(error: unknown): error is ConnectorError {
  return error instanceof ConnectorError && (error.kind === 'failed' || error.kind === 'unreachable' || error.kind === 'timeout');
}

/** Waits, or less when the signal aborts. */
async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * One token per attempt of our run: a request repeated after a lost answer (by http.ts, or by a
 * runner that took the run over) finds the Databricks run it started, while a retry of a failed
 * run (the next attempt) starts a new one. Databricks takes at most 64 characters.
 */
function idempotencyToken(runId: string, attempt: number): string {
  return `dataops-${runId}-${attempt}`;
}

// ---- What the run names --------------------------------------------------------------------------

const runOf = (companyId: string, runId: string) => and(eq(jobRuns.companyId, companyId), eq(jobRuns.id, runId));

async function attemptOf(db: Db, companyId: string, runId: string): Promise<number> {
  const [run] = await db.select({ attempt: jobRuns.attempt }).from(jobRuns).where(runOf(companyId, runId));
  if (!run) throw notFound('Run');
  return run.attempt;
}

interface BoundWorkflow {
  name: string;
  databricksConnectionId: string | null;
  databricksJobId: string | null;
}

async function boundWorkflow(db: Db, companyId: string, workflowId: string): Promise<BoundWorkflow> {
  const [workflow] = await db
    .select({ name: workflows.name, databricksConnectionId: workflows.databricksConnectionId, databricksJobId: workflows.databricksJobId })
    .from(workflows)
    .where(and(eq(workflows.companyId, companyId), eq(workflows.id, workflowId)));
  if (!workflow) throw notFound('Workflow');
  return workflow;
}

async function databricksConnection(
  deps: Pick<DatabricksEngineDeps, 'db' | 'secrets'>,
  companyId: string,
  workflow: BoundWorkflow,
): Promise<DatabricksSettings> {
  if (!workflow.databricksConnectionId) throw badRequest(`The workflow "${workflow.name}" has no Databricks connection; choose one`);
  const config = await connectionConfig(deps.db, deps.secrets, companyId, workflow.databricksConnectionId).catch((error: unknown) => {
    if (error instanceof HttpError && error.statusCode === 404)
      throw badRequest(`The Databricks connection of the workflow "${workflow.name}" no longer exists; choose another`);
    throw error;
  });
  if (config.type !== 'databricks')
    throw badRequest(`The connection "${config.name}" of the workflow "${workflow.name}" is not a Databricks connection`);
  if (!config.isActive) throw badRequest(`The Databricks connection "${config.name}" is deactivated; activate it first`);
  return databricksSettings(config);
}

async function databricksTarget(
  deps: DatabricksEngineDeps,
  companyId: string,
  workflowId: string,
): Promise<{ settings: DatabricksSettings; jobId: number }> {
  const workflow = await boundWorkflow(deps.db, companyId, workflowId);
  const jobText = workflow.databricksJobId?.trim() ?? '';
  if (!jobText) throw badRequest(`The workflow "${workflow.name}" names no Databricks job to run; choose one`);
  const jobId = Number(jobText);
  if (!/^\d+$/.test(jobText) || !Number.isSafeInteger(jobId)) {
    throw badRequest(
      `The workflow "${workflow.name}" names "${jobText}" as its Databricks job, which is not a job id (a number such as 123456789)`,
    );
  }
  return { settings: await databricksConnection(deps, companyId, workflow), jobId };
}
