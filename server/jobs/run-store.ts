import { and, asc, count, desc, eq, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRunSteps, jobRuns, workflows } from '../db/schema';
import { announce } from '../live/signals';
import type { RunStatus, RunTrigger, StepStatus, TaskDefinition } from './types';

/**
 * The run rows (job_runs, job_run_steps) as the local runner reads and writes them. Every
 * statement names the company; only the recovery sweep looks across companies, to find the runs
 * a stopped runner left behind.
 */

export type Engine = 'local' | 'databricks';

/** What the runner needs of a workflow to run it. */
export interface WorkflowForRun {
  id: string;
  companyId: string;
  name: string;
  isActive: boolean;
  engine: Engine;
  tasks: TaskDefinition[];
  maxRetries: number;
  retryBackoffSeconds: number;
  timeoutMinutes: number;
  concurrency: number;
  notifyOnFailure: { inApp: boolean; slackConnectionId?: string | null; emails?: string[] };
  createdBy: string | null;
  scheduleCron: string | null;
  scheduleTimezone: string;
}

export interface RunRecord {
  id: string;
  companyId: string;
  workflowId: string;
  status: RunStatus;
  trigger: RunTrigger;
  triggeredBy: string | null;
  apiKeyId: string | null;
  attempt: number;
  queuedAt: Date;
}

export interface StepRecord {
  id: string;
  position: number;
  taskId: string;
  name: string;
  type: string;
}

/** The single step of a run worked as a Databricks job. */
export const DATABRICKS_STEP = { taskId: 'databricks', name: 'Databricks job', type: 'databricks' } as const;

const workflowColumns = {
  id: workflows.id,
  companyId: workflows.companyId,
  name: workflows.name,
  isActive: workflows.isActive,
  databricksConnectionId: workflows.databricksConnectionId,
  tasks: workflows.tasks,
  maxRetries: workflows.maxRetries,
  retryBackoffSeconds: workflows.retryBackoffSeconds,
  timeoutMinutes: workflows.timeoutMinutes,
  concurrency: workflows.concurrency,
  notifyOnFailure: workflows.notifyOnFailure,
  createdBy: workflows.createdBy,
  scheduleCron: workflows.scheduleCron,
  scheduleTimezone: workflows.scheduleTimezone,
};

const selectWorkflows = (db: Db) => db.select(workflowColumns).from(workflows).$dynamic();
type WorkflowRow = Awaited<ReturnType<ReturnType<typeof selectWorkflows>['execute']>>[number];

function toWorkflow(row: WorkflowRow): WorkflowForRun {
  const { databricksConnectionId, tasks, ...rest } = row;
  return {
    ...rest,
    engine: databricksConnectionId ? 'databricks' : 'local',
    // The API checked each task against common/schemas/workflows.ts when it was stored.
    tasks: tasks as TaskDefinition[],
    concurrency: Math.max(1, row.concurrency),
  };
}

const workflowKey = (companyId: string, workflowId: string) => and(eq(workflows.companyId, companyId), eq(workflows.id, workflowId));
const runKey = (companyId: string, runId: string) => and(eq(jobRuns.companyId, companyId), eq(jobRuns.id, runId));
const stepKey = (companyId: string, stepId: string) => and(eq(jobRunSteps.companyId, companyId), eq(jobRunSteps.id, stepId));
const stepsOfRun = (companyId: string, runId: string) => and(eq(jobRunSteps.companyId, companyId), eq(jobRunSteps.runId, runId));

export async function findWorkflow(db: Db, companyId: string, workflowId: string): Promise<WorkflowForRun | undefined> {
  const [row] = await selectWorkflows(db).where(workflowKey(companyId, workflowId));
  return row && toWorkflow(row);
}

/** Every active workflow with a schedule, across companies (to bring the queue's schedules in line at start). */
export async function scheduledWorkflows(db: Db): Promise<WorkflowForRun[]> {
  const rows = await selectWorkflows(db).where(and(eq(workflows.isActive, true), isNotNull(workflows.scheduleCron)));
  return rows.map(toWorkflow);
}

const runColumns = {
  id: jobRuns.id,
  companyId: jobRuns.companyId,
  workflowId: jobRuns.workflowId,
  status: sql<RunStatus>`${jobRuns.status}`,
  trigger: sql<RunTrigger>`${jobRuns.trigger}`,
  triggeredBy: jobRuns.triggeredBy,
  apiKeyId: jobRuns.apiKeyId,
  attempt: jobRuns.attempt,
  queuedAt: jobRuns.queuedAt,
};

export async function findRun(db: Db, companyId: string, runId: string): Promise<RunRecord | undefined> {
  const [row] = await db.select(runColumns).from(jobRuns).where(runKey(companyId, runId));
  return row;
}

export interface NewRun {
  /** Chosen by the caller when something must name the run before it is written (a retry). */
  id?: string;
  workflow: WorkflowForRun;
  trigger: RunTrigger;
  userId: string | null;
  apiKeyId: string | null;
  attempt: number;
  /** Written as the first line of the first step's log (a retry names the run it repeats). */
  note?: string;
}

/** Writes a queued run and its pending steps, one per task in order (call it inside a transaction). */
export async function insertQueuedRun(db: Db, run: NewRun): Promise<RunRecord> {
  const { workflow } = run;
  const [row] = await db
    .insert(jobRuns)
    .values({
      ...(run.id ? { id: run.id } : {}),
      companyId: workflow.companyId,
      workflowId: workflow.id,
      status: 'queued',
      trigger: run.trigger,
      triggeredBy: run.userId,
      apiKeyId: run.apiKeyId,
      attempt: run.attempt,
      engine: workflow.engine,
    })
    .returning(runColumns);
  const planned =
    workflow.engine === 'databricks'
      ? [DATABRICKS_STEP]
      : workflow.tasks.map((task) => ({ taskId: task.id, name: task.name, type: task.type }));
  if (planned.length > 0) {
    await db.insert(jobRunSteps).values(
      planned.map((step, position) => ({
        companyId: workflow.companyId,
        runId: row.id,
        position,
        ...step,
        log: position === 0 && run.note ? logLine(run.note) : '',
      })),
    );
  }
  await announce(db, { kind: 'run', companyId: workflow.companyId, runId: row.id, workflowId: workflow.id, status: 'queued' });
  return row;
}

export type Claim =
  | { outcome: 'claimed'; run: RunRecord; workflow: WorkflowForRun }
  /** The workflow already has as many runs running as it allows: the run stays queued until one ends. */
  | { outcome: 'waiting' }
  /** The run is no longer queued (canceled, or another worker took it). */
  | { outcome: 'not_queued' }
  /** The run could not start and was ended at once (its workflow is gone or deactivated). */
  | { outcome: 'ended'; run: RunRecord };

/**
 * Takes a queued run for this worker, unless its workflow has no room: the workflow's row is
 * locked while its running runs are counted, so two workers cannot both take the last place.
 */
export async function claimRun(db: Db, companyId: string, runId: string, workerId: string): Promise<Claim> {
  return db.transaction(async (tx): Promise<Claim> => {
    const [run] = await tx.select(runColumns).from(jobRuns).where(runKey(companyId, runId));
    if (!run || run.status !== 'queued') return { outcome: 'not_queued' };
    const [row] = await tx.select(workflowColumns).from(workflows).where(workflowKey(companyId, run.workflowId)).for('update');
    if (!row || !row.isActive) {
      const ending: RunEnding = row
        ? { status: 'canceled', error: `The workflow "${row.name}" was deactivated before the run could start` }
        : { status: 'failed', error: 'The workflow was deleted before the run could start' };
      const ended = await closeRun(tx, companyId, runId, { queued: true }, ending);
      return ended ? { outcome: 'ended', run: { ...run, status: ending.status } } : { outcome: 'not_queued' };
    }
    const workflow = toWorkflow(row);
    const [{ running }] = await tx
      .select({ running: count() })
      .from(jobRuns)
      .where(and(eq(jobRuns.companyId, companyId), eq(jobRuns.workflowId, workflow.id), eq(jobRuns.status, 'running')));
    if (running >= workflow.concurrency) return { outcome: 'waiting' };
    // The statement's time, not the transaction's: the run starts after the count saw a place free.
    const [claimed] = await tx
      .update(jobRuns)
      .set({ status: 'running', startedAt: sql`statement_timestamp()`, worker: workerId, heartbeatAt: sql`statement_timestamp()` })
      .where(and(runKey(companyId, runId), eq(jobRuns.status, 'queued')))
      .returning(runColumns);
    if (!claimed) return { outcome: 'not_queued' };
    await announce(tx, { kind: 'run', companyId, runId, workflowId: workflow.id, status: 'running' });
    return { outcome: 'claimed', run: claimed, workflow };
  });
}

/** What names a step of a run: all the runner needs to work it, and where the run page starts. */
export const stepColumns = {
  id: jobRunSteps.id,
  position: jobRunSteps.position,
  taskId: jobRunSteps.taskId,
  name: jobRunSteps.name,
  type: jobRunSteps.type,
};

export async function stepsOf(db: Db, companyId: string, runId: string): Promise<StepRecord[]> {
  return db.select(stepColumns).from(jobRunSteps).where(stepsOfRun(companyId, runId)).orderBy(asc(jobRunSteps.position));
}

export async function startStep(db: Db, companyId: string, stepId: string): Promise<void> {
  await db
    .update(jobRunSteps)
    .set({ status: 'running', startedAt: sql`now()` })
    .where(stepKey(companyId, stepId));
}

/** One line of a log as it is kept: the time, then the line. */
export function logLine(line: string, at = new Date()): string {
  return `${at.toISOString()} ${line}\n`;
}

export async function appendStepLog(db: Db, companyId: string, stepId: string, line: string): Promise<void> {
  await db
    .update(jobRunSteps)
    .set({ log: sql`${jobRunSteps.log} || ${logLine(line)}` })
    .where(stepKey(companyId, stepId));
}

export interface RowCounts {
  rowsRead?: number;
  rowsWritten?: number;
}

export async function recordStepRows(db: Db, companyId: string, stepId: string, counts: RowCounts): Promise<void> {
  const set = {
    ...(counts.rowsRead !== undefined ? { rowsRead: counts.rowsRead } : {}),
    ...(counts.rowsWritten !== undefined ? { rowsWritten: counts.rowsWritten } : {}),
  };
  if (Object.keys(set).length === 0) return;
  await db.update(jobRunSteps).set(set).where(stepKey(companyId, stepId));
}

export interface StepEnding extends RowCounts {
  status: Extract<StepStatus, 'succeeded' | 'failed' | 'canceled'>;
  error?: string | null;
}

export async function endStep(db: Db, companyId: string, stepId: string, ending: StepEnding): Promise<void> {
  await db
    .update(jobRunSteps)
    .set({
      status: ending.status,
      endedAt: sql`now()`,
      error: ending.error ?? null,
      ...(ending.rowsRead !== undefined ? { rowsRead: ending.rowsRead } : {}),
      ...(ending.rowsWritten !== undefined ? { rowsWritten: ending.rowsWritten } : {}),
    })
    .where(and(stepKey(companyId, stepId), eq(jobRunSteps.status, 'running')));
}

/**
 * Adds a line to the run's log: the log of the step the run stopped at (the last one that
 * started), or of its first step when none did.
 */
export async function appendRunLog(db: Db, companyId: string, runId: string, line: string): Promise<void> {
  const [step] = await db
    .select({ id: jobRunSteps.id })
    .from(jobRunSteps)
    .where(stepsOfRun(companyId, runId))
    .orderBy(sql`${jobRunSteps.startedAt} is null`, desc(jobRunSteps.position))
    .limit(1);
  if (step) await appendStepLog(db, companyId, step.id, line);
}

export async function setGitCommit(db: Db, companyId: string, runId: string, commit: string): Promise<void> {
  await db.update(jobRuns).set({ gitCommit: commit }).where(runKey(companyId, runId));
}

export interface Beat {
  /** False when the run is no longer running under this worker (it ended, or was recovered by another runner). */
  held: boolean;
  cancelRequested: boolean;
}

/** Says the worker still works the run, and answers whether someone asked it to stop. */
export async function beat(db: Db, companyId: string, runId: string, workerId: string): Promise<Beat> {
  const [row] = await db
    .update(jobRuns)
    .set({ heartbeatAt: sql`now()` })
    .where(and(runKey(companyId, runId), eq(jobRuns.status, 'running'), eq(jobRuns.worker, workerId)))
    .returning({ cancelRequestedAt: jobRuns.cancelRequestedAt });
  return { held: !!row, cancelRequested: !!row?.cancelRequestedAt };
}

export type FinalStatus = Exclude<RunStatus, 'queued' | 'running'>;

export interface RunEnding {
  status: FinalStatus;
  error: string | null;
}

/** Whose run may be ended: a queued one, the run this worker holds, or a running run whose runner went silent. */
export type EndGuard = { queued: true } | { worker: string } | { staleAfterMs: number };

function guardCondition(guard: EndGuard): SQL {
  if ('queued' in guard) return eq(jobRuns.status, 'queued');
  if ('worker' in guard) return and(eq(jobRuns.status, 'running'), eq(jobRuns.worker, guard.worker))!;
  return and(eq(jobRuns.status, 'running'), or(isNull(jobRuns.heartbeatAt), lt(jobRuns.heartbeatAt, staleCutoff(guard.staleAfterMs))))!;
}

const staleCutoff = (staleAfterMs: number) => sql`now() - make_interval(secs => ${staleAfterMs / 1000})`;

/** What the steps a run leaves behind become: a cancel cancels them, any other end fails the one under way and skips the rest. */
function leftoverSteps(status: FinalStatus): { running: StepStatus; pending: StepStatus } {
  return status === 'canceled' ? { running: 'canceled', pending: 'canceled' } : { running: 'failed', pending: 'skipped' };
}

/**
 * Ends a run when the guard still holds, and the steps it leaves: a step still running gets the
 * run's error, the pending ones are skipped (or canceled). Answers whether it ended the run.
 */
export async function closeRun(db: Db, companyId: string, runId: string, guard: EndGuard, ending: RunEnding): Promise<boolean> {
  const ended = await db
    .update(jobRuns)
    .set({ status: ending.status, error: ending.error, endedAt: sql`now()` })
    .where(and(runKey(companyId, runId), guardCondition(guard)))
    .returning({ id: jobRuns.id, workflowId: jobRuns.workflowId });
  if (ended.length === 0) return false;
  const leftover = leftoverSteps(ending.status);
  await db
    .update(jobRunSteps)
    .set({ status: leftover.running, endedAt: sql`now()`, error: ending.error })
    .where(and(stepsOfRun(companyId, runId), eq(jobRunSteps.status, 'running')));
  await db
    .update(jobRunSteps)
    .set({ status: leftover.pending })
    .where(and(stepsOfRun(companyId, runId), eq(jobRunSteps.status, 'pending')));
  await announce(db, { kind: 'run', companyId, runId, workflowId: ended[0].workflowId, status: ending.status });
  return true;
}

/** Marks a running run as asked to stop (its worker sees it at its next heartbeat). */
export async function requestCancel(db: Db, companyId: string, runId: string): Promise<boolean> {
  const rows = await db
    .update(jobRuns)
    .set({ cancelRequestedAt: sql`coalesce(${jobRuns.cancelRequestedAt}, now())` })
    .where(and(runKey(companyId, runId), eq(jobRuns.status, 'running')))
    .returning({ id: jobRuns.id, workflowId: jobRuns.workflowId });
  if (rows.length === 0) return false;
  await announce(db, { kind: 'run', companyId, runId, workflowId: rows[0].workflowId });
  return true;
}

/** Marks a queued run as asked to stop, in the same statement that ends it. */
export async function cancelQueuedRun(db: Db, companyId: string, runId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx
      .update(jobRuns)
      .set({ cancelRequestedAt: sql`now()` })
      .where(and(runKey(companyId, runId), eq(jobRuns.status, 'queued')));
    return closeRun(tx, companyId, runId, { queued: true }, { status: 'canceled', error: 'Canceled before it started' });
  });
}

export interface StaleRun {
  companyId: string;
  id: string;
  workflowId: string;
  cancelRequested: boolean;
}

/** Running runs whose runner has not said it is alive for `staleAfterMs`, across companies. */
export async function staleRuns(db: Db, staleAfterMs: number): Promise<StaleRun[]> {
  return db
    .select({
      companyId: jobRuns.companyId,
      id: jobRuns.id,
      workflowId: jobRuns.workflowId,
      cancelRequested: sql<boolean>`${jobRuns.cancelRequestedAt} is not null`,
    })
    .from(jobRuns)
    .where(guardCondition({ staleAfterMs }));
}

/** The workflows that have queued runs, across companies. */
export async function workflowsWithQueuedRuns(db: Db): Promise<Array<{ companyId: string; workflowId: string }>> {
  return db
    .selectDistinct({ companyId: jobRuns.companyId, workflowId: jobRuns.workflowId })
    .from(jobRuns)
    .where(eq(jobRuns.status, 'queued'));
}

export interface WaitingLine {
  workflow: WorkflowForRun;
  running: number;
  /** Oldest first. */
  queued: RunRecord[];
}

/** A workflow's queued runs (at most `limit`, oldest first) and how many of its runs are running. */
export async function waitingLine(db: Db, companyId: string, workflowId: string, limit: number): Promise<WaitingLine | undefined> {
  const workflow = await findWorkflow(db, companyId, workflowId);
  if (!workflow) return undefined;
  const ofWorkflow = and(eq(jobRuns.companyId, companyId), eq(jobRuns.workflowId, workflowId));
  const [{ running }] = await db
    .select({ running: count() })
    .from(jobRuns)
    .where(and(ofWorkflow, eq(jobRuns.status, 'running')));
  const queued = await db
    .select(runColumns)
    .from(jobRuns)
    .where(and(ofWorkflow, eq(jobRuns.status, 'queued')))
    .orderBy(asc(jobRuns.queuedAt))
    .limit(limit);
  return { workflow, running, queued };
}
