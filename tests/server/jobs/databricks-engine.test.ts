import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSecrets } from '../../../server/auth/secrets';
import { sealSecrets } from '../../../server/connections/records';
import { ConnectorError } from '../../../server/connectors/types';
import { connections, jobRuns, workflows } from '../../../server/db/schema';
import { HttpError } from '../../../server/http/errors';
import {
  createDatabricksEngine,
  DatabricksRunEndedError,
  databricksRunStatus,
  NotADatabricksRunError,
  type PollingOptions,
} from '../../../server/jobs/databricks-engine';
import type { RunStatus, TaskContext, TaskDefinition } from '../../../server/jobs/types';
import { TEST_HTTP } from '../connectors/test-context';
import { createTestServer, type TestServer } from '../harness';
import { JOBS_API, lifeCycle, startJobsWorkspace, WORKSPACE_TOKEN, type JobsWorkspace, type StateAnswer } from './databricks-workspace';

/**
 * The Databricks engine against a Databricks workspace on this machine (./databricks-workspace.ts),
 * with real workflows, connections and job runs in the test database. Polling waits a millisecond
 * or a few, so nothing here depends on how long anything takes.
 */

const secrets = createSecrets(crypto.randomBytes(32).toString('base64url'));
let server: TestServer;
let workspace: JobsWorkspace;
let companyId: string;
let connectionId: string;

const FAST_HTTP = { ...TEST_HTTP, retryBaseDelayMs: 1, maxTries: 3 };
/** Tiny waits; a cancel that Databricks never confirms ends a test within seconds rather than at its time limit. */
const FAST_POLLING: Partial<PollingOptions> = { firstDelayMs: 1, maxDelayMs: 4, cancelWaitMs: 2_000 };
const STEP: TaskDefinition = { id: 'databricks-job', name: 'Databricks job', type: 'sql' };

function engine(polling: Partial<PollingOptions> = {}) {
  return createDatabricksEngine({ db: server.db, secrets, http: FAST_HTTP, polling: { ...FAST_POLLING, ...polling } });
}

let names = 0;
const uniqueName = (prefix: string) => `${prefix} ${++names}`;

async function insertConnection(fields: { token?: string; isActive?: boolean; type?: string } = {}): Promise<string> {
  const [row] = await server.db
    .insert(connections)
    .values({
      companyId,
      name: uniqueName('Lakehouse'),
      type: fields.type ?? 'databricks',
      settings: { host: workspace.url },
      secretsEnc: sealSecrets(secrets, { token: fields.token ?? WORKSPACE_TOKEN }),
      isActive: fields.isActive ?? true,
    })
    .returning({ id: connections.id });
  return row.id;
}

async function insertWorkflow(binding: { connectionId?: string | null; jobId?: string | null }): Promise<string> {
  const [row] = await server.db
    .insert(workflows)
    .values({
      companyId,
      name: uniqueName('Nightly load'),
      pairId: crypto.randomUUID(),
      databricksConnectionId: binding.connectionId === undefined ? connectionId : binding.connectionId,
      databricksJobId: binding.jobId ?? null,
    })
    .returning({ id: workflows.id });
  return row.id;
}

async function insertRun(
  workflowId: string,
  fields: { engine?: string; externalRunId?: string; attempt?: number; companyId?: string } = {},
): Promise<string> {
  const [row] = await server.db
    .insert(jobRuns)
    .values({
      companyId: fields.companyId ?? companyId,
      workflowId,
      status: 'running',
      trigger: 'manual',
      engine: fields.engine ?? 'databricks',
      externalRunId: fields.externalRunId,
      attempt: fields.attempt ?? 1,
    })
    .returning({ id: jobRuns.id });
  return row.id;
}

let nextJobId = 731_000;
interface PreparedRun {
  jobId: number;
  workflowId: string;
  runId: string;
}

/** A job of the workspace whose runs go through these states, a workflow bound to it, and a run of that workflow. */
async function prepareRun(states: StateAnswer[], binding: { connectionId?: string } = {}): Promise<PreparedRun> {
  const jobId = ++nextJobId;
  workspace.defineJob(jobId, states);
  const workflowId = await insertWorkflow({ connectionId: binding.connectionId, jobId: String(jobId) });
  return { jobId, workflowId, runId: await insertRun(workflowId) };
}

interface Harnessed {
  context: TaskContext;
  logs: string[];
  controller: AbortController;
}

/** What the runner gives the step; `onLog` sees each line as it is written (to abort at a chosen moment). */
function contextFor(run: { runId: string; workflowId: string }, onLog?: (line: string, controller: AbortController) => void): Harnessed {
  const controller = new AbortController();
  const logs: string[] = [];
  const context: TaskContext = {
    companyId,
    runId: run.runId,
    workflowId: run.workflowId,
    workflowName: 'Nightly load',
    userId: null,
    signal: controller.signal,
    async log(line) {
      logs.push(line);
      onLog?.(line, controller);
    },
    async progress() {},
    async setGitCommit() {},
  };
  return { context, logs, controller };
}

async function failure(work: Promise<unknown>): Promise<unknown> {
  const outcome = await work.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  expect(outcome.resolved, 'the run should have failed').toBe(false);
  return (outcome as { error: unknown }).error;
}

async function endedFailure(work: Promise<unknown>): Promise<DatabricksRunEndedError> {
  const error = await failure(work);
  expect(error).toBeInstanceOf(DatabricksRunEndedError);
  return error as DatabricksRunEndedError;
}

const workspaceRunOf = (token: string | undefined) => workspace.runs.filter((run) => run.idempotencyToken === token);
const readsOf = (externalRunId: number | string) =>
  workspace.calls(JOBS_API.get).filter((call) => call.query.get('run_id') === String(externalRunId));
const runNowsOf = (jobId: number) =>
  workspace.calls(JOBS_API.runNow).filter((call) => JSON.parse(call.body.toString('utf8')).job_id === jobId);

async function storedRun(runId: string) {
  const [row] = await server.db.select().from(jobRuns).where(eq(jobRuns.id, runId));
  return row;
}

beforeAll(async () => {
  server = await createTestServer();
  companyId = server.company.companyId;
  workspace = await startJobsWorkspace();
  connectionId = await insertConnection();
});

afterEach(() => {
  workspace.reset();
});

afterAll(async () => {
  await workspace?.close();
  await server?.close();
});

describe('running a workflow as a Databricks job', () => {
  it('starts the job with the token, keeps the run id, and follows PENDING → RUNNING → TERMINATED / SUCCESS', async () => {
    const run = await prepareRun([
      lifeCycle('PENDING', undefined, 'Waiting for cluster'),
      lifeCycle('RUNNING', undefined, 'In run'),
      lifeCycle('RUNNING', undefined, 'In run'),
      lifeCycle('TERMINATED', 'SUCCESS'),
    ]);
    const { context, logs } = contextFor(run);

    await expect(engine()(STEP, context)).resolves.toEqual({});

    const [started] = runNowsOf(run.jobId);
    expect(started.headers.authorization).toBe(`Bearer ${WORKSPACE_TOKEN}`);
    const body = JSON.parse(started.body.toString('utf8'));
    expect(body.job_id).toBe(run.jobId);
    expect(body.idempotency_token).toContain(run.runId);
    const databricksRun = workspaceRunOf(body.idempotency_token)[0];
    const stored = await storedRun(run.runId);
    expect(stored.externalRunId).toBe(String(databricksRun.runId));
    expect(stored.engine).toBe('databricks');
    expect(logs).toEqual([
      `Started Databricks run ${databricksRun.runId} of job ${run.jobId}`,
      `Databricks run page: ${workspace.url}/?o=1234567890123456#job/${run.jobId}/run/${databricksRun.runId}`,
      'Databricks run state: PENDING (Waiting for cluster)',
      'Databricks run state: RUNNING (In run)',
      'Databricks run state: TERMINATED SUCCESS',
      `Databricks run ${databricksRun.runId} succeeded`,
    ]);
    expect(readsOf(databricksRun.runId)).toHaveLength(4);
  });

  it("fails with the result state and Databricks' message", async () => {
    const run = await prepareRun([
      lifeCycle('PENDING'),
      lifeCycle('RUNNING'),
      lifeCycle(
        'TERMINATED',
        'FAILED',
        'Task ingest failed with message: [TABLE_OR_VIEW_NOT_FOUND] The table main.sales.orders cannot be found.',
      ),
    ]);
    const error = await endedFailure(engine()(STEP, contextFor(run).context));
    const { externalRunId } = await storedRun(run.runId);
    expect(error.message).toBe(
      `The Databricks run ${externalRunId} failed (FAILED): Task ingest failed with message: [TABLE_OR_VIEW_NOT_FOUND] The table main.sales.orders cannot be found.`,
    );
    expect(error.status).toBe('failed');
    expect(error.externalRunId).toBe(externalRunId);
  });

  it('tells a Databricks time-out apart, so that the runner can mark the run timed out', async () => {
    const run = await prepareRun([lifeCycle('RUNNING'), lifeCycle('TERMINATED', 'TIMEDOUT', 'Run timed out after 3600 seconds')]);
    const error = await endedFailure(engine()(STEP, contextFor(run).context));
    expect(error.status).toBe('timed_out');
    expect(error.resultState).toBe('TIMEDOUT');
    expect(error.message).toMatch(/^The Databricks run \d+ timed out \(TIMEDOUT\): Run timed out after 3600 seconds$/);
  });

  it('counts the other ends of a run as failures: skipped, concurrency limit, an internal error of Databricks', async () => {
    const cases: Array<[StateAnswer, string, RunStatus]> = [
      [
        lifeCycle('SKIPPED', undefined, 'An active run of this job already exists'),
        'failed (SKIPPED): An active run of this job already exists',
        'failed',
      ],
      [
        lifeCycle('TERMINATED', 'MAXIMUM_CONCURRENT_RUNS_REACHED', 'Maximum concurrent runs reached'),
        'failed (MAXIMUM_CONCURRENT_RUNS_REACHED): Maximum concurrent runs reached',
        'failed',
      ],
      [
        lifeCycle('INTERNAL_ERROR', undefined, 'Cluster terminated unexpectedly'),
        'failed (INTERNAL_ERROR): Cluster terminated unexpectedly',
        'failed',
      ],
      [
        lifeCycle('TERMINATED', 'CANCELED', 'Run cancelled by bob@example.com'),
        'was canceled (CANCELED): Run cancelled by bob@example.com',
        'canceled',
      ],
    ];
    for (const [ending, words, status] of cases) {
      const run = await prepareRun([lifeCycle('PENDING'), ending]);
      const error = await endedFailure(engine()(STEP, contextFor(run).context));
      expect(error.message).toBe(`The Databricks run ${error.externalRunId} ${words}`);
      expect(error.status).toBe(status);
    }
  });

  it('keeps waiting through a life-cycle state it does not know', async () => {
    const run = await prepareRun([
      lifeCycle('PENDING'),
      lifeCycle('WARMING_UP', undefined, 'Preparing serverless compute'),
      lifeCycle('RUNNING'),
      lifeCycle('TERMINATED', 'SUCCESS'),
    ]);
    const { context, logs } = contextFor(run);
    await expect(engine()(STEP, context)).resolves.toEqual({});
    expect(logs).toContain('Databricks run state: WARMING_UP (Preparing serverless compute)');
    expect(readsOf((await storedRun(run.runId)).externalRunId!)).toHaveLength(4);
  });

  it('reads the newer status object when the state object is absent', async () => {
    const run = await prepareRun([
      {
        status: {
          state: 'QUEUED',
          queue_details: { code: 'ACTIVE_RUNS_LIMIT_REACHED', message: 'The job has reached its limit of concurrent runs' },
        },
      },
      { status: { state: 'RUNNING' } },
      {
        status: {
          state: 'TERMINATED',
          termination_details: {
            code: 'RUN_EXECUTION_ERROR',
            type: 'CLIENT_ERROR',
            message: 'Workload failed, see run output for details',
          },
        },
      },
    ]);
    const { context, logs } = contextFor(run);
    const error = await endedFailure(engine()(STEP, context));
    expect(error.message).toMatch(/^The Databricks run \d+ failed \(RUN_EXECUTION_ERROR\): Workload failed, see run output for details$/);
    expect(logs).toContain('Databricks run state: QUEUED (The job has reached its limit of concurrent runs)');
  });

  it('waits out a streak of 503s and a 429 with Retry-After in the middle of polling', async () => {
    const run = await prepareRun([lifeCycle('PENDING'), lifeCycle('RUNNING'), lifeCycle('TERMINATED', 'SUCCESS')]);
    const unavailable = {
      status: 503,
      body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'The service is temporarily unavailable.' },
    };
    const { context, logs } = contextFor(run, (line) => {
      if (line !== 'Databricks run state: PENDING') return;
      // Four 503s outlast one read's three tries; the 429 is then waited as it asks.
      workspace.interrupt(JOBS_API.get, unavailable, unavailable, unavailable, unavailable, {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'Too many requests. Please wait a moment and try again.' },
      });
    });

    await expect(engine()(STEP, context)).resolves.toEqual({});

    const externalRunId = (await storedRun(run.runId)).externalRunId!;
    expect(logs).toContain(
      `Could not read the state of Databricks run ${externalRunId} (Databricks: The service is temporarily unavailable. (TEMPORARILY_UNAVAILABLE) (HTTP 503)); asking again`,
    );
    expect(logs.slice(-2)).toEqual(['Databricks run state: TERMINATED SUCCESS', `Databricks run ${externalRunId} succeeded`]);
    // PENDING; three 503s; a 503, the 429 and RUNNING; TERMINATED.
    expect(readsOf(externalRunId)).toHaveLength(8);
  });

  it('gives the run up when Databricks stays unavailable for longer than the budget', async () => {
    const run = await prepareRun([lifeCycle('PENDING'), lifeCycle('TERMINATED', 'SUCCESS')]);
    const unavailable = {
      status: 503,
      body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'The service is temporarily unavailable.' },
    };
    const { context } = contextFor(run, (line) => {
      // Two failed reads are allowed; the third (three tries each) ends the run.
      if (line === 'Databricks run state: PENDING') workspace.interrupt(JOBS_API.get, ...Array.from({ length: 9 }, () => unavailable));
    });

    const error = await failure(engine({ unansweredPollsAllowed: 2 })(STEP, context));

    const externalRunId = (await storedRun(run.runId)).externalRunId!;
    expect((error as Error).message).toBe(
      `Lost contact with Databricks while following run ${externalRunId}: Databricks: The service is temporarily unavailable. (TEMPORARILY_UNAVAILABLE) (HTTP 503). ` +
        `The run may still be going on in Databricks (${workspace.url}/?o=1234567890123456#job/${run.jobId}/run/${externalRunId})`,
    );
    expect(readsOf(externalRunId)).toHaveLength(10);
  });

  it('cancels the Databricks run when our run is canceled, waits for it to stop, and throws the reason', async () => {
    const run = await prepareRun([lifeCycle('PENDING'), lifeCycle('RUNNING', undefined, 'In run')]);
    const reason = new Error('Canceled by ana@example.com');
    const { context, logs } = contextFor(run, (line, controller) => {
      if (line.startsWith('Databricks run state: RUNNING')) controller.abort(reason);
    });

    expect(await failure(engine()(STEP, context))).toBe(reason);

    const externalRunId = (await storedRun(run.runId)).externalRunId!;
    const cancels = workspace
      .calls(JOBS_API.cancel)
      .filter((call) => JSON.parse(call.body.toString('utf8')).run_id === Number(externalRunId));
    expect(cancels).toHaveLength(1);
    expect(cancels[0].headers.authorization).toBe(`Bearer ${WORKSPACE_TOKEN}`);
    expect(logs.slice(-3)).toEqual([
      `Canceling Databricks run ${externalRunId}`,
      'Databricks run state: TERMINATING (Run cancellation requested)',
      'Databricks run state: TERMINATED CANCELED (Run cancelled.)',
    ]);
  });

  it('stops waiting for a canceled run that does not stop, after a bounded time, and still throws the reason', async () => {
    const run = await prepareRun([lifeCycle('RUNNING')]);
    const reason = new Error('The run took longer than its 60 minutes');
    const { context, logs } = contextFor(run, (line, controller) => {
      if (line === 'Databricks run state: RUNNING') controller.abort(reason);
    });
    workspace.ignoreCancels = true;
    expect(await failure(engine({ cancelWaitMs: 100 })(STEP, context))).toBe(reason);
    const externalRunId = (await storedRun(run.runId)).externalRunId!;
    expect(logs.at(-1)).toBe(`Databricks had not stopped run ${externalRunId} within 0.1 s; it may still be stopping`);
    expect(readsOf(externalRunId).length).toBeGreaterThan(1);
  });

  it('starts nothing for a run aborted before its step began', async () => {
    const run = await prepareRun([lifeCycle('TERMINATED', 'SUCCESS')]);
    const { context, controller } = contextFor(run);
    const reason = new Error('Canceled while queued');
    controller.abort(reason);
    expect(await failure(engine()(STEP, context))).toBe(reason);
    expect(runNowsOf(run.jobId)).toHaveLength(0);
  });
});

describe('never two Databricks runs for one attempt', () => {
  it('follows the run a lost run-now answer started, when the retried request answers it', async () => {
    const run = await prepareRun([lifeCycle('RUNNING'), lifeCycle('TERMINATED', 'SUCCESS')]);
    workspace.loseNextRunNowAnswer();

    await expect(engine()(STEP, contextFor(run).context)).resolves.toEqual({});

    const requests = runNowsOf(run.jobId);
    expect(requests).toHaveLength(2);
    const tokens = requests.map((request) => JSON.parse(request.body.toString('utf8')).idempotency_token);
    expect(tokens[1]).toBe(tokens[0]);
    const started = workspaceRunOf(tokens[0]);
    expect(started).toHaveLength(1);
    expect((await storedRun(run.runId)).externalRunId).toBe(String(started[0].runId));
  });

  it('takes up the same Databricks run when the same attempt is worked again, and starts a new one for the next attempt', async () => {
    const run = await prepareRun([lifeCycle('RUNNING'), lifeCycle('TERMINATED', 'SUCCESS')]);
    await engine()(STEP, contextFor(run).context);
    const first = (await storedRun(run.runId)).externalRunId;

    await engine()(STEP, contextFor(run).context);
    expect((await storedRun(run.runId)).externalRunId).toBe(first);
    expect(workspace.runs.filter((started) => started.jobId === run.jobId)).toHaveLength(1);

    await server.db.update(jobRuns).set({ attempt: 2 }).where(eq(jobRuns.id, run.runId));
    await engine()(STEP, contextFor(run).context);
    const second = (await storedRun(run.runId)).externalRunId;
    expect(second).not.toBe(first);
    expect(workspace.runs.filter((started) => started.jobId === run.jobId).map((started) => String(started.runId))).toEqual([
      first,
      second,
    ]);
  });
});

describe('what the workflow names', () => {
  it('says so when the workflow is not bound to a Databricks job', async () => {
    const workflowId = await insertWorkflow({ jobId: null });
    const error = await failure(engine()(STEP, contextFor({ workflowId, runId: await insertRun(workflowId) }).context));
    expect((error as Error).message).toMatch(/^The workflow "Nightly load \d+" names no Databricks job to run; choose one$/);
  });

  it('says so when the job id is not a number', async () => {
    const workflowId = await insertWorkflow({ jobId: 'nightly' });
    const error = await failure(engine()(STEP, contextFor({ workflowId, runId: await insertRun(workflowId) }).context));
    expect((error as Error).message).toMatch(/names "nightly" as its Databricks job, which is not a job id/);
  });

  it('refuses a deactivated connection and one that is not Databricks', async () => {
    for (const [fields, words] of [
      [{ isActive: false }, /^The Databricks connection "Lakehouse \d+" is deactivated; activate it first$/],
      [{ type: 'postgresql' }, /^The connection "Lakehouse \d+" of the workflow "Nightly load \d+" is not a Databricks connection$/],
    ] as const) {
      const run = await prepareRun([lifeCycle('TERMINATED', 'SUCCESS')], { connectionId: await insertConnection(fields) });
      const error = await failure(engine()(STEP, contextFor(run).context));
      expect((error as Error).message).toMatch(words);
      expect(runNowsOf(run.jobId)).toHaveLength(0);
    }
  });

  it("answers a refused token in Databricks' words, without trying again", async () => {
    const run = await prepareRun([lifeCycle('TERMINATED', 'SUCCESS')], { connectionId: await insertConnection({ token: 'dapi-revoked' }) });
    const error = await failure(engine()(STEP, contextFor(run).context));
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).message).toBe('Databricks: Invalid access token. (HTTP 403)');
    expect(runNowsOf(run.jobId)).toHaveLength(1);
  });

  it('answers a job Databricks does not know in its words', async () => {
    const workflowId = await insertWorkflow({ jobId: '999999' });
    const error = await failure(engine()(STEP, contextFor({ workflowId, runId: await insertRun(workflowId) }).context));
    expect((error as Error).message).toBe('Databricks: Job 999999 does not exist. (INVALID_PARAMETER_VALUE) (HTTP 400)');
  });
});

describe('the Databricks state of a run (GET /workflow/databricks/job/status/{id})', () => {
  /** A run started in Databricks, answering `state`, and our run that names it. */
  async function runInState(state: StateAnswer) {
    const jobId = ++nextJobId;
    workspace.defineJob(jobId, [state]);
    const externalRunId = String(workspace.startRun(jobId));
    const workflowId = await insertWorkflow({ jobId: String(jobId) });
    return { jobId, externalRunId, runId: await insertRun(workflowId, { externalRunId }) };
  }

  const deps = () => ({ db: server.db, secrets, http: FAST_HTTP });
  const terminated = (code: string, type: string, message: string): StateAnswer => ({
    status: { state: 'TERMINATED', termination_details: { code, type, message } },
  });

  it('asks Databricks once and answers its state with ours', async () => {
    const run = await runInState(lifeCycle('RUNNING', undefined, 'In run'));
    expect(await databricksRunStatus(deps(), companyId, run.runId)).toEqual({
      runId: run.runId,
      externalRunId: run.externalRunId,
      lifeCycleState: 'RUNNING',
      resultState: null,
      stateMessage: 'In run',
      status: 'running',
      runPageUrl: `${workspace.url}/?o=1234567890123456#job/${run.jobId}/run/${run.externalRunId}`,
    });
    expect(readsOf(run.externalRunId)).toHaveLength(1);
  });

  it.each<[string, StateAnswer, string, string | null, RunStatus]>([
    ['queued', lifeCycle('QUEUED'), 'QUEUED', null, 'queued'],
    ['waiting for a cluster', lifeCycle('PENDING'), 'PENDING', null, 'queued'],
    ['in an unknown state', lifeCycle('WARMING_UP'), 'WARMING_UP', null, 'running'],
    ['succeeded', lifeCycle('TERMINATED', 'SUCCESS'), 'TERMINATED', 'SUCCESS', 'succeeded'],
    ['timed out', lifeCycle('TERMINATED', 'TIMEDOUT'), 'TERMINATED', 'TIMEDOUT', 'timed_out'],
    ['canceled', lifeCycle('TERMINATED', 'CANCELED'), 'TERMINATED', 'CANCELED', 'canceled'],
    ['failed', lifeCycle('TERMINATED', 'FAILED'), 'TERMINATED', 'FAILED', 'failed'],
    ['ended by an internal error', lifeCycle('INTERNAL_ERROR'), 'INTERNAL_ERROR', null, 'failed'],
    [
      'canceled by a user (status only)',
      terminated('USER_CANCELED', 'SUCCESS', 'Canceled by bob'),
      'TERMINATED',
      'USER_CANCELED',
      'canceled',
    ],
    [
      'stopped at its time limit (status only)',
      terminated('CANCELED', 'CLIENT_ERROR', 'Run duration exceeded'),
      'TERMINATED',
      'CANCELED',
      'timed_out',
    ],
  ])('maps a run %s', async (_description, state, lifeCycleState, resultState, status) => {
    const run = await runInState(state);
    const answer = await databricksRunStatus(deps(), companyId, run.runId);
    expect({ lifeCycleState: answer.lifeCycleState, resultState: answer.resultState, status: answer.status }).toEqual({
      lifeCycleState,
      resultState,
      status,
    });
  });

  it('refuses, as a 400, a run of the local runner and a run that has not started its job', async () => {
    const workflowId = await insertWorkflow({ jobId: null, connectionId: null });
    const local = await insertRun(workflowId, { engine: 'local' });
    const localError = await failure(databricksRunStatus(deps(), companyId, local));
    expect(localError).toBeInstanceOf(NotADatabricksRunError);
    expect(localError).toBeInstanceOf(HttpError);
    expect((localError as HttpError).statusCode).toBe(400);
    expect((localError as Error).message).toBe(
      'This run is worked by the local runner, not as a Databricks job, so Databricks has no state for it',
    );

    const waiting = await insertRun(await insertWorkflow({ jobId: '42' }));
    const waitingError = await failure(databricksRunStatus(deps(), companyId, waiting));
    expect(waitingError).toBeInstanceOf(NotADatabricksRunError);
    expect((waitingError as Error).message).toBe('This run has not started its Databricks job yet, so Databricks has no state for it');
  });

  it('answers a run of another company like a missing one', async () => {
    const run = await runInState(lifeCycle('RUNNING'));
    const error = await failure(databricksRunStatus(deps(), crypto.randomUUID(), run.runId));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(404);
    expect(readsOf(run.externalRunId)).toHaveLength(0);
  });
});
