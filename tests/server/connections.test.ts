import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { onEmbedded } from './embedded-source';
import { createTestServer, type TestServer } from './harness';
import { connections, sourceDestinations, systemAudits, workspaces } from '../../server/db/schema';
import { call, createOtherCompany, signInAdmin, snapshot, userWithPolicies } from './helpers';

/** Connections and source/destination pairs (docs/api/connections.md), on embedded databases and the local PostgreSQL. */

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DENIED = 'Resource Access not provided';

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let nobody: Awaited<ReturnType<typeof userWithPolicies>>;
let workspaceId: string;
let postgresReachable = false;

const postgresSettings = () => {
  const url = new URL(POSTGRES_URL);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: url.pathname.slice(1),
    user: decodeURIComponent(url.username || 'postgres'),
  };
};

/** A port nothing listens on: a connection there is refused at once. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const create = (body: Record<string, unknown>, token = adminToken) => call(server, 'POST', '/connections', { token, body });
const embedded = (name: string, extra: Record<string, unknown> = {}) =>
  create({ name, type: 'embedded', settings: { database: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') }, ...extra });

async function lastAudit(recordId: string) {
  const rows = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, recordId)).orderBy(systemAudits.createdAt);
  return rows[rows.length - 1];
}

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'conn.reader@acme.test', [{ resource: 'connections', actions: ['read'] }]);
  nobody = await userWithPolicies(server, adminToken, 'conn.nobody@acme.test', []);
  const [ws] = await server.db.insert(workspaces).values({ companyId: server.company.companyId, name: 'Data team' }).returning();
  workspaceId = ws.id;
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  postgresReachable = await client.connect().then(
    () => true,
    () => false,
  );
  await client.end().catch(() => {});
  if (!postgresReachable && process.env.REQUIRE_TEST_DATABASES === '1') throw new Error(`PostgreSQL at ${POSTGRES_URL} is unreachable`);
});
afterAll(async () => server?.close());

describe('POST /connections and GET /connection/{id}', () => {
  it('makes a connection of each kind of role its type allows, and audits it', async () => {
    const res = await embedded('Sample shop', { description: 'Demo data', workspaceId });
    expect(res.statusCode, res.body).toBe(201);
    const row = res.json().data;
    expect(row).toMatchObject({
      name: 'Sample shop',
      type: 'embedded',
      typeLabel: 'Embedded database',
      category: 'database',
      isSource: true,
      isDestination: false,
      workspaceId,
      workspaceName: 'Data team',
      settings: { database: 'sample-shop' },
      secretsSet: [],
      isActive: true,
      lastTestedAt: null,
      pairCount: 0,
      tableCount: 0,
    });
    expect(await lastAudit(row.id)).toMatchObject({ model: 'connection', operation: 'create' });
    const one = await call(server, 'GET', `/connection/${row.id}`, { token: reader.token });
    expect(one.json().data).toEqual(row);
  });

  it('keeps secret settings encrypted and never answers them', async () => {
    const password = `pw-${crypto.randomBytes(6).toString('hex')}`;
    const res = await create({ name: 'Warehouse', type: 'postgresql', isDestination: true, settings: { ...postgresSettings(), password } });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json().data;
    expect(res.json().data).toMatchObject({ secretsSet: ['password'], settings: { port: postgresSettings().port, ssl: 'disable' } });
    const [stored] = await server.db.select().from(connections).where(eq(connections.id, id));
    expect(stored.secretsEnc).toBeTruthy();
    expect(stored.secretsEnc).not.toContain(password);
    expect(JSON.stringify(stored.settings)).not.toContain(password);
    for (const path of [`/connection/${id}`, '/connections/0/50', `/connections/search/0/50?searchText=Warehouse`]) {
      const answer = await call(server, 'GET', path, { token: adminToken });
      expect(answer.body, path).not.toContain(password);
    }
    const filtered = await call(server, 'POST', '/connections/filter/0/50', { token: adminToken, body: { type: 'postgresql' } });
    expect(filtered.body).not.toContain(password);
    const audits = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, id));
    expect(JSON.stringify(audits)).not.toContain(password);
    expect(audits[0].changes).toMatchObject({ after: { password: '(changed)' } });
  });

  it('names every bad field and stores nothing', async () => {
    const before = await snapshot(server.db);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ name: 'x', type: 'oracle', settings: {} }, 400, /^type: must be one of postgresql/],
      [{ name: '', type: 'embedded', settings: { database: 'a' } }, 400, /^name: is required/],
      [
        { name: 'Bad port', type: 'postgresql', settings: { ...postgresSettings(), port: 70000 } },
        400,
        /settings\.port: must be at most 65535/,
      ],
      [{ name: 'No host', type: 'postgresql', settings: { database: 'd', user: 'u' } }, 400, /settings\.host: is required/],
      [
        { name: 'Extra', type: 'embedded', settings: { database: 'a', colour: 'red' } },
        400,
        /settings\.colour: is not a setting of Embedded database/,
      ],
      [{ name: 'Bad name', type: 'embedded', settings: { database: '../etc' } }, 400, /settings\.database: may hold only letters, digits/],
      [
        { name: 'Chat', type: 'slack', isDestination: true, settings: { webhookUrl: 'https://hooks.example/x' } },
        400,
        /^isDestination: a Slack connection cannot be a destination/,
      ],
      [{ name: 'Hook', type: 'slack', settings: { mode: 'webhook' } }, 400, /settings\.webhookUrl: is required/],
      [
        { name: 'Ws', type: 'embedded', workspaceId: crypto.randomUUID(), settings: { database: 'a' } },
        400,
        /^workspaceId: no such workspace/,
      ],
      [{ name: 'Sample shop', type: 'embedded', settings: { database: 'a' } }, 409, /^name: a connection with this name already exists/],
      [{ name: 'sample SHOP', type: 'embedded', settings: { database: 'a' } }, 409, /^name: a connection with this name already exists/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('needs the create policy, and answers 404 for another company’s connection', async () => {
    const denied = await create({ name: 'Nope', type: 'embedded', settings: { database: 'nope' } }, reader.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const theirs = await create({ name: 'Theirs', type: 'embedded', settings: { database: 'theirs' } }, other.adminToken);
    expect(theirs.statusCode).toBe(201);
    const id = theirs.json().data.id;
    for (const [method, path, body] of [
      ['GET', `/connection/${id}`],
      ['PUT', `/connection/${id}`, { name: 'Mine now' }],
      ['POST', `/connection/${id}/configure`, {}],
      ['GET', `/connection/${id}/endpoints`],
      ['PUT', `/connections/activate/${id}`, { isActive: false }],
      ['GET', `/connection/${id}/source/destination`],
    ] as const) {
      const res = await call(server, method, path, { token: adminToken, body });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().message).toBe('Connection not found');
    }
    const [untouched] = await server.db.select().from(connections).where(eq(connections.id, id));
    expect(untouched).toMatchObject({ name: 'Theirs', isActive: true, lastTestedAt: null });
  });
});

describe('PUT /connection/{id}', () => {
  it('changes what is given, keeps a secret left blank, replaces one given, and audits names of secrets only', async () => {
    const made = await create({ name: 'Edit me', type: 'postgresql', settings: { ...postgresSettings(), password: 'first-secret' } });
    const { id } = made.json().data;
    const read = async () => {
      const [row] = await server.db.select().from(connections).where(eq(connections.id, id));
      return JSON.parse(server.app.ctx.secrets.decrypt(row.secretsEnc!)) as Record<string, string>;
    };
    const kept = await call(server, 'PUT', `/connection/${id}`, {
      token: adminToken,
      body: { description: 'Orders', settings: { ...postgresSettings(), port: 5433, password: '' } },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ description: 'Orders', settings: { port: 5433 }, secretsSet: ['password'] });
    expect(await read()).toEqual({ password: 'first-secret' });
    const audit = await lastAudit(id);
    expect(audit.changes).toEqual({
      before: { description: '', settings: expect.objectContaining({ port: postgresSettings().port }) },
      after: { description: 'Orders', settings: expect.objectContaining({ port: 5433 }) },
    });

    const replaced = await call(server, 'PUT', `/connection/${id}`, {
      token: adminToken,
      body: { settings: { ...postgresSettings(), password: 'second-secret' } },
    });
    expect(replaced.statusCode).toBe(200);
    expect(await read()).toEqual({ password: 'second-secret' });
    expect((await lastAudit(id)).changes).toMatchObject({ after: { password: '(changed)' } });
    expect(JSON.stringify((await lastAudit(id)).changes)).not.toContain('second-secret');

    const same = await call(server, 'PUT', `/connection/${id}`, { token: adminToken, body: { name: 'Edit me' } });
    expect(same.json().message).toBe('Nothing to change');
    const typeChange = await call(server, 'PUT', `/connection/${id}`, { token: adminToken, body: { type: 'mysql' } });
    expect(typeChange.statusCode).toBe(400);
    expect(typeChange.json().message).toMatch(/type/);
  });

  it('drops a secret whose setting no longer applies', async () => {
    const made = await create({
      name: 'Alerts',
      type: 'slack',
      settings: { mode: 'webhook', webhookUrl: 'https://hooks.example.test/T1' },
    });
    const { id } = made.json().data;
    expect(made.json().data.secretsSet).toEqual(['webhookUrl']);
    const toBot = await call(server, 'PUT', `/connection/${id}`, {
      token: adminToken,
      body: { settings: { mode: 'bot', botToken: 'xoxb-1', channel: '#alerts' } },
    });
    expect(toBot.statusCode, toBot.body).toBe(200);
    expect(toBot.json().data).toMatchObject({ secretsSet: ['botToken'], settings: { mode: 'bot', channel: '#alerts' } });
  });
});

describe('POST /connection/{id}/configure (test) and GET /connection/{id}/endpoints', () => {
  it('tests an embedded database for real, records the result, and lists its tables', async () => {
    const made = await embedded('Scratch');
    const { id } = made.json().data;
    const res = await call(server, 'POST', `/connection/${id}/configure`, { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const outcome = res.json().data;
    expect(outcome, outcome.message).toMatchObject({ ok: true, detail: expect.stringMatching(/PostgreSQL/i) });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    const row = (await call(server, 'GET', `/connection/${id}`, { token: adminToken })).json().data;
    expect(row).toMatchObject({ lastTestOk: true, lastTestLatencyMs: outcome.latencyMs, lastTestMessage: outcome.message });
    expect(await lastAudit(id)).toMatchObject({ operation: 'test', changes: { after: { ok: true } } });

    await onEmbedded(server, 'scratch', ['create table if not exists public.visits (id int primary key, page text)']);
    const endpoints = await call(server, 'GET', `/connection/${id}/endpoints`, { token: reader.token });
    expect(endpoints.statusCode, endpoints.body).toBe(200);
    expect(endpoints.json().data).toContainEqual(expect.objectContaining({ id: 'public.visits', kind: 'table', group: 'public' }));
  });

  it('reports a source that cannot be reached in its own words, without failing the call', async () => {
    const port = await closedPort();
    const made = await create({ name: 'Nowhere', type: 'postgresql', settings: { ...postgresSettings(), host: '127.0.0.1', port } });
    const { id } = made.json().data;
    const res = await call(server, 'POST', `/connection/${id}/configure`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      ok: false,
      latencyMs: null,
      message: `PostgreSQL could not reach the database at 127.0.0.1:${port}`,
    });
    const row = (await call(server, 'GET', `/connection/${id}`, { token: adminToken })).json().data;
    expect(row).toMatchObject({ lastTestOk: false, lastTestMessage: res.json().data.message });
    const endpoints = await call(server, 'GET', `/connection/${id}/endpoints`, { token: adminToken });
    expect(endpoints.statusCode).toBe(502);
    expect(endpoints.json().message).toBe(`PostgreSQL could not reach the database at 127.0.0.1:${port}`);
    // The failing filter finds it.
    const failing = await call(server, 'POST', '/connections/filter/0/50', { token: adminToken, body: { status: 'failing' } });
    expect(failing.json().data.rows.map((r: { id: string }) => r.id)).toContain(id);
  });

  it('tests settings from the form without saving them or the result', async () => {
    const port = await closedPort();
    const made = await create({ name: 'Form test', type: 'postgresql', settings: { ...postgresSettings(), host: '127.0.0.1', port } });
    const { id } = made.json().data;
    const res = await call(server, 'POST', `/connection/${id}/configure`, {
      token: adminToken,
      body: { settings: { ...postgresSettings(), host: '127.0.0.1', port: port } },
    });
    expect(res.json().data.ok).toBe(false);
    const [row] = await server.db.select().from(connections).where(eq(connections.id, id));
    expect(row.lastTestedAt).toBeNull();
    const bad = await call(server, 'POST', `/connection/${id}/configure`, {
      token: adminToken,
      body: { settings: { host: 'x', port: 'many' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/settings\.port: must be a number/);
  });

  it('connects to the local PostgreSQL and answers its version', async (context) => {
    if (!postgresReachable) context.skip();
    const made = await create({ name: 'Local PostgreSQL', type: 'postgresql', settings: postgresSettings() });
    const res = await call(server, 'POST', `/connection/${made.json().data.id}/configure`, { token: adminToken });
    expect(res.json().data).toMatchObject({ ok: true, detail: expect.stringMatching(/^PostgreSQL \d+/) });
  });

  it('needs the update policy to test, the read policy to list endpoints', async () => {
    const made = await embedded('Policy check');
    const { id } = made.json().data;
    expect((await call(server, 'POST', `/connection/${id}/configure`, { token: reader.token })).statusCode).toBe(403);
    expect((await call(server, 'GET', `/connection/${id}/endpoints`, { token: nobody.token })).statusCode).toBe(403);
  });
});

describe('lists, filters, search, cards, activation and integrations', () => {
  it('lists newest first and filters by every field', async () => {
    const list = await call(server, 'GET', '/connections/0/100', { token: reader.token });
    expect(list.statusCode).toBe(200);
    const rows = list.json().data.rows as Array<{ name: string; createdAt: string; type: string }>;
    expect(rows.length).toBeGreaterThan(3);
    expect([...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((r) => r.name)).toEqual(rows.map((r) => r.name));
    expect(rows.map((r) => r.name)).not.toContain('Theirs');

    const names = async (body: Record<string, unknown>) =>
      ((await call(server, 'POST', '/connections/filter/0/100', { token: reader.token, body })).json().data.rows as Array<{ name: string }>)
        .map((r) => r.name)
        .sort();
    expect(await names({ type: 'slack' })).toEqual(['Alerts']);
    expect(await names({ workspace: workspaceId })).toEqual(['Sample shop']);
    expect(await names({ destination: true })).toEqual(['Warehouse']);
    // A PostgreSQL connection is a source unless told otherwise; text values work as booleans do.
    expect(await names({ destination: 'true', source: 'false' })).toEqual([]);
    expect(await names({ destination: 'true', source: ['true', ''] })).toEqual(['Warehouse']);
    expect(await names({ search: 'sample' })).toEqual(['Sample shop']);
    expect(await names({ status: 'untested', type: 'embedded' })).toEqual(expect.arrayContaining(['Sample shop']));
    const bad = await call(server, 'POST', '/connections/filter/0/10', { token: reader.token, body: { status: 'sleepy' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^status: must be one of active, inactive, failing, untested/);

    const search = await call(server, 'GET', '/connections/search/0/10?searchText=ware', { token: reader.token });
    expect(search.json().data.rows.map((r: { name: string }) => r.name)).toEqual(['Warehouse']);
    const props = await call(server, 'GET', '/connections/filters', { token: reader.token });
    expect(props.json().data).toMatchObject({
      workspace: [{ id: workspaceId, name: 'Data team' }],
      type: expect.arrayContaining([
        { id: 'slack', name: 'Slack' },
        { id: 'embedded', name: 'Embedded database' },
      ]),
      status: expect.arrayContaining([{ id: 'failing', name: 'Last test failed' }]),
    });
    expect(props.json().data.user.map((u: { name: string }) => u.name)).toEqual(['Ada Admin']);
  });

  it('counts in cards, lists a workspace’s live connections, and (de)activates with an audit', async () => {
    const cards = (await call(server, 'GET', '/connections/topCards', { token: reader.token })).json().data.cards as Array<{
      key: string;
      value: number;
    }>;
    const byKey = Object.fromEntries(cards.map((c) => [c.key, c.value]));
    const ours = await server.db
      .select({ id: connections.id })
      .from(connections)
      .where(eq(connections.companyId, server.company.companyId));
    expect(byKey.total).toBe(ours.length);
    expect(byKey.failing).toBeGreaterThanOrEqual(1);

    const shop = (await call(server, 'POST', '/connections/filter/0/10', { token: adminToken, body: { search: 'Sample shop' } })).json()
      .data.rows[0];
    const off = await call(server, 'PUT', `/connections/activate/${shop.id}`, { token: adminToken, body: { isActive: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: 'Connection "Sample shop" is deactivated', data: { isActive: false } });
    expect(await lastAudit(shop.id)).toMatchObject({ operation: 'deactivate' });
    expect((await call(server, 'GET', `/connection/workspace/${workspaceId}`, { token: adminToken })).json().data).toEqual([]);
    await call(server, 'PUT', `/connections/activate/${shop.id}`, { token: adminToken, body: { isActive: true } });
    expect(
      (await call(server, 'GET', `/connection/workspace/${workspaceId}`, { token: adminToken }))
        .json()
        .data.map((c: { id: string }) => c.id),
    ).toEqual([shop.id]);
    const bad = await call(server, 'PUT', `/connections/activate/${shop.id}`, { token: adminToken, body: { isActive: 'maybe' } });
    expect(bad.statusCode).toBe(400);
  });

  it('tells whether the Slack and code-repository integrations are configured', async () => {
    const slack = await call(server, 'GET', '/connection/slack/integration', { token: reader.token });
    expect(slack.json().data).toMatchObject({
      configured: true,
      active: true,
      connections: [{ name: 'Alerts', mode: 'bot', channel: '#alerts', isActive: true }],
    });
    const code = await call(server, 'GET', '/connection/bitbucket/integration', { token: reader.token });
    expect(code.json().data).toEqual({ configured: false, active: false, connections: [] });
    await create({ name: 'SQL repository', type: 'git', settings: { url: 'https://git.example.test/team/sql.git' } });
    const after = await call(server, 'GET', '/connection/bitbucket/integration', { token: reader.token });
    expect(after.json().data).toMatchObject({
      configured: true,
      connections: [{ name: 'SQL repository', type: 'git', url: 'https://git.example.test/team/sql.git' }],
    });
  });
});

describe('source/destination pairs', () => {
  let sourceId: string;
  let destinationId: string;
  let chatId: string;

  beforeAll(async () => {
    sourceId = (await embedded('Pair source')).json().data.id;
    destinationId = (await embedded('Pair destination', { isSource: false, isDestination: true })).json().data.id;
    chatId = (await create({ name: 'Pair chat', type: 'slack', settings: { webhookUrl: 'https://hooks.example.test/T2' } })).json().data.id;
  });

  it('creates a pair at the id the client chose, changes it there, and lists it for both connections', async () => {
    const id = crypto.randomUUID();
    const made = await call(server, 'PUT', `/source/destination/${id}`, { token: adminToken, body: { sourceId, destinationId } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({
      id,
      name: 'Pair source → Pair destination',
      sourceName: 'Pair source',
      destinationName: 'Pair destination',
      isActive: true,
    });
    expect(await lastAudit(id)).toMatchObject({ model: 'source_destination', operation: 'create' });

    const renamed = await call(server, 'PUT', `/source/destination/${id}`, {
      token: adminToken,
      body: { sourceId, destinationId, name: 'Nightly copy' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data.name).toBe('Nightly copy');
    for (const connectionId of [sourceId, destinationId]) {
      const pairs = await call(server, 'GET', `/connection/${connectionId}/source/destination`, { token: reader.token });
      expect(pairs.json().data.map((p: { id: string }) => p.id)).toEqual([id]);
    }
    expect((await call(server, 'GET', `/connection/${sourceId}`, { token: adminToken })).json().data.pairCount).toBe(1);
    const active = await call(server, 'GET', '/active/source/destination', { token: reader.token });
    expect(active.json().data.map((p: { id: string }) => p.id)).toContain(id);

    // A deactivated connection takes its pairs out of the active list, and keeps them.
    await call(server, 'PUT', `/connections/activate/${destinationId}`, { token: adminToken, body: { isActive: false } });
    expect(
      (await call(server, 'GET', '/active/source/destination', { token: reader.token })).json().data.map((p: { id: string }) => p.id),
    ).not.toContain(id);
    await call(server, 'PUT', `/connections/activate/${destinationId}`, { token: adminToken, body: { isActive: true } });

    const removed = await call(server, 'DELETE', `/source/destination/${id}`, { token: adminToken });
    expect(removed.json().message).toBe('Pair "Nightly copy" deleted');
    expect(await server.db.select().from(sourceDestinations).where(eq(sourceDestinations.id, id))).toEqual([]);
    expect((await call(server, 'DELETE', `/source/destination/${id}`, { token: adminToken })).statusCode).toBe(404);
  });

  it('refuses pairs that make no sense, each with its reason, and stores nothing', async () => {
    const before = await snapshot(server.db);
    const theirs = (
      await create({ name: 'Their source', type: 'embedded', settings: { database: 'their-source' } }, other.adminToken)
    ).json().data.id;
    const afterTheirs = await snapshot(server.db);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ sourceId, destinationId: sourceId }, 400, /^destinationId: must differ from the source/],
      [{ sourceId: destinationId, destinationId: sourceId }, 400, /^sourceId: "Pair destination" is not a source/],
      [{ sourceId, destinationId: chatId }, 400, /^destinationId: "Pair chat" is not a destination/],
      [{ sourceId: theirs, destinationId }, 400, /^sourceId: no such connection/],
      [{ sourceId, destinationId: 'nope' }, 400, /^destinationId: must be a valid id/],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(server, 'PUT', `/source/destination/${crypto.randomUUID()}`, { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(afterTheirs);
    expect(before).not.toEqual(afterTheirs);

    const first = crypto.randomUUID();
    expect(
      (await call(server, 'PUT', `/source/destination/${first}`, { token: adminToken, body: { sourceId, destinationId } })).statusCode,
    ).toBe(201);
    const twice = await call(server, 'PUT', `/source/destination/${crypto.randomUUID()}`, {
      token: adminToken,
      body: { sourceId, destinationId },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('destinationId: "Pair source" is already paired with "Pair destination"');
  });

  it("does not let a company take or touch another company's pair", async () => {
    const theirSource = (await create({ name: 'T source', type: 'embedded', settings: { database: 't-source' } }, other.adminToken)).json()
      .data.id;
    const theirDestination = (
      await create(
        { name: 'T destination', type: 'embedded', isSource: false, isDestination: true, settings: { database: 't-destination' } },
        other.adminToken,
      )
    ).json().data.id;
    const pairId = crypto.randomUUID();
    expect(
      (
        await call(server, 'PUT', `/source/destination/${pairId}`, {
          token: other.adminToken,
          body: { sourceId: theirSource, destinationId: theirDestination },
        })
      ).statusCode,
    ).toBe(201);
    expect((await call(server, 'DELETE', `/source/destination/${pairId}`, { token: adminToken })).statusCode).toBe(404);
    // Ids are keyed by company (migration 0022): the same id here makes this company's own pair, and theirs stays as it was.
    const ourDestination = (await embedded('Same-id destination', { isSource: false, isDestination: true })).json().data.id;
    const ours = await call(server, 'PUT', `/source/destination/${pairId}`, {
      token: adminToken,
      body: { sourceId, destinationId: ourDestination },
    });
    expect(ours.statusCode, ours.body).toBe(201);
    expect((await call(server, 'DELETE', `/source/destination/${pairId}`, { token: adminToken })).statusCode).toBe(200);
    const still = await server.db.select().from(sourceDestinations).where(eq(sourceDestinations.id, pairId));
    expect(still).toEqual([
      expect.objectContaining({ companyId: other.companyId, sourceId: theirSource, destinationId: theirDestination }),
    ]);
  });

  it('needs connections/update to change pairs and connections/delete to delete them', async () => {
    const id = crypto.randomUUID();
    expect(
      (await call(server, 'PUT', `/source/destination/${id}`, { token: reader.token, body: { sourceId, destinationId } })).statusCode,
    ).toBe(403);
    expect((await call(server, 'DELETE', `/source/destination/${id}`, { token: reader.token })).statusCode).toBe(403);
    expect((await call(server, 'GET', '/active/source/destination', { token: nobody.token })).statusCode).toBe(403);
  });
});
