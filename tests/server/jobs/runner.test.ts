import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabricksRunEndedError } from '../../../server/jobs/databricks-runs';
import type { LocalRunner } from '../../../server/jobs/local-runner';
import {
  eventually,
  gate,
  insertWorkflow,
  openRunnerWorld,
  queueJobsOf,
  readRun,
  runReaches,
  runsOf,
  waitUnlessStopped,
  type RunnerWorld,
} from './runner-fixture';

/**
 * The local runner on the server's own database (in-memory PGlite, or PostgreSQL with
 * DATABASE_URL): runs go queued → running → an end, with their steps, logs and rows written as
 * they happen. A workflow's minute lasts 600 ms here (limits.secondMs = 10).
 */

let world: RunnerWorld;
let runner: LocalRunner;

beforeAll(async () => {
  world = await openRunnerWorld();
  runner = world.runner();
  await runner.start();
});

afterAll(async () => {
  await world?.close();
});

const manual = (workflowId: string) => ({
  companyId: world.company.companyId,
  workflowId,
  trigger: 'manual' as const,
  userId: world.company.adminUserId,
});

describe('a run', () => {
  it('goes queued → running → succeeded, its steps and log lines visible while they run', async () => {
    const door = gate();
    const load = world.tasks.define(async (_task, context) => {
      await context.log('Reading public.source_1');
      await context.progress({ rowsRead: 500 });
      await waitUnlessStopped(door, context.signal);
      await context.log('Wrote 500 rows');
      return { rowsRead: 500, rowsWritten: 500 };
    });
    const publish = world.tasks.define(async (_task, context) => {
      await context.setGitCommit('0123456789abcdef0123456789abcdef01234567');
      await context.log('Published');
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [load, publish] });

    const runId = await runner.enqueue({ ...manual(workflowId), trigger: 'api_key', apiKeyId: null });
    const queued = await readRun(world, runId);
    expect(['queued', 'running']).toContain(queued.status);
    expect(queued).toMatchObject({ trigger: 'api_key', triggeredBy: world.company.adminUserId, attempt: 1, engine: 'local' });
    expect(queued.steps.map((step) => [step.position, step.name, step.type])).toEqual([
      [0, 'Step 1', 'copy'],
      [1, 'Step 2', 'copy'],
    ]);

    const live = await eventually(async () => {
      const run = await readRun(world, runId);
      return run.steps[0].rowsRead === 500 && run;
    }, 'the first step to report its rows');
    expect(live.status).toBe('running');
    expect(live.startedAt).toBeInstanceOf(Date);
    expect(live.worker).toBe(runner.workerId);
    expect(live.heartbeatAt).toBeInstanceOf(Date);
    expect(live.steps.map((step) => step.status)).toEqual(['running', 'pending']);
    expect(live.steps[0].log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z Reading public\.source_1\n$/);

    door.open();
    const done = await runReaches(world, runId, 'succeeded');
    expect(done.error).toBeNull();
    expect(done.endedAt!.getTime()).toBeGreaterThanOrEqual(done.startedAt!.getTime());
    expect(done.gitCommit).toBe('0123456789abcdef0123456789abcdef01234567');
    expect(done.steps.map((step) => step.status)).toEqual(['succeeded', 'succeeded']);
    expect(done.steps[0]).toMatchObject({ rowsRead: 500, rowsWritten: 500, error: null });
    expect(done.steps[0].log).toContain('Reading public.source_1\n');
    expect(done.steps[0].log).toContain('Wrote 500 rows\n');
    expect(done.steps[1].log).toContain('Published\n');
    for (const step of done.steps) expect(step.endedAt).toBeInstanceOf(Date);
  });

  it('fails with its failing step, and the steps after it are skipped', async () => {
    const first = world.tasks.define(async () => ({ rowsRead: 3, rowsWritten: 3 }));
    const broken = world.tasks.define(async (_task, context) => {
      await context.log('Checking the orders');
      throw new Error('3 rows break the rule "amount is positive"');
    });
    const never = world.tasks.define(async () => {
      throw new Error('must not run');
    });
    const workflowId = await insertWorkflow(world, { taskIds: [first, broken, never] });

    const run = await runReaches(world, await runner.enqueue(manual(workflowId)), 'failed');

    expect(run.error).toBe('Step "Step 2" failed: 3 rows break the rule "amount is positive"');
    expect(run.steps.map((step) => step.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(run.steps[1].error).toBe('3 rows break the rule "amount is positive"');
    expect(run.steps[1].log).toContain('Checking the orders');
    expect(run.steps[2]).toMatchObject({ startedAt: null, endedAt: null, log: '' });
  });

  it('is worked by the Databricks engine, as one step, when its workflow is bound to a Databricks job', async () => {
    const seen: string[] = [];
    world.tasks.databricks = async (task, context) => {
      seen.push(`${task.name} of ${context.workflowName}`);
      await context.log('Started Databricks run 42 of job 7');
      return {};
    };
    const never = world.tasks.define(async () => {
      throw new Error('a local task of a Databricks workflow must not run');
    });
    const workflowId = await insertWorkflow(world, {
      name: 'Nightly on Databricks',
      taskIds: [never],
      databricksConnectionId: crypto.randomUUID(),
    });

    const run = await runReaches(world, await runner.enqueue(manual(workflowId)), 'succeeded');

    expect(run.engine).toBe('databricks');
    expect(run.steps).toHaveLength(1);
    expect(run.steps[0]).toMatchObject({ name: 'Databricks job', type: 'databricks', status: 'succeeded' });
    expect(run.steps[0].log).toContain('Started Databricks run 42 of job 7');
    expect(seen).toEqual(['Databricks job of Nightly on Databricks']);
  });

  it('ends as the Databricks run ended when it was canceled in Databricks', async () => {
    world.tasks.databricks = async () => {
      throw new DatabricksRunEndedError('Databricks run 43 was canceled: Run cancelled by user', '43', 'canceled', 'CANCELED');
    };
    const unused = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { taskIds: [unused], databricksConnectionId: crypto.randomUUID() });

    const run = await runReaches(world, await runner.enqueue(manual(workflowId)), 'canceled');

    expect(run.error).toBe('Databricks run 43 was canceled: Run cancelled by user');
    expect(run.steps[0].status).toBe('canceled');
  });

  it('of a deactivated workflow is refused, and one queued before the deactivation does not start', async () => {
    const door = gate();
    const hold = world.tasks.define(async (_task, context) => {
      await waitUnlessStopped(door, context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [hold] });
    const first = await runner.enqueue(manual(workflowId));
    await runReaches(world, first, 'running');
    const second = await runner.enqueue(manual(workflowId));
    await world.db.execute(sqlDeactivate(workflowId));

    await expect(runner.enqueue(manual(workflowId))).rejects.toThrow(/is deactivated; activate it first/);
    door.open();
    await runReaches(world, first, 'succeeded');
    const waiting = await runReaches(world, second, 'canceled');
    expect(waiting.error).toMatch(/was deactivated before the run could start/);
    expect(waiting.steps.map((step) => step.status)).toEqual(['canceled']);
  });
});

describe('retries', () => {
  it('queue a failed run again as the next attempt after the backoff, doubling it each time', async () => {
    let calls = 0;
    const flaky = world.tasks.define(async () => {
      calls += 1;
      if (calls < 3) throw new Error(`source busy (call ${calls})`);
      return { rowsRead: 1 };
    });
    // 20 workflow seconds = 200 ms here; the third attempt waits twice that.
    const workflowId = await insertWorkflow(world, { taskIds: [flaky], maxRetries: 2, retryBackoffSeconds: 20 });

    const firstId = await runner.enqueue({ ...manual(workflowId), trigger: 'schedule', userId: null });
    const runs = await eventually(async () => {
      const all = await runsOf(world, workflowId);
      return all.length === 3 && all[2].status === 'succeeded' && all;
    }, 'the third attempt to succeed');

    const [one, two, three] = runs;
    expect(one.id).toBe(firstId);
    expect(runs.map((run) => [run.attempt, run.status, run.trigger, run.triggeredBy])).toEqual([
      [1, 'failed', 'schedule', null],
      [2, 'failed', 'schedule', null],
      [3, 'succeeded', 'schedule', null],
    ]);
    expect(one.error).toBe(`Step "Step 1" failed: source busy (call 1). Retrying as run ${two.id} (attempt 2 of 3) in 20 s`);
    expect(two.error).toBe(`Step "Step 1" failed: source busy (call 2). Retrying as run ${three.id} (attempt 3 of 3) in 40 s`);
    expect(two.steps[0].log).toContain(`Attempt 2 of 3, retrying run ${one.id}, which failed: Step "Step 1" failed: source busy (call 1)`);
    expect(three.steps[0].log).toContain(`Attempt 3 of 3, retrying run ${two.id}`);
    // Each attempt starts no sooner than its backoff after it was queued (200 ms, then 400 ms).
    expect(two.startedAt!.getTime() - two.queuedAt.getTime()).toBeGreaterThanOrEqual(200);
    expect(three.startedAt!.getTime() - three.queuedAt.getTime()).toBeGreaterThanOrEqual(400);
  });

  it('stop when the attempts are used up', async () => {
    const broken = world.tasks.define(async () => {
      throw new Error('table public.source_1 does not exist');
    });
    const workflowId = await insertWorkflow(world, { taskIds: [broken], maxRetries: 1, retryBackoffSeconds: 10 });
    await runner.enqueue(manual(workflowId));

    const runs = await eventually(async () => {
      const all = await runsOf(world, workflowId);
      return all.length === 2 && all[1].status === 'failed' && all;
    }, 'the last attempt to fail');
    expect(runs[1].error).toBe('Step "Step 1" failed: table public.source_1 does not exist');
    // Nothing more is queued after the last attempt.
    await runner.recover();
    expect(await runsOf(world, workflowId)).toHaveLength(2);
  });
});

describe('the time limit', () => {
  it('aborts the task and ends the run timed out', async () => {
    const slow = world.tasks.define(async (_task, context) => {
      await context.log('Copying a big table');
      await waitUnlessStopped(gate(), context.signal);
      return {};
    });
    const after = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { taskIds: [slow, after], timeoutMinutes: 1 });

    const run = await runReaches(world, await runner.enqueue(manual(workflowId)), 'timed_out');

    expect(run.error).toBe('The run took longer than its time limit of 1 minute');
    expect(run.steps.map((step) => step.status)).toEqual(['failed', 'skipped']);
    expect(run.steps[0].error).toBe('The run took longer than its time limit of 1 minute');
    expect(world.tasks.aborted.has(slow)).toBe(true);
  });

  it('ends the run even when its task ignores the signal', async () => {
    const stubborn = world.tasks.define(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [stubborn], timeoutMinutes: 1 });

    const run = await runReaches(world, await runner.enqueue(manual(workflowId)), 'timed_out');

    expect(run.steps[0].status).toBe('failed');
  });
});

describe('cancel', () => {
  it('of a queued run cancels it at once, and it never starts', async () => {
    const door = gate();
    const hold = world.tasks.define(async (_task, context) => {
      await waitUnlessStopped(door, context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [hold], concurrency: 1 });
    const first = await runner.enqueue(manual(workflowId));
    await runReaches(world, first, 'running');
    const second = await runner.enqueue(manual(workflowId));

    await runner.cancel(world.company.companyId, second);

    const canceled = await readRun(world, second);
    expect(canceled).toMatchObject({ status: 'canceled', error: 'Canceled before it started', startedAt: null });
    expect(canceled.cancelRequestedAt).toBeInstanceOf(Date);
    expect(canceled.endedAt).toBeInstanceOf(Date);
    expect(canceled.steps.map((step) => step.status)).toEqual(['canceled']);
    door.open();
    await runReaches(world, first, 'succeeded');
    await runner.recover();
    expect((await readRun(world, second)).status).toBe('canceled');
  });

  it('of a running run, asked through another runner, stops it at its next heartbeat; the rest of its steps are canceled', async () => {
    const endless = world.tasks.define(async (_task, context) => {
      await context.log('Waiting for the warehouse');
      await waitUnlessStopped(gate(), context.signal);
      return {};
    });
    const after = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { taskIds: [endless, after] });
    const runId = await runner.enqueue(manual(workflowId));
    await eventually(async () => (await readRun(world, runId)).steps[0].status === 'running', 'the step to run');

    // A runner that works nothing, as in a server started with RUN_WORKER=false.
    const elsewhere = world.runner();
    await elsewhere.cancel(world.company.companyId, runId);
    expect((await readRun(world, runId)).cancelRequestedAt).toBeInstanceOf(Date);

    const run = await runReaches(world, runId, 'canceled');
    expect(run.error).toBe('Canceled by request');
    expect(run.steps.map((step) => step.status)).toEqual(['canceled', 'canceled']);
    expect(run.steps[0].error).toBe('Canceled by request');
    expect(world.tasks.aborted.has(endless)).toBe(true);
  });

  it('of an unknown run says so', async () => {
    await expect(runner.cancel(world.company.companyId, crypto.randomUUID())).rejects.toThrow('Run not found');
  });
});

describe('concurrency', () => {
  it('keeps a second run queued while the first runs (concurrency 1), then runs it, without polling the queue', async () => {
    const door = gate();
    let opened = false;
    const hold = world.tasks.define(async (_task, context) => {
      if (!opened) await waitUnlessStopped(door, context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [hold], concurrency: 1 });
    const first = await runner.enqueue(manual(workflowId));
    await runReaches(world, first, 'running');
    const second = await runner.enqueue(manual(workflowId));

    // Let the second run's job be taken and the recovery sweep pass a few times.
    await eventually(async () => (await queueJobsOf(world, second)) >= 1, 'the second run to be sent');
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await readRun(world, second)).status).toBe('queued');

    opened = true;
    door.open();
    const one = await runReaches(world, first, 'succeeded');
    const two = await runReaches(world, second, 'succeeded');
    expect(two.startedAt!.getTime()).toBeGreaterThanOrEqual(one.endedAt!.getTime());
    // Sent when queued, then once more when the first ended: waiting cost no queue traffic.
    expect(await queueJobsOf(world, second)).toBeLessThanOrEqual(2);
  });

  it('lets as many runs run at once as the workflow allows', async () => {
    const door = gate();
    const hold = world.tasks.define(async (_task, context) => {
      await waitUnlessStopped(door, context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [hold], concurrency: 2 });
    const ids = [
      await runner.enqueue(manual(workflowId)),
      await runner.enqueue(manual(workflowId)),
      await runner.enqueue(manual(workflowId)),
    ];

    await eventually(async () => {
      const all = await Promise.all(ids.map(async (id) => (await readRun(world, id)).status));
      return all.filter((status) => status === 'running').length === 2;
    }, 'two runs to run');

    door.open();
    const runs = [];
    for (const id of ids) runs.push(await runReaches(world, id, 'succeeded'));
    // The third started only once one of the first two had ended.
    const [a, b, c] = runs.sort((x, y) => x.startedAt!.getTime() - y.startedAt!.getTime());
    expect(c.startedAt!.getTime()).toBeGreaterThanOrEqual(Math.min(a.endedAt!.getTime(), b.endedAt!.getTime()));
  });
});

function sqlDeactivate(workflowId: string) {
  return sql`update workflows set is_active = false where company_id = ${world.company.companyId} and id = ${workflowId}`;
}
