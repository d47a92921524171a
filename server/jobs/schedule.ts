import { CronExpressionParser } from 'cron-parser';
import type { Db } from '../db/client';
import { badRequest } from '../http/errors';
import type { JobQueue } from './queue';
import { findWorkflow, scheduledWorkflows, type WorkflowForRun } from './run-store';

/**
 * Workflows' schedules, kept as pg-boss schedules (one per active scheduled workflow, keyed by
 * company and workflow). pg-boss evaluates them with cron-parser, as nextRunAt does, so the time
 * the console shows is the time a run is queued.
 */

/** When a schedule next fires after `from`, in its time zone; null when the expression cannot be read. */
export function nextRunAt(cron: string, timezone: string, from: Date = new Date()): Date | null {
  try {
    return CronExpressionParser.parse(cron, { tz: timezone, currentDate: from, strict: false }).next().toDate();
  } catch {
    return null;
  }
}

/** Why a cron expression cannot be used (in cron-parser's words, as the schedule reads it), or null when it can. */
export function cronProblem(cron: string, timezone: string): string | null {
  try {
    CronExpressionParser.parse(cron, { tz: timezone, strict: false });
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export const scheduleKey = (companyId: string, workflowId: string) => `${companyId}.${workflowId}`;

const wantsSchedule = (workflow: WorkflowForRun | undefined): workflow is WorkflowForRun & { scheduleCron: string } =>
  !!workflow && workflow.isActive && !!workflow.scheduleCron;

async function putSchedule(queue: JobQueue, workflow: WorkflowForRun & { scheduleCron: string }): Promise<void> {
  try {
    await queue.schedule(scheduleKey(workflow.companyId, workflow.id), workflow.scheduleCron, workflow.scheduleTimezone, {
      companyId: workflow.companyId,
      workflowId: workflow.id,
    });
  } catch (error) {
    throw badRequest(`schedule: "${workflow.scheduleCron}" in ${workflow.scheduleTimezone} cannot be used: ${(error as Error).message}`);
  }
}

/** Puts the workflow's schedule in the queue as stored, or takes it out when it is deactivated, unscheduled or gone. */
export async function syncSchedule(db: Db, queue: JobQueue, companyId: string, workflowId: string): Promise<void> {
  const workflow = await findWorkflow(db, companyId, workflowId);
  if (wantsSchedule(workflow)) await putSchedule(queue, workflow);
  else await queue.unschedule(scheduleKey(companyId, workflowId));
}

/** Brings the queue's schedules in line with every company's workflows (at start: a restored backup, a missed edit). */
export async function syncAllSchedules(db: Db, queue: JobQueue, log: (message: string) => void): Promise<void> {
  const wanted = (await scheduledWorkflows(db)).filter(wantsSchedule);
  const kept = new Map((await queue.schedules()).map((schedule) => [schedule.key, schedule]));
  for (const workflow of wanted) {
    const existing = kept.get(scheduleKey(workflow.companyId, workflow.id));
    if (existing && existing.cron === workflow.scheduleCron && existing.timezone === workflow.scheduleTimezone) continue;
    await putSchedule(queue, workflow).catch((error: Error) =>
      log(`The schedule of workflow ${workflow.id} was not set: ${error.message}`),
    );
  }
  const wantedKeys = new Set(wanted.map((workflow) => scheduleKey(workflow.companyId, workflow.id)));
  for (const key of kept.keys()) if (!wantedKeys.has(key)) await queue.unschedule(key);
}
