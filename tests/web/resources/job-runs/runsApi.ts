import { http, HttpResponse } from 'msw';
import type { DatabricksRunState, JobRun, JobRunStep, RunQualityResult } from '../../../../resources/job-runs/types';
import { server } from '../../msw';
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

export interface Call {
  method: string;
  /** The path under /api/v1 with its query string. */
  path: string;
  body?: unknown;
}

export interface RunsApi {
  rows: JobRun[];
  results: RunQualityResult[];
  calls: Call[];
  /**
   * What `GET /jobRunTracker/{id}` answers for a run, call after call: the next answer each
   * time, the last one for ever after (a run that moves on between calls).
   */
  answers: Record<string, JobRun[]>;
  databricks: Record<string, DatabricksRunState>;
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string, times?: number): void;
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);

/**
 * The run tracker's routes of docs/api/workflows.md over in-memory runs (newest first), with
 * every call recorded with its path, query and JSON body.
 */
export function runsApi(initial: JobRun[] = runs()): RunsApi {
  const failures: { pattern: RegExp; status: number; message: string; times: number }[] = [];
  const api: RunsApi = {
    rows: [...initial],
    results: qualityResults(),
    calls: [],
    answers: {},
    databricks: {},
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message, times = Infinity) => failures.push({ pattern, status, message, times }),
  };
  const page = <T>(rows: T[], offset: number, limit: number, label = 'Job runs') =>
    HttpResponse.json({ message: label, data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } });
  const listed = (run: JobRun) => {
    const { steps: _steps, ...rest } = run;
    return rest;
  };
  const query = (request: Request) => new URL(request.url).searchParams;
  const filtered = (filter: Record<string, unknown>, workflowId: string | null) =>
    api.rows.filter(
      (run) =>
        (workflowId === null || run.workflowId === workflowId) &&
        (filter.workflow === undefined || anyOf(filter.workflow).includes(run.workflowId)) &&
        (filter.status === undefined || anyOf(filter.status).includes(run.status)) &&
        (filter.startDate === undefined || run.queuedAt.slice(0, 10) >= String(filter.startDate)) &&
        (filter.endDate === undefined || run.queuedAt.slice(0, 10) <= String(filter.endDate)),
    );
  const resultsOf = (filter: Record<string, unknown>) =>
    api.results.filter(
      (candidate) =>
        (filter.qualityName === undefined || anyOf(filter.qualityName).includes(candidate.ruleName)) &&
        (filter.columnName === undefined || anyOf(filter.columnName).includes(String(candidate.columnName))),
    );

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length) + url.search;
      if (!/^\/(jobRunTracker|dataQuality|workflow\/databricks)/.test(path)) return undefined;
      const body =
        request.method === 'GET'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined);
      api.calls.push({ method: request.method, path, body });
      const failure = failures.find((candidate) => candidate.times > 0 && candidate.pattern.test(`${request.method} ${path}`));
      if (failure) {
        failure.times -= 1;
        return HttpResponse.json({ message: failure.message }, { status: failure.status });
      }
      return undefined;
    }),
    http.get(`${API}/jobRunTracker/filters/props`, () =>
      HttpResponse.json({
        message: 'Job-run filters',
        data: {
          workflow: [
            { id: HOURLY, name: 'Hourly refresh' },
            { id: NIGHTLY, name: 'Nightly orders' },
          ],
          status: ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out'].map((id) => ({ id, name: id })),
        },
      }),
    ),
    http.post(`${API}/jobRunTracker/filters`, async ({ request }) => {
      const filter = ((await request.json()) ?? {}) as Record<string, unknown>;
      const params = query(request);
      const rows = filtered(filter, params.get('workflowId')).map(listed);
      return page(rows, Number(filter.offset ?? params.get('offset') ?? 0), Number(filter.limit ?? params.get('limit') ?? 10));
    }),
    http.get(`${API}/jobRunTracker/:workflowId/:offset/:limit`, ({ params }) =>
      page(filtered({}, String(params.workflowId)).map(listed), Number(params.offset), Number(params.limit)),
    ),
    http.get(`${API}/jobRunTracker/:id/dataQuality`, ({ request }) => {
      const params = query(request);
      return page(api.results, Number(params.get('offset') ?? 0), Number(params.get('limit') ?? 10), 'Data-quality results');
    }),
    http.put(`${API}/jobRunTracker/:id/cancel`, ({ params }) => {
      const run = api.rows.find((candidate) => candidate.id === params.id);
      if (!run) return HttpResponse.json({ message: 'Job run not found' }, { status: 404 });
      return HttpResponse.json({ message: `Run of "${run.workflowName}" asked to stop`, data: run });
    }),
    http.get(`${API}/jobRunTracker/:id`, ({ params }) => {
      const queued = api.answers[String(params.id)];
      if (queued && queued.length > 0) {
        const answer = queued.length > 1 ? queued.shift()! : queued[0];
        return HttpResponse.json({ message: 'Job run', data: answer });
      }
      const run = api.rows.find((candidate) => candidate.id === params.id);
      return run
        ? HttpResponse.json({ message: 'Job run', data: run })
        : HttpResponse.json({ message: 'Job run not found' }, { status: 404 });
    }),
    http.get(`${API}/dataQuality/filters`, () =>
      HttpResponse.json({
        message: 'Data-quality filters',
        data: {
          qualityName: [...new Set(api.results.map((candidate) => candidate.ruleName))].sort().map((name) => ({ id: name, name })),
          columnName: [...new Set(api.results.flatMap((candidate) => (candidate.columnName ? [candidate.columnName] : [])))]
            .sort()
            .map((name) => ({ id: name, name })),
        },
      }),
    ),
    http.post(`${API}/dataQuality/filters`, async ({ request }) => {
      const filter = ((await request.json()) ?? {}) as Record<string, unknown>;
      return page(resultsOf(filter), Number(filter.offset ?? 0), Number(filter.limit ?? 10), 'Data-quality results');
    }),
    http.get(`${API}/workflow/databricks/job/status/:id`, ({ params }) => {
      const state = api.databricks[String(params.id)];
      return state
        ? HttpResponse.json({ message: 'Databricks run', data: state })
        : HttpResponse.json({ message: 'This run is not a Databricks run' }, { status: 400 });
    }),
  );
  return api;
}
