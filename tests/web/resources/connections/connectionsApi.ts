import { connectionsContract } from '../../../../common/contract/connections';
import type { Connection, ConnectionTestResult, Endpoint, Integration, Pair } from '../../../../resources/connections/types';
import { answered, contractFake, type ContractFake } from '../../contractFake';

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

const TYPE_LABELS: Record<string, string> = {
  postgresql: 'PostgreSQL',
  s3: 'S3-compatible storage',
  slack: 'Slack',
  files: 'Folder of files',
  embedded: 'Embedded database',
};

export interface ConnectionsApi extends ContractFake<Connection> {
  pairs: Pair[];
  /** What `configure` answers per connection (default: OK in 42 ms). */
  tests: Record<string, ConnectionTestResult>;
  /** What `endpoints` answers per connection: a list, or a failure in the source's words. */
  endpoints: Record<string, Endpoint[] | { status: number; message: string }>;
  integrations: { slack: Integration; bitbucket: Integration };
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
const named = (row: Connection, what: string) => `Connection "${row.name}" ${what}`;
/** The settings the server keeps as secrets: never answered, only named in `secretsSet`. */
const SECRET = /password|secret|token|webhook/i;

/**
 * A server honouring the connections contract (docs/api/connections.md) over in-memory rows,
 * with a connection's test, its endpoints, the integrations, and the source/destination pairs
 * beside it.
 */
export function connectionsApi(initial: Connection[] = connections(), initialPairs?: Pair[]): ConnectionsApi {
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => answered('Connection not found', undefined, 404);
  const nameOf = (id: string) => find(id)?.name ?? id;
  const api: ConnectionsApi = Object.assign(
    contractFake<Connection>(connectionsContract, initial, {
      created: (body) => {
        const settings = (body.settings ?? {}) as Record<string, unknown>;
        const type = body.type as Connection['type'];
        return connection({
          id: `c-new-${api.rows.length}`,
          name: String(body.name),
          type,
          typeLabel: TYPE_LABELS[type] ?? String(type),
          description: (body.description as string | undefined) ?? null,
          workspaceId: (body.workspaceId as string | undefined) ?? null,
          isSource: (body.isSource as boolean | undefined) ?? false,
          isDestination: (body.isDestination as boolean | undefined) ?? false,
          settings: Object.fromEntries(Object.entries(settings).filter(([key]) => !SECRET.test(key))),
          secretsSet: Object.keys(settings).filter((key) => SECRET.test(key)),
          createdAt: '2026-11-22T08:00:00.000Z',
        });
      },
      // A new password is kept, never answered.
      applied: (body) =>
        body.settings
          ? {
              ...body,
              settings: Object.fromEntries(Object.entries(body.settings as Record<string, unknown>).filter(([key]) => key !== 'password')),
            }
          : body,
      searchIn: ['name'],
      filterBy: {
        source: (row, wanted) => anyOf(wanted).includes(String(row.isSource)),
        destination: (row, wanted) => anyOf(wanted).includes(String(row.isDestination)),
        workspace: (row, wanted) => anyOf(wanted).includes(String(row.workspaceId)),
        user: (row, wanted) => anyOf(wanted).includes(String(row.createdBy)),
        status: (row, wanted) => anyOf(wanted).includes(row.isActive ? 'active' : 'inactive'),
      },
      filterProps: {
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
      cards: (rows) => ({
        cards: [
          { key: 'total', label: 'Connections', value: rows.length },
          { key: 'failing', label: 'Failing', value: rows.filter((row) => row.lastTestOk === false).length },
          { key: 'pairs', label: 'Pairs', value: api.pairs.length },
        ],
      }),
      messages: {
        one: () => 'Connection',
        create: (row) => named(row, 'created'),
        update: (row) => named(row, 'saved'),
        activate: (row) => named(row, 'activated'),
        deactivate: (row) => named(row, 'deactivated'),
      },
      more: {
        'GET /connection/slack/integration': () => answered('Slack integration', api.integrations.slack),
        'GET /connection/bitbucket/integration': () => answered('Code integrations', api.integrations.bitbucket),
        'POST /connection/{id}/configure': ({ id }) => {
          const row = find(id);
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
          return answered(named(row, result.ok ? 'works' : 'failed'), result);
        },
        'GET /connection/{id}/endpoints': ({ id }) => {
          const answer = api.endpoints[String(id)] ?? [];
          return Array.isArray(answer) ? answered('Endpoints', answer) : answered(answer.message, undefined, answer.status);
        },
        // The pairs: one connection's, the active ones, and their changes.
        'GET /connection/{id}/source/destination': ({ id }) =>
          answered(
            'Pairs',
            api.pairs.filter((candidate) => candidate.sourceId === id || candidate.destinationId === id),
          ),
        'GET /active/source/destination': () =>
          answered(
            'Active pairs',
            api.pairs.filter(
              (candidate) => candidate.isActive && find(candidate.sourceId)?.isActive && find(candidate.destinationId)?.isActive,
            ),
          ),
        'PUT /source/destination/{id}': ({ id }, body) => {
          const existing = api.pairs.find((candidate) => candidate.id === id);
          if (existing) {
            Object.assign(existing, body);
            return answered(`Pair "${existing.name}" saved`, existing);
          }
          const created = pair({
            id: String(id),
            name: String(body.name ?? ''),
            sourceId: String(body.sourceId),
            sourceName: nameOf(String(body.sourceId)),
            destinationId: String(body.destinationId),
            destinationName: nameOf(String(body.destinationId)),
            isActive: (body.isActive as boolean | undefined) ?? true,
          });
          api.pairs.push(created);
          return answered(`Pair "${created.name}" created`, created, 201);
        },
        'DELETE /source/destination/{id}': ({ id }) => {
          const existing = api.pairs.find((candidate) => candidate.id === id);
          if (!existing) return answered('Pair not found', undefined, 404);
          api.pairs = api.pairs.filter((candidate) => candidate !== existing);
          return answered(`Pair "${existing.name}" deleted`);
        },
        'GET /workspaces/active': () =>
          answered('Active workspaces', [
            { id: FINANCE, name: 'Finance' },
            { id: MARKETING, name: 'Marketing' },
          ]),
      },
    }),
    {
      pairs: initialPairs ?? [
        pair({ id: 'p-1', name: 'Warehouse to lake', sourceId: PG, sourceName: 'Warehouse', destinationId: S3, destinationName: 'Lake' }),
      ],
      tests: {} as ConnectionsApi['tests'],
      endpoints: { [PG]: ENDPOINTS } as ConnectionsApi['endpoints'],
      integrations: {
        slack: {
          configured: true,
          active: true,
          connections: [{ id: SLACK, name: 'Alerts', isActive: true, lastTestOk: null, lastTestedAt: null }],
        },
        bitbucket: { configured: false, active: false, connections: [] },
      } as ConnectionsApi['integrations'],
    },
  );
  return api;
}
