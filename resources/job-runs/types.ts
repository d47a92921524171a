import type { RUN_STATUSES, TaskType } from '../../common/schemas/workflows';
import type { RuleResult } from '../tables/types';

/** A job run's status (docs/api/workflows.md "Job runs"). */
export type JobRunStatus = (typeof RUN_STATUSES)[number];
export type JobRunTrigger = 'manual' | 'schedule' | 'api_key';

/** One task of a run, as the runner worked it. */
export interface JobRunStep {
  id: string;
  position: number;
  name: string;
  type: TaskType;
  status: JobRunStatus;
  startedAt: string | null;
  endedAt: string | null;
  rowsRead: number | null;
  rowsWritten: number | null;
  log: string | null;
  error: string | null;
}

/** A run of a workflow, as `GET /jobRunTracker/{id}` answers it (lists leave the steps out). */
export interface JobRun {
  id: string;
  workflowId: string;
  workflowName: string | null;
  status: JobRunStatus;
  trigger: JobRunTrigger;
  triggeredBy: string | null;
  triggeredByName: string | null;
  apiKeyId: string | null;
  attempt: number | null;
  engine: 'local' | 'databricks' | null;
  externalRunId: string | null;
  gitCommit: string | null;
  queuedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  error: string | null;
  steps?: JobRunStep[];
}

/** `GET /workflow/databricks/job/status/{id}`: the Databricks side of a run. */
export interface DatabricksRunState {
  runId: string;
  externalRunId: string | null;
  lifeCycleState: string | null;
  resultState: string | null;
  stateMessage: string | null;
  status: JobRunStatus | string | null;
  runPageUrl: string | null;
}

/** A data-quality result a run's quality task kept: the tables area's result, with its row id and table. */
export interface RunQualityResult extends RuleResult {
  id: string;
  tableId: string | null;
}

/** The run's data-quality filter: result names and columns, several of each. */
export interface QualityFilter {
  qualityName: string[];
  columnName: string[];
}
