import { z } from 'zod';
import { COPY_MODES, RUN_STATUSES } from '../schemas/workflows';
import { answer, card, choice, timestamp } from './answers';
import { defineAction, defineContract, everyAction } from './define';

/** Workflows and their runs are guarded together. */
export const workflowsPolicy = everyAction('workflows', 'Workflows and their runs', 6);

/** Who runs a workflow's runs: the local runner, or a Databricks job when it is bound to a Databricks connection. */
export const WORKFLOW_ENGINES = ['local', 'databricks'] as const;

const taskFields = {
  /** Unique in the workflow; a run's steps name their task by it. */
  id: z.string(),
  /** Unique in the workflow, whatever the case. */
  name: z.string(),
};

/** A task as stored and answered: as the body gave it (common/schemas/workflows.ts checks it). */
export const workflowTaskRow = z.discriminatedUnion('type', [
  z.object({
    ...taskFields,
    type: z.literal('copy'),
    /** The source table, or a query on the source. */
    from: z.union([z.object({ table: z.string() }), z.object({ query: z.string() })]),
    /** `merge` upserts by `keys` (source columns; the destination gets a unique key on exactly them). */
    to: z.object({ table: z.string(), mode: z.enum(COPY_MODES), keys: z.array(z.string()).optional() }),
    /** A source column that only grows: each run reads the rows above the last successful run's greatest value (an incremental copy). */
    watermark: z.string().optional(),
    batchSize: z.number().int().optional(),
  }),
  z.object({
    ...taskFields,
    type: z.literal('sql'),
    /** A .sql file of the workflow's repository. */
    path: z.string(),
    /** A branch, tag or commit; the default branch when absent. */
    ref: z.string().optional(),
    target: z.enum(['destination', 'source']).optional(),
  }),
  z.object({ ...taskFields, type: z.literal('quality'), tableIds: z.array(z.string()) }),
  z.object({
    ...taskFields,
    type: z.literal('notify'),
    message: z.string(),
    /** As the body gave it: an id, or empty or null for none. */
    slackConnectionId: z.string().nullable().optional(),
    emails: z.array(z.string()).optional(),
  }),
]);

/** A workflow as the lists, `GET /workflow/{id}` and the changes answer it (docs/api/workflows.md). */
export const workflowRow = z.object({
  id: z.string(),
  /** The id to run it by (`POST /workflow/run/{jobId}`): its id. */
  jobId: z.string(),
  name: z.string(),
  description: z.string(),
  workspaceId: z.string().nullable(),
  /** Null when it has no workspace, or its workspace was deleted. */
  workspaceName: z.string().nullable(),
  /** The source/destination pair it copies from and to. */
  pairId: z.string(),
  /** The pair's name and connections; null when the pair is gone. */
  pairName: z.string().nullable(),
  sourceId: z.string().nullable(),
  sourceName: z.string().nullable(),
  destinationId: z.string().nullable(),
  destinationName: z.string().nullable(),
  /** The git or Bitbucket connection its `sql` tasks read files from. */
  repositoryConnectionId: z.string().nullable(),
  /** Set when it runs as a Databricks job. */
  databricksConnectionId: z.string().nullable(),
  databricksJobId: z.string().nullable(),
  engine: z.enum(WORKFLOW_ENGINES),
  tasks: z.array(workflowTaskRow),
  /** When it runs by itself: a five-field cron expression in an IANA time zone; null when only run on demand. */
  schedule: z.object({ cron: z.string(), timezone: z.string() }).nullable(),
  /** How often a failed run is tried again, waiting `backoffSeconds` doubled at each try. */
  retries: z.object({ max: z.number().int(), backoffSeconds: z.number().int() }),
  timeoutMinutes: z.number().int(),
  /** How many of its runs may run at once. */
  concurrency: z.number().int(),
  /** Who hears of a failed run: the owner in the console, a Slack connection, email addresses. */
  notifyOnFailure: z.object({
    inApp: z.boolean(),
    slackConnectionId: z.string().nullable().optional(),
    emails: z.array(z.string()).optional(),
  }),
  /** A deactivated workflow is not scheduled and cannot be run. */
  isActive: z.boolean(),
  /** Its newest run; null when it never ran. */
  lastRun: z.object({ id: z.string(), status: z.enum(RUN_STATUSES), queuedAt: timestamp, endedAt: timestamp.nullable() }).nullable(),
  /** When its schedule runs it next; null when it has none or is deactivated. */
  nextRunAt: timestamp.nullable(),
  createdBy: z.string().nullable(),
  /** The creator's name, else their email; null when the creator is gone. */
  createdByName: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Workflow = z.infer<typeof workflowRow>;

/** `GET /filters/workflow`: the connections of its pairs, the users who made one, the workspaces. */
export const workflowFilterPropsAnswer = answer(
  z.object({ connection: z.array(choice), user: z.array(choice), workspace: z.array(choice) }),
);

/** `GET /workflow/topCards`: `total`, `active`, `scheduled`, `runsToday`, `failedToday`, `running`. */
export const workflowCardsAnswer = answer(z.object({ cards: z.array(card) }));

/** `POST /workflow/configure/{id}`: what checking the workflow against what it names found, without running it. */
export const workflowCheck = z.object({
  /** No problem found. */
  ok: z.boolean(),
  /** Each with the name of the task it is about; null for the workflow's pair. */
  problems: z.array(z.object({ task: z.string().nullable(), message: z.string() })),
});
export type WorkflowCheck = z.infer<typeof workflowCheck>;

/** `GET /workflow/connection/gitRepo/{id}`: a repository's branches, and its files at a ref. */
export const gitRepositoryListing = z.object({
  /** Null when the repository has none (or no branch yet). */
  defaultBranch: z.string().nullable(),
  /** Each branch and the commit it points at. */
  branches: z.array(z.object({ name: z.string(), commit: z.string() })),
  /** The ref listed (the one asked, else the default branch); null when the repository has no branch yet. */
  ref: z.string().nullable(),
  /** The commit `ref` resolved to. */
  commit: z.string().nullable(),
  /** The files' paths under the path asked (for Bitbucket, starting with the repository's name). */
  files: z.array(z.string()),
});
export type GitRepositoryListing = z.infer<typeof gitRepositoryListing>;

/** `GET /workflow/connection/columns/{id}?table=`: a table's columns as the connection describes them now (a copy's key and watermark are picked among them). */
export const connectionTableColumns = z.object({
  table: z.string(),
  columns: z.array(z.object({ name: z.string(), dataType: z.string() })),
});
export type ConnectionTableColumns = z.infer<typeof connectionTableColumns>;

/** Counted up to this many rows: enough to warn before an append, without reading a huge table whole. */
export const DESTINATION_ROWS_COUNTED = 1_000_000;

/**
 * `GET /workflow/destinationRows/{id}`: how many rows the destination tables of the workflow's
 * `append` copies hold now (the console asks before a run that may repeat them).
 */
export const workflowDestinationRows = z.object({
  tables: z.array(
    z.object({
      /** The task's name. */
      task: z.string(),
      table: z.string(),
      /** 0 when the table does not exist yet; null when the destination could not say. */
      rows: z.number().int().nullable(),
      /** The table holds more than `rows` (counting stops at DESTINATION_ROWS_COUNTED). */
      more: z.boolean(),
    }),
  ),
});
export type WorkflowDestinationRows = z.infer<typeof workflowDestinationRows>;

export const workflowsContract = defineContract({
  name: 'workflows',
  row: workflowRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'name', type: 'text', sortable: true },
    { source: 'engine', type: 'text', sortable: true },
    { source: 'isActive', type: 'boolean', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true },
  ],
  routes: {
    list: '/workflow/{offset}/{limit}',
    filter: { path: '/workflow/filter/{offset}/{limit}?sort={field}&order={order}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/filters/workflow',
    cards: '/workflow/topCards',
    search: '/workflow/search/{offset}/{limit}?searchText={search}',
    one: '/workflow/{id}',
    create: '/workflow',
    update: '/workflow/{id}',
    activate: { path: '/workflow/activate/{id}', method: 'POST', body: { isActive: true } },
    deactivate: { path: '/workflow/activate/{id}', method: 'POST', body: { isActive: false } },
  },
  policy: workflowsPolicy,
  page: { id: 'workflows', title: 'Workflows', url: '/workflows', group: 'data', icon: 'account_tree', order: 5 },
  audit: { model: 'workflow' },
  activation: { field: 'isActive' },
  actions: {
    check: defineAction({
      path: '/workflow/configure/{id}',
      method: 'POST',
      summary: 'Check a workflow against what it names, without running it',
      data: workflowCheck,
    }),
    /** A git or Bitbucket connection's repository, at a `ref` (else the default branch), under a `path`. */
    gitRepository: defineAction({
      path: '/workflow/connection/gitRepo/{id}',
      method: 'GET',
      summary: "The branches and files of a connection's repository",
      query: z.object({ ref: z.string().max(200).optional(), path: z.string().max(500).optional() }),
      data: gitRepositoryListing,
    }),
    /** The columns of a table of a connection of the company: what a copy's key and watermark columns are picked from. */
    tableColumns: defineAction({
      path: '/workflow/connection/columns/{id}',
      method: 'GET',
      summary: "The columns of a connection's table",
      query: z.object({ table: z.string().min(1).max(300) }),
      data: connectionTableColumns,
    }),
    /** Read-only: what the workflow's append copies would add to. */
    destinationRows: defineAction({
      path: '/workflow/destinationRows/{id}',
      method: 'GET',
      summary: 'How many rows the destination tables of its append copies hold',
      data: workflowDestinationRows,
    }),
  },
});
