import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { apiKeys, systemAudits } from '../../server/db/schema';
import { operationIdOf } from '../../server/auth/api-key-auth';
import { derivedSummary } from '../../server/apikeys/catalogue';
import { call, createOtherCompany, signInAdmin, userWithPolicies } from './helpers';

interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  tag: string;
}

let server: TestServer;
let adminToken: string;
let keyReader: { id: string; token: string };
let keyUpdater: { id: string; token: string };
let outsider: { id: string; token: string };
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let catalogue: Operation[];

beforeAll(async () => {
  server = await createTestServer();
  const admin = await signInAdmin(server);
  adminToken = admin.accessToken!;
  keyReader = await userWithPolicies(server, adminToken, 'explorer.reader@acme.test', [{ resource: 'apikeys', actions: ['read'] }]);
  keyUpdater = await userWithPolicies(server, adminToken, 'explorer.updater@acme.test', [{ resource: 'apikeys', actions: ['update'] }]);
  outsider = await userWithPolicies(server, adminToken, 'explorer.outsider@acme.test', []);
  other = await createOtherCompany(server);
  const res = await call(server, 'GET', '/openapi', { token: keyReader.token });
  expect(res.statusCode, res.body).toBe(200);
  catalogue = res.json().data;
});
afterAll(async () => {
  await server?.close();
});

async function createKey(token = adminToken, operations: string[] = []) {
  const res = await call(server, 'POST', '/apikey', { token, body: { name: 'Explorer key', operations } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; key: string; operations: string[] };
}

async function keyRow(id: string) {
  const [row] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

async function auditCount() {
  const [row] = await server.db.select({ n: count() }).from(systemAudits);
  return row.n;
}

describe('GET /openapi', () => {
  it("lists the server's own operations with ids, paths, summaries and tags", () => {
    const byId = new Map(catalogue.map((o) => [o.id, o]));
    expect(byId.size).toBe(catalogue.length);
    expect(byId.get('get_workspaces')).toEqual({
      id: 'get_workspaces',
      method: 'GET',
      path: '/workspaces',
      summary: 'List the workspaces',
      tag: 'Workspaces',
    });
    expect(byId.get('put_workspace_id')).toMatchObject({ method: 'PUT', path: '/workspace/{id}', tag: 'Workspaces' });
    expect(byId.get('post_workspaces')).toMatchObject({ method: 'POST', path: '/workspaces' });
    expect(byId.get('get_users_active')).toMatchObject({
      method: 'GET',
      path: '/users/active',
      summary: 'List the active users',
      tag: 'Users',
    });
    // A route without a summary of its own would get a readable one.
    expect(derivedSummary('GET', '/users/active')).toBe('Read users active');
    expect(derivedSummary('GET', '/users/:offset/:limit')).toBe('Read users by offset and limit');
    for (const op of catalogue) {
      expect(op.id).toBe(operationIdOf(op.method, `/api/v1${op.path.replace(/\{(\w+)\}/g, ':$1')}`));
      expect(op.summary.length).toBeGreaterThan(3);
      expect(op.tag.length).toBeGreaterThan(1);
      expect(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).toContain(op.method);
    }
  });

  it('leaves out public routes, sign-in stages, key management and personal settings', () => {
    const ids = catalogue.map((o) => o.id);
    for (const absent of [
      'post_signin',
      'get_health',
      'post_company',
      'post_user_otp_verify',
      'put_session_logout',
      'post_user_impersonate',
      'post_user_password',
      'get_lists_columns',
      'get_user_preferences',
    ]) {
      expect(ids, absent).not.toContain(absent);
    }
    const forbidden = [
      /^\/session(\/|$)/,
      /^\/user\/impersonate/,
      /^\/user\/password/,
      /^\/user\/otp\//,
      /^\/user\/preferences/,
      /^\/lists\//,
      /^\/apikey/,
      /^\/openapi/,
    ];
    for (const op of catalogue) {
      for (const pattern of forbidden) expect(op.path, op.id).not.toMatch(pattern);
      if (op.method === 'POST') expect(op.path, op.id).not.toMatch(/^\/authorization\/policies/);
    }
    expect(catalogue.filter((o) => o.method === 'HEAD')).toEqual([]);
  });

  it('needs the read policy on API keys, and no key may call it', async () => {
    const denied = await call(server, 'GET', '/openapi', { token: outsider.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
    expect((await call(server, 'GET', '/openapi/get_workspaces', { token: outsider.token })).statusCode).toBe(403);
    const key = await createKey(adminToken, ['get_workspaces']);
    const withKey = await call(server, 'GET', '/openapi', { headers: { 'x-api-key': key.key } });
    expect(withKey.statusCode).toBe(403);
  });
});

describe('GET /openapi/{id}', () => {
  it('shows the path parameters of an operation', async () => {
    const res = await call(server, 'GET', '/openapi/put_workspace_id', { token: keyReader.token });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ id: 'put_workspace_id', method: 'PUT', path: '/workspace/{id}', body: null });
    expect(data.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: null, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) },
    ]);
  });

  it('shows the body schema and the content types it may be sent as', async () => {
    const res = await call(server, 'GET', '/openapi/post_workspaces', { token: keyReader.token });
    expect(res.statusCode).toBe(200);
    const { body, parameters } = res.json().data;
    expect(parameters).toEqual([]);
    expect(body.required).toBe(true);
    expect(body.contentTypes).toEqual(
      expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']),
    );
    expect(body.schema).toMatchObject({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 80 } },
    });
  });

  it('answers 404 for an operation a key may not be granted, 400 for a malformed id', async () => {
    for (const id of ['get_nothing_here', 'get_apikeys_offset_limit', 'post_signin', 'get_openapi']) {
      const res = await call(server, 'GET', `/openapi/${id}`, { token: keyReader.token });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('Operation not found');
    }
    const bad = await call(server, 'GET', '/openapi/DROP%20TABLE', { token: keyReader.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^id: /);
  });

  it("describes every operation of the catalogue from the server's OpenAPI document", async () => {
    const res = await call(server, 'GET', '/openapi/document', { token: keyReader.token });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.0.3');
    expect(document.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    const documented = new Set<string>();
    for (const item of Object.values(document.paths) as Array<Record<string, { operationId?: string }>>) {
      for (const operation of Object.values(item)) if (operation.operationId) documented.add(operation.operationId);
    }
    expect(document.paths['/api/v1/workspaces'].get.operationId).toBe('get_workspaces');
    for (const op of catalogue) expect(documented.has(op.id), op.id).toBe(true);
  });
});

describe('POST /openapi/assign/{id}', () => {
  it("replaces a key's grants and audits the change", async () => {
    const key = await createKey(adminToken, ['get_workspaces']);
    // The key acts as the admin, so only an admin may change its grants.
    const borrowed = await call(server, 'POST', `/openapi/assign/${key.id}`, {
      token: keyUpdater.token,
      body: { operations: ['post_workspaces'] },
    });
    expect(borrowed.statusCode).toBe(403);
    expect((await keyRow(key.id)).operations).toEqual(['get_workspaces']);
    const res = await call(server, 'POST', `/openapi/assign/${key.id}`, {
      token: adminToken,
      body: { operations: ['post_workspaces', 'get_workspaces_active', 'post_workspaces'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('API key "Explorer key" may call 2 operations');
    expect(res.json().data.operations).toEqual(['get_workspaces_active', 'post_workspaces']);
    expect(res.json().data).not.toHaveProperty('key');
    expect((await keyRow(key.id)).operations).toEqual(['get_workspaces_active', 'post_workspaces']);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, key.id), eq(systemAudits.operation, 'assign_operations')))
      .orderBy(desc(systemAudits.createdAt));
    expect(audit).toMatchObject({ model: 'apikey', userId: server.company.adminUserId });
    expect(audit.changes).toEqual({
      before: { operations: ['get_workspaces'] },
      after: { operations: ['get_workspaces_active', 'post_workspaces'] },
    });

    // The grant takes effect at once: the old operation is closed, the new one open.
    expect((await call(server, 'GET', '/workspaces', { headers: { 'x-api-key': key.key } })).statusCode).toBe(403);
    expect((await call(server, 'GET', '/workspaces/active', { headers: { 'x-api-key': key.key } })).statusCode).toBe(200);

    const none = await call(server, 'POST', `/openapi/assign/${key.id}`, { token: adminToken, body: { operations: [] } });
    expect(none.statusCode).toBe(200);
    expect((await keyRow(key.id)).operations).toEqual([]);
    expect((await call(server, 'GET', '/workspaces/active', { headers: { 'x-api-key': key.key } })).statusCode).toBe(403);
  });

  it('refuses unknown or forbidden operations and bad bodies with 400 naming them, changing nothing', async () => {
    const key = await createKey(adminToken, ['get_workspaces']);
    const audits = await auditCount();
    for (const [body, message] of [
      [
        { operations: ['get_workspaces', 'get_made_up', 'delete_apikey_id'] },
        'operations: not operations a key may be granted: get_made_up, delete_apikey_id',
      ],
      [{ operations: ['post_user_password'] }, 'operations: not operations a key may be granted: post_user_password'],
      [{ operations: 'get_workspaces' }, 'operations: is required: a list of operation ids'],
      [{}, 'operations: is required: a list of operation ids'],
      [{ operations: ['GET /workspaces'] }, 'operations.0: must be operation ids'],
    ] as const) {
      const res = await call(server, 'POST', `/openapi/assign/${key.id}`, { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect((await keyRow(key.id)).operations).toEqual(['get_workspaces']);
    expect(await auditCount()).toBe(audits);
  });

  it("answers 404 for another company's key and 400 for a deleted one, changing nothing", async () => {
    const theirs = await createKey(other.adminToken, ['get_workspaces']);
    const res = await call(server, 'POST', `/openapi/assign/${theirs.id}`, {
      token: adminToken,
      body: { operations: ['post_workspaces'] },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('API key not found');
    expect((await keyRow(theirs.id)).operations).toEqual(['get_workspaces']);

    const gone = await createKey(adminToken, ['get_workspaces']);
    await call(server, 'DELETE', `/apikey/${gone.id}`, { token: adminToken });
    const deleted = await call(server, 'POST', `/openapi/assign/${gone.id}`, {
      token: adminToken,
      body: { operations: ['post_workspaces'] },
    });
    expect(deleted.statusCode).toBe(400);
    expect((await keyRow(gone.id)).operations).toEqual(['get_workspaces']);
  });

  it('needs the update policy on API keys', async () => {
    const key = await createKey(adminToken, []);
    for (const token of [keyReader.token, outsider.token]) {
      const res = await call(server, 'POST', `/openapi/assign/${key.id}`, { token, body: { operations: ['get_workspaces'] } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Resource Access not provided');
    }
    expect((await keyRow(key.id)).operations).toEqual([]);
  });
});
