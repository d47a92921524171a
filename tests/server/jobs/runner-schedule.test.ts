import { and, eq, sql } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../../../server/db/schema';
import { nextRunAt, type LocalRunner } from '../../../server/jobs/local-runner';
import { scheduleKey } from '../../../server/jobs/schedule';
import { eventually, insertWorkflow, openRunnerWorld, queueSchedules, runReaches, type RunnerWorld } from './runner-fixture';

/**
 * Schedules. Time is pg-boss's TestClock: the queue's timers and its database clock move only when
 * the test moves them, so "02:00 in Paris" comes when the test says; the runs themselves run on
 * real time, as in production.
 */

let world: RunnerWorld;
let runner: LocalRunner;
// 01:58 in Paris (UTC+1 until the end of March).
const clock = new TestClock('2026-03-14T00:58:00Z');

beforeAll(async () => {
  world = await openRunnerWorld();
  runner = world.runner({ clock });
  await runner.start();
});

afterAll(async () => {
  await world?.close();
});

const scheduledRuns = (workflowId: string) =>
  world.db
    .select({ id: jobRuns.id, trigger: jobRuns.trigger, triggeredBy: jobRuns.triggeredBy })
    .from(jobRuns)
    .where(and(eq(jobRuns.workflowId, workflowId), eq(jobRuns.trigger, 'schedule')));

describe('nextRunAt', () => {
  it('answers the next time a schedule fires, in its time zone, across a change of the clocks', () => {
    expect(nextRunAt('0 2 * * *', 'Europe/Paris', new Date('2026-03-14T00:58:00Z'))).toEqual(new Date('2026-03-14T01:00:00Z'));
    // Summer time in Paris from 29 March: 02:00 is then 00:00 UTC.
    expect(nextRunAt('0 2 * * *', 'Europe/Paris', new Date('2026-04-01T12:00:00Z'))).toEqual(new Date('2026-04-02T00:00:00Z'));
    expect(nextRunAt('*/15 * * * 1-5', 'UTC', new Date('2026-03-14T12:00:00Z'))).toEqual(new Date('2026-03-16T00:00:00Z'));
  });

  it('answers null for an expression that cannot be read', () => {
    expect(nextRunAt('every day', 'UTC')).toBeNull();
    expect(nextRunAt('0 2 * * *', 'Mars/Olympus_Mons')).toBeNull();
  });
});

describe('a scheduled workflow', () => {
  it('gets a run with trigger "schedule" when its time comes, and none before', async () => {
    let ran = 0;
    const task = world.tasks.define(async () => {
      ran += 1;
      return {};
    });
    const workflowId = await insertWorkflow(world, { taskIds: [task], scheduleCron: '0 2 * * *', scheduleTimezone: 'Europe/Paris' });

    await runner.syncSchedule(world.company.companyId, workflowId);
    expect(await queueSchedules(world)).toContainEqual({
      key: scheduleKey(world.company.companyId, workflowId),
      cron: '0 2 * * *',
      timezone: 'Europe/Paris',
    });

    await clock.tick(90_000); // 01:59:30 in Paris: cron passes ran, nothing was due
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await scheduledRuns(workflowId)).toEqual([]);

    await clock.tick(60_000); // 02:00:30
    const [run] = await eventually(async () => {
      const runs = await scheduledRuns(workflowId);
      return runs.length > 0 && runs;
    }, 'the scheduled run');
    expect(run).toMatchObject({ trigger: 'schedule', triggeredBy: null });
    await runReaches(world, run.id, 'succeeded');
    expect(ran).toBe(1);

    await clock.tick(120_000); // 02:02:30: the day's occurrence was sent once
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await scheduledRuns(workflowId)).toHaveLength(1);
  });

  it('loses its schedule when it is deactivated or unscheduled, and gets it back when activated', async () => {
    const task = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { taskIds: [task], scheduleCron: '*/5 * * * *', scheduleTimezone: 'UTC' });
    const key = scheduleKey(world.company.companyId, workflowId);
    const keys = async () => (await queueSchedules(world)).map((schedule) => schedule.key);
    const setWorkflow = (assignments: ReturnType<typeof sql>) =>
      world.db.execute(sql`update workflows set ${assignments} where company_id = ${world.company.companyId} and id = ${workflowId}`);

    await runner.syncSchedule(world.company.companyId, workflowId);
    expect(await keys()).toContain(key);

    await setWorkflow(sql`is_active = false`);
    await runner.syncSchedule(world.company.companyId, workflowId);
    expect(await keys()).not.toContain(key);
    await clock.tick(6 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await scheduledRuns(workflowId)).toEqual([]);

    await setWorkflow(sql`is_active = true, schedule_cron = '0 * * * *'`);
    await runner.syncSchedule(world.company.companyId, workflowId);
    expect(await queueSchedules(world)).toContainEqual({ key, cron: '0 * * * *', timezone: 'UTC' });

    await setWorkflow(sql`schedule_cron = null`);
    await runner.syncSchedule(world.company.companyId, workflowId);
    expect(await keys()).not.toContain(key);
  });

  it('is put back in the queue when a runner starts, and a schedule left for a deleted workflow is removed', async () => {
    const task = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { taskIds: [task], scheduleCron: '30 6 * * 1', scheduleTimezone: 'America/New_York' });
    const gone = await insertWorkflow(world, { taskIds: [task], scheduleCron: '0 0 * * *' });
    await runner.syncSchedule(world.company.companyId, gone);
    await world.db.execute(sql`delete from workflows where id = ${gone}`);

    // Another runner starting over the same database (as after a restart or a restored backup).
    const restarted = world.runner();
    await restarted.start();
    await restarted.stop();

    const keys = (await queueSchedules(world)).map((schedule) => schedule.key);
    expect(keys).toContain(scheduleKey(world.company.companyId, workflowId));
    expect(keys).not.toContain(scheduleKey(world.company.companyId, gone));
  });

  it('refuses a schedule the queue cannot read, saying so', async () => {
    const task = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { taskIds: [task], scheduleCron: '61 * * * *' });
    await expect(runner.syncSchedule(world.company.companyId, workflowId)).rejects.toThrow(
      /^schedule: "61 \* \* \* \*" in UTC cannot be used: /,
    );
  });
});
