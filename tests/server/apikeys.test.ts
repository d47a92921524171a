import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { apiKeys, systemAudits, users, workspaces } from '../../server/db/schema';
import { call, createActiveUser, createOtherCompany, inviteUser, signInFully, userWithPolicies } from './helpers';

let server: TestServer;
let adminToken: string;
let adminId: string;
/** An active user with the Member role: no policy on workspaces or keys. */
let member: { id: string; email: string };
/** Not an admin; holds every action on API keys and nothing on workspaces. */
let keyManager: { id: string; token: string };
/** May read keys only. */
let keyReader: { id: string; token: string };
/** Holds no policy at all. */
let outsider: { id: string; token: string };
let other: Awaited<ReturnType<typeof createOtherCompany>>;
/** Every secret answered by the server in this file, to prove none is ever answered again. */
const secretsSeen: string[] = [];

beforeAll(async () => {
  server = await createTestServer();
  const admin = await signInFully(server, { email: server.company.adminEmail, password: server.company.adminPassword });
  adminToken = admin.accessToken!;
  adminId = admin.id;
  member = await createActiveUser(server, adminToken, { email: 'key.member@acme.test', firstName: 'Mona' });
  keyManager = await userWithPolicies(server, adminToken, 'key.manager@acme.test', [
    { resource: 'apikeys', actions: ['read', 'create', 'update', 'delete'] },
  ]);
  keyReader = await userWithPolicies(server, adminToken, 'key.reader@acme.test', [{ resource: 'apikeys', actions: ['read'] }]);
  outsider = await userWithPolicies(server, adminToken, 'key.outsider@acme.test', []);
  other = await createOtherCompany(server);
});
afterAll(async () => {
  await server?.close();
});

const KEY_FORMAT = /^dok_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/;
const REFUSED = 'This API key is not valid, or is deactivated or expired';
const NOT_GRANTED = 'This API key is not allowed to call this operation';

interface KeyAnswer {
  id: string;
  name: string;
  prefix: string;
  key: string;
  accessUserId: string;
  operations: string[];
}

async function createKey(body: Record<string, unknown>, token = adminToken): Promise<KeyAnswer> {
  const res = await call(server, 'POST', '/apikey', { token, body });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json().data as KeyAnswer;
  secretsSeen.push(data.key);
  return data;
}

const withKey = (key: string) => ({ headers: { 'x-api-key': key } });

async function keyRow(id: string) {
  const [row] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

async function tally() {
  const [k] = await server.db.select({ n: count() }).from(apiKeys);
  const [a] = await server.db.select({ n: count() }).from(systemAudits);
  return { keys: k.n, audits: a.n };
}

async function lastAudit(recordId: string) {
  const [row] = await server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.recordId, recordId), eq(systemAudits.model, 'apikey')))
    .orderBy(desc(systemAudits.createdAt))
    .limit(1);
  return row;
}

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('POST /apikey', () => {
  it('makes a key acting as the caller; the secret is answered once and stored only hashed', async () => {
    const res = await call(server, 'POST', '/apikey', { token: adminToken, body: { name: '  Reporting  ' } });
    expect(res.statusCode, res.body).toBe(201);
    const { data, message } = res.json();
    secretsSeen.push(data.key);
    expect(message).toContain('it is not shown again');
    expect(data.key).toMatch(KEY_FORMAT);
    expect(data).toEqual({
      id: expect.any(String),
      name: 'Reporting',
      prefix: data.key.slice(4, 16),
      accessUserId: adminId,
      accessUserName: 'Ada Admin',
      createdBy: adminId,
      createdByName: 'Ada Admin',
      isActive: true,
      isDeleted: false,
      expiresAt: null,
      lastUsedAt: null,
      operations: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      key: data.key,
    });
    const row = await keyRow(data.id);
    expect(row.companyId).toBe(server.company.companyId);
    expect(row.keyHash).not.toContain(data.key);
    expect(row.keyHash).not.toBe(data.key);
    const audit = await lastAudit(data.id);
    expect(audit).toMatchObject({ operation: 'create', userId: adminId });
    expect(audit.changes).toEqual({
      after: { name: 'Reporting', prefix: data.prefix, accessUserId: adminId, expiresAt: null, operations: [], isActive: true },
    });
  });

  it('lets an admin make a key for another active user, with an expiry and operations', async () => {
    const expiresAt = future(30);
    const key = await createKey({ name: 'For Mona', accessUserId: member.id, expiresAt, operations: ['get_workspaces', 'get_workspaces'] });
    expect(key).toMatchObject({ accessUserId: member.id, operations: ['get_workspaces'] });
    expect((await keyRow(key.id)).expiresAt?.toISOString()).toBe(expiresAt);
  });

  it('lets a user with the create policy make keys for themselves only', async () => {
    const own = await createKey({ name: 'Mine' }, keyManager.token);
    expect(own.accessUserId).toBe(keyManager.id);
    const before = await tally();
    const res = await call(server, 'POST', '/apikey', { token: keyManager.token, body: { name: 'As Mona', accessUserId: member.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('accessUserId: you may only make keys that act as yourself');
    expect(await tally()).toEqual(before);
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '' }, 'name: is required'],
    [{ name: 'n'.repeat(81) }, 'name: must be at most 80 characters'],
    [{ name: 'Old', expiresAt: '2020-01-01' }, 'expiresAt: must be in the future'],
    [{ name: 'Odd', expiresAt: 'next tuesday' }, 'expiresAt: must be a date such as 2030-01-31'],
    [{ name: 'Ops', operations: 'get_workspaces' }, 'operations: must be a list of operation ids'],
    [{ name: 'Ops', operations: ['drop table'] }, 'operations.0: must be operation ids'],
    [
      { name: 'Ops', operations: ['get_workspaces', 'get_nothing_here'] },
      'operations: not operations a key may be granted: get_nothing_here',
    ],
    [
      { name: 'Ops', operations: ['post_apikey', 'put_session_logout'] },
      'operations: not operations a key may be granted: post_apikey, put_session_logout',
    ],
    [{ name: 'Who', accessUserId: 'nobody' }, 'accessUserId: must be a valid id'],
  ])('refuses %j with 400 naming the field, storing nothing', async (body, message) => {
    const before = await tally();
    const res = await call(server, 'POST', '/apikey', { token: adminToken, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await tally()).toEqual(before);
  });

  it('refuses an access user who is not an active user of the company', async () => {
    const invited = await inviteUser(server, adminToken, { email: 'key.invited@acme.test' });
    const [theirAdmin] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, other.adminEmail));
    const before = await tally();
    for (const accessUserId of [invited.id, theirAdmin.id]) {
      const res = await call(server, 'POST', '/apikey', { token: adminToken, body: { name: 'Nope', accessUserId } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('accessUserId: no active user of the company has this id');
    }
    expect(await tally()).toEqual(before);
  });

  it('is refused without the create policy', async () => {
    const before = await tally();
    for (const token of [keyReader.token, outsider.token]) {
      const res = await call(server, 'POST', '/apikey', { token, body: { name: 'Denied' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Resource Access not provided');
    }
    expect(await tally()).toEqual(before);
  });
});

describe('reading keys', () => {
  it('lists the live keys of the company, newest first, without secrets', async () => {
    const older = await createKey({ name: 'List older' });
    const newer = await createKey({ name: 'List newer', accessUserId: member.id });
    const gone = await createKey({ name: 'List gone' });
    expect((await call(server, 'DELETE', `/apikey/${gone.id}`, { token: adminToken })).statusCode).toBe(200);
    const theirs = await call(server, 'POST', '/apikey', { token: other.adminToken, body: { name: 'Theirs' } });
    secretsSeen.push(theirs.json().data.key);

    const res = await call(server, 'GET', '/apikeys/0/100', { token: keyReader.token });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, count: total, countExact } = res.json().data;
    expect(countExact).toBe(true);
    expect(total).toBe(rows.length);
    const ids = rows.map((r: { id: string }) => r.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(gone.id);
    expect(ids).not.toContain(theirs.json().data.id);
    const row = rows.find((r: { id: string }) => r.id === newer.id);
    expect(row).toMatchObject({ name: 'List newer', accessUserId: member.id, accessUserName: 'Mona Invitee', createdByName: 'Ada Admin' });
    expect(row).not.toHaveProperty('key');
    expect(row).not.toHaveProperty('keyHash');

    const page = await call(server, 'GET', '/apikeys/1/1', { token: adminToken });
    expect(page.json().data).toMatchObject({ rows: [expect.objectContaining({ id: ids[1] })], count: total, countExact: true });
  });

  it('reads one key (deleted ones too), never its secret', async () => {
    const key = await createKey({ name: 'Read me' });
    const res = await call(server, 'GET', `/apikey/${key.id}`, { token: keyReader.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: key.id, name: 'Read me', prefix: key.prefix });
    expect(res.json().data).not.toHaveProperty('key');
    expect(res.body).not.toContain(key.key);
  });

  it("answers 404 for another company's key and 400 for a malformed id", async () => {
    const theirs = await call(server, 'POST', '/apikey', { token: other.adminToken, body: { name: 'Their secret' } });
    secretsSeen.push(theirs.json().data.key);
    const res = await call(server, 'GET', `/apikey/${theirs.json().data.id}`, { token: adminToken });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('API key not found');
    const bad = await call(server, 'GET', '/apikey/abc', { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('id: must be a valid id');
  });

  it('is refused without the read policy', async () => {
    const key = await createKey({ name: 'Hidden' });
    for (const path of ['/apikeys/0/10', `/apikey/${key.id}`, '/apikey/cards', '/apikey/filter/props']) {
      const res = await call(server, 'GET', path, { token: outsider.token });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().message).toBe('Resource Access not provided');
    }
    const filter = await call(server, 'POST', '/apikey/filter/0/10', { token: outsider.token, body: {} });
    expect(filter.statusCode).toBe(403);
  });
});

describe('PUT /apikey/{id}', () => {
  it('changes the name, the expiry and the access user, and audits what changed', async () => {
    const key = await createKey({ name: 'Editable', expiresAt: future(10) });
    const res = await call(server, 'PUT', `/apikey/${key.id}`, {
      token: adminToken,
      body: { name: 'Edited', expiresAt: null, accessUserId: member.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Edited', expiresAt: null, accessUserId: member.id, accessUserName: 'Mona Invitee' });
    expect(res.json().data).not.toHaveProperty('key');
    expect(await keyRow(key.id)).toMatchObject({ name: 'Edited', expiresAt: null, accessUserId: member.id });
    const audit = await lastAudit(key.id);
    expect(audit).toMatchObject({ operation: 'update', userId: adminId });
    expect(audit.changes).toEqual({
      before: { name: 'Editable', expiresAt: expect.any(String), accessUserId: adminId },
      after: { name: 'Edited', expiresAt: null, accessUserId: member.id },
    });
  });

  it('refuses bad fields with 400 naming them, changing nothing', async () => {
    const key = await createKey({ name: 'Steady' }, keyManager.token);
    const before = await keyRow(key.id);
    const audits = await tally();
    for (const [body, message] of [
      [{ name: '' }, 'name: is required'],
      [{ expiresAt: '1999-12-31' }, 'expiresAt: must be in the future'],
      [{ accessUserId: member.id }, 'accessUserId: you may only make keys that act as yourself'],
    ] as const) {
      const res = await call(server, 'PUT', `/apikey/${key.id}`, { token: keyManager.token, body });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await keyRow(key.id)).toEqual(before);
    expect(await tally()).toEqual(audits);
  });

  it("answers 404 for another company's key, leaving it unchanged; 403 without the update policy", async () => {
    const theirs = await call(server, 'POST', '/apikey', { token: other.adminToken, body: { name: 'Theirs to edit' } });
    secretsSeen.push(theirs.json().data.key);
    const id = theirs.json().data.id;
    const before = await keyRow(id);
    const res = await call(server, 'PUT', `/apikey/${id}`, { token: adminToken, body: { name: 'Mine' } });
    expect(res.statusCode).toBe(404);
    expect(await keyRow(id)).toEqual(before);

    const own = await createKey({ name: 'Read-only here' });
    const denied = await call(server, 'PUT', `/apikey/${own.id}`, { token: keyReader.token, body: { name: 'Changed' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
    expect((await keyRow(own.id)).name).toBe('Read-only here');
  });
});

describe('keys acting as someone else', () => {
  it('may be changed, reactivated or granted operations only by an admin', async () => {
    const adminsKey = await createKey({ name: 'Admin reporting', operations: [] });
    await call(server, 'PUT', `/apikey/deactivate/${adminsKey.id}`, { token: adminToken });
    const before = await keyRow(adminsKey.id);
    for (const [method, path, body] of [
      ['PUT', `/apikey/${adminsKey.id}`, { name: 'Borrowed' }],
      ['PUT', `/apikey/activate/${adminsKey.id}`, undefined],
      ['POST', `/openapi/assign/${adminsKey.id}`, { operations: ['get_workspaces'] }],
    ] as const) {
      const res = await call(server, method, path, { token: keyManager.token, body });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().message).toContain('only an admin may change a key that acts as someone else');
    }
    expect(await keyRow(adminsKey.id)).toEqual(before);
  });
});

describe('activation and deletion', () => {
  it('deactivates and activates a key, auditing each', async () => {
    const key = await createKey({ name: 'Toggle' }, keyManager.token);
    const off = await call(server, 'PUT', `/apikey/deactivate/${key.id}`, { token: keyManager.token });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ id: key.id, isActive: false });
    expect((await keyRow(key.id)).isActive).toBe(false);
    expect(await lastAudit(key.id)).toMatchObject({
      operation: 'deactivate',
      userId: keyManager.id,
      changes: { before: { isActive: true }, after: { isActive: false } },
    });
    const on = await call(server, 'PUT', `/apikey/activate/${key.id}`, { token: keyManager.token });
    expect(on.statusCode).toBe(200);
    expect((await keyRow(key.id)).isActive).toBe(true);
    expect((await lastAudit(key.id)).operation).toBe('activate');
  });

  it('deletes a key: it leaves the lists, cannot come back, and is audited', async () => {
    const key = await createKey({ name: 'Delete me' });
    const res = await call(server, 'DELETE', `/apikey/${key.id}`, { token: keyManager.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('API key "Delete me" deleted');
    expect(await keyRow(key.id)).toMatchObject({ isDeleted: true, isActive: false });
    const audit = await lastAudit(key.id);
    expect(audit).toMatchObject({ operation: 'delete', userId: keyManager.id });
    expect(audit.changes).toMatchObject({ before: { name: 'Delete me', isActive: true } });

    const audits = await tally();
    const activate = await call(server, 'PUT', `/apikey/activate/${key.id}`, { token: adminToken });
    expect(activate.statusCode).toBe(400);
    expect(activate.json().message).toBe('This API key is deleted; it cannot be changed');
    const edit = await call(server, 'PUT', `/apikey/${key.id}`, { token: adminToken, body: { name: 'Back' } });
    expect(edit.statusCode).toBe(400);
    const again = await call(server, 'DELETE', `/apikey/${key.id}`, { token: adminToken });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('This API key is already deleted');
    expect(await keyRow(key.id)).toMatchObject({ isDeleted: true, isActive: false, name: 'Delete me' });
    expect(await tally()).toEqual(audits);
  });

  it("answers 404 for another company's key on every change, leaving it unchanged", async () => {
    const theirs = await call(server, 'POST', '/apikey', { token: other.adminToken, body: { name: 'Theirs to toggle' } });
    secretsSeen.push(theirs.json().data.key);
    const id = theirs.json().data.id;
    const before = await keyRow(id);
    for (const [method, path] of [
      ['PUT', `/apikey/deactivate/${id}`],
      ['PUT', `/apikey/activate/${id}`],
      ['DELETE', `/apikey/${id}`],
    ] as const) {
      const res = await call(server, method, path, { token: adminToken });
      expect(res.statusCode, path).toBe(404);
    }
    expect(await keyRow(id)).toEqual(before);
  });

  it('needs the update policy to toggle and the delete policy to delete', async () => {
    const key = await createKey({ name: 'Protected' });
    for (const [method, path] of [
      ['PUT', `/apikey/deactivate/${key.id}`],
      ['PUT', `/apikey/activate/${key.id}`],
      ['DELETE', `/apikey/${key.id}`],
    ] as const) {
      const res = await call(server, method, path, { token: keyReader.token });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().message).toBe('Resource Access not provided');
    }
    expect(await keyRow(key.id)).toMatchObject({ isActive: true, isDeleted: false });
  });
});

describe('filters and cards', () => {
  let co: Awaited<ReturnType<typeof createOtherCompany>>;
  let coMember: { id: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    co = await createOtherCompany(server, 'filterco');
    coMember = await createActiveUser(server, co.adminToken, {
      email: 'worker@filterco.test',
      firstName: 'Wanda',
      roleId: co.memberRoleId,
    });
    const make = async (name: string, body: Record<string, unknown> = {}) => {
      const res = await call(server, 'POST', '/apikey', { token: co.adminToken, body: { name, ...body } });
      expect(res.statusCode, res.body).toBe(201);
      secretsSeen.push(res.json().data.key);
      ids[name] = res.json().data.id;
    };
    await make('Alpha');
    await make('Beta', { accessUserId: coMember.id });
    await make('Gamma off');
    await make('Delta gone');
    await make('Epsilon expired');
    await make('Zeta recent', { accessUserId: coMember.id });
    await make('Eta stale');
    await call(server, 'PUT', `/apikey/deactivate/${ids['Gamma off']}`, { token: co.adminToken });
    await call(server, 'DELETE', `/apikey/${ids['Delta gone']}`, { token: co.adminToken });
    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(apiKeys.id, ids['Epsilon expired']));
    await server.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 86_400_000) })
      .where(eq(apiKeys.id, ids['Zeta recent']));
    await server.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(apiKeys.id, ids['Eta stale']));
    await server.db
      .update(apiKeys)
      .set({ createdAt: new Date('2030-01-15T12:00:00Z') })
      .where(eq(apiKeys.id, ids['Alpha']));
  });

  const names = (rows: Array<{ id: string }>) => rows.map((r) => Object.keys(ids).find((n) => ids[n] === r.id)).sort();
  const filter = (body: unknown, token = co.adminToken) => call(server, 'POST', '/apikey/filter/0/50', { token, body });

  it('counts the keys of the company in cards', async () => {
    const res = await call(server, 'GET', '/apikey/cards', { token: co.adminToken });
    expect(res.statusCode).toBe(200);
    const cards = Object.fromEntries(res.json().data.cards.map((c: { key: string; value: number }) => [c.key, c.value]));
    expect(cards).toEqual({ total: 6, active: 4, inactive: 1, expired: 1, deleted: 1, recentlyUsed: 1 });
    expect(res.json().data.cards[0]).toEqual({ key: 'total', label: 'API keys', value: 6 });
  });

  it('filters by access user, creator, state, dates and text', async () => {
    const all = await filter({});
    expect(all.statusCode, all.body).toBe(200);
    expect(names(all.json().data.rows)).toEqual(['Alpha', 'Beta', 'Epsilon expired', 'Eta stale', 'Gamma off', 'Zeta recent']);
    expect(all.json().data.count).toBe(6);

    expect(names((await filter({ accessUser: coMember.id })).json().data.rows)).toEqual(['Beta', 'Zeta recent']);
    expect(names((await filter({ accessUser: [coMember.id, co.adminUserId], isActive: 'false' })).json().data.rows)).toEqual(['Gamma off']);
    expect(names((await filter({ isActive: false })).json().data.rows)).toEqual(['Gamma off']);
    expect(names((await filter({ isDeleted: 'true' })).json().data.rows)).toEqual(['Delta gone']);
    expect(names((await filter({ isDeleted: true, isActive: true })).json().data.rows)).toEqual([]);
    expect((await filter({ isDeleted: [true, false] })).json().data.count).toBe(7);
    expect((await filter({ createduser: co.adminUserId, isActive: '' })).json().data.count).toBe(6);
    expect((await filter({ createduser: coMember.id })).json().data.count).toBe(0);
    expect(names((await filter({ startDate: '2030-01-01', endDate: '2030-01-31' })).json().data.rows)).toEqual(['Alpha']);
    expect(names((await filter({ search: 'ETA' })).json().data.rows)).toEqual(['Beta', 'Eta stale', 'Zeta recent']);
    expect(names((await filter({ search: 'wanda' })).json().data.rows)).toEqual(['Beta', 'Zeta recent']);
    const prefix = (await keyRow(ids['Alpha'])).prefix;
    expect(names((await filter({ search: prefix })).json().data.rows)).toEqual(['Alpha']);
  });

  it('refuses unknown filter fields and bad values with 400 naming them', async () => {
    for (const [body, message] of [
      [{ colour: 'red' }, 'colour'],
      [{ isActive: 'maybe' }, 'isActive: must be true or false'],
      [{ accessUser: 'someone' }, 'accessUser'],
      [{ startDate: 'yesterday' }, 'startDate: must be a date such as 2026-11-01'],
    ] as const) {
      const res = await filter(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(message);
    }
  });

  it("offers the company's access users and creators as filter choices", async () => {
    const res = await call(server, 'GET', '/apikey/filter/props', { token: co.adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      accessUser: [
        { id: co.adminUserId, name: 'Other Admin' },
        { id: coMember.id, name: 'Wanda Invitee' },
      ],
      createduser: [{ id: co.adminUserId, name: 'Other Admin' }],
      isActive: [
        { id: 'true', name: 'Active' },
        { id: 'false', name: 'Inactive' },
      ],
      isDeleted: [
        { id: 'false', name: 'Not deleted' },
        { id: 'true', name: 'Deleted' },
      ],
    });
  });
});

describe('calling the API with a key', () => {
  it('calls a granted operation as its access user and records the use', async () => {
    const key = await createKey({ name: 'Workspace reader', operations: ['get_workspaces'] });
    expect((await keyRow(key.id)).lastUsedAt).toBeNull();
    await call(server, 'POST', '/workspaces', { token: adminToken, body: { name: 'Seen by key' } });
    const res = await call(server, 'GET', '/workspaces', withKey(key.key));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.rows.map((r: { name: string }) => r.name)).toContain('Seen by key');
    const used = (await keyRow(key.id)).lastUsedAt;
    expect(used).toBeInstanceOf(Date);
    expect(Date.now() - used!.getTime()).toBeLessThan(10_000);
    const shown = await call(server, 'GET', `/apikey/${key.id}`, { token: adminToken });
    expect(shown.json().data.lastUsedAt).toBe(used!.toISOString());
  });

  it('lists users with a key granted get_users_offset_limit, and nothing more', async () => {
    const key = await createKey({ name: 'Directory sync', operations: ['get_users_offset_limit'] });
    const res = await call(server, 'GET', '/users/0/10', withKey(key.key));
    expect(res.statusCode, res.body).toBe(200);
    const emails = res.json().data.rows.map((r: { email: string }) => r.email);
    expect(emails).toContain(server.company.adminEmail);
    expect(emails).toContain(member.email);
    expect(emails).not.toContain(other.adminEmail);
    const one = await call(server, 'GET', `/users/${member.id}`, withKey(key.key));
    expect(one.statusCode).toBe(403);
    expect(one.json().message).toBe(NOT_GRANTED);

    // The same grant on a key of a user who may not read users opens nothing.
    const narrow = await createKey({ name: 'Directory, no rights', operations: ['get_users_offset_limit'] }, keyManager.token);
    const denied = await call(server, 'GET', '/users/0/10', withKey(narrow.key));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
  });

  it('refuses operations not granted (403), and key management whatever is granted', async () => {
    const key = await createKey({ name: 'Narrow', operations: ['get_workspaces'] });
    for (const [method, path] of [
      ['GET', '/workspaces/active'],
      ['POST', '/workspaces'],
      ['GET', '/apikeys/0/10'],
      ['POST', '/apikey'],
      ['GET', '/openapi'],
      ['GET', '/lists/columns'],
    ] as const) {
      const res = await call(server, method, path, { ...withKey(key.key), body: method === 'POST' ? { name: 'x' } : undefined });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().message).toBe(NOT_GRANTED);
    }
  });

  it('acts with the permissions of its access user', async () => {
    // keyManager may manage keys but holds nothing on workspaces.
    const key = await createKey({ name: 'No workspace rights', operations: ['get_workspaces'] }, keyManager.token);
    const res = await call(server, 'GET', '/workspaces', withKey(key.key));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Resource Access not provided');

    const writer = await userWithPolicies(server, adminToken, 'key.writer@acme.test', [
      { resource: 'apikeys', actions: ['create'] },
      { resource: 'workspaces', actions: ['create'] },
    ]);
    const writerKey = await createKey({ name: 'Writer', operations: ['post_workspaces'] }, writer.token);
    const created = await call(server, 'POST', '/workspaces', { ...withKey(writerKey.key), body: { name: 'Made by a key' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ createdBy: writer.id });
    const [audit] = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, created.json().data.id));
    expect(audit).toMatchObject({
      model: 'workspace',
      operation: 'create',
      userId: writer.id,
      apiKeyId: writerKey.id,
      companyId: server.company.companyId,
    });

    // The audit list says which key made the change; a change made in a session names none.
    const bySession = await call(server, 'POST', '/workspaces', { token: writer.token, body: { name: 'Made in a session' } });
    const entries = (await call(server, 'POST', '/system/audits/filter/0/50', { token: adminToken, body: { model: 'workspace' } })).json()
      .data.rows;
    const entryOf = (recordId: string) => entries.find((row: { recordId: string }) => row.recordId === recordId);
    expect(entryOf(created.json().data.id)).toMatchObject({ userId: writer.id, apiKeyId: writerKey.id, apiKeyName: 'Writer' });
    expect(entryOf(bySession.json().data.id)).toMatchObject({ userId: writer.id, apiKeyId: null, apiKeyName: null });
  });

  it('stops working when deactivated, deleted or expired, and with a wrong secret (401)', async () => {
    const key = await createKey({ name: 'Short-lived', operations: ['get_workspaces'] });
    const works = () => call(server, 'GET', '/workspaces', withKey(key.key));
    expect((await works()).statusCode).toBe(200);

    await call(server, 'PUT', `/apikey/deactivate/${key.id}`, { token: adminToken });
    const off = await works();
    expect(off.statusCode).toBe(401);
    expect(off.json().message).toBe(REFUSED);
    await call(server, 'PUT', `/apikey/activate/${key.id}`, { token: adminToken });
    expect((await works()).statusCode).toBe(200);

    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, key.id));
    expect((await works()).statusCode).toBe(401);
    await server.db.update(apiKeys).set({ expiresAt: null }).where(eq(apiKeys.id, key.id));
    expect((await works()).statusCode).toBe(200);

    const wrong = `${key.key.slice(0, 17)}${key.key.slice(17).split('').reverse().join('')}`;
    expect(wrong).not.toBe(key.key);
    const forged = await call(server, 'GET', '/workspaces', withKey(wrong));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(REFUSED);
    for (const garbage of ['dok_short', 'Bearer nothing', `${key.key}x`]) {
      expect((await call(server, 'GET', '/workspaces', withKey(garbage))).statusCode, garbage).toBe(401);
    }

    await call(server, 'DELETE', `/apikey/${key.id}`, { token: adminToken });
    const deleted = await works();
    expect(deleted.statusCode).toBe(401);
    expect(deleted.json().message).toBe(REFUSED);
  });

  it('stops working when its access user is deactivated', async () => {
    const holder = await userWithPolicies(server, adminToken, 'key.holder@acme.test', [
      { resource: 'apikeys', actions: ['create'] },
      { resource: 'workspaces', actions: ['read'] },
    ]);
    const key = await createKey({ name: 'Holder', operations: ['get_workspaces'] }, holder.token);
    expect((await call(server, 'GET', '/workspaces', withKey(key.key))).statusCode).toBe(200);
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, holder.id));
    expect((await call(server, 'GET', '/workspaces', withKey(key.key))).statusCode).toBe(401);
  });

  it("reaches only its own company's records", async () => {
    const theirs = await call(server, 'POST', '/workspaces', { token: other.adminToken, body: { name: 'Globex only' } });
    const key = await createKey({ name: 'Tenant bound', operations: ['get_workspaces', 'put_workspace'] });
    const list = await call(server, 'GET', '/workspaces', withKey(key.key));
    expect(list.json().data.rows.map((r: { name: string }) => r.name)).not.toContain('Globex only');
    const edit = await call(server, 'PUT', '/workspace', { ...withKey(key.key), body: { id: theirs.json().data.id, name: 'Taken over' } });
    expect(edit.statusCode).toBe(404);
    const [row] = await server.db.select().from(workspaces).where(eq(workspaces.id, theirs.json().data.id));
    expect(row.name).toBe('Globex only');
  });

  it('never answers a secret again, nor writes one or its hash to the audit', async () => {
    expect(secretsSeen.length).toBeGreaterThan(20);
    const answers = await Promise.all([
      call(server, 'GET', '/apikeys/0/1000', { token: adminToken }),
      call(server, 'POST', '/apikey/filter/0/1000', { token: adminToken, body: { isDeleted: [true, false] } }),
      call(server, 'GET', '/apikey/filter/props', { token: adminToken }),
      call(server, 'GET', '/apikey/cards', { token: adminToken }),
      call(server, 'GET', '/openapi/document', { token: adminToken }),
      call(server, 'GET', '/apikeys/0/1000', { token: other.adminToken }),
    ]);
    const allKeys = await server.db.select({ id: apiKeys.id, keyHash: apiKeys.keyHash }).from(apiKeys);
    const singles = await Promise.all(allKeys.map((k) => call(server, 'GET', `/apikey/${k.id}`, { token: adminToken })));
    const text = [...answers, ...singles].map((r) => r.body).join('\n');
    expect(text).not.toContain('keyHash');
    const audits = JSON.stringify(await server.db.select().from(systemAudits));
    for (const secret of secretsSeen) {
      expect(text).not.toContain(secret);
      expect(audits).not.toContain(secret);
    }
    for (const { keyHash } of allKeys) {
      expect(text).not.toContain(keyHash);
      expect(audits).not.toContain(keyHash);
    }
  });
});
