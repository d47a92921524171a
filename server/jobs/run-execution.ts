import type { TaskType } from '../../common/schemas/workflows';
import type { Db } from '../db/client';
import { announceQuietly, type StepSignal } from '../live/signals';
import { DatabricksRunEndedError } from './databricks-runs';
import type { RunnerLimits } from './limits';
import {
  appendStepLog,
  beat,
  endStep,
  recordStepRows,
  setGitCommit,
  startStep,
  stepsOf,
  DATABRICKS_STEP,
  type RunEnding,
  type RunRecord,
  type StepRecord,
  type WorkflowForRun,
} from './run-store';
import type { TaskContext, TaskDefinition, TaskExecutor, TaskOutcome } from './types';

/**
 * Works one claimed run: its steps in order, each by the executor of its task's type, with the
 * run's heartbeat, its time limit and cancel requests watched meanwhile. What each step does is
 * written as it happens (status, times, rows, log lines); how the run ended is answered for the
 * caller to write, with retries and notices.
 */

export type StopKind = 'canceled' | 'timed_out' | 'stopping' | 'lost';

/** Why a run's signal was aborted; its message is what the run and its step say. */
export class RunStop extends Error {
  constructor(
    readonly kind: StopKind,
    message: string,
  ) {
    super(message);
    this.name = 'RunStop';
  }
}

export const CANCELED_MESSAGE = 'Canceled by request';

export type ExecutionResult =
  | { kind: 'ended'; ending: RunEnding }
  /** The run was taken from this worker (`stopping`: the runner stops; `lost`: another runner recovered it). */
  | { kind: 'interrupted'; reason: 'stopping' | 'lost' };

export interface ExecutionDeps {
  db: Db;
  executors: Record<TaskType, TaskExecutor>;
  databricksEngine?: TaskExecutor;
  workerId: string;
  limits: RunnerLimits;
  /** The runner's own troubles (a heartbeat that could not be written). */
  log(message: string): void;
}

/** How a runner reaches a run it works: to stop it now rather than at the next heartbeat. */
export class RunControl {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;

  stop(kind: StopKind, message: string): void {
    if (!this.signal.aborted) this.controller.abort(new RunStop(kind, message));
  }

  get reason(): RunStop | undefined {
    return this.signal.aborted ? (this.signal.reason as RunStop) : undefined;
  }
}

export async function executeRun(
  deps: ExecutionDeps,
  run: RunRecord,
  workflow: WorkflowForRun,
  control: RunControl,
): Promise<ExecutionResult> {
  const stopWatch = watchRun(deps, run, workflow, control);
  try {
    for (const step of await stepsOf(deps.db, run.companyId, run.id)) {
      if (control.signal.aborted) break;
      const ended = await executeStep(deps, run, workflow, step, control);
      if (ended) return ended;
    }
    return control.reason ? stoppedResult(control.reason) : { kind: 'ended', ending: { status: 'succeeded', error: null } };
  } finally {
    stopWatch();
  }
}

/** The heartbeat (which also reads cancel requests) and the time limit, until the returned function is called. */
function watchRun(deps: ExecutionDeps, run: RunRecord, workflow: WorkflowForRun, control: RunControl): () => void {
  const minutes = workflow.timeoutMinutes;
  const limit = setTimeout(
    () => control.stop('timed_out', `The run took longer than its time limit of ${minutes} minute${minutes === 1 ? '' : 's'}`),
    minutes * 60 * deps.limits.secondMs,
  );
  let watching = true;
  let next: NodeJS.Timeout | undefined;
  const heartbeat = async () => {
    try {
      const answer = await beat(deps.db, run.companyId, run.id, deps.workerId);
      if (!answer.held) control.stop('lost', 'Another runner took the run over');
      else if (answer.cancelRequested) control.stop('canceled', CANCELED_MESSAGE);
    } catch (error) {
      deps.log(`The heartbeat of run ${run.id} could not be written: ${(error as Error).message}`);
    }
    if (watching) next = setTimeout(heartbeat, deps.limits.heartbeatMs);
  };
  next = setTimeout(heartbeat, deps.limits.heartbeatMs);
  return () => {
    watching = false;
    clearTimeout(limit);
    clearTimeout(next);
  };
}

function stoppedResult(stop: RunStop): ExecutionResult {
  switch (stop.kind) {
    case 'stopping':
    case 'lost':
      return { kind: 'interrupted', reason: stop.kind };
    case 'canceled':
      return { kind: 'ended', ending: { status: 'canceled', error: stop.message } };
    case 'timed_out':
      return { kind: 'ended', ending: { status: 'timed_out', error: stop.message } };
  }
}

/** Runs one step; answers the run's result when the run ends with this step, nothing when it goes on. */
async function executeStep(
  deps: ExecutionDeps,
  run: RunRecord,
  workflow: WorkflowForRun,
  step: StepRecord,
  control: RunControl,
): Promise<ExecutionResult | undefined> {
  const { db } = deps;
  // What the open run pages hear of this step as it goes (server/live).
  const told = (signal: StepSignal) =>
    announceQuietly(db, { kind: 'run', companyId: run.companyId, runId: run.id, workflowId: workflow.id, step: signal });
  await startStep(db, run.companyId, step.id);
  await told({ id: step.id, status: 'running' });
  const context = new StepContext(db, run, workflow, step, control.signal);
  const settled = await settle(() => runTask(deps, workflow, step, context.api), control.signal, deps.limits.abortGraceMs);
  await context.close();
  try {
    return await endOfStep(deps, run, step, settled, control.reason);
  } finally {
    await told({ id: step.id });
  }
}

/** Writes how a step ended; answers the run's result when the run ends with it. */
async function endOfStep(
  { db }: ExecutionDeps,
  run: RunRecord,
  step: StepRecord,
  settled: Settled,
  stop: RunStop | undefined,
): Promise<ExecutionResult | undefined> {
  if (settled.kind === 'done') {
    await endStep(db, run.companyId, step.id, {
      status: 'succeeded',
      rowsRead: settled.value.rowsRead,
      rowsWritten: settled.value.rowsWritten,
    });
    return undefined;
  }
  if (stop) {
    // The step ended because the run was stopped, whatever the task said while stopping.
    if (stop.kind === 'canceled' || stop.kind === 'timed_out') {
      await endStep(db, run.companyId, step.id, { status: stop.kind === 'canceled' ? 'canceled' : 'failed', error: stop.message });
    }
    return stoppedResult(stop);
  }
  const error = settled.kind === 'failed' ? settled.error : new Error('The task did not finish');
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof DatabricksRunEndedError && error.status !== 'failed') {
    await endStep(db, run.companyId, step.id, { status: error.status === 'canceled' ? 'canceled' : 'failed', error: message });
    return { kind: 'ended', ending: { status: error.status, error: message } };
  }
  await endStep(db, run.companyId, step.id, { status: 'failed', error: message });
  return { kind: 'ended', ending: { status: 'failed', error: `Step "${step.name}" failed: ${message}` } };
}

/** The engine runs the job the workflow names; the task only names the step. */
const DATABRICKS_TASK: TaskDefinition = { id: DATABRICKS_STEP.taskId, name: DATABRICKS_STEP.name, type: DATABRICKS_STEP.type };

async function runTask(deps: ExecutionDeps, workflow: WorkflowForRun, step: StepRecord, context: TaskContext): Promise<TaskOutcome> {
  if (workflow.engine === 'databricks') {
    if (!deps.databricksEngine)
      throw new Error('This runner has no Databricks engine, so it cannot run a workflow bound to a Databricks job');
    return deps.databricksEngine(DATABRICKS_TASK, context);
  }
  // Matched by id: the workflow may have been edited since the run was queued.
  const task = workflow.tasks.find((candidate) => candidate.id === step.taskId);
  if (!task) throw new Error(`The task "${step.name}" was removed from the workflow after the run was queued`);
  const executor = task.type === 'databricks' ? undefined : deps.executors[task.type];
  if (!executor) throw new Error(`This runner cannot run tasks of type "${task.type}"`);
  return executor(task, context);
}

type Settled = { kind: 'done'; value: TaskOutcome } | { kind: 'failed'; error: unknown } | { kind: 'abandoned' };

/**
 * The task's outcome, or `abandoned` when the run was stopped and the task did not stop within
 * the grace (none when the runner itself stops or lost the run: the task's writes are dropped).
 */
function settle(work: () => Promise<TaskOutcome>, signal: AbortSignal, graceMs: number): Promise<Settled> {
  return new Promise((resolve) => {
    let giveUp: NodeJS.Timeout | undefined;
    const finish = (result: Settled) => {
      clearTimeout(giveUp);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => {
      const kind = (signal.reason as RunStop).kind;
      giveUp = setTimeout(() => finish({ kind: 'abandoned' }), kind === 'stopping' || kind === 'lost' ? 0 : graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(work)
      .then(
        (value) => finish({ kind: 'done', value: value ?? {} }),
        (error: unknown) => finish({ kind: 'failed', error }),
      );
  });
}

/**
 * What a task is given. Its writes go out one after another, in the order the task made them;
 * once the step has ended, a task that goes on (one that did not stop in time) writes nothing more.
 */
class StepContext {
  private writes: Promise<void> = Promise.resolve();
  private open = true;
  readonly api: TaskContext;

  constructor(db: Db, run: RunRecord, workflow: WorkflowForRun, step: StepRecord, signal: AbortSignal) {
    const companyId = run.companyId;
    const tell = (counts: Omit<StepSignal, 'id'> = {}) =>
      announceQuietly(db, { kind: 'run', companyId, runId: run.id, workflowId: workflow.id, step: { id: step.id, ...counts } });
    this.api = {
      companyId,
      runId: run.id,
      workflowId: workflow.id,
      workflowName: workflow.name,
      userId: run.triggeredBy,
      signal,
      log: (line) => this.write(() => appendStepLog(db, companyId, step.id, line), tell),
      progress: (counts) =>
        this.write(
          () => recordStepRows(db, companyId, step.id, counts),
          () => tell(counts),
        ),
      setGitCommit: (commit) => this.write(() => setGitCommit(db, companyId, run.id, commit), tell),
    };
  }

  /** Queues a write, and after it what the live streams are told of it. */
  private write(action: () => Promise<void>, told: () => Promise<void>): Promise<void> {
    if (!this.open) return Promise.resolve();
    const written = this.writes.then(action).then(told);
    // A failed write must not block the ones after it; the task still hears of it.
    this.writes = written.catch(() => undefined);
    return written;
  }

  async close(): Promise<void> {
    this.open = false;
    await this.writes;
  }
}
