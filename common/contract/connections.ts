import { z } from 'zod';
import { CONNECTION_TYPES, type ConnectionCategory, type EndpointKind } from '../connections';
import { testConnectionBody } from '../schemas/connections';
import { answer, card, choice, timestamp } from './answers';
import { defineAction, defineContract, everyAction } from './define';

/** Connections and the pairs made of them are guarded together. */
export const connectionsPolicy = everyAction('connections', 'Connections and source/destination pairs', 4);

/** The kinds of connection type (a type's `category` in common/connections.ts). */
export const CONNECTION_CATEGORIES = ['database', 'storage', 'compute', 'chat', 'code'] as const satisfies readonly ConnectionCategory[];

/** What a connection's endpoints are (a type's `endpointKind` in common/connections.ts). */
export const ENDPOINT_KINDS = ['table', 'file', 'channel', 'repository', 'branch'] as const satisfies readonly EndpointKind[];

/** A connection as the lists, `GET /connection/{id}` and the changes answer it (docs/api/connections.md): secrets never. */
export const connectionRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Set when it is made; it never changes. */
  type: z.enum(CONNECTION_TYPES),
  /** The type's name as people read it (`PostgreSQL`). */
  typeLabel: z.string(),
  category: z.enum(CONNECTION_CATEGORIES),
  /** It may be the source of a pair. */
  isSource: z.boolean(),
  /** It may be the destination of a pair. */
  isDestination: z.boolean(),
  workspaceId: z.string().nullable(),
  /** Null when it has no workspace, or its workspace was deleted. */
  workspaceName: z.string().nullable(),
  /** The plain settings its type declares (host, bucket, path…); secret settings are never answered. */
  settings: z.record(z.string(), z.unknown()),
  /** The keys of the secret settings that hold a stored value (never their values), sorted. */
  secretsSet: z.array(z.string()),
  isActive: z.boolean(),
  /** The last test of the stored settings (`POST /connection/{id}/configure`): when, whether it worked, how long it took, what it said. Null until tested. */
  lastTestedAt: timestamp.nullable(),
  lastTestOk: z.boolean().nullable(),
  lastTestLatencyMs: z.number().int().nullable(),
  lastTestMessage: z.string().nullable(),
  /** The source/destination pairs it is in. */
  pairCount: z.number().int(),
  /** The tables registered from it. */
  tableCount: z.number().int(),
  createdBy: z.string().nullable(),
  /** The creator's name, else their email; null when the creator is gone. */
  createdByName: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Connection = z.infer<typeof connectionRow>;

/** `GET /connections/filters`: the choices of the filter bar. */
export const connectionFilterPropsAnswer = answer(
  z.object({
    /** `true` and `false`. */
    source: z.array(choice),
    /** `true` and `false`. */
    destination: z.array(choice),
    /** The users who made a connection. */
    user: z.array(choice),
    workspace: z.array(choice),
    /** The types the company has connections of. */
    type: z.array(choice),
    /** `active`, `inactive`, `failing` (last test failed), `untested`. */
    status: z.array(choice),
  }),
);

/** `GET /connections/topCards`: `total`, `active`, `sources`, `destinations`, `failing`, `pairs`. */
export const connectionCardsAnswer = answer(z.object({ cards: z.array(card) }));

/** `POST /connection/{id}/configure`: a test's outcome; a failure is still an answer, with `ok: false`. */
export const connectionTestResult = z.object({
  ok: z.boolean(),
  /** How long connecting took; null when it failed. */
  latencyMs: z.number().nullable(),
  /** What the source says of itself (a version, an account, a count of files); empty when it failed. */
  detail: z.string(),
  /** `Connected in … ms`, or why it failed in the source's own words. */
  message: z.string(),
  testedAt: timestamp,
});
export type ConnectionTestResult = z.infer<typeof connectionTestResult>;

/** One thing a connection reaches (`GET /connection/{id}/endpoints`), discovered live. */
export const connectionEndpoint = z.object({
  /** The stable reference a table is registered by: `schema.table`, a file's path, a channel id, a repository slug, a branch name. */
  id: z.string(),
  /** What a person reads. */
  name: z.string(),
  kind: z.enum(ENDPOINT_KINDS),
  /** The schema (tables), the folder (files), the project (repositories), `public` or `private` (channels). */
  group: z.string().optional(),
  /** For tables `table` or `view`; for files `csv` or `parquet`. */
  format: z.string().optional(),
  /** Bytes, for files. */
  size: z.number().optional(),
  /** A row estimate, where the source keeps one. */
  rows: z.number().optional(),
});
export type ConnectionEndpoint = z.infer<typeof connectionEndpoint>;

const integrationConnection = connectionRow.pick({ id: true, name: true, isActive: true, lastTestOk: true, lastTestedAt: true });

/** `GET /connection/slack/integration`: the company's Slack connections, by name. */
export const slackIntegration = z.object({
  /** It has at least one. */
  configured: z.boolean(),
  /** At least one is active. */
  active: z.boolean(),
  connections: z.array(
    integrationConnection.extend({
      /** How it posts: an incoming webhook or a bot token. */
      mode: z.enum(['webhook', 'bot']),
      /** The default channel of a bot. */
      channel: z.string().nullable(),
    }),
  ),
});

/** `GET /connection/bitbucket/integration`: the company's Bitbucket and git connections, by name. */
export const codeRepositoryIntegration = z.object({
  configured: z.boolean(),
  active: z.boolean(),
  connections: z.array(
    integrationConnection.extend({
      type: z.enum(['bitbucket', 'git']),
      /** A Bitbucket connection's workspace. */
      workspace: z.string().nullable(),
      /** A git connection's repository URL or path. */
      url: z.string().nullable(),
    }),
  ),
});

export const connectionsContract = defineContract({
  name: 'connections',
  row: connectionRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'name', type: 'text', sortable: true },
    { source: 'isSource', type: 'boolean', sortable: true },
    { source: 'isDestination', type: 'boolean', sortable: true },
    { source: 'isActive', type: 'boolean', sortable: true },
    { source: 'lastTestedAt', type: 'datetime', sortable: true },
  ],
  routes: {
    list: '/connections/{offset}/{limit}',
    filter: { path: '/connections/filter/{offset}/{limit}?sort={field}&order={order}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/connections/filters',
    cards: '/connections/topCards',
    search: '/connections/search/{offset}/{limit}?searchText={search}',
    one: '/connection/{id}',
    create: '/connections',
    update: '/connection/{id}',
    activate: { path: '/connections/activate/{id}', body: { isActive: true } },
    deactivate: { path: '/connections/activate/{id}', body: { isActive: false } },
  },
  policy: connectionsPolicy,
  page: { id: 'connections', title: 'Connections', url: '/connections', group: 'data', icon: 'cable', order: 2 },
  audit: { model: 'connection' },
  activation: { field: 'isActive' },
  actions: {
    test: defineAction({
      path: '/connection/{id}/configure',
      method: 'POST',
      summary: 'Test a connection for real (stored settings, or given ones without saving)',
      body: testConnectionBody,
      data: connectionTestResult,
    }),
    endpoints: defineAction({
      path: '/connection/{id}/endpoints',
      method: 'GET',
      summary: 'What the connection reaches, discovered now',
      data: z.array(connectionEndpoint),
    }),
    slackIntegration: defineAction({
      path: '/connection/slack/integration',
      method: 'GET',
      summary: 'The Slack integration',
      data: slackIntegration,
    }),
    codeIntegration: defineAction({
      path: '/connection/bitbucket/integration',
      method: 'GET',
      summary: 'The code-repository integration',
      data: codeRepositoryIntegration,
    }),
  },
});
