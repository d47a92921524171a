import { z } from 'zod';
import { RUN_STATUSES, TASK_TYPES } from '../schemas/workflows';
import { answer, choice, timestamp } from './answers';
import { qualityResult } from './answers/quality';
import { defineAction, defineContract } from './define';
import { WORKFLOW_ENGINES, workflowsPolicy } from './workflows';

/** What started a run: a person, the workflow's schedule, or an API key. */
export const RUN_TRIGGERS = ['manual', 'schedule', 'api_key'] as const;

/** Where a step of a run stands: `skipped` when the run ended before it, `canceled` when the run was stopped. */
export const STEP_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped', 'canceled'] as const;

/** A step's kind: its task's type, or the one step of a run worked as a Databricks job. */
export const STEP_TYPES = [...TASK_TYPES, 'databricks'] as const;

/** A run of a workflow, as the run lists answer it (docs/api/workflows.md, "Job runs"). */
export const jobRunRow = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  status: z.enum(RUN_STATUSES),
  trigger: z.enum(RUN_TRIGGERS),
  /** The user who started it (an API key's access user); null for the schedule. */
  triggeredBy: z.string().nullable(),
  /** That user's name, else their email. */
  triggeredByName: z.string().nullable(),
  /** The API key that started it. */
  apiKeyId: z.string().nullable(),
  /** 1, then one more for each retry. */
  attempt: z.number().int(),
  engine: z.enum(WORKFLOW_ENGINES),
  /** The Databricks run id, for a run worked as a Databricks job. */
  externalRunId: z.string().nullable(),
  /** The commit its `sql` tasks read their files at. */
  gitCommit: z.string().nullable(),
  queuedAt: timestamp,
  startedAt: timestamp.nullable(),
  endedAt: timestamp.nullable(),
  /** From start to end; null until it has both. */
  durationMs: z.number().nullable(),
  /** When someone asked it to stop. */
  cancelRequestedAt: timestamp.nullable(),
  /** Why it failed, timed out or was canceled. */
  error: z.string().nullable(),
});
export type JobRun = z.infer<typeof jobRunRow>;

/** One step of a run: one task, as the runner worked it. */
export const jobRunStep = z.object({
  id: z.string(),
  /** Its place in the run, from 0. */
  position: z.number().int(),
  /** The id of its task in the workflow (`databricks` for a Databricks job's step). */
  taskId: z.string(),
  name: z.string(),
  type: z.enum(STEP_TYPES),
  status: z.enum(STEP_STATUSES),
  startedAt: timestamp.nullable(),
  endedAt: timestamp.nullable(),
  rowsRead: z.number().nullable(),
  rowsWritten: z.number().nullable(),
  /** Its log lines, timestamped, as they were written. */
  log: z.string(),
  error: z.string().nullable(),
});
export type JobRunStep = z.infer<typeof jobRunStep>;

/** `GET /jobRunTracker/{id}`, the run a run or cancel answers: a run with its steps, in order. */
export const jobRunDetail = jobRunRow.extend({ steps: z.array(jobRunStep) });
export type JobRunDetail = z.infer<typeof jobRunDetail>;

/** `GET /jobRunTracker/filters/props`: the company's workflows, by name, and the run statuses. */
export const jobRunFilterPropsAnswer = answer(z.object({ workflow: z.array(choice), status: z.array(choice) }));

/** `GET /workflow/databricks/job/status/{id}`: the Databricks state of a run worked as a Databricks job, read now. */
export const databricksRunState = z.object({
  /** Our run's id. */
  runId: z.string(),
  /** Databricks' run id. */
  externalRunId: z.string(),
  /** Databricks' own words: `life_cycle_state` (or `status.state`), `result_state` (or the termination code), the state message. */
  lifeCycleState: z.string().nullable(),
  resultState: z.string().nullable(),
  stateMessage: z.string().nullable(),
  /** That state as a run status. */
  status: z.enum(RUN_STATUSES),
  /** The run's page in the Databricks workspace. */
  runPageUrl: z.string().nullable(),
});
export type DatabricksRunState = z.infer<typeof databricksRunState>;

/**
 * A data-quality result a run's quality task kept (`GET /jobRunTracker/{id}/dataQuality`): a
 * table's rule result (common/contract/answers/quality.ts) by its own id and its table, without its quality run.
 */
export const runQualityResult = qualityResult.omit({ runId: true }).extend({
  id: z.string(),
  tableId: z.string(),
  /** The data-quality run that kept it: its failing rows are read by it (`GET /table/quality/run/{id}/failingRows/…`). */
  qualityRunId: z.string().optional(),
});
export type RunQualityResult = z.infer<typeof runQualityResult>;

/** `GET /dataQuality/filters`: the rule names and the columns of a run's results. */
export const runQualityFilterProps = z.object({ qualityName: z.array(choice), columnName: z.array(choice) });

const recordId = z.uuid({ error: 'must be a valid id' });

/**
 * `POST /workflow/run/{jobId}`: the run's id is the path's; a body may repeat it. `fullCopy` has
 * the workflow's incremental copies read every row this once (their watermarks move when it succeeds).
 */
export const runWorkflowBody = z.preprocess(
  (body) => body ?? {},
  z.object({ jobId: recordId.optional(), fullCopy: z.boolean({ error: 'must be true or false' }).optional() }).strict(),
);

export const jobRunsContract = defineContract({
  name: 'job-runs',
  row: jobRunRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'queuedAt', type: 'datetime', sortable: true },
    { source: 'status', type: 'status', sortable: true },
    { source: 'trigger', type: 'text', sortable: true },
    { source: 'startedAt', type: 'datetime', sortable: true },
    { source: 'endedAt', type: 'datetime', sortable: true },
    { source: 'attempt', type: 'number', sortable: true },
  ],
  routes: {
    list: { path: '/jobRunTracker/filters?offset={offset}&limit={limit}', method: 'POST', body: {} },
    filter: {
      path: '/jobRunTracker/filters?offset={offset}&limit={limit}&sort={field}&order={order}',
      sort: { field: 'queuedAt', order: 'DESC' },
    },
    filterProps: '/jobRunTracker/filters/props',
    one: '/jobRunTracker/{id}',
  },
  related: {
    // One workflow's runs, newest first (a workflow's page lists them).
    workflow: '/jobRunTracker/{id}/{offset}/{limit}',
  },
  policy: workflowsPolicy,
  page: { id: 'job-runs', title: 'Job runs', url: '/job-runs', group: 'data', icon: 'play_circle', order: 6 },
  audit: { model: 'job_run' },
  actions: {
    /** Queues a run of the workflow `{jobId}` names (its id); answers 202 with the new run. */
    start: defineAction({
      path: '/workflow/run/{jobId}',
      method: 'POST',
      summary: 'Run a workflow now',
      params: { jobId: recordId },
      body: runWorkflowBody,
      data: jobRunDetail,
      status: 202,
    }),
    cancel: defineAction({
      path: '/jobRunTracker/{id}/cancel',
      method: 'PUT',
      summary: 'Stop a queued or running run',
      data: jobRunDetail,
    }),
    databricksState: defineAction({
      path: '/workflow/databricks/job/status/{id}',
      method: 'GET',
      summary: 'The Databricks state of a run',
      data: databricksRunState,
    }),
    qualityChoices: defineAction({
      path: '/dataQuality/filters',
      method: 'GET',
      summary: "Choices of a run's data-quality filter",
      query: z.object({ jobRunTrackerId: recordId }),
      data: runQualityFilterProps,
    }),
  },
});
