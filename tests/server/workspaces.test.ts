import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { systemAudits, workspaceMembers, workspaces } from '../../server/db/schema';
import { addMembers } from '../../server/workspaces/members';
import { call, createActiveUser, createOtherCompany, HOSTILE, signInAdmin, userWithPolicies } from './helpers';

let server: TestServer;
let adminToken: string;
let adminId: string;
/** Holds no policy on workspaces. */
let outsider: { id: string; token: string };
/** May read workspaces, nothing else. */
let reader: { id: string; token: string };
/** May create and update workspaces, not delete them. */
let editor: { id: string; token: string };
let other: Awaited<ReturnType<typeof createOtherCompany>>;

beforeAll(async () => {
  server = await createTestServer();
  const admin = await signInAdmin(server);
  adminToken = admin.accessToken!;
  adminId = admin.id;
  outsider = await userWithPolicies(server, adminToken, 'outsider@acme.test', []);
  reader = await userWithPolicies(server, adminToken, 'ws.reader@acme.test', [{ resource: 'workspaces', actions: ['read'] }]);
  editor = await userWithPolicies(server, adminToken, 'ws.editor@acme.test', [
    { resource: 'workspaces', actions: ['read', 'create', 'update'] },
  ]);
  other = await createOtherCompany(server);
});
afterAll(async () => {
  await server?.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A multipart/form-data body, optionally with a file part. */
function multipart(fields: Record<string, string>, file?: { field: string; filename: string; content: string }) {
  const boundary = `----dataops${Math.random().toString(16).slice(2)}`;
  let body = '';
  for (const [name, value] of Object.entries(fields)) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  if (file) {
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`;
  }
  body += `--${boundary}--\r\n`;
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function createWorkspace(name: string, token = adminToken, description = '') {
  const res = await call(server, 'POST', '/workspaces', { token, body: { name, description } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; name: string; description: string; isActive: boolean; memberCount: number };
}

async function workspaceRow(id: string) {
  const [row] = await server.db.select().from(workspaces).where(eq(workspaces.id, id));
  return row;
}

async function tally() {
  const [w] = await server.db.select({ n: count() }).from(workspaces);
  const [a] = await server.db.select({ n: count() }).from(systemAudits);
  return { workspaces: w.n, audits: a.n };
}

async function lastAudit(recordId: string) {
  const [row] = await server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.recordId, recordId), eq(systemAudits.model, 'workspace')))
    .orderBy(desc(systemAudits.createdAt))
    .limit(1);
  return row;
}

describe('POST /workspaces', () => {
  it('creates a workspace from a url-encoded form and audits it', async () => {
    const res = await call(server, 'POST', '/workspaces', {
      token: adminToken,
      headers: FORM,
      body: form({ name: '  Finance ', description: 'Money matters' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { data, message } = res.json();
    expect(message).toBe('Workspace "Finance" created');
    expect(data).toMatchObject({
      name: 'Finance',
      description: 'Money matters',
      isActive: true,
      memberCount: 0,
      createdBy: adminId,
      createdByName: 'Ada Admin',
    });
    const row = await workspaceRow(data.id);
    expect(row).toMatchObject({ companyId: server.company.companyId, name: 'Finance', description: 'Money matters', deletedAt: null });
    const audit = await lastAudit(data.id);
    expect(audit).toMatchObject({ operation: 'create', userId: adminId, companyId: server.company.companyId });
    expect(audit.changes).toEqual({ after: { name: 'Finance', description: 'Money matters', isActive: true } });
  });

  it('creates a workspace from a multipart form', async () => {
    const { body, headers } = multipart({ name: 'Marketing', description: 'Campaigns' });
    const res = await call(server, 'POST', '/workspaces', { token: adminToken, headers, body });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Marketing', description: 'Campaigns' });
    expect((await workspaceRow(res.json().data.id)).name).toBe('Marketing');
  });

  it('creates a workspace from JSON, without a description', async () => {
    const res = await call(server, 'POST', '/workspaces', { token: editor.token, body: { name: 'Sales' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Sales', description: '', createdBy: editor.id });
  });

  it.each([
    [{ description: 'no name' }, 'name: is required'],
    [{ name: '   ' }, 'name: is required'],
    [{ name: 'x'.repeat(81) }, 'name: must be at most 80 characters'],
    [{ name: 'Ok', description: 'd'.repeat(501) }, 'description: must be at most 500 characters'],
    [{ name: 42 }, 'name:'],
  ])('refuses %j with 400 naming the field and stores nothing', async (body, message) => {
    const before = await tally();
    const res = await call(server, 'POST', '/workspaces', { token: adminToken, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await tally()).toEqual(before);
  });

  it('checks form bodies like JSON ones', async () => {
    const before = await tally();
    const encoded = await call(server, 'POST', '/workspaces', { token: adminToken, headers: FORM, body: form({ name: 'y'.repeat(81) }) });
    expect(encoded.statusCode).toBe(400);
    expect(encoded.json().message).toBe('name: must be at most 80 characters');
    const { body, headers } = multipart({ description: 'nameless' });
    const multi = await call(server, 'POST', '/workspaces', { token: adminToken, headers, body });
    expect(multi.statusCode).toBe(400);
    expect(multi.json().message).toContain('name:');
    expect(await tally()).toEqual(before);
  });

  it('refuses a file in a multipart form, naming its field', async () => {
    const before = await tally();
    const { body, headers } = multipart({ name: 'With file' }, { field: 'logo', filename: 'a.txt', content: 'hello' });
    const res = await call(server, 'POST', '/workspaces', { token: adminToken, headers, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('logo: files are not accepted here');
    expect(await tally()).toEqual(before);
  });

  it('refuses oversized and hostile bodies without storing anything', async () => {
    const before = await tally();
    const huge = await call(server, 'POST', '/workspaces', {
      token: adminToken,
      headers: FORM,
      body: form({ name: 'Big', description: HOSTILE.huge }),
    });
    expect(huge.statusCode).toBe(413);
    const large = await call(server, 'POST', '/workspaces', {
      token: adminToken,
      headers: FORM,
      body: form({ name: 'Big', description: 'z'.repeat(70 * 1024) }),
    });
    expect(large.statusCode).toBe(413);
    expect(large.json().message).toBe('The form is too large (at most 64 KB)');
    const json = await call(server, 'POST', '/workspaces', { token: adminToken, body: { name: 'Big', description: HOSTILE.huge } });
    expect(json.statusCode).toBe(413);
    const many = await call(server, 'POST', '/workspaces', {
      token: adminToken,
      headers: FORM,
      body: Array.from({ length: 30 }, (_, i) => `f${i}=1`).join('&'),
    });
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toMatch(/^body: a form may hold at most 20 fields/);
    const xml = await call(server, 'POST', '/workspaces', {
      token: adminToken,
      headers: { 'content-type': 'application/xml' },
      body: '<name/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(await tally()).toEqual(before);
  });

  it('keeps hostile text as text', async () => {
    const created = await createWorkspace(HOSTILE.sql, adminToken, HOSTILE.html);
    expect((await workspaceRow(created.id)).name).toBe(HOSTILE.sql);
    expect(created.description).toBe(HOSTILE.html);
  });

  it('refuses a name already used in the company, in any case, with 409', async () => {
    await createWorkspace('Research');
    const before = await tally();
    const res = await call(server, 'POST', '/workspaces', { token: adminToken, headers: FORM, body: form({ name: 'RESEARCH' }) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A workspace with this name already exists');
    expect(await tally()).toEqual(before);
  });

  it('allows a name another company uses, and the name of a deleted workspace', async () => {
    const theirs = await call(server, 'POST', '/workspaces', { token: other.adminToken, body: { name: 'Research' } });
    expect(theirs.statusCode).toBe(201);
    const gone = await createWorkspace('Temporary');
    expect((await call(server, 'PUT', `/workspace/${gone.id}`, { token: adminToken })).statusCode).toBe(200);
    const again = await createWorkspace('temporary');
    expect(again.id).not.toBe(gone.id);
  });

  it('is refused without the create policy, and without a token', async () => {
    const before = await tally();
    const res = await call(server, 'POST', '/workspaces', { token: reader.token, body: { name: 'Nope' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Resource Access not provided');
    const anonymous = await call(server, 'POST', '/workspaces', { body: { name: 'Nope' } });
    expect(anonymous.statusCode).toBe(401);
    expect(await tally()).toEqual(before);
  });
});

describe('GET /workspaces and GET /workspaces/active', () => {
  it('lists the live workspaces of the company, newest first, with member counts', async () => {
    const a = await createWorkspace('Listed A');
    const b = await createWorkspace('Listed B');
    const member = await createActiveUser(server, adminToken, { email: 'ws.member@acme.test' });
    await addMembers(server.db, server.company.companyId, [
      { workspaceId: b.id, userId: member.id },
      { workspaceId: b.id, userId: adminId },
      { workspaceId: a.id, userId: adminId },
    ]);
    const res = await call(server, 'GET', '/workspaces', { token: reader.token });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, count: total, countExact } = res.json().data;
    expect(countExact).toBe(true);
    expect(total).toBe(rows.length);
    const names = rows.map((r: { name: string }) => r.name);
    expect(names.indexOf('Listed B')).toBeLessThan(names.indexOf('Listed A'));
    expect(rows.find((r: { id: string }) => r.id === b.id)).toEqual({
      id: b.id,
      name: 'Listed B',
      description: '',
      isActive: true,
      memberCount: 2,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: adminId,
      createdByName: 'Ada Admin',
    });
    expect(rows.find((r: { id: string }) => r.id === a.id).memberCount).toBe(1);
    // Another company's workspace of the same name is not in the list.
    expect(names.filter((n: string) => n === 'Research')).toHaveLength(1);
    const live = await server.db
      .select({ n: count() })
      .from(workspaces)
      .where(and(eq(workspaces.companyId, server.company.companyId)));
    expect(total).toBeLessThan(live[0].n); // deleted ones are left out
  });

  it('refuses the list without the read policy', async () => {
    const res = await call(server, 'GET', '/workspaces', { token: outsider.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Resource Access not provided');
  });

  it('offers the active workspaces by name to every signed-in user', async () => {
    const off = await createWorkspace('Dormant');
    expect((await call(server, 'PUT', '/workspace', { token: adminToken, body: { id: off.id, isActive: false } })).statusCode).toBe(200);
    const res = await call(server, 'GET', '/workspaces/active', { token: outsider.token });
    expect(res.statusCode, res.body).toBe(200);
    const data: Array<{ id: string; name: string }> = res.json().data;
    expect(Object.keys(data[0]).sort()).toEqual(['id', 'name']);
    const names = data.map((w) => w.name);
    expect(names).not.toContain('Dormant');
    expect(names).not.toContain('Temporary'); // deleted
    expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    const theirs = await call(server, 'GET', '/workspaces/active', { token: other.adminToken });
    expect(theirs.json().data.map((w: { name: string }) => w.name)).toEqual(['Research']);
  });
});

describe('PUT /workspace', () => {
  it('edits from a form body, and audits only what changed', async () => {
    const ws = await createWorkspace('Ops', adminToken, 'Operations');
    const res = await call(server, 'PUT', '/workspace', {
      token: editor.token,
      headers: FORM,
      body: form({ id: ws.id, name: 'Operations', description: 'Operations', isActive: 'false' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: ws.id, name: 'Operations', description: 'Operations', isActive: false });
    expect(await workspaceRow(ws.id)).toMatchObject({ name: 'Operations', isActive: false });
    const audit = await lastAudit(ws.id);
    expect(audit).toMatchObject({ operation: 'update', userId: editor.id });
    expect(audit.changes).toEqual({ before: { name: 'Ops', isActive: true }, after: { name: 'Operations', isActive: false } });
  });

  it('edits from multipart and from JSON; a record sent whole is fine', async () => {
    const ws = await createWorkspace('Legal');
    const { body, headers } = multipart({ id: ws.id, description: 'Contracts', isActive: 'true' });
    const multi = await call(server, 'PUT', '/workspace', { token: adminToken, headers, body });
    expect(multi.statusCode, multi.body).toBe(200);
    expect((await workspaceRow(ws.id)).description).toBe('Contracts');
    const whole = { ...multi.json().data, name: 'Legal team', isActive: false };
    const json = await call(server, 'PUT', '/workspace', { token: adminToken, body: whole });
    expect(json.statusCode, json.body).toBe(200);
    expect(await workspaceRow(ws.id)).toMatchObject({ name: 'Legal team', description: 'Contracts', isActive: false });
  });

  // `id: true` stands for the id of a fresh workspace.
  it.each<[Record<string, unknown>, string]>([
    [{ id: 'nope', name: 'X' }, 'id: must be a valid id'],
    [{ name: 'X' }, 'id:'],
    [{ id: true, isActive: 'maybe' }, 'isActive: must be true or false'],
    [{ id: true, name: '' }, 'name: is required'],
  ])('refuses %j with 400 naming the field', async (body, message) => {
    const ws = await createWorkspace(`Valid ${message}`);
    const target = { ...body, id: body.id === true ? ws.id : body.id };
    const before = await workspaceRow(ws.id);
    const audits = await tally();
    const res = await call(server, 'PUT', '/workspace', { token: adminToken, body: target });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await workspaceRow(ws.id)).toEqual(before);
    expect(await tally()).toEqual(audits);
  });

  it('refuses a name another workspace holds (409)', async () => {
    const ws = await createWorkspace('Unique one');
    const res = await call(server, 'PUT', '/workspace', { token: adminToken, body: { id: ws.id, name: 'finance' } });
    expect(res.statusCode).toBe(409);
    expect((await workspaceRow(ws.id)).name).toBe('Unique one');
    // Renaming to its own name in another case is not a clash.
    const same = await call(server, 'PUT', '/workspace', { token: adminToken, body: { id: ws.id, name: 'UNIQUE ONE' } });
    expect(same.statusCode).toBe(200);
  });

  it("answers 404 for another company's workspace and leaves it unchanged", async () => {
    const theirs = await call(server, 'POST', '/workspaces', { token: other.adminToken, body: { name: 'Theirs' } });
    const id = theirs.json().data.id;
    const before = await workspaceRow(id);
    const res = await call(server, 'PUT', '/workspace', { token: adminToken, body: { id, name: 'Mine now' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Workspace not found');
    expect(await workspaceRow(id)).toEqual(before);
  });

  it('is refused without the update policy', async () => {
    const ws = await createWorkspace('Guarded');
    const res = await call(server, 'PUT', '/workspace', { token: reader.token, body: { id: ws.id, name: 'Hacked' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Resource Access not provided');
    expect((await workspaceRow(ws.id)).name).toBe('Guarded');
  });
});

describe('PUT /workspace/{id} (delete)', () => {
  it('hides the workspace everywhere, removes its members and audits it', async () => {
    const ws = await createWorkspace('Doomed', adminToken, 'soon gone');
    const member = await createActiveUser(server, adminToken, { email: 'doomed.member@acme.test' });
    await addMembers(server.db, server.company.companyId, [{ workspaceId: ws.id, userId: member.id }]);
    const res = await call(server, 'PUT', `/workspace/${ws.id}`, { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Workspace "Doomed" deleted');

    const row = await workspaceRow(ws.id);
    expect(row.deletedAt).toBeInstanceOf(Date);
    const members = await server.db.select().from(workspaceMembers).where(eq(workspaceMembers.workspaceId, ws.id));
    expect(members).toEqual([]);
    const audit = await lastAudit(ws.id);
    expect(audit).toMatchObject({ operation: 'delete', userId: adminId });
    expect(audit.changes).toEqual({ before: { name: 'Doomed', description: 'soon gone', isActive: true, memberIds: [member.id] } });

    const list = await call(server, 'GET', '/workspaces', { token: adminToken });
    expect(list.json().data.rows.map((r: { id: string }) => r.id)).not.toContain(ws.id);
    const active = await call(server, 'GET', '/workspaces/active', { token: adminToken });
    expect(active.json().data.map((r: { id: string }) => r.id)).not.toContain(ws.id);
    const edit = await call(server, 'PUT', '/workspace', { token: adminToken, body: { id: ws.id, name: 'Back' } });
    expect(edit.statusCode).toBe(404);
    const again = await call(server, 'PUT', `/workspace/${ws.id}`, { token: adminToken });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Workspace not found');
  });

  it("answers 404 for another company's workspace and leaves it and its members alone", async () => {
    const theirs = await call(server, 'POST', '/workspaces', { token: other.adminToken, body: { name: 'Theirs to keep' } });
    const id = theirs.json().data.id;
    await addMembers(server.db, other.companyId, [{ workspaceId: id, userId: other.adminUserId }]);
    const audits = await tally();
    const res = await call(server, 'PUT', `/workspace/${id}`, { token: adminToken });
    expect(res.statusCode).toBe(404);
    expect((await workspaceRow(id)).deletedAt).toBeNull();
    expect(await server.db.select().from(workspaceMembers).where(eq(workspaceMembers.workspaceId, id))).toHaveLength(1);
    expect(await tally()).toEqual(audits);
  });

  it('is refused without the delete policy, and for a malformed id', async () => {
    const ws = await createWorkspace('Kept');
    const res = await call(server, 'PUT', `/workspace/${ws.id}`, { token: editor.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Resource Access not provided');
    expect((await workspaceRow(ws.id)).deletedAt).toBeNull();
    const bad = await call(server, 'PUT', '/workspace/not-an-id', { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('id: must be a valid id');
  });
});
