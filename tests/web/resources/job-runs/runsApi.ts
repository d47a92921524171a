import { jobRunsContract } from '../../../../common/contract/job-runs';
import type { DatabricksRunState, JobRun, JobRunStep, RunQualityResult } from '../../../../resources/job-runs/types';
import { answered, contractFake, paged, type ContractFake } from '../../contractFake';
import { result } from '../tables/tablesApi';

export const API = '/api/v1';

/** Ids are uuids, as the server makes them. */
export const NIGHTLY = 'f0000000-0000-4000-8000-000000000001';
export const HOURLY = 'f0000000-0000-4000-8000-000000000002';
export const RUN_FAILED = 'e0000000-0000-4000-8000-000000000001';
export const RUN_OK = 'e0000000-0000-4000-8000-000000000002';
export const RUN_LIVE = 'e0000000-0000-4000-8000-000000000003';
export const RUN_NEW = 'e0000000-0000-4000-8000-000000000009';

export function step(overrides: Partial<JobRunStep> & Pick<JobRunStep, 'id' | 'position' | 'name' | 'type'>): JobRunStep {
  return {
    status: 'succeeded',
    startedAt: '2026-11-20T02:00:01.000Z',
    endedAt: '2026-11-20T02:00:05.000Z',
    rowsRead: null,
    rowsWritten: null,
    log: null,
    error: null,
    ...overrides,
  };
}

export function jobRun(overrides: Partial<JobRun> & Pick<JobRun, 'id'>): JobRun {
  return {
    workflowId: NIGHTLY,
    workflowName: 'Nightly orders',
    status: 'succeeded',
    trigger: 'manual',
    triggeredBy: 'u-admin',
    triggeredByName: 'Ada Admin',
    apiKeyId: null,
    attempt: 1,
    engine: 'local',
    externalRunId: null,
    gitCommit: null,
    queuedAt: '2026-11-20T02:00:00.000Z',
    startedAt: '2026-11-20T02:00:01.000Z',
    endedAt: '2026-11-20T02:00:13.500Z',
    durationMs: 12_500,
    error: null,
    steps: [],
    ...overrides,
  };
}

export function runs(): JobRun[] {
  return [
    jobRun({
      id: RUN_FAILED,
      status: 'failed',
      trigger: 'schedule',
      triggeredBy: null,
      triggeredByName: null,
      queuedAt: '2026-11-21T02:00:00.000Z',
      startedAt: '2026-11-21T02:00:01.000Z',
      endedAt: '2026-11-21T02:04:06.000Z',
      durationMs: 245_000,
      error: 'Step "Check orders" failed: 1 rule failed',
      gitCommit: '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432',
      steps: [
        step({
          id: 's-1',
          position: 0,
          name: 'Copy orders',
          type: 'copy',
          rowsRead: 120_000,
          rowsWritten: 120_000,
          log: 'batch 1: 10000 rows\nbatch 2: 10000 rows\ncopied 120000 rows',
        }),
        step({
          id: 's-2',
          position: 1,
          name: 'Check orders',
          type: 'quality',
          status: 'failed',
          error: '1 rule failed',
          log: 'Email present: failed (2 rows)',
        }),
      ],
    }),
    jobRun({
      id: RUN_OK,
      workflowId: HOURLY,
      workflowName: 'Hourly refresh',
      trigger: 'api_key',
      triggeredBy: null,
      triggeredByName: null,
      apiKeyId: 'k-1',
      durationMs: 850,
    }),
  ];
}

export function qualityResults(): RunQualityResult[] {
  return [
    {
      ...result({
        ruleId: 'r-1',
        ruleName: 'Email present',
        functionName: 'not_null',
        columnName: 'email',
        status: 'failed',
        observed: 2,
        rowsScanned: 1000,
        rowsFailed: 2,
        failedShare: 0.002,
        sample: [
          { id: 17, email: null, full_name: '***' },
          { id: 42, email: null, full_name: '***' },
        ],
      }),
      id: 'q-1',
      tableId: 't-1',
    },
    {
      ...result({
        ruleId: 'r-2',
        ruleName: 'Amount range',
        functionName: 'value_between',
        columnName: 'amount',
        status: 'passed',
        observed: 0,
      }),
      id: 'q-2',
      tableId: 't-1',
    },
    {
      ...result({
        ruleId: 'r-3',
        ruleName: 'Enough rows',
        functionName: 'row_count_between',
        status: 'passed',
        observed: 1000,
        rowsFailed: null,
        failedShare: null,
      }),
      id: 'q-3',
      tableId: 't-1',
    },
  ];
}

export interface RunsApi extends ContractFake<JobRun> {
  results: RunQualityResult[];
  /**
   * What `GET /jobRunTracker/{id}` answers for a run, call after call: the next answer each
   * time, the last one for ever after (a run that moves on between calls).
   */
  answers: Record<string, JobRun[]>;
  databricks: Record<string, DatabricksRunState>;
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
const RESULTS = 'Data-quality results';

/**
 * A server honouring the job-runs contract (docs/api/workflows.md, "Job runs") over in-memory
 * runs, newest first, with a run's cancel, its data-quality results and its Databricks state
 * beside it.
 */
export function runsApi(initial: JobRun[] = runs()): RunsApi {
  const find = (id: unknown) => api.rows.find((candidate) => candidate.id === id);
  const resultsOf = (filter: Record<string, unknown>) =>
    api.results.filter(
      (candidate) =>
        (filter.qualityName === undefined || anyOf(filter.qualityName).includes(candidate.ruleName)) &&
        (filter.columnName === undefined || anyOf(filter.columnName).includes(String(candidate.columnName))),
    );
  const choices = (names: (string | null)[]) =>
    [...new Set(names.filter((name): name is string => name !== null))].sort().map((name) => ({ id: name, name }));
  const api: RunsApi = Object.assign(
    contractFake<JobRun>(jobRunsContract, initial, {
      // The lists show a run without its steps.
      listed: ({ steps: _steps, ...rest }) => rest,
      datedBy: 'queuedAt',
      filterBy: { workflow: (run, wanted) => anyOf(wanted).includes(run.workflowId) },
      relatedBy: { workflow: 'workflowId' },
      filterProps: {
        workflow: [
          { id: HOURLY, name: 'Hourly refresh' },
          { id: NIGHTLY, name: 'Nightly orders' },
        ],
        status: ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out'].map((id) => ({ id, name: id })),
      },
      messages: { one: () => 'Job run' },
      // A run that moves on between calls answers its next state.
      data: {
        one: (run) => {
          const queued = api.answers[run.id];
          if (!queued || queued.length === 0) return run;
          return queued.length > 1 ? queued.shift() : queued[0];
        },
      },
      more: {
        'PUT /jobRunTracker/{id}/cancel': ({ id }) => {
          const run = find(id);
          if (!run) return answered('Job run not found', undefined, 404);
          return answered(`Run of "${run.workflowName}" asked to stop`, run);
        },
        'GET /jobRunTracker/{id}/dataQuality?offset={offset}&limit={limit}': ({ offset = '0', limit = '10' }) =>
          paged(RESULTS, api.results, Number(offset), Number(limit)),
        'GET /dataQuality/filters?jobRunTrackerId={id}': () =>
          answered('Data-quality filters', {
            qualityName: choices(api.results.map((candidate) => candidate.ruleName)),
            columnName: choices(api.results.map((candidate) => candidate.columnName)),
          }),
        'POST /dataQuality/filters?jobRunTrackerId={id}': (_, filter) =>
          paged(RESULTS, resultsOf(filter), Number(filter.offset ?? 0), Number(filter.limit ?? 10)),
        'GET /workflow/databricks/job/status/{id}': ({ id }) => {
          const state = api.databricks[String(id)];
          return state ? answered('Databricks run', state) : answered('This run is not a Databricks run', undefined, 400);
        },
      },
    }),
    { results: qualityResults(), answers: {} as Record<string, JobRun[]>, databricks: {} as Record<string, DatabricksRunState> },
  );
  return api;
}
