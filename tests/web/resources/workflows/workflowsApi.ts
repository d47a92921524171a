import { http, HttpResponse } from 'msw';
import type { Connection } from '../../../../resources/connections/types';
import type { DataTable } from '../../../../resources/tables/types';
import type { GitRepository, Workflow, WorkflowCheck } from '../../../../resources/workflows/types';
import { server } from '../../msw';
import { connection, connections, FINANCE, pair, PG, S3, SLACK } from '../connections/connectionsApi';
import { HOURLY, jobRun, NIGHTLY, RUN_FAILED, RUN_NEW, RUN_OK, type RunsApi } from '../job-runs/runsApi';
import { dataTable } from '../tables/tablesApi';

export const API = '/api/v1';

export const DBX = 'c0000000-0000-4000-8000-000000000011';
export const GIT = 'c0000000-0000-4000-8000-000000000012';
export const PAIR = 'b0000000-0000-4000-8000-000000000001';
export const ORDERS = 'd0000000-0000-4000-8000-000000000001';
export const CUSTOMERS = 'd0000000-0000-4000-8000-000000000002';

/** The company's connections: the connections area's, and a Databricks workspace and a git repository. */
export function workflowConnections(): Connection[] {
  return [
    ...connections(),
    connection({ id: DBX, name: 'Spark', type: 'databricks', typeLabel: 'Databricks', category: 'compute' }),
    connection({ id: GIT, name: 'Analytics repo', type: 'git', typeLabel: 'Git repository', category: 'code' }),
  ];
}

export const PAIRS = [
  pair({ id: PAIR, name: 'Warehouse to lake', sourceId: PG, sourceName: 'Warehouse', destinationId: S3, destinationName: 'Lake' }),
];

export function tableRows(): DataTable[] {
  return [dataTable({ id: ORDERS, name: 'orders' }), dataTable({ id: CUSTOMERS, name: 'customers' })];
}

export function workflow(overrides: Partial<Workflow> & Pick<Workflow, 'id' | 'name'>): Workflow {
  return {
    jobId: overrides.id,
    description: null,
    workspaceId: null,
    workspaceName: null,
    pairId: PAIR,
    pairName: 'Warehouse to lake',
    sourceName: 'Warehouse',
    destinationName: 'Lake',
    repositoryConnectionId: null,
    databricksConnectionId: null,
    databricksJobId: null,
    engine: 'local',
    tasks: [],
    schedule: null,
    retries: { max: 0, backoffSeconds: 60 },
    timeoutMinutes: 60,
    concurrency: 1,
    notifyOnFailure: { inApp: true },
    isActive: true,
    lastRun: null,
    nextRunAt: null,
    createdBy: 'u-admin',
    createdByName: 'Ada Admin',
    createdAt: '2026-11-10T08:00:00.000Z',
    updatedAt: '2026-11-10T08:00:00.000Z',
    ...overrides,
  };
}

export function workflows(): Workflow[] {
  return [
    workflow({
      id: NIGHTLY,
      name: 'Nightly orders',
      description: 'Orders to the lake, then checked',
      workspaceId: FINANCE,
      workspaceName: 'Finance',
      tasks: [
        { id: 'task-1', name: 'Copy orders', type: 'copy', from: { table: 'sales.orders' }, to: { table: 'lake.orders', mode: 'replace' } },
        { id: 'task-2', name: 'Check orders', type: 'quality', tableIds: [ORDERS] },
      ],
      schedule: { cron: '0 2 * * *', timezone: 'Europe/Paris' },
      nextRunAt: '2026-11-22T01:00:00.000Z',
      lastRun: { id: RUN_FAILED, status: 'failed', queuedAt: '2026-11-21T02:00:00.000Z', endedAt: '2026-11-21T02:04:06.000Z' },
      createdAt: '2026-11-12T08:00:00.000Z',
    }),
    workflow({
      id: HOURLY,
      name: 'Hourly refresh',
      engine: 'databricks',
      databricksConnectionId: DBX,
      databricksJobId: '4242',
      repositoryConnectionId: GIT,
      tasks: [
        { id: 'task-1', name: 'Refresh marts', type: 'sql', path: 'sql/refresh.sql', ref: 'main', target: 'destination' },
        {
          id: 'task-2',
          name: 'Tell the team',
          type: 'notify',
          message: 'Marts refreshed',
          slackConnectionId: SLACK,
          emails: ['data@acme.test'],
        },
      ],
      isActive: false,
      lastRun: { id: RUN_OK, status: 'succeeded' },
    }),
  ];
}

/** The repository behind GIT: two branches, each with its own files. */
export const REPOSITORY: Record<string, GitRepository> = {
  main: {
    defaultBranch: 'main',
    branches: [
      { name: 'main', commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' },
      { name: 'dev', commit: 'ffee000011112222333344445555666677778888' },
    ],
    ref: 'main',
    commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
    files: ['README.md', 'sql/refresh.sql', 'sql/orders/daily.sql'],
  },
  dev: {
    defaultBranch: 'main',
    branches: [
      { name: 'main', commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' },
      { name: 'dev', commit: 'ffee000011112222333344445555666677778888' },
    ],
    ref: 'dev',
    commit: 'ffee000011112222333344445555666677778888',
    files: ['README.md', 'sql/refresh.sql', 'sql/experimental/cohorts.sql'],
  },
};

export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

export interface WorkflowsApi {
  rows: Workflow[];
  calls: Call[];
  /** What `POST /workflow/configure/{id}` answers. */
  check: WorkflowCheck;
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string, times?: number): void;
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);

/**
 * The workflow routes of docs/api/workflows.md over in-memory rows, newest first; a run it
 * queues joins `runs` (the run tracker's fake), so that the run's page finds it.
 */
export function workflowsApi(initial: Workflow[] = workflows(), runs?: RunsApi): WorkflowsApi {
  const failures: { pattern: RegExp; status: number; message: string; times: number }[] = [];
  const api: WorkflowsApi = {
    rows: [...initial],
    calls: [],
    check: { ok: true, problems: [] },
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message, times = Infinity) => failures.push({ pattern, status, message, times }),
  };
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => HttpResponse.json({ message: 'Workflow not found' }, { status: 404 });
  const page = (rows: Workflow[], offset: number, limit: number) =>
    HttpResponse.json({ message: 'Workflows', data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } });

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length) + url.search;
      if (!/^\/(workflow(?!\/databricks)|filters\/workflow)/.test(path)) return undefined;
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
    http.get(`${API}/filters/workflow`, () =>
      HttpResponse.json({
        message: 'Workflow filters',
        data: {
          connection: [
            { id: PG, name: 'Warehouse' },
            { id: S3, name: 'Lake' },
          ],
          user: [{ id: 'u-admin', name: 'Ada Admin' }],
          workspace: [{ id: FINANCE, name: 'Finance' }],
        },
      }),
    ),
    http.get(`${API}/workflow/topCards`, () =>
      HttpResponse.json({
        message: 'Workflow cards',
        data: {
          cards: [
            { key: 'total', label: 'Workflows', value: api.rows.length },
            { key: 'failedToday', label: 'Failed today', value: 1, link: '/job-runs' },
          ],
        },
      }),
    ),
    http.get(`${API}/workflow/search/:offset/:limit`, ({ params, request }) => {
      const search = (new URL(request.url).searchParams.get('searchText') ?? '').toLowerCase();
      return page(
        api.rows.filter((row) => `${row.name} ${row.description ?? ''}`.toLowerCase().includes(search)),
        Number(params.offset),
        Number(params.limit),
      );
    }),
    http.post(`${API}/workflow/filter/:offset/:limit`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      const rows = api.rows.filter(
        (row) =>
          (filter.workspace === undefined || anyOf(filter.workspace).includes(String(row.workspaceId))) &&
          (filter.connection === undefined || anyOf(filter.connection).some((id) => id === PG || id === S3)) &&
          (filter.search === undefined || row.name.toLowerCase().includes(String(filter.search).toLowerCase())),
      );
      return page(rows, Number(params.offset), Number(params.limit));
    }),
    http.get(`${API}/workflow/connection/gitRepo/:id`, ({ request }) => {
      const ref = new URL(request.url).searchParams.get('ref') || 'main';
      const repository = REPOSITORY[ref];
      return repository
        ? HttpResponse.json({ message: `${repository.files.length} files at ${ref}`, data: repository })
        : HttpResponse.json({ message: `ref: no branch, tag or commit "${ref}"` }, { status: 400 });
    }),
    http.get(`${API}/workflow/:offset/:limit`, ({ params }) => page(api.rows, Number(params.offset), Number(params.limit))),
    http.post(`${API}/workflow`, async ({ request }) => {
      const body = (await request.json()) as Partial<Workflow>;
      const row = workflow({ ...body, id: 'f0000000-0000-4000-8000-0000000000a1', name: String(body.name) });
      api.rows.unshift(row);
      return HttpResponse.json({ message: `Workflow "${row.name}" created`, data: row }, { status: 201 });
    }),
    http.post(`${API}/workflow/activate/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = ((await request.json()) as { isActive: boolean }).isActive;
      return HttpResponse.json({ message: `Workflow "${row.name}" ${row.isActive ? 'activated' : 'deactivated'}`, data: row });
    }),
    http.post(`${API}/workflow/configure/:id`, () =>
      HttpResponse.json({ message: api.check.ok ? 'Nothing to fix' : `${api.check.problems.length} problems`, data: api.check }),
    ),
    http.post(`${API}/workflow/run/:jobId`, ({ params }) => {
      const row = find(params.jobId);
      if (!row) return notFound();
      const run = jobRun({
        id: RUN_NEW,
        workflowId: row.id,
        workflowName: row.name,
        status: 'queued',
        startedAt: null,
        endedAt: null,
        durationMs: null,
        queuedAt: '2026-11-22T09:00:00.000Z',
      });
      runs?.rows.unshift(run);
      return HttpResponse.json({ message: `Workflow "${row.name}" queued`, data: run }, { status: 202 });
    }),
    http.get(`${API}/workflow/:id`, ({ params }) => {
      const row = find(params.id);
      return row ? HttpResponse.json({ message: 'Workflow', data: row }) : notFound();
    }),
    http.put(`${API}/workflow/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      Object.assign(row, (await request.json()) as Partial<Workflow>);
      return HttpResponse.json({ message: `Workflow "${row.name}" saved`, data: row });
    }),
  );
  return api;
}
