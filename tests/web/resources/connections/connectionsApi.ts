import { http, HttpResponse } from 'msw';
import type { Connection, ConnectionTestResult, Endpoint, Integration, Pair } from '../../../../resources/connections/types';
import { server } from '../../msw';

export const API = '/api/v1';

/** The fake company's connections and workspaces (ids are uuids, as the server makes them). */
export const PG = 'c0000000-0000-4000-8000-000000000001';
export const S3 = 'c0000000-0000-4000-8000-000000000002';
export const SLACK = 'c0000000-0000-4000-8000-000000000003';
export const FILES = 'c0000000-0000-4000-8000-000000000004';
export const BACKUP = 'c0000000-0000-4000-8000-000000000005';
export const FINANCE = 'a0000000-0000-4000-8000-000000000001';
export const MARKETING = 'a0000000-0000-4000-8000-000000000002';

/** A pattern matching exactly one `METHOD path` line of the recorded calls. */
export function exactly(line: string): RegExp {
  return new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`);
}

export function connection(overrides: Partial<Connection> & Pick<Connection, 'id' | 'name' | 'type'>): Connection {
  return {
    description: null,
    typeLabel: overrides.type,
    category: 'database',
    isSource: false,
    isDestination: false,
    workspaceId: null,
    workspaceName: null,
    settings: {},
    secretsSet: [],
    isActive: true,
    lastTestedAt: null,
    lastTestOk: null,
    lastTestLatencyMs: null,
    lastTestMessage: null,
    pairCount: 0,
    tableCount: 0,
    createdBy: 'u-admin',
    createdByName: 'Ada Admin',
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
    ...overrides,
  };
}

/** The warehouse (PostgreSQL, source, tested OK), the lake (S3, destination, failing), the alerts channel (Slack, never tested). */
export function connections(): Connection[] {
  return [
    connection({
      id: PG,
      name: 'Warehouse',
      type: 'postgresql',
      typeLabel: 'PostgreSQL',
      isSource: true,
      isDestination: true,
      workspaceId: FINANCE,
      workspaceName: 'Finance',
      settings: { host: 'db.acme.test', port: 5432, database: 'dw', user: 'etl', ssl: 'require' },
      secretsSet: ['password'],
      lastTestedAt: '2026-11-20T10:00:00.000Z',
      lastTestOk: true,
      lastTestLatencyMs: 42,
      pairCount: 1,
      tableCount: 2,
      createdAt: '2026-11-10T08:00:00.000Z',
    }),
    connection({
      id: S3,
      name: 'Lake',
      type: 's3',
      typeLabel: 'S3-compatible storage',
      category: 'storage',
      isDestination: true,
      settings: { endpoint: 'https://s3.amazonaws.com', region: 'eu-west-1', bucket: 'lake', accessKeyId: 'AKIA1', pathStyle: false },
      secretsSet: ['secretAccessKey'],
      lastTestedAt: '2026-11-21T10:00:00.000Z',
      lastTestOk: false,
      lastTestMessage: 'The AWS Access Key Id you provided does not exist in our records.',
      pairCount: 1,
      createdAt: '2026-11-09T08:00:00.000Z',
    }),
    connection({
      id: SLACK,
      name: 'Alerts',
      type: 'slack',
      typeLabel: 'Slack',
      category: 'chat',
      settings: { mode: 'webhook' },
      secretsSet: ['webhookUrl'],
      createdAt: '2026-11-08T08:00:00.000Z',
    }),
    connection({
      id: FILES,
      name: 'Exports',
      type: 'files',
      typeLabel: 'Folder of files',
      category: 'storage',
      isSource: true,
      settings: { path: '/srv/exports' },
      isActive: false,
      createdAt: '2026-11-07T08:00:00.000Z',
    }),
  ];
}

export function pair(overrides: Partial<Pair> & Pick<Pair, 'id' | 'name' | 'sourceId' | 'destinationId'>): Pair {
  return {
    sourceName: '',
    sourceType: 'postgresql',
    destinationName: '',
    destinationType: 's3',
    isActive: true,
    createdAt: '2026-11-12T08:00:00.000Z',
    updatedAt: '2026-11-12T08:00:00.000Z',
    ...overrides,
  };
}

export const ENDPOINTS: Endpoint[] = [
  { id: 'sales.orders', name: 'orders', kind: 'table', group: 'sales', format: 'table', rows: 120_000 },
  { id: 'public.customers', name: 'customers', kind: 'table', group: 'public', format: 'table', rows: 5400 },
  { id: 'public.active_customers', name: 'active_customers', kind: 'table', group: 'public', format: 'view' },
  { id: 'sales.refunds', name: 'refunds', kind: 'table', group: 'sales', format: 'table', rows: 310 },
];

export interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

export interface ConnectionsApi {
  rows: Connection[];
  pairs: Pair[];
  calls: Call[];
  /** What `configure` answers per connection (default: OK in 42 ms). */
  tests: Record<string, ConnectionTestResult>;
  /** What `endpoints` answers per connection: a list, or a failure in the source's words. */
  endpoints: Record<string, Endpoint[] | { status: number; message: string }>;
  integrations: { slack: Integration; bitbucket: Integration };
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string, times?: number): void;
}

function anyOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

function matches(row: Connection, filter: Record<string, unknown>): boolean {
  if (filter.type !== undefined && !anyOf(filter.type).includes(row.type)) return false;
  if (filter.source !== undefined && !anyOf(filter.source).includes(String(row.isSource))) return false;
  if (filter.destination !== undefined && !anyOf(filter.destination).includes(String(row.isDestination))) return false;
  if (filter.workspace !== undefined && !anyOf(filter.workspace).includes(String(row.workspaceId))) return false;
  if (filter.user !== undefined && !anyOf(filter.user).includes(String(row.createdBy))) return false;
  if (filter.status !== undefined && !anyOf(filter.status).includes(row.isActive ? 'active' : 'inactive')) return false;
  if (filter.search !== undefined && !row.name.toLowerCase().includes(String(filter.search).toLowerCase())) return false;
  return true;
}

const TYPE_LABELS: Record<string, string> = {
  postgresql: 'PostgreSQL',
  s3: 'S3-compatible storage',
  slack: 'Slack',
  files: 'Folder of files',
  embedded: 'Embedded database',
};

/**
 * The connection routes of docs/api/connections.md over in-memory rows; every call is recorded
 * with its JSON body and headers.
 */
export function connectionsApi(initial: Connection[] = connections(), initialPairs?: Pair[]): ConnectionsApi {
  const failures: { pattern: RegExp; status: number; message: string; times: number }[] = [];
  const api: ConnectionsApi = {
    rows: [...initial],
    pairs: initialPairs ?? [
      pair({ id: 'p-1', name: 'Warehouse to lake', sourceId: PG, sourceName: 'Warehouse', destinationId: S3, destinationName: 'Lake' }),
    ],
    calls: [],
    tests: {},
    endpoints: { [PG]: ENDPOINTS },
    integrations: {
      slack: {
        configured: true,
        active: true,
        connections: [{ id: SLACK, name: 'Alerts', isActive: true, lastTestOk: null, lastTestedAt: null }],
      },
      bitbucket: { configured: false, active: false, connections: [] },
    },
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message, times = Infinity) => failures.push({ pattern, status, message, times }),
  };
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => HttpResponse.json({ message: 'Connection not found' }, { status: 404 });
  const list = (rows: Connection[], offset: number, limit: number) =>
    HttpResponse.json({ message: 'Connections', data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } });
  const nameOf = (id: string) => find(id)?.name ?? id;

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length) + url.search;
      if (!/^\/(connections?|source\/destination|active\/source|workspaces\/active)/.test(path)) return undefined;
      const body =
        request.method === 'GET' || request.method === 'DELETE'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined);
      api.calls.push({ method: request.method, path, body, headers: Object.fromEntries(request.headers.entries()) });
      const failure = failures.find((candidate) => candidate.times > 0 && candidate.pattern.test(`${request.method} ${path}`));
      if (failure) {
        failure.times -= 1;
        return HttpResponse.json({ message: failure.message }, { status: failure.status });
      }
      return undefined;
    }),
    http.get(`${API}/connections/filters`, () =>
      HttpResponse.json({
        message: 'Connection filters',
        data: {
          source: [
            { id: 'true', name: 'Sources' },
            { id: 'false', name: 'Not sources' },
          ],
          destination: [
            { id: 'true', name: 'Destinations' },
            { id: 'false', name: 'Not destinations' },
          ],
          user: [{ id: 'u-admin', name: 'Ada Admin' }],
          workspace: [{ id: FINANCE, name: 'Finance' }],
          type: [
            { id: 'postgresql', name: 'PostgreSQL' },
            { id: 's3', name: 'S3-compatible storage' },
            { id: 'slack', name: 'Slack' },
          ],
          status: [
            { id: 'active', name: 'Active' },
            { id: 'inactive', name: 'Inactive' },
          ],
        },
      }),
    ),
    http.get(`${API}/connections/topCards`, () =>
      HttpResponse.json({
        message: 'Connection cards',
        data: {
          cards: [
            { key: 'total', label: 'Connections', value: api.rows.length },
            { key: 'failing', label: 'Failing', value: api.rows.filter((row) => row.lastTestOk === false).length },
            { key: 'pairs', label: 'Pairs', value: api.pairs.length },
          ],
        },
      }),
    ),
    http.get(`${API}/connections/search/:offset/:limit`, ({ params, request }) => {
      const search = new URL(request.url).searchParams.get('searchText') ?? '';
      return list(
        api.rows.filter((row) => matches(row, { search })),
        Number(params.offset),
        Number(params.limit),
      );
    }),
    http.get(`${API}/connections/:offset/:limit`, ({ params }) => list(api.rows, Number(params.offset), Number(params.limit))),
    http.post(`${API}/connections/filter/:offset/:limit`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      return list(
        api.rows.filter((row) => matches(row, filter)),
        Number(params.offset),
        Number(params.limit),
      );
    }),
    http.post(`${API}/connections`, async ({ request }) => {
      const body = (await request.json()) as Partial<Connection> & { settings: Record<string, unknown> };
      const row = connection({
        id: `c-new-${api.rows.length}`,
        name: String(body.name),
        type: body.type!,
        typeLabel: TYPE_LABELS[body.type!] ?? String(body.type),
        description: body.description ?? null,
        workspaceId: body.workspaceId ?? null,
        isSource: body.isSource ?? false,
        isDestination: body.isDestination ?? false,
        settings: Object.fromEntries(Object.entries(body.settings ?? {}).filter(([key]) => !/password|secret|token|webhook/i.test(key))),
        secretsSet: Object.keys(body.settings ?? {}).filter((key) => /password|secret|token|webhook/i.test(key)),
        createdAt: '2026-11-22T08:00:00.000Z',
      });
      api.rows.unshift(row);
      return HttpResponse.json({ message: `Connection "${row.name}" created`, data: row }, { status: 201 });
    }),
    http.put(`${API}/connections/activate/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = ((await request.json()) as { isActive: boolean }).isActive;
      return HttpResponse.json({ message: `Connection "${row.name}" ${row.isActive ? 'activated' : 'deactivated'}`, data: row });
    }),
    http.get(`${API}/connection/slack/integration`, () =>
      HttpResponse.json({ message: 'Slack integration', data: api.integrations.slack }),
    ),
    http.get(`${API}/connection/bitbucket/integration`, () =>
      HttpResponse.json({ message: 'Code integrations', data: api.integrations.bitbucket }),
    ),
    http.get(`${API}/connection/:id`, ({ params }) => {
      const row = find(params.id);
      return row ? HttpResponse.json({ message: 'Connection', data: row }) : notFound();
    }),
    http.put(`${API}/connection/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      const body = (await request.json()) as Partial<Connection>;
      Object.assign(
        row,
        body,
        body.settings ? { settings: Object.fromEntries(Object.entries(body.settings).filter(([key]) => key !== 'password')) } : {},
      );
      return HttpResponse.json({ message: `Connection "${row.name}" saved`, data: row });
    }),
    http.post(`${API}/connection/:id/configure`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      const result = api.tests[row.id] ?? {
        ok: true,
        latencyMs: 42,
        detail: 'PostgreSQL 16.4',
        message: null,
        testedAt: '2026-11-22T09:00:00.000Z',
      };
      Object.assign(row, {
        lastTestOk: result.ok,
        lastTestLatencyMs: result.latencyMs,
        lastTestMessage: result.message,
        lastTestedAt: result.testedAt,
      });
      return HttpResponse.json({ message: result.ok ? `Connection "${row.name}" works` : `Connection "${row.name}" failed`, data: result });
    }),
    http.get(`${API}/connection/:id/endpoints`, ({ params }) => {
      const answer = api.endpoints[String(params.id)] ?? [];
      if (!Array.isArray(answer)) return HttpResponse.json({ message: answer.message }, { status: answer.status });
      return HttpResponse.json({ message: 'Endpoints', data: answer });
    }),
    http.get(`${API}/connection/:id/source/destination`, ({ params }) =>
      HttpResponse.json({
        message: 'Pairs',
        data: api.pairs.filter((candidate) => candidate.sourceId === params.id || candidate.destinationId === params.id),
      }),
    ),
    http.get(`${API}/active/source/destination`, () =>
      HttpResponse.json({
        message: 'Active pairs',
        data: api.pairs.filter(
          (candidate) => candidate.isActive && find(candidate.sourceId)?.isActive && find(candidate.destinationId)?.isActive,
        ),
      }),
    ),
    http.put(`${API}/source/destination/:id`, async ({ params, request }) => {
      const body = (await request.json()) as { name?: string; sourceId: string; destinationId: string; isActive?: boolean };
      const existing = api.pairs.find((candidate) => candidate.id === params.id);
      if (existing) {
        Object.assign(existing, body);
        return HttpResponse.json({ message: `Pair "${existing.name}" saved`, data: existing });
      }
      const created = pair({
        id: String(params.id),
        name: body.name ?? '',
        sourceId: body.sourceId,
        sourceName: nameOf(body.sourceId),
        destinationId: body.destinationId,
        destinationName: nameOf(body.destinationId),
        isActive: body.isActive ?? true,
      });
      api.pairs.push(created);
      return HttpResponse.json({ message: `Pair "${created.name}" created`, data: created }, { status: 201 });
    }),
    http.delete(`${API}/source/destination/:id`, ({ params }) => {
      const existing = api.pairs.find((candidate) => candidate.id === params.id);
      if (!existing) return HttpResponse.json({ message: 'Pair not found' }, { status: 404 });
      api.pairs = api.pairs.filter((candidate) => candidate !== existing);
      return HttpResponse.json({ message: `Pair "${existing.name}" deleted` });
    }),
    http.get(`${API}/workspaces/active`, () =>
      HttpResponse.json({
        message: 'Active workspaces',
        data: [
          { id: FINANCE, name: 'Finance' },
          { id: MARKETING, name: 'Marketing' },
        ],
      }),
    ),
  );
  return api;
}
