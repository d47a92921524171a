import { workflowsContract, type WorkflowDestinationRows } from '../../../../common/contract/workflows';
import type { Connection } from '../../../../resources/connections/types';
import type { DataTable } from '../../../../resources/tables/types';
import type { ColumnChoice, GitRepository, Workflow, WorkflowCheck } from '../../../../resources/workflows/types';
import { answered, contractFake, type ContractFake } from '../../contractFake';
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

export interface WorkflowsApi extends ContractFake<Workflow> {
  /** What `POST /workflow/configure/{id}` answers. */
  check: WorkflowCheck;
  /** The columns `GET /workflow/connection/columns/{id}?table=` answers, by table. */
  columns: Record<string, ColumnChoice[]>;
  /** What `GET /workflow/destinationRows/{id}` answers. */
  destinationRows: WorkflowDestinationRows['tables'];
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
const named = (row: Workflow, what: string) => `Workflow "${row.name}" ${what}`;

/**
 * A server honouring the workflows contract (docs/api/workflows.md) over in-memory rows, newest
 * first, with the repository listing, the check and the run beside it; a run it queues joins
 * `runs` (the run tracker's fake), so that the run's page finds it.
 */
export function workflowsApi(initial: Workflow[] = workflows(), runs?: RunsApi): WorkflowsApi {
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => answered('Workflow not found', undefined, 404);
  /** The connections a workflow copies between: its pair's. */
  const connectionsOf = (row: Workflow) =>
    PAIRS.filter((entry) => entry.id === row.pairId).flatMap((entry) => [entry.sourceId, entry.destinationId]);
  const api: WorkflowsApi = Object.assign(
    contractFake<Workflow>(workflowsContract, initial, {
      created: (body) =>
        workflow({
          ...(body as Partial<Workflow>),
          id: 'f0000000-0000-4000-8000-0000000000a1',
          name: String(body.name),
          createdAt: '2026-11-22T09:00:00.000Z',
          updatedAt: '2026-11-22T09:00:00.000Z',
        }),
      searchIn: ['name', 'description'],
      filterBy: {
        workspace: (row, wanted) => anyOf(wanted).includes(String(row.workspaceId)),
        connection: (row, wanted) => anyOf(wanted).some((id) => connectionsOf(row).includes(id)),
      },
      filterProps: {
        connection: [
          { id: PG, name: 'Warehouse' },
          { id: S3, name: 'Lake' },
        ],
        user: [{ id: 'u-admin', name: 'Ada Admin' }],
        workspace: [{ id: FINANCE, name: 'Finance' }],
      },
      cards: (rows) => ({
        cards: [
          { key: 'total', label: 'Workflows', value: rows.length },
          { key: 'failedToday', label: 'Failed today', value: 1, link: '/job-runs' },
        ],
      }),
      messages: {
        one: () => 'Workflow',
        create: (row) => named(row, 'created'),
        update: (row) => named(row, 'saved'),
        activate: (row) => named(row, 'activated'),
        deactivate: (row) => named(row, 'deactivated'),
      },
      more: {
        'GET /workflow/connection/gitRepo/{id}?ref={ref}': (values) => {
          const ref = values.ref || 'main';
          const repository = REPOSITORY[ref];
          return repository
            ? answered(`${repository.files.length} files at ${ref}`, repository)
            : answered(`ref: no branch, tag or commit "${ref}"`, undefined, 400);
        },
        'GET /workflow/connection/columns/{id}?table={table}': ({ table }) =>
          api.columns[String(table)]
            ? answered(`${api.columns[String(table)]!.length} columns of ${table}`, { table, columns: api.columns[String(table)] })
            : answered(`The table ${table} does not exist`, undefined, 404),
        'GET /workflow/destinationRows/{id}': ({ id }) =>
          find(id) ? answered('Rows of the destination tables', { tables: api.destinationRows }) : notFound(),
        'POST /workflow/configure/{id}': () =>
          answered(api.check.ok ? 'Nothing to fix' : `${api.check.problems.length} problems`, api.check),
        'POST /workflow/run/{jobId}': ({ jobId }) => {
          const row = find(jobId);
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
          return answered(named(row, 'queued'), run, 202);
        },
      },
    }),
    { check: { ok: true, problems: [] } as WorkflowCheck, columns: {}, destinationRows: [] },
  );
  return api;
}
