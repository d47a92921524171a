/**
 * Running workflows (docs/api/workflows.md). The routes ask a JobRunner to queue, cancel and
 * report runs; the runner works them on an engine: the local runner (a queue in the server's own
 * database, worked in the server process or by `npm run worker`) or a Databricks job. The run
 * rows (job_runs, job_run_steps) are the truth about a run, whichever engine works it.
 */

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled' | 'timed_out';
export type RunTrigger = 'manual' | 'schedule' | 'api_key';
export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'canceled';

export const FINISHED: readonly RunStatus[] = ['succeeded', 'failed', 'canceled', 'timed_out'];

export interface RunRequest {
  companyId: string;
  workflowId: string;
  trigger: RunTrigger;
  /** The user who asked (the key's access user for a key). */
  userId: string | null;
  apiKeyId?: string | null;
}

export interface JobRunner {
  /** Writes a queued run (with its pending steps) and hands it to the queue; answers its id at once. */
  enqueue(request: RunRequest): Promise<string>;
  /** Asks a queued or running run to stop: a queued one is canceled at once, a running one at its next check. */
  cancel(companyId: string, runId: string): Promise<void>;
  /** Keeps each active scheduled workflow's schedule in the queue as stored (after a create, edit or activation). */
  syncSchedule(companyId: string, workflowId: string): Promise<void>;
  /** Starts working the queue (and recovers runs a stopped runner left running). */
  start(): Promise<void>;
  /** Stops taking runs; runs under way are left to finish or to be recovered. */
  stop(): Promise<void>;
  /**
   * Whether this process has the job queue open, so that runs it queues reach the workers; a
   * runner without a queue of its own leaves it out. Readiness answers 503 while it is false.
   */
  queueOpen?(): boolean;
}

/** A workflow's task, as stored (common/schemas/workflows.ts has their shapes). */
export interface TaskDefinition {
  id: string;
  name: string;
  /** The four task kinds of a workflow, and the one step of a run on Databricks. */
  type: 'copy' | 'sql' | 'quality' | 'notify' | 'databricks';
  [field: string]: unknown;
}

/** What a task is given while it runs. */
export interface TaskContext {
  companyId: string;
  runId: string;
  workflowId: string;
  workflowName: string;
  /** The user who started the run, if a person or a key did. */
  userId: string | null;
  /** Aborted when the run is canceled or times out: a task stops at its next check and throws. */
  signal: AbortSignal;
  /** Adds a line to the step's log (kept with the step, shown live). */
  log(line: string): Promise<void>;
  /** Counts the rows read and written so far (shown live), and how many are expected where the source keeps a count (shown live as a percentage, not kept). */
  progress(counts: { rowsRead?: number; rowsWritten?: number; rowsTotal?: number }): Promise<void>;
  /** Keeps the commit a task ran SQL from on the run. */
  setGitCommit(commit: string): Promise<void>;
}

/** How a task ended; a task that fails throws an Error whose message says why. */
export interface TaskOutcome {
  rowsRead?: number;
  rowsWritten?: number;
}

export type TaskExecutor = (task: TaskDefinition, context: TaskContext) => Promise<TaskOutcome>;
