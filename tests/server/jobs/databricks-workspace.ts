import type { ServerResponse } from 'node:http';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from '../connectors/fixtures-remote/local-server';

/**
 * A Databricks workspace on this machine answering the Jobs API 2.1 as its reference describes:
 * `POST /api/2.1/jobs/run-now` (an idempotency token already seen answers the run it started),
 * `GET /api/2.1/jobs/runs/get` (each read moves a run one step along its job's script of states)
 * and `POST /api/2.1/jobs/runs/cancel` (the run goes TERMINATING, then TERMINATED / CANCELED),
 * all behind a bearer token.
 */

export const WORKSPACE_TOKEN = 'dapi-jobs-0123456789abcdef';

/** What runs/get answers of a run's state: the `state` object, the newer `status` object, or both. */
export interface StateAnswer {
  state?: { life_cycle_state: string; result_state?: string; state_message?: string; user_cancelled_or_timedout?: boolean };
  status?: {
    state: string;
    termination_details?: { code: string; type: string; message: string };
    queue_details?: { code: string; message: string };
  };
}

/** A `state` object as the 2.1 API answers it. */
export function lifeCycle(lifeCycleState: string, resultState?: string, message = ''): StateAnswer {
  return {
    state: {
      life_cycle_state: lifeCycleState,
      ...(resultState ? { result_state: resultState } : {}),
      state_message: message,
      user_cancelled_or_timedout: false,
    },
  };
}

export interface Interruption {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface WorkspaceRun {
  runId: number;
  jobId: number;
  idempotencyToken: string | undefined;
  /** The states still to answer; the last one stays. */
  script: StateAnswer[];
  canceled: boolean;
}

export interface JobsWorkspace {
  url: string;
  /** Every run started, in order. */
  runs: WorkspaceRun[];
  /** Defines a job: each of its runs answers these states, one per read. */
  defineJob(jobId: number, states: StateAnswer[]): void;
  /** A run started from Databricks itself (its scheduler, a person in the workspace): its run id. */
  startRun(jobId: number): number;
  /** Answers given to the next calls of a path before the real ones. */
  interrupt(path: string, ...answers: Interruption[]): void;
  /** The next run-now starts its run but its answer is lost: a 503 comes back instead. */
  loseNextRunNowAnswer(): void;
  /** When set, runs/cancel is taken (200) but the run goes on as scripted. */
  ignoreCancels: boolean;
  /** Forgets the interruptions not yet answered and answers as documented again (between tests). */
  reset(): void;
  /** The calls received of one path (and method). */
  calls(path: string, method?: string): ReceivedRequest[];
  close(): Promise<void>;
}

export const JOBS_API = { runNow: '/api/2.1/jobs/run-now', get: '/api/2.1/jobs/runs/get', cancel: '/api/2.1/jobs/runs/cancel' };

export async function startJobsWorkspace(): Promise<JobsWorkspace> {
  const jobs = new Map<number, StateAnswer[]>();
  const runs: WorkspaceRun[] = [];
  const interruptions = new Map<string, Interruption[]>();
  let loseRunNowAnswer = false;
  let nextRunId = 455_644_833;

  const workspace: JobsWorkspace = {
    url: '',
    runs,
    ignoreCancels: false,
    defineJob(jobId, states) {
      jobs.set(jobId, states);
    },
    startRun(jobId) {
      return startRun(jobId, undefined).runId;
    },
    interrupt(path, ...answers) {
      interruptions.set(path, [...(interruptions.get(path) ?? []), ...answers]);
    },
    loseNextRunNowAnswer() {
      loseRunNowAnswer = true;
    },
    reset() {
      interruptions.clear();
      loseRunNowAnswer = false;
      workspace.ignoreCancels = false;
    },
    calls(path, method) {
      return server.requests.filter((request) => request.path === path && (!method || request.method === method));
    },
    close: () => server.close(),
  };

  function runPage(run: WorkspaceRun): string {
    return `${workspace.url}/?o=1234567890123456#job/${run.jobId}/run/${run.runId}`;
  }

  function answer(request: ReceivedRequest, response: ServerResponse): void {
    if (request.headers.authorization !== `Bearer ${WORKSPACE_TOKEN}`) {
      return sendJson(response, 403, { error_code: '403', message: 'Invalid access token.' });
    }
    const pending = interruptions.get(request.path);
    if (pending && pending.length > 0) {
      const next = pending.shift()!;
      return sendJson(response, next.status, next.body, next.headers);
    }
    const body = request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as Record<string, unknown>) : {};
    if (request.path === JOBS_API.runNow && request.method === 'POST') return runNow(body, response);
    if (request.path === JOBS_API.get && request.method === 'GET') return getRun(request.query.get('run_id'), response);
    if (request.path === JOBS_API.cancel && request.method === 'POST') return cancelRun(body.run_id, response);
    return sendJson(response, 404, { error_code: 'ENDPOINT_NOT_FOUND', message: `No API found for '${request.method} ${request.path}'` });
  }

  function runNow(body: Record<string, unknown>, response: ServerResponse): void {
    const { job_id: jobId, idempotency_token: token } = body;
    if (typeof jobId !== 'number') return invalid(response, 'Missing required field: job_id');
    if (token !== undefined && (typeof token !== 'string' || token.length > 64))
      return invalid(response, 'idempotency_token must be at most 64 characters');
    if (!jobs.has(jobId)) return invalid(response, `Job ${jobId} does not exist.`);
    const run =
      (token === undefined ? undefined : runs.find((existing) => existing.idempotencyToken === token)) ??
      startRun(jobId, token as string | undefined);
    if (loseRunNowAnswer) {
      loseRunNowAnswer = false;
      return sendJson(response, 503, { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'The service is temporarily unavailable.' });
    }
    sendJson(response, 200, { run_id: run.runId, number_in_job: run.runId });
  }

  function startRun(jobId: number, idempotencyToken: string | undefined): WorkspaceRun {
    const run = { runId: nextRunId++, jobId, idempotencyToken, script: [...(jobs.get(jobId) ?? [])], canceled: false };
    runs.push(run);
    return run;
  }

  function getRun(runId: string | null, response: ServerResponse): void {
    const run = runs.find((existing) => String(existing.runId) === runId);
    if (!run) return invalid(response, `Run ${runId} does not exist.`);
    const current = run.script.length > 1 ? run.script.shift()! : run.script[0];
    sendJson(response, 200, {
      job_id: run.jobId,
      run_id: run.runId,
      number_in_job: run.runId,
      creator_user_name: 'ana@example.com',
      run_name: 'nightly load',
      run_type: 'JOB_RUN',
      start_time: 1_700_000_000_000,
      run_page_url: runPage(run),
      ...current,
    });
  }

  function cancelRun(runId: unknown, response: ServerResponse): void {
    const run = runs.find((existing) => existing.runId === runId);
    if (!run) return invalid(response, `Run ${String(runId)} does not exist.`);
    if (!workspace.ignoreCancels && !run.canceled) {
      run.canceled = true;
      run.script = [
        lifeCycle('TERMINATING', undefined, 'Run cancellation requested'),
        lifeCycle('TERMINATED', 'CANCELED', 'Run cancelled.'),
      ];
    }
    sendJson(response, 200, {});
  }

  function invalid(response: ServerResponse, message: string): void {
    sendJson(response, 400, { error_code: 'INVALID_PARAMETER_VALUE', message });
  }

  const server: LocalServer = await startLocalServer(answer);
  workspace.url = server.url;
  return workspace;
}
