import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRuns, notifications } from '../../../server/db/schema';
import type { LocalRunner } from '../../../server/jobs/local-runner';
import { claimRun, findWorkflow, insertQueuedRun, startStep, stepsOf } from '../../../server/jobs/run-store';
import { POSTGRES_URL, skipPostgres } from '../connectors/db-helpers';
import {
  eventually,
  FAST_LIMITS,
  gate,
  insertWorkflow,
  openRunnerWorld,
  queueJobsOf,
  queueTable,
  readRun,
  runReaches,
  runsOf,
  waitUnlessStopped,
  type RunnerWorld,
} from './runner-fixture';

/**
 * No run stays running without a runner working it. A runner that went away leaves its runs
 * running with a heartbeat that grows old; the next runner to start (or the sweep of one already
 * running) retries them when attempts remain, else fails them with "The server stopped during the
 * run". Here a runner that went away is, first, the rows one leaves (written by the same claim a
 * worker makes), then a real worker process on PostgreSQL killed with SIGKILL in the middle of a
 * task. A stale heartbeat is one older than 1.5 s here.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const GONE_WORKER = 'gone-host/4242/dead01';

describe('recovery on the server’s database', () => {
  let world: RunnerWorld;

  beforeAll(async () => {
    world = await openRunnerWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  const request = (workflowId: string) => ({
    companyId: world.company.companyId,
    workflowId,
    trigger: 'manual' as const,
    userId: world.company.adminUserId,
  });

  /** A run as a worker that died in its first step leaves it: claimed, its first step running, its heartbeat a minute old. */
  async function abandonedRun(workflowId: string, options: { cancelRequested?: boolean } = {}): Promise<string> {
    const workflow = (await findWorkflow(world.db, world.company.companyId, workflowId))!;
    const run = await world.db.transaction((tx) =>
      insertQueuedRun(tx, { workflow, trigger: 'manual', userId: world.company.adminUserId, apiKeyId: null, attempt: 1 }),
    );
    expect((await claimRun(world.db, world.company.companyId, run.id, GONE_WORKER)).outcome).toBe('claimed');
    const [first] = await stepsOf(world.db, world.company.companyId, run.id);
    await startStep(world.db, world.company.companyId, first.id);
    await world.db
      .update(jobRuns)
      .set({
        heartbeatAt: sql`now() - interval '1 minute'`,
        ...(options.cancelRequested ? { cancelRequestedAt: sql`now()` } : {}),
      })
      .where(and(eq(jobRuns.companyId, world.company.companyId), eq(jobRuns.id, run.id)));
    return run.id;
  }

  it('retries a run whose runner went away when attempts remain, and fails the last attempt', async () => {
    let calls = 0;
    const load = world.tasks.define(async () => {
      calls += 1;
      return { rowsRead: 7 };
    });
    const retried = await insertWorkflow(world, { taskIds: [load, world.tasks.define(async () => ({}))], maxRetries: 1 });
    const final = await insertWorkflow(world, { name: 'No retries left', taskIds: [load], maxRetries: 0 });
    const retriedRun = await abandonedRun(retried);
    const finalRun = await abandonedRun(final);

    const runner = world.runner();
    await runner.start();
    try {
      const [first, second] = await eventually(async () => {
        const all = await runsOf(world, retried);
        return all.length === 2 && all[1].status === 'succeeded' && all;
      }, 'the next attempt to succeed');
      expect(first.id).toBe(retriedRun);
      expect(first.status).toBe('failed');
      expect(first.error).toBe(`The server stopped during the run. Retrying as run ${second.id} (attempt 2 of 2) in 10 s`);
      expect(first.steps.map((step) => [step.status, step.error])).toEqual([
        ['failed', first.error],
        ['skipped', null],
      ]);
      expect(second).toMatchObject({ attempt: 2, trigger: 'manual', triggeredBy: world.company.adminUserId, worker: runner.workerId });
      expect(calls).toBe(1);

      const failed = await readRun(world, finalRun);
      expect(failed).toMatchObject({ status: 'failed', error: 'The server stopped during the run' });
      expect(failed.endedAt).toBeInstanceOf(Date);
      expect(await runsOf(world, final)).toHaveLength(1);
      const notices = await world.db
        .select()
        .from(notifications)
        .where(eq(notifications.link, `/job-runs/${finalRun}/show`));
      expect(notices).toMatchObject([
        { type: 'job_failed', title: 'Workflow "No retries left" failed', userId: world.company.adminUserId },
      ]);
    } finally {
      await runner.stop();
    }
  });

  it('cancels a run whose cancel was asked before its runner went away', async () => {
    const workflowId = await insertWorkflow(world, { taskIds: [world.tasks.define(async () => ({}))], maxRetries: 3 });
    const runId = await abandonedRun(workflowId, { cancelRequested: true });

    const runner = world.runner();
    await runner.start();
    try {
      const run = await readRun(world, runId);
      expect(run).toMatchObject({ status: 'canceled', error: 'Canceled by request' });
      expect(run.steps.map((step) => step.status)).toEqual(['canceled']);
      expect(await runsOf(world, workflowId)).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  });

  it('leaves a run whose runner is alive, and recovers it without a restart once that runner falls silent', async () => {
    const workflowId = await insertWorkflow(world, { taskIds: [world.tasks.define(async () => ({}))] });
    const runId = await abandonedRun(workflowId);
    await world.db
      .update(jobRuns)
      .set({ heartbeatAt: sql`now()` })
      .where(eq(jobRuns.id, runId));

    const runner = world.runner();
    await runner.start();
    try {
      expect((await readRun(world, runId)).status).toBe('running');
      // Nobody writes its heartbeat any more: the sweep finds it once the heartbeat is 1.5 s old.
      const run = await runReaches(world, runId, 'failed');
      expect(run.error).toBe('The server stopped during the run');
    } finally {
      await runner.stop();
    }
  });

  it('sends again a queued run whose queue job was lost', async () => {
    let ran = false;
    const workflowId = await insertWorkflow(world, {
      taskIds: [
        world.tasks.define(async () => {
          ran = true;
          return {};
        }),
      ],
    });
    const workflow = (await findWorkflow(world.db, world.company.companyId, workflowId))!;
    // Written, then the process died before it sent the job.
    const run = await world.db.transaction((tx) =>
      insertQueuedRun(tx, { workflow, trigger: 'manual', userId: null, apiKeyId: null, attempt: 1 }),
    );

    const runner = world.runner();
    await runner.start();
    try {
      await runReaches(world, run.id, 'succeeded');
      expect(ran).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it('does not send a queued run again while a worker is taking its job, only once that worker has gone', async () => {
    const workflowId = await insertWorkflow(world, { taskIds: [world.tasks.define(async () => ({}))], concurrency: 1 });
    const runner = world.runner(); // not started: no worker takes the job; the test plays one
    try {
      const runId = await runner.enqueue(request(workflowId));
      expect(await queueJobsOf(world, runId)).toBe(1);
      const taken = (startedAgo: string) =>
        world.db.execute(
          sql`update ${queueTable(world, 'job')} set state = 'active', started_on = now() - ${startedAgo}::interval where singleton_key = ${runId}`,
        );

      // A worker took the job a moment ago and is claiming the run: the sweep sees room, but leaves it.
      await taken('1 second');
      await runner.recover();
      expect(await queueJobsOf(world, runId)).toBe(1);

      // Taken a minute ago with the run still queued: that worker died while taking it. Sent again.
      await taken('1 minute');
      await runner.recover();
      expect(await queueJobsOf(world, runId)).toBe(2);
    } finally {
      await runner.stop();
    }
  });

  it('sends a queued run that lost its job once, when releases of its workflow come at the same moment', async () => {
    const workflowId = await insertWorkflow(world, { taskIds: [world.tasks.define(async () => ({}))], concurrency: 1 });
    const workflow = (await findWorkflow(world.db, world.company.companyId, workflowId))!;
    const run = await world.db.transaction((tx) =>
      insertQueuedRun(tx, { workflow, trigger: 'manual', userId: null, apiKeyId: null, attempt: 1 }),
    );
    const runner = world.runner(); // not started: the sweeps are the test's
    try {
      // A run's end and the recovery sweep both release the workflow: one looks only once the other sent.
      await Promise.all([runner.recover(), runner.recover(), runner.recover()]);
      expect(await queueJobsOf(world, run.id)).toBe(1);
    } finally {
      await runner.stop();
    }
  });

  it('ends the runs under way when the runner stops, rather than leaving them running', async () => {
    const hold = world.tasks.define(async (_task, context) => {
      await waitUnlessStopped(gate(), context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [hold], maxRetries: 0 });
    const runner = world.runner();
    await runner.start();
    const runId = await runner.enqueue(request(workflowId));
    await eventually(async () => (await readRun(world, runId)).steps[0].status === 'running', 'the step to run');

    await runner.stop();

    const run = await readRun(world, runId);
    expect(run).toMatchObject({ status: 'failed', error: 'The server stopped during the run' });
    expect(run.steps[0].status).toBe('failed');
    expect(world.tasks.aborted.has(hold)).toBe(true);
  });
});

describe.skipIf(skipPostgres)('a worker process killed in the middle of a run (PostgreSQL)', () => {
  let world: RunnerWorld;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    world = await openRunnerWorld({ databaseUrl: POSTGRES_URL });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await world?.close();
  });

  /** Starts tests/server/jobs/runner-child.ts on the world's schema; answers once it works the queue. */
  async function startWorkerProcess(): Promise<{ child: ChildProcess; workerId: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/server/jobs/runner-child.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: POSTGRES_URL,
        DATABASE_SCHEMA: world.database.postgres!.schema,
        RUNNER_LIMITS: JSON.stringify(FAST_LIMITS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const workerId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const ready = /^ready (\S+)$/m.exec(out);
        if (ready) resolve(ready[1]);
      });
      child.on('exit', (code) => reject(new Error(`The worker process ended (${code}) before it was ready: ${errors}`)));
    });
    return { child, workerId };
  }

  const killed = (child: ChildProcess) =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      child.once('exit', (_code, signal) => resolve(signal));
      child.kill('SIGKILL');
    });

  it('leaves its run to the next runner, which retries it, or fails it when no attempt is left', async () => {
    const hangId = `hang-${Date.now()}`;
    const retried = await insertWorkflow(world, { taskIds: [hangId], maxRetries: 1 });
    const last = await insertWorkflow(world, { taskIds: [`${hangId}-last`], maxRetries: 0 });
    const { child, workerId } = await startWorkerProcess();

    // The server queues the runs; it does not work the queue (RUN_WORKER=false).
    const server = world.runner();
    const retriedRun = await server.enqueue({
      companyId: world.company.companyId,
      workflowId: retried,
      trigger: 'manual',
      userId: world.company.adminUserId,
    });
    const lastRun = await server.enqueue({
      companyId: world.company.companyId,
      workflowId: last,
      trigger: 'manual',
      userId: world.company.adminUserId,
    });
    for (const runId of [retriedRun, lastRun]) {
      const working = await eventually(async () => {
        const run = await readRun(world, runId);
        return run.steps[0].log.includes('Working in process') && run;
      }, `the worker process to work run ${runId}`);
      expect(working).toMatchObject({ status: 'running', worker: workerId });
    }

    expect(await killed(child)).toBe('SIGKILL');
    expect((await readRun(world, retriedRun)).status).toBe('running');

    // The next runner (here in the test process) works the retry; its task now succeeds.
    world.tasks.define(async () => ({ rowsRead: 1 }), hangId);
    const next: LocalRunner = world.runner();
    await next.start();
    const [first, second] = await eventually(async () => {
      const all = await runsOf(world, retried);
      return all.length === 2 && all[1].status === 'succeeded' && all;
    }, 'the retry to succeed');
    expect(first.status).toBe('failed');
    expect(first.error).toMatch(/^The server stopped during the run\. Retrying as run /);
    expect(first.steps[0].log).toContain(`Working in process ${child.pid}`);
    expect(second.worker).toBe(next.workerId);

    const failed = await runReaches(world, lastRun, 'failed');
    expect(failed.error).toBe('The server stopped during the run');
    expect(await runsOf(world, last)).toHaveLength(1);
  });
});
