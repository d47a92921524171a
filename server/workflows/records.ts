import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

import { connections, jobRunSteps, jobRuns, sourceDestinations, users, workflows, workspaces } from '../db/schema';
import { notFound } from '../http/errors';
import { stepColumns } from '../jobs/run-store';
import { userNameSql } from '../users/display-name';

/** How workflows and their runs are read and answered (docs/api/workflows.md). */

const creators = alias(users, 'workflow_creators');
const pairSources = alias(connections, 'workflow_sources');
const pairDestinations = alias(connections, 'workflow_destinations');

/** The newest run of a workflow, beside it. */
const lastRun = sql<{ id: string; status: string; queuedAt: string; endedAt: string | null } | null>`(
  select json_build_object('id', r.id, 'status', r.status, 'queuedAt', r.queued_at, 'endedAt', r.ended_at)
  from ${jobRuns} r where r.company_id = ${workflows.companyId} and r.workflow_id = ${workflows.id}
  order by r.queued_at desc limit 1
)`;

const workflowColumns = {
  id: workflows.id,
  jobId: workflows.id,
  name: workflows.name,
  description: workflows.description,
  workspaceId: workflows.workspaceId,
  workspaceName: workspaces.name,
  pairId: workflows.pairId,
  pairName: sourceDestinations.name,
  sourceId: sourceDestinations.sourceId,
  sourceName: pairSources.name,
  destinationId: sourceDestinations.destinationId,
  destinationName: pairDestinations.name,
  repositoryConnectionId: workflows.repositoryConnectionId,
  databricksConnectionId: workflows.databricksConnectionId,
  databricksJobId: workflows.databricksJobId,
  tasks: workflows.tasks,
  scheduleCron: workflows.scheduleCron,
  scheduleTimezone: workflows.scheduleTimezone,
  maxRetries: workflows.maxRetries,
  retryBackoffSeconds: workflows.retryBackoffSeconds,
  timeoutMinutes: workflows.timeoutMinutes,
  concurrency: workflows.concurrency,
  notifyOnFailure: workflows.notifyOnFailure,
  isActive: workflows.isActive,
  lastRun,
  createdBy: workflows.createdBy,
  createdByName: userNameSql(creators),
  createdAt: workflows.createdAt,
  updatedAt: workflows.updatedAt,
};

export function selectWorkflows(db: Db) {
  return db
    .select(workflowColumns)
    .from(workflows)
    .leftJoin(
      workspaces,
      and(eq(workspaces.companyId, workflows.companyId), eq(workspaces.id, workflows.workspaceId), sql`${workspaces.deletedAt} is null`),
    )
    .leftJoin(sourceDestinations, and(eq(sourceDestinations.companyId, workflows.companyId), eq(sourceDestinations.id, workflows.pairId)))
    .leftJoin(pairSources, and(eq(pairSources.companyId, workflows.companyId), eq(pairSources.id, sourceDestinations.sourceId)))
    .leftJoin(
      pairDestinations,
      and(eq(pairDestinations.companyId, workflows.companyId), eq(pairDestinations.id, sourceDestinations.destinationId)),
    )
    .leftJoin(creators, and(eq(creators.companyId, workflows.companyId), eq(creators.id, workflows.createdBy)))
    .$dynamic();
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectWorkflows>['execute']>>[number];

/** A workflow as the API answers it: the stored fields, grouped as the body takes them. */
export function toWorkflowRow(row: Selected, nextRunAt: (cron: string, timezone: string) => Date | null) {
  const { scheduleCron, scheduleTimezone, maxRetries, retryBackoffSeconds, ...rest } = row;
  return {
    ...rest,
    engine: row.databricksConnectionId ? ('databricks' as const) : ('local' as const),
    schedule: scheduleCron ? { cron: scheduleCron, timezone: scheduleTimezone } : null,
    retries: { max: maxRetries, backoffSeconds: retryBackoffSeconds },
    nextRunAt: scheduleCron && row.isActive ? nextRunAt(scheduleCron, scheduleTimezone) : null,
  };
}
export type WorkflowRow = ReturnType<typeof toWorkflowRow>;

export const companyWorkflows = (companyId: string, extra?: SQL) => and(eq(workflows.companyId, companyId), extra)!;

export async function findWorkflowSelected(db: Db, companyId: string, id: string): Promise<Selected> {
  const [row] = await selectWorkflows(db).where(companyWorkflows(companyId, eq(workflows.id, id)));
  if (!row) throw notFound('Workflow');
  return row;
}

// ---- Runs -------------------------------------------------------------------------------------------

const starters = alias(users, 'run_starters');

export const runColumns = {
  id: jobRuns.id,
  workflowId: jobRuns.workflowId,
  workflowName: workflows.name,
  status: jobRuns.status,
  trigger: jobRuns.trigger,
  triggeredBy: jobRuns.triggeredBy,
  triggeredByName: userNameSql(starters),
  apiKeyId: jobRuns.apiKeyId,
  attempt: jobRuns.attempt,
  engine: jobRuns.engine,
  externalRunId: jobRuns.externalRunId,
  gitCommit: jobRuns.gitCommit,
  queuedAt: jobRuns.queuedAt,
  startedAt: jobRuns.startedAt,
  endedAt: jobRuns.endedAt,
  durationMs: sql<number | null>`(extract(epoch from (${jobRuns.endedAt} - ${jobRuns.startedAt})) * 1000)::bigint`.mapWith((v) =>
    v == null ? null : Number(v),
  ),
  cancelRequestedAt: jobRuns.cancelRequestedAt,
  error: jobRuns.error,
};

export function selectRuns(db: Db) {
  return db
    .select(runColumns)
    .from(jobRuns)
    .innerJoin(workflows, and(eq(workflows.companyId, jobRuns.companyId), eq(workflows.id, jobRuns.workflowId)))
    .leftJoin(starters, and(eq(starters.companyId, jobRuns.companyId), eq(starters.id, jobRuns.triggeredBy)))
    .$dynamic();
}
export type RunRow = Awaited<ReturnType<ReturnType<typeof selectRuns>['execute']>>[number];

export const companyRuns = (companyId: string, extra?: SQL) => and(eq(jobRuns.companyId, companyId), extra)!;
export const newestRunsFirst = [desc(jobRuns.queuedAt), desc(jobRuns.id)];

/** One run with its steps and logs. */
export async function findRun(db: Db, companyId: string, id: string) {
  const [run] = await selectRuns(db).where(companyRuns(companyId, eq(jobRuns.id, id)));
  if (!run) throw notFound('Job run');
  const steps = await db
    .select({
      ...stepColumns,
      status: jobRunSteps.status,
      startedAt: jobRunSteps.startedAt,
      endedAt: jobRunSteps.endedAt,
      rowsRead: jobRunSteps.rowsRead,
      rowsWritten: jobRunSteps.rowsWritten,
      log: jobRunSteps.log,
      error: jobRunSteps.error,
    })
    .from(jobRunSteps)
    .where(and(eq(jobRunSteps.companyId, companyId), eq(jobRunSteps.runId, run.id)))
    .orderBy(asc(jobRunSteps.position));
  return { ...run, steps };
}
