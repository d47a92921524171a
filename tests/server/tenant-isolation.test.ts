import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import git from 'isomorphic-git';
import type { LightMyRequestResponse } from 'fastify';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, createOtherCompany, sessionIdOf, signInAdmin, userWithPolicies } from './helpers';
import { POLICY_RESOURCES } from '../../server/auth/policies';
import { collectRouteTable, fieldsOf, fillPath, type RouteEntry } from './route-table';
import { checkoutSessions, mailOutbox, notifications, qualityRuns, subscriptions, users } from '../../server/db/schema';
import { isTableSource } from '../../server/connectors/types';

/**
 * Tenant isolation over the whole API: every route of the server's own route table that names a
 * record (in its path, query or body) is called by company A's admin with the id of company B's
 * record. The answer must be the one a missing record gets (404 for a record the route acts on),
 * and nothing of B may change. A route the test does not know fails the test until it is listed.
 */

// ---- What each company holds ------------------------------------------------------------------

/** The kinds of record a route can name, one of each made in every company. */
const KINDS = [
  'user',
  'role',
  'workspace',
  'apiKey',
  'connection',
  'destination',
  'gitConnection',
  'pair',
  'table',
  'rule',
  'workflow',
  'run',
  'report',
  'attachment',
  'mail',
  'notification',
  'session',
  'customer',
  'checkoutSession',
  'qualityRun',
  'savedView',
] as const;
type Kind = (typeof KINDS)[number];
type Records = Record<Kind, string>;

interface Company {
  hostname: string;
  companyId: string;
  adminUserId: string;
  adminToken: string;
  records: Records;
  /** The member's username, unique within the company only. */
  username: string;
}

// ---- How each route is called -------------------------------------------------------------------

/** Values of path parameters that name no record. */
const PLAIN_PARAMS: Record<string, (route: RouteEntry) => string> = {
  offset: () => '0',
  limit: () => '10',
  order: () => 'desc',
  field: (route) => firstChoice(route, 'field'),
  days: () => '7',
  // A list of the console, the same for every company: the views kept of it are the caller's own.
  listKey: () => 'users',
};

interface RecordCase {
  /** Which parameter names which kind of B's record. */
  params: Record<string, Kind>;
  /** A valid body for the route, built from the caller's own records. */
  body?: (own: Records) => unknown;
  /** A CSV sent as a multipart file. */
  upload?: string;
  /** The query the route needs besides its path's record. */
  query?: Record<string, string>;
  /**
   * 'empty': the route lists the children of the record and answers an unknown one with an empty
   * list, not a 404 (B's record must get exactly that answer). Otherwise a 404.
   */
  missing?: 'empty';
  /**
   * The route creates a record at an unknown id (PUT as upsert). Ids are keyed by company
   * (migration 0022), so B's id must get the very answer an unknown id gets, and B's record stay as it was.
   */
  createsAtUnknownId?: boolean;
  /** The call removes the caller's own record: run last among the calls on one's own records. */
  removes?: boolean;
}

const rename = { name: 'Renamed by another company' };
const deactivate = { isActive: false };
const someRule = { name: 'Ids are present', functionName: 'not_null', columnName: 'id' };
const somePolicies = { policies: [{ resource: 'users', actions: ['read'] }] };

/** Every route whose path names a record: the kind each parameter names, and a body. */
const RECORD_ROUTES: Record<string, RecordCase> = {
  'GET /users/:id': { params: { id: 'user' } },
  'DELETE /users/:id': { params: { id: 'user' }, removes: true },
  'PUT /user/profile/:id': { params: { id: 'user' }, body: () => ({ firstName: 'Renamed', isActive: false }) },
  'GET /user/avatar/:id': { params: { id: 'user' } },
  'PUT /user/mpin/create/:id': { params: { id: 'user' }, body: () => ({ mpin: '4321' }) },
  'GET /user/profile/cards/:userId/:days': { params: { userId: 'user' } },
  'GET /session/user/:id': { params: { id: 'user' } },
  'GET /authorization/policies/:userId': { params: { userId: 'user' } },
  'POST /authorization/policies/:userId': { params: { userId: 'user' }, body: () => somePolicies },

  'POST /user/:userId/otp/reset': { params: { userId: 'user' } },
  'DELETE /user/sessions/:id': { params: { id: 'session' }, removes: true },
  'DELETE /lists/:listKey/views/:id': { params: { id: 'savedView' }, removes: true },

  'GET /table/quality/runs/:id/:offset/:limit': { params: { id: 'table' } },
  'GET /table/quality/run/:id': { params: { id: 'qualityRun' } },
  'GET /table/quality/run/:id/failingRows/:ruleId/:offset/:limit': { params: { id: 'qualityRun', ruleId: 'rule' } },
  'GET /table/quality/run/:id/failingRows/:ruleId/csv': { params: { id: 'qualityRun', ruleId: 'rule' } },

  'GET /role/:id': { params: { id: 'role' } },
  'GET /roles/policy/:id': { params: { id: 'role' } },
  'GET /policies/:id': { params: { id: 'role' } },
  'GET /roles/policies/pages/:id': { params: { id: 'role' } },
  'PUT /roles/:id': { params: { id: 'role' }, body: () => rename },
  'PUT /roles/activate/:id': { params: { id: 'role' }, body: () => deactivate },
  'PUT /policies/assign/:id': { params: { id: 'role' }, body: () => somePolicies },
  'PUT /roles/policies/pages/assign/:id': { params: { id: 'role' }, body: () => ({ pageIds: ['users'] }) },
  'PUT /roles/policies/pages/unassign/:id': { params: { id: 'role' }, body: () => ({ pageIds: ['dashboard'] }) },
  'DELETE /roles/:id': { params: { id: 'role' }, removes: true },

  'PUT /workspace/:id': { params: { id: 'workspace' }, removes: true },
  'GET /connection/workspace/:id': { params: { id: 'workspace' }, missing: 'empty' },

  'GET /apikey/:id': { params: { id: 'apiKey' } },
  'PUT /apikey/:id': { params: { id: 'apiKey' }, body: () => rename },
  'PUT /apikey/activate/:id': { params: { id: 'apiKey' } },
  'PUT /apikey/deactivate/:id': { params: { id: 'apiKey' } },
  'POST /openapi/assign/:id': { params: { id: 'apiKey' }, body: () => ({ operations: ['get_users_offset_limit'] }) },
  'DELETE /apikey/:id': { params: { id: 'apiKey' }, removes: true },

  'GET /connection/:id': { params: { id: 'connection' } },
  'PUT /connection/:id': { params: { id: 'connection' }, body: () => ({ ...rename, description: 'Changed' }) },
  'POST /connection/:id/configure': { params: { id: 'connection' }, body: () => ({}) },
  'GET /connection/:id/endpoints': { params: { id: 'connection' } },
  'GET /connection/:id/source/destination': { params: { id: 'connection' } },
  'PUT /connections/activate/:id': { params: { id: 'connection' }, body: () => deactivate },
  'GET /table/connection/:id': { params: { id: 'connection' }, missing: 'empty' },
  'GET /workflow/connection/gitRepo/:id': { params: { id: 'gitConnection' } },
  'GET /workflow/connection/columns/:id': { params: { id: 'connection' }, query: { table: 'public.orders' } },

  'PUT /source/destination/:id': {
    params: { id: 'pair' },
    body: (own) => ({ sourceId: own.connection, destinationId: own.destination, name: 'Taken over' }),
    createsAtUnknownId: true,
  },
  'DELETE /source/destination/:id': { params: { id: 'pair' }, removes: true },

  'GET /table/:id': { params: { id: 'table' } },
  'PUT /table/:id': {
    params: { id: 'table' },
    body: () => ({ description: 'Changed', columns: [{ name: 'id', description: 'Changed' }] }),
  },
  'POST /table/activate/:id': { params: { id: 'table' }, body: () => deactivate },
  'POST /table/configure/:id': { params: { id: 'table' } },
  'POST /table/:id/configure': { params: { id: 'table' }, body: () => ({}) },
  'GET /table/dictionary/:id': { params: { id: 'table' } },
  'POST /tables/dictionary/upload/:id': { params: { id: 'table' }, upload: 'name,description\nid,Changed by upload\n' },
  'GET /tables/dataDictionary/tableId/:id/:offset/:limit': { params: { id: 'table' } },
  'GET /tables/dataDictionary/search/tableId/:id/:offset/:limit': { params: { id: 'table' } },
  'GET /table/dataQuality/:id/:offset/:limit': { params: { id: 'table' } },
  'GET /tables/dataQuality/search/tableId/:id/:offset/:limit': { params: { id: 'table' } },
  'POST /tables/dataQuality/filter/tableId/:id/:offset/:limit': { params: { id: 'table' }, body: () => ({}) },
  // POST names the table a rule is added to; DELETE names the rule itself.
  'POST /table/dataQuality/:id': { params: { id: 'table' }, body: () => someRule },
  'DELETE /table/dataQuality/:id': { params: { id: 'rule' }, removes: true },

  'GET /workflow/:id': { params: { id: 'workflow' } },
  'PUT /workflow/:id': { params: { id: 'workflow' }, body: () => ({ description: 'Changed' }) },
  'POST /workflow/activate/:id': { params: { id: 'workflow' }, body: () => deactivate },
  'POST /workflow/configure/:id': { params: { id: 'workflow' } },
  'GET /workflow/destinationRows/:id': { params: { id: 'workflow' } },
  'POST /workflow/run/:jobId': { params: { jobId: 'workflow' }, body: () => ({}) },
  'GET /jobRunTracker/:workflowId/:offset/:limit': { params: { workflowId: 'workflow' } },

  'GET /jobRunTracker/:id': { params: { id: 'run' } },
  'GET /jobRunTracker/:id/dataQuality': { params: { id: 'run' } },
  'GET /workflow/databricks/job/status/:id': { params: { id: 'run' } },
  'PUT /jobRunTracker/:id/cancel': { params: { id: 'run' } },

  'GET /reports/:id': { params: { id: 'report' } },
  'GET /reports/:id/attachments/:attachmentId': { params: { id: 'report', attachmentId: 'attachment' } },

  'GET /mail/outbox/:id': { params: { id: 'mail' } },
  'GET /subscription/customer/:id': { params: { id: 'customer' } },
};

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

interface PlainRoute {
  why: string;
  /** Values for its parameters when the route is read as a list. */
  values: Record<string, string>;
}

/** Routes whose path parameters name no record of a company, each with why. */
const NOT_RECORD_ROUTES: Record<string, PlainRoute> = {
  'GET /settings/:id': {
    why: 'a settings group ("service", "email") every company has: reading one gives the caller its own (tested below)',
    values: { id: 'service' },
  },
  'PUT /settings/:id': {
    why: "a settings group every company has: a change is the caller's own (tested below)",
    values: { id: 'service' },
  },
  'PUT /lists/:listKey/columns': { why: "a list of the console; the row is the caller's (tested below)", values: { listKey: 'users' } },
  'DELETE /lists/:listKey/columns': { why: "a list of the console; the row is the caller's (tested below)", values: { listKey: 'users' } },
  'GET /user/preferences/:key': { why: "a key of the caller's own preferences (tested below)", values: { key: 'theme' } },
  'PUT /user/preferences/:key': { why: "a key of the caller's own preferences (tested below)", values: { key: 'theme' } },
  'GET /client/checkDuplicateUserName/:name': {
    why: 'a username, unique within a company only (tested below)',
    values: { name: 'globex.member' },
  },
  'GET /users/username/check/:name': { why: 'a username, unique within a company only (tested below)', values: { name: 'globex.member' } },
  'GET /marketplace/:id/integration': {
    why: "an integration of the marketplace, the same for all; the connections it lists are the caller's (lists below)",
    values: { id: 'git' },
  },
  'GET /marketplace/active/cloudStorage/:id': {
    why: 'an integration of the marketplace, the same for all (lists below)',
    values: { id: 'all' },
  },
  'GET /openapi/:id': { why: 'an operation of this server, the same for all', values: { id: 'get_workspaces' } },
  'GET /dashboard/dailyJobRunTracker/:from/:to': { why: 'two dates (lists below)', values: { from: daysAgo(300), to: daysAgo(-1) } },
  'GET /notification/search/:offset/:limit/:searchText': { why: 'a search text (lists below)', values: { searchText: 'globex' } },
};

interface ReferenceCase {
  /** How the call is made, with B's record (or a missing one) in the field under test. */
  call: (own: Records, reference: string) => { path?: Record<string, string>; query?: Record<string, string>; body?: unknown };
  kind: Kind;
}

/**
 * Every query or body field that names a record ("METHOD url field"): the call with B's record
 * there must be answered as the call with a missing one (and change nothing of B's).
 */
const REFERENCE_FIELDS: Record<string, ReferenceCase> = {
  'GET /checkoutSession sessionId': { kind: 'checkoutSession', call: (_, ref) => ({ query: { sessionId: ref } }) },
  'GET /dataQuality/filters jobRunTrackerId': { kind: 'run', call: (_, ref) => ({ query: { jobRunTrackerId: ref } }) },
  'POST /dataQuality/filters jobRunTrackerId': { kind: 'run', call: (_, ref) => ({ query: { jobRunTrackerId: ref }, body: {} }) },
  'POST /jobRunTracker/filters workflowId': { kind: 'workflow', call: (_, ref) => ({ query: { workflowId: ref }, body: {} }) },
  'PUT /notification/count notificationId': { kind: 'notification', call: (_, ref) => ({ body: { notificationId: ref } }) },
  'PUT /session/logout sessionId': { kind: 'session', call: (_, ref) => ({ body: { sessionId: ref } }) },
  'POST /user/impersonate userId': { kind: 'user', call: (_, ref) => ({ body: { userId: ref } }) },
  'PUT /workspace id': { kind: 'workspace', call: (_, ref) => ({ body: { id: ref, name: 'Renamed by another company' } }) },
  'POST /apikey accessUserId': { kind: 'user', call: (_, ref) => ({ body: { name: 'Key of someone else', accessUserId: ref } }) },
  'PUT /apikey/:id accessUserId': { kind: 'user', call: (own, ref) => ({ path: { id: own.apiKey }, body: { accessUserId: ref } }) },
  'POST /client/createUser roleId': {
    kind: 'role',
    call: (_, ref) => ({
      body: { email: 'demo.other@acme.test', username: 'demo.other', firstName: 'Demo', password: 'Correct-horse-42', roleId: ref },
    }),
  },
  'POST /user roleId': { kind: 'role', call: (_, ref) => ({ body: { email: 'invited.other@acme.test', firstName: 'Ivy', roleId: ref } }) },
  'POST /user workspaceIds': {
    kind: 'workspace',
    call: (own, ref) => ({ body: { email: 'invited.other@acme.test', firstName: 'Ivy', roleId: own.role, workspaceIds: [ref] } }),
  },
  'PUT /user/profile/:id roleId': { kind: 'role', call: (own, ref) => ({ path: { id: own.user }, body: { roleId: ref } }) },
  'PUT /user/profile/:id workspaceIds': {
    kind: 'workspace',
    call: (own, ref) => ({ path: { id: own.user }, body: { workspaceIds: [ref] } }),
  },
  'POST /connections workspaceId': {
    kind: 'workspace',
    call: (_, ref) => ({ body: { name: 'Placed elsewhere', type: 'embedded', settings: { database: 'iso-unused' }, workspaceId: ref } }),
  },
  'PUT /connection/:id workspaceId': {
    kind: 'workspace',
    call: (own, ref) => ({ path: { id: own.connection }, body: { workspaceId: ref } }),
  },
  'POST /marketplace/configure workspaceId': {
    kind: 'workspace',
    call: (_, ref) => ({
      body: {
        integrationId: 'git',
        name: 'Placed elsewhere',
        settings: { url: 'https://git.example.test/team/sql.git' },
        workspaceId: ref,
      },
    }),
  },
  'PUT /source/destination/:id sourceId': {
    kind: 'connection',
    call: (own, ref) => ({ path: { id: freshPairId }, body: { sourceId: ref, destinationId: own.destination } }),
  },
  'PUT /source/destination/:id destinationId': {
    kind: 'destination',
    call: (own, ref) => ({ path: { id: freshPairId }, body: { sourceId: own.connection, destinationId: ref } }),
  },
  'POST /table connectionId': { kind: 'connection', call: (_, ref) => ({ body: { connectionId: ref, endpoint: 'public.customers' } }) },
  'POST /table workspaceId': {
    kind: 'workspace',
    call: (own, ref) => ({ body: { connectionId: own.connection, endpoint: 'public.customers', workspaceId: ref } }),
  },
  'PUT /table/:id workspaceId': { kind: 'workspace', call: (own, ref) => ({ path: { id: own.table }, body: { workspaceId: ref } }) },
  'POST /table/:id/configure ruleIds': { kind: 'rule', call: (own, ref) => ({ path: { id: own.table }, body: { ruleIds: [ref] } }) },
  'POST /table/dataQuality/:id id': { kind: 'rule', call: (own, ref) => ({ path: { id: own.table }, body: { ...someRule, id: ref } }) },
  'POST /tables/dataQuality/filter/tableId/:id/:offset/:limit tableId': {
    kind: 'table',
    call: (own, ref) => ({ path: { id: own.table, offset: '0', limit: '10' }, body: { tableId: ref } }),
  },
  'POST /shares reportId': { kind: 'report', call: (own, ref) => ({ body: { kind: 'report', reportId: ref, userIds: [own.user] } }) },
  'POST /shares userIds': { kind: 'user', call: (own, ref) => ({ body: { kind: 'report', reportId: own.report, userIds: [ref] } }) },
  'POST /reports recipients': { kind: 'user', call: (_, ref) => ({ body: { format: 'csv', recipients: [ref] } }) },
  ...Object.fromEntries(
    (['POST /workflow', 'PUT /workflow/:id'] as const).flatMap((route) => {
      const base = (own: Records) => ({
        path: route === 'PUT /workflow/:id' ? { id: own.workflow } : undefined,
        body: { name: `Referencing ${crypto.randomBytes(3).toString('hex')}`, pairId: own.pair, tasks: [noticeTask] },
      });
      const withField = (field: string, kind: Kind): [string, ReferenceCase] => [
        `${route} ${field}`,
        { kind, call: (own, ref) => ({ ...base(own), body: { ...base(own).body, [field]: ref } }) },
      ];
      return [
        withField('workspaceId', 'workspace'),
        withField('pairId', 'pair'),
        withField('repositoryConnectionId', 'gitConnection'),
        withField('databricksConnectionId', 'connection'),
      ];
    }),
  ),
};

/** Query and body fields named like ids that name no record of a company, each with why. */
const NOT_RECORD_FIELDS: Record<string, string> = {
  'POST /roles pageIds': 'pages of the console, the same for all',
  'PUT /roles/policies/pages/assign/:id pageIds': 'pages of the console, the same for all',
  'PUT /roles/policies/pages/unassign/:id pageIds': 'pages of the console, the same for all',
  'POST /marketplace/configure integrationId': 'an integration of the marketplace, the same for all',
  'POST /user/password/reset clientId': 'the one-time token of a reset link, not a record id',
  'POST /workflow databricksJobId': 'the number of a job on a Databricks workspace, not a record of this server',
  'PUT /workflow/:id databricksJobId': 'the number of a job on a Databricks workspace, not a record of this server',
  'POST /workflow/run/:jobId jobId': "the console's copy of the path's id; the handler reads the path's (covered above)",
  'GET /users/username/check/:name userId': "the account whose own name counts as free; the check reads the caller's company only",
};

const ID_FIELD = /(^id$|Id$|Ids$)/;
const noticeTask = { id: 'tell', name: 'Tell the team', type: 'notify', message: 'Checked' };

// ---- The server and the two companies --------------------------------------------------------------

let server: TestServer;
let routes: RouteEntry[];
let a: Company;
let b: Company;
/** The folder the operator grants (FILES_ROOTS): each company's repository sits in its own sub-folder. */
let grantedRoot: string;
let freshPairId: string;
/** The embedded database both companies' connections read (each opened database costs seconds). */
let database: string;

const key = (route: RouteEntry) => `${route.method} ${route.url}`;
const isPlain = (param: string) => param in PLAIN_PARAMS;

function firstChoice(route: RouteEntry, param: string): string {
  const schema = route.schema.params as { shape?: Record<string, { options?: string[] }> } | undefined;
  const choice = schema?.shape?.[param]?.options?.[0];
  if (!choice) throw new Error(`${key(route)}: no choices for :${param}`);
  return choice;
}

/** One call of a route as A's admin. */
interface Call {
  route: RouteEntry;
  path: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  upload?: string;
  /** A session token, or `{ apiKey }` to call with an API key. */
  token: string | { apiKey: string };
}

async function send({ route, path: values, query, body, upload, token }: Call): Promise<LightMyRequestResponse> {
  const credential = typeof token === 'string' ? { 'x-access-token': token } : { 'x-api-key': token.apiKey };
  const filled: Record<string, string> = { ...values };
  for (const param of route.pathParams) if (!(param in filled) && isPlain(param)) filled[param] = PLAIN_PARAMS[param](route);
  const url = `/api/v1${fillPath(route.url, filled)}${query ? `?${new URLSearchParams(query)}` : ''}`;
  if (upload !== undefined) {
    const form = new FormData();
    form.append('file', new Blob([upload], { type: 'text/csv' }), 'dictionary.csv');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    return server.app.inject({
      method: route.method,
      url,
      headers: { ...credential, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
  }
  return server.app.inject({ method: route.method, url, headers: credential, payload: body as never });
}

/** A call's answer with `id` written as `<id>`, to compare the answers to two different ids. */
const answerOf = (res: LightMyRequestResponse, id: string) => ({
  status: res.statusCode,
  message: (String(res.headers['content-type'] ?? '').includes('json') ? String(res.json().message ?? '') : '').split(id).join('<id>'),
});

/** B's ids and marker text found in an answer A got (the id A itself sent excepted). */
function leaksIn(text: string, sent?: string): string[] {
  const seen = sent ? text.split(sent).join('') : text;
  const found = allIds(b).filter((id) => seen.includes(id));
  if (/globex/i.test(seen)) found.push('the text "globex"');
  return found;
}

/** An id of the kind's shape that no record has. */
function missingIdOf(kind: Kind): string {
  const random = crypto.randomBytes(6).toString('hex');
  if (kind === 'customer') return `cus_missing${random}`;
  if (kind === 'checkoutSession') return `cs_missing${random}`;
  return crypto.randomUUID();
}

const allIds = (company: Company) => [company.companyId, company.adminUserId, ...Object.values(company.records)];

/**
 * Every route of RECORD_ROUTES called with B's record and with a missing id, as the caller: the
 * two answers must be the same — 404 (or the empty answer the route gives a missing record) —
 * and hold nothing of B's. `refusedAlike`: a caller that may not call a route at all (an admin-only
 * route for a member, a route no API key may call) may be refused instead, the same way both times.
 */
async function recordRouteProblems(
  token: Call['token'],
  options: { refusedAlike?: boolean } = {},
): Promise<string[] & { reached: number }> {
  const problems = Object.assign([] as string[], { reached: 0 });
  for (const route of routes) {
    const known = RECORD_ROUTES[key(route)];
    if (!known) continue;
    for (const [param, kind] of Object.entries(known.params)) {
      // The other record parameters of the route get A's own records.
      const own = Object.fromEntries(Object.entries(known.params).map(([p, k]) => [p, a.records[k]]));
      const request = (id: string): Call => ({
        route,
        path: { ...own, [param]: id },
        query: known.query,
        body: known.body?.(a.records),
        upload: known.upload,
        token,
      });
      const theirs = await send(request(b.records[kind]));
      const where = `${key(route)} with B's ${kind} as :${param}`;
      const leaks = leaksIn(theirs.body, b.records[kind]);
      if (leaks.length) problems.push(`${where}: the answer holds ${leaks.join(', ')}`);
      const missingId = missingIdOf(kind);
      const missing = await send(request(missingId));
      const refused = options.refusedAlike && theirs.statusCode === 403 && missing.statusCode === 403;
      const sameAnswer = JSON.stringify(answerOf(theirs, b.records[kind])) === JSON.stringify(answerOf(missing, missingId));
      if (refused && sameAnswer) continue;
      problems.reached += 1;
      if (known.createsAtUnknownId) {
        if (!sameAnswer) problems.push(`${where}: answered ${theirs.body.slice(0, 200)}, a missing one ${missing.body.slice(0, 200)}`);
        continue;
      }
      const expected = known.missing === 'empty' ? 200 : 404;
      if (theirs.statusCode !== expected) problems.push(`${where}: ${theirs.statusCode} ${theirs.body.slice(0, 200)}`);
      else if (!sameAnswer) problems.push(`${where}: answered ${theirs.body.slice(0, 200)}, a missing one ${missing.body.slice(0, 200)}`);
      else if (known.missing === 'empty' && JSON.stringify(theirs.json().data) !== '[]')
        problems.push(`${where}: answered ${theirs.body.slice(0, 200)}`);
    }
  }
  return problems;
}

// ---- Making the records --------------------------------------------------------------------------------

/**
 * Reads only: every GET without a record parameter, and the POST filters and searches; those
 * that need a record in their query are called with records elsewhere.
 */
function listReads(): RouteEntry[] {
  return routes.filter((route) => {
    if (route.config.public || route.config.stages) return false;
    if (route.pathParams.some((param) => !isPlain(param) && !NOT_RECORD_ROUTES[key(route)])) return false;
    if (route.schema.querystring && !route.schema.querystring.safeParse({}).success) return false;
    return route.method === 'GET' || (route.method === 'POST' && /\/(filter|filters|search)(\/|$)/.test(route.url));
  });
}

/** One of listReads' calls, its pages as long as they go, searching for `search` where it searches. */
function read(route: RouteEntry, token: string, search: string): Promise<LightMyRequestResponse> {
  const values: Record<string, string> = { ...NOT_RECORD_ROUTES[key(route)]?.values };
  for (const param of route.pathParams) if (isPlain(param)) values[param] = param === 'limit' ? '1000' : PLAIN_PARAMS[param](route);
  const query = fieldsOf(route.schema.querystring).includes('searchText') ? { searchText: search } : undefined;
  return send({ route, path: values, query, body: route.method === 'POST' ? {} : undefined, token });
}

async function ok(res: Promise<LightMyRequestResponse>, status = 201) {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json();
}

/** Fills an embedded database of the test process with two small tables. */
/** A repository of one file in the company's own sub-folder of the granted root. */
async function makeRepository(companyId: string): Promise<string> {
  const dir = path.join(grantedRoot, companyId, 'sql');
  fs.mkdirSync(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: 'main' });
  fs.writeFileSync(path.join(dir, 'daily.sql'), 'select 1;\n');
  await git.add({ fs, dir, filepath: 'daily.sql' });
  await git.commit({ fs, dir, message: 'first', author: { name: 'Data team', email: 'data@acme.test' } });
  return dir;
}

/** Each company's embedded database of that name is its own: both get the same tables and rows. */
async function fillDatabase(database: string, companyId: string) {
  const source = server.app.ctx.connectors.open({ companyId, type: 'embedded', settings: { database }, secrets: {} });
  if (!isTableSource(source)) throw new Error('an embedded database is a table source');
  try {
    for (const statement of [
      'create table public.orders (id int primary key, amount numeric)',
      'insert into public.orders values (1, 10), (2, 20)',
      'create table public.customers (id int primary key, email text)',
    ]) {
      await source.query(statement, [], { timeoutMs: 30_000 });
    }
  } finally {
    await source.close();
  }
}

async function runUntilEnded(token: string, workflowId: string): Promise<string> {
  const queued = await ok(call(server, 'POST', `/workflow/run/${workflowId}`, { token, body: {} }), 202);
  // The queue polls every few seconds on PostgreSQL; a loaded machine adds more.
  const deadline = Date.now() + 90_000;
  let status = queued.data.status;
  while (Date.now() < deadline) {
    const run = (await call(server, 'GET', `/jobRunTracker/${queued.data.id}`, { token })).json().data;
    status = run.status;
    if (!['queued', 'running'].includes(status)) return run.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the run did not end (still ${status})`);
}

/** One record of every kind, made through the API as the company's admin (and a few rows directly). */
/** One record of every kind for the company (`again`: a second set, beside its one subscription). */
async function seed(company: Omit<Company, 'records' | 'username'>, again = false): Promise<Company> {
  const token = company.adminToken;
  const tag = company.hostname;
  const label = tag.charAt(0).toUpperCase() + tag.slice(1);
  const role = (
    await ok(
      call(server, 'POST', '/roles', { token, body: { name: `${label} analysts`, policies: [{ resource: 'users', actions: ['read'] }] } }),
    )
  ).data.id;
  const workspace = (await ok(call(server, 'POST', '/workspaces', { token, body: { name: `${label} workspace` } }))).data.id;
  const member = await createActiveUser(server, token, { email: `member@${tag}.test`, roleId: role, firstName: `${label} member` });
  const username = `${tag}.member`;
  await ok(call(server, 'PUT', `/user/profile/${member.id}`, { token, body: { username, workspaceIds: [workspace] } }), 200);
  await server.db
    .update(users)
    .set({ avatar: Buffer.from(`${tag} avatar`), avatarType: 'image/png' })
    .where(and(eq(users.companyId, company.companyId), eq(users.id, member.id)));
  const apiKey = (await ok(call(server, 'POST', '/apikey', { token, body: { name: `${label} key`, operations: ['get_workspaces'] } }))).data
    .id;

  const connection = (
    await ok(
      call(server, 'POST', '/connections', {
        token,
        body: { name: `${label} shop`, type: 'embedded', workspaceId: workspace, settings: { database } },
      }),
    )
  ).data.id;
  const destination = (
    await ok(
      call(server, 'POST', '/connections', {
        token,
        body: { name: `${label} lake`, type: 'embedded', isSource: false, isDestination: true, settings: { database } },
      }),
    )
  ).data.id;
  const gitConnection = (
    await ok(
      call(server, 'POST', '/connections', {
        token,
        body: { name: `${label} repository`, type: 'git', settings: { url: await makeRepository(company.companyId) } },
      }),
    )
  ).data.id;
  const pair = crypto.randomUUID();
  await ok(call(server, 'PUT', `/source/destination/${pair}`, { token, body: { sourceId: connection, destinationId: destination } }));

  const table = (
    await ok(
      call(server, 'POST', '/table', { token, body: { connectionId: connection, endpoint: 'public.orders', workspaceId: workspace } }),
    )
  ).data.id;
  await ok(call(server, 'PUT', `/table/${table}`, { token, body: { columns: [{ name: 'amount', description: `${label} amount` }] } }), 200);
  const rule = (await ok(call(server, 'POST', `/table/dataQuality/${table}`, { token, body: { ...someRule, name: `${label} ids` } }))).data
    .id;

  const workflow = (
    await ok(
      call(server, 'POST', '/workflow', {
        token,
        body: {
          name: `${label} nightly`,
          pairId: pair,
          repositoryConnectionId: gitConnection,
          tasks: [{ id: 'check', name: 'Check orders', type: 'quality', tableIds: [table] }, noticeTask],
        },
      }),
    )
  ).data.id;
  const run = await runUntilEnded(token, workflow);

  const report = (await ok(call(server, 'POST', '/reports', { token, body: { format: 'csv', recipients: [member.id] } }))).data;
  await ok(
    call(server, 'POST', '/shares', {
      token,
      body: { kind: 'report', reportId: report.id, userIds: [member.id], message: `${label} share` },
    }),
  );
  await ok(call(server, 'PUT', '/settings/service', { token, body: { sessionLifetimeMinutes: tag === 'globex' ? 123 : 456 } }), 200);
  await ok(call(server, 'PUT', '/lists/users/columns', { token, body: { scope: 'tenant', hidden: [`${tag}Column`] } }), 200);
  await ok(call(server, 'PUT', '/user/preferences/theme', { token, body: { value: `${tag} theme` } }), 200);

  const [mail] = await server.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.companyId, company.companyId)).limit(1);
  const view = (await ok(call(server, 'POST', '/lists/users/views', { token, body: { name: `${label} view` } }))).data.id;
  const [qualityRun] = await server.db
    .select({ id: qualityRuns.id })
    .from(qualityRuns)
    .where(eq(qualityRuns.companyId, company.companyId))
    .limit(1);
  const [notification] = await server.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.companyId, company.companyId))
    .limit(1);
  const customer = `cus_${tag}`;
  if (!again)
    await server.db
      .insert(subscriptions)
      .values({ companyId: company.companyId, plan: 'unlimited', provider: 'stripe', customerId: customer });
  const checkoutSession = `cs_${tag}`;
  await server.db
    .insert(checkoutSessions)
    .values({ id: checkoutSession, companyId: company.companyId, plan: 'team', createdBy: company.adminUserId });

  const records: Records = {
    user: member.id,
    role,
    workspace,
    apiKey,
    connection,
    destination,
    gitConnection,
    pair,
    table,
    rule,
    workflow,
    run,
    report: report.id,
    attachment: report.attachments[0].id,
    mail: mail.id,
    notification: notification.id,
    session: sessionIdOf(token),
    customer,
    checkoutSession,
    qualityRun: qualityRun?.id,
    savedView: view,
  };
  for (const kind of KINDS) expect(records[kind], `${tag}'s ${kind}`).toBeTruthy();
  return { ...company, records, username };
}

// ---- What B holds, to see that nothing changed ---------------------------------------------------------

type Rows = { rows: Array<Record<string, unknown>> };

/** A digest of every stored row of one company, table by table (and its companies row). */
async function digestOf(companyId: string): Promise<Record<string, string>> {
  const tables = (
    (await server.db.execute(sql`
    select table_name as name from information_schema.columns
    where table_schema = current_schema() and column_name = 'company_id'
    order by table_name`)) as unknown as Rows
  ).rows.map((row) => String(row.name));
  expect(tables.length).toBeGreaterThan(20);
  const digest: Record<string, string> = {};
  for (const table of [...tables, 'companies']) {
    const column = table === 'companies' ? 'id' : 'company_id';
    const [row] = (
      (await server.db.execute(sql`
      select count(*)::int as n, md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as hash
      from ${sql.identifier(table)} t where ${sql.identifier(column)} = ${companyId}`)) as unknown as Rows
    ).rows;
    digest[table] = `${row.n} rows, ${row.hash}`;
  }
  return digest;
}

// ---- Set-up ------------------------------------------------------------------------------------------------

beforeAll(async () => {
  grantedRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'isolation-granted-'));
  server = await createTestServer({
    filesRoots: [grantedRoot],
    // Checkout sessions are only looked up when Stripe is configured; nothing here reaches it.
    plans: {
      defaultPlan: 'unlimited',
      stripe: {
        secretKey: 'sk_test_isolation',
        webhookSecret: undefined,
        prices: { team: 'price_team' },
        apiBase: new URL('http://127.0.0.1:9'),
      },
    },
  });
  freshPairId = crypto.randomUUID();
  database = `isolation-${crypto.randomBytes(4).toString('hex')}`;

  const acmeAdmin = await signInAdmin(server);
  const globex = await createOtherCompany(server, 'globex');
  await fillDatabase(database, server.company.companyId);
  await fillDatabase(database, globex.companyId);
  a = await seed({ hostname: 'acme', companyId: server.company.companyId, adminUserId: acmeAdmin.id, adminToken: acmeAdmin.accessToken! });
  b = await seed({ hostname: 'globex', companyId: globex.companyId, adminUserId: globex.adminUserId, adminToken: globex.adminToken });
  routes = await collectRouteTable(server.app);
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (grantedRoot) fs.rmSync(grantedRoot, { recursive: true, force: true });
});

// ---- The tests -------------------------------------------------------------------------------------------

describe('the route table', () => {
  it('lists every route that names a record, or says why a route names none', () => {
    const unknown: string[] = [];
    for (const route of routes) {
      const named = route.pathParams.filter((param) => !isPlain(param));
      if (named.length === 0) continue;
      const known = RECORD_ROUTES[key(route)];
      const plain = NOT_RECORD_ROUTES[key(route)];
      if (plain) {
        if (named.some((param) => !(param in plain.values))) unknown.push(`${key(route)}: no value for every parameter`);
        continue;
      }
      if (!known || named.some((param) => !(param in known.params))) unknown.push(`${key(route)} (:${named.join(', :')})`);
    }
    expect(unknown, 'routes whose parameters the test cannot fill: add them to RECORD_ROUTES or NOT_RECORD_ROUTES').toEqual([]);
    const listed = [...Object.keys(RECORD_ROUTES), ...Object.keys(NOT_RECORD_ROUTES)];
    expect(
      listed.filter((entry) => !routes.some((route) => key(route) === entry)),
      'listed routes the server no longer has',
    ).toEqual([]);
  });

  it('lists every query or body field named like an id, or says why it names no record', () => {
    const fields = routes.flatMap((route) =>
      [...fieldsOf(route.schema.querystring), ...fieldsOf(route.schema.body)]
        .filter((field) => ID_FIELD.test(field))
        .map((field) => `${key(route)} ${field}`),
    );
    expect(
      fields.filter((field) => !REFERENCE_FIELDS[field] && !NOT_RECORD_FIELDS[field]),
      'add them to REFERENCE_FIELDS or NOT_RECORD_FIELDS',
    ).toEqual([]);
    const listed = [...Object.keys(REFERENCE_FIELDS), ...Object.keys(NOT_RECORD_FIELDS)].filter(
      (entry) => !entry.startsWith('POST /reports recipients'),
    );
    expect(
      listed.filter((entry) => !fields.includes(entry)),
      'listed fields the server no longer has',
    ).toEqual([]);
  });
});

describe("another company's records are missing records", () => {
  let before: Record<string, string>;
  beforeAll(async () => {
    before = await digestOf(b.companyId);
  });

  it("answers every route naming B's record as it answers a missing one (404), with nothing of B's", async () => {
    const problems = await recordRouteProblems(a.adminToken);
    expect([...problems]).toEqual([]);
    expect(problems.reached).toBeGreaterThan(60);
  });

  it("answers A's API key granted every operation the same way: B's record is a missing one", async () => {
    const operations = server.app.apiOperations.list().map((operation) => operation.id);
    expect(operations.length).toBeGreaterThan(50);
    const key = (await ok(call(server, 'POST', '/apikey', { token: a.adminToken, body: { name: 'Every operation', operations } }))).data;
    const problems = await recordRouteProblems({ apiKey: key.key }, { refusedAlike: true });
    expect([...problems]).toEqual([]);
    // Not every route refused it: the routes an API key may call answered as for a missing record.
    expect(problems.reached).toBeGreaterThan(30);
  });

  it('answers a member of A whose role allows every action on every resource the same way', async () => {
    const policies = POLICY_RESOURCES.map((resource) => ({ resource: resource.resource, actions: [...resource.actions] }));
    const member = await userWithPolicies(server, a.adminToken, 'everything@acme.test', policies);
    const problems = await recordRouteProblems(member.token, { refusedAlike: true });
    expect([...problems]).toEqual([]);
    expect(problems.reached).toBeGreaterThan(50);
  });

  it("answers B's records in queries and bodies as missing ones, and stores nothing that points at them", async () => {
    const problems: string[] = [];
    for (const [entry, reference] of Object.entries(REFERENCE_FIELDS)) {
      const [method, url] = entry.split(' ');
      const route = routes.find((r) => r.method === method && r.url === url);
      if (!route) {
        problems.push(`${entry}: no such route`);
        continue;
      }
      const request = (id: string): Call => {
        const made = reference.call(a.records, id);
        return { route, path: made.path ?? {}, query: made.query, body: made.body, token: a.adminToken };
      };
      const theirsId = b.records[reference.kind];
      const theirs = await send(request(theirsId));
      const missingId = missingIdOf(reference.kind);
      const missing = await send(request(missingId));
      const leaks = leaksIn(theirs.body, theirsId);
      if (leaks.length) problems.push(`${entry}: the answer holds ${leaks.join(', ')}`);
      if (JSON.stringify(answerOf(theirs, theirsId)) !== JSON.stringify(answerOf(missing, missingId))) {
        problems.push(`${entry}: answered ${theirs.body.slice(0, 200)}, a missing one ${missing.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("never shows A any of B's ids in a list, a filter, a card or a search", async () => {
    const problems: string[] = [];
    const reads = listReads();
    expect(reads.length).toBeGreaterThan(70);
    for (const route of reads) {
      const res = await read(route, a.adminToken, 'globex');
      if (res.statusCode !== 200) problems.push(`${key(route)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      const leaks = leaksIn(res.body);
      if (leaks.length) problems.push(`${key(route)}: the answer holds ${leaks.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it("gives A its own settings, column choices, preferences and usernames, never B's", async () => {
    const service = await ok(call(server, 'GET', '/settings/service', { token: a.adminToken }), 200);
    expect(service.data.values.sessionLifetimeMinutes).toBe(456);
    const all = await ok(call(server, 'GET', '/settings', { token: a.adminToken }), 200);
    expect(all.data.find((group: { id: string }) => group.id === 'service').values.sessionLifetimeMinutes).toBe(456);
    await ok(call(server, 'PUT', '/settings/service', { token: a.adminToken, body: { sessionLifetimeMinutes: 789 } }), 200);

    const columns = await ok(call(server, 'GET', '/lists/columns', { token: a.adminToken }), 200);
    expect(columns.data.users.tenant.hidden).toEqual(['acmeColumn']);
    await ok(call(server, 'DELETE', '/lists/users/columns?scope=tenant', { token: a.adminToken }), 200);
    await ok(call(server, 'PUT', '/lists/users/columns', { token: a.adminToken, body: { scope: 'tenant', hidden: ['other'] } }), 200);

    const theme = await ok(call(server, 'GET', '/user/preferences/theme', { token: a.adminToken }), 200);
    expect(theme.data).toEqual({ theme: 'acme theme' });
    await ok(call(server, 'PUT', '/user/preferences/theme', { token: a.adminToken, body: { value: 'changed' } }), 200);

    // Usernames are unique within a company: B's member's name is free in A, A's own is not.
    expect(
      (await ok(call(server, 'GET', `/client/checkDuplicateUserName/${b.username}`, { token: a.adminToken }), 200)).data.duplicate,
    ).toBe(false);
    expect(
      (await ok(call(server, 'GET', `/client/checkDuplicateUserName/${a.username}`, { token: a.adminToken }), 200)).data.duplicate,
    ).toBe(true);
    expect((await ok(call(server, 'GET', `/users/username/check/${b.username}`, { token: a.adminToken }), 200)).data.available).toBe(true);
  });

  it("left every stored row of B as it was, and B's records still answer B", async () => {
    expect(await digestOf(b.companyId)).toEqual(before);
    const token = b.adminToken;
    const reads: Array<[string, string]> = [
      ['user', `/users/${b.records.user}`],
      ['role', `/role/${b.records.role}`],
      ['apiKey', `/apikey/${b.records.apiKey}`],
      ['connection', `/connection/${b.records.connection}`],
      ['table', `/table/${b.records.table}`],
      ['workflow', `/workflow/${b.records.workflow}`],
      ['run', `/jobRunTracker/${b.records.run}`],
      ['report', `/reports/${b.records.report}`],
    ];
    for (const [kind, url] of reads) {
      const res = await call(server, 'GET', url, { token });
      expect(res.statusCode, `B reads its ${kind}`).toBe(200);
      expect(res.body, `B's ${kind}`).not.toMatch(/Renamed|Changed|Taken over/);
    }
    const settings = await ok(call(server, 'GET', '/settings/service', { token }), 200);
    expect(settings.data.values.sessionLifetimeMinutes).toBe(123);
  });
});

describe("A's own records, through the same calls", () => {
  it('are found by every route above (so the 404s were not the routes refusing everything)', async () => {
    const problems: string[] = [];
    const ordered = [
      ...routes.filter((r) => RECORD_ROUTES[key(r)] && !RECORD_ROUTES[key(r)].removes),
      ...routes.filter((r) => RECORD_ROUTES[key(r)]?.removes),
    ];
    for (const route of ordered) {
      const known = RECORD_ROUTES[key(route)];
      const own = Object.fromEntries(Object.entries(known.params).map(([p, k]) => [p, a.records[k]]));
      const res = await send({
        route,
        path: own,
        query: known.query,
        body: known.body?.(a.records),
        upload: known.upload,
        token: a.adminToken,
      });
      const fine =
        known.missing === 'empty' ? res.statusCode === 200 && res.json().data.length > 0 : res.statusCode !== 404 && res.statusCode < 500;
      const found = known.createsAtUnknownId ? res.statusCode === 200 : fine;
      if (!found) problems.push(`${key(route)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe("A's lists, cards and counts, however much B holds", () => {
  it('answer A the same after B has made a second set of every kind of record', async () => {
    const reads = listReads();
    const answers = async () => {
      const bodies = new Map<string, string>();
      for (const route of reads) bodies.set(key(route), (await read(route, a.adminToken, 'member')).body);
      return bodies;
    };
    // Calls whose answers move on their own (a clock, the caller's own reading) are left out:
    // those that answer the same twice in a row are compared.
    const first = await answers();
    const second = await answers();
    const steady = reads.map(key).filter((route) => first.get(route) === second.get(route));
    expect(steady.length).toBeGreaterThan(60);

    await seed({ hostname: 'globex-two', companyId: b.companyId, adminUserId: b.adminUserId, adminToken: b.adminToken }, true);
    const after = await answers();
    expect(
      steady.filter((route) => after.get(route) !== second.get(route)).map((route) => `${route}: ${after.get(route)?.slice(0, 300)}`),
    ).toEqual([]);
  });
});
