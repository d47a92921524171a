import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { notifications, rolePages, rolePolicies, roles, systemAudits, users } from '../../server/db/schema';
import { PAGE_CATALOGUE } from '../../server/auth/pages-catalogue';
import { POLICY_RESOURCES } from '../../server/auth/policies';
import { call, createActiveUser, createOtherCompany, HOSTILE, signInFully, signInAdmin, userWithPolicies } from './helpers';

const DENIED = 'Resource Access not provided';

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let otherRoleId: string;
/** Holds roles/read only. */
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
/** Holds no policy at all. */
let nobody: Awaited<ReturnType<typeof userWithPolicies>>;
/** May read and change roles, but not create or delete them. */
let editor: Awaited<ReturnType<typeof userWithPolicies>>;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token!;
  other = await createOtherCompany(server);
  const made = await call(server, 'POST', '/roles', { token: other.adminToken, body: { name: 'Globex analysts', description: 'Theirs' } });
  expect(made.statusCode, made.body).toBe(201);
  otherRoleId = made.json().data.id;
  reader = await userWithPolicies(server, adminToken, 'reader@acme.test', [{ resource: 'roles', actions: ['read'] }]);
  nobody = await userWithPolicies(server, adminToken, 'nobody@acme.test', []);
  editor = await userWithPolicies(server, adminToken, 'editor@acme.test', [{ resource: 'roles', actions: ['read', 'update'] }]);
});
afterAll(async () => {
  await server?.close();
});

// ---- helpers --------------------------------------------------------------------------------------

let made = 0;
/** A custom role made through the API, with a name no other test uses. */
async function newRole(body: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  made += 1;
  const res = await call(server, 'POST', '/roles', {
    token: adminToken,
    body: { name: `Team ${made}`, description: `Role number ${made}`, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function roleRow(id: string) {
  const [row] = await server.db.select().from(roles).where(eq(roles.id, id));
  return row;
}

async function storedPolicies(roleId: string) {
  const rows = await server.db
    .select({ resource: rolePolicies.resource, actions: rolePolicies.actions })
    .from(rolePolicies)
    .where(eq(rolePolicies.roleId, roleId));
  return rows.sort((a, b) => a.resource.localeCompare(b.resource));
}

async function storedPages(roleId: string) {
  const rows = await server.db.select({ pageId: rolePages.pageId }).from(rolePages).where(eq(rolePages.roleId, roleId));
  return rows.map((r) => r.pageId).sort();
}

async function auditsOf(recordId: string, model?: string) {
  return server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.recordId, recordId), model ? eq(systemAudits.model, model) : undefined))
    .orderBy(desc(systemAudits.createdAt));
}

/** Everything a refused call must leave as it was. */
async function state() {
  const tally = async (table: typeof roles | typeof rolePolicies | typeof rolePages | typeof systemAudits | typeof notifications) =>
    (await server.db.select({ n: count() }).from(table))[0].n;
  return {
    roles: await server.db.select().from(roles).orderBy(roles.id),
    policies: await server.db.select().from(rolePolicies).orderBy(rolePolicies.roleId, rolePolicies.resource),
    pages: await tally(rolePages),
    audits: await tally(systemAudits),
    notifications: await tally(notifications),
  };
}

async function expectRefused(
  promise: Promise<{ statusCode: number; json(): { message: string } }>,
  status: number,
  message: string | RegExp,
) {
  const before = await state();
  const res = await promise;
  expect(res.statusCode).toBe(status);
  if (typeof message === 'string') expect(res.json().message).toBe(message);
  else expect(res.json().message).toMatch(message);
  expect(await state()).toEqual(before);
}

// ---- create ---------------------------------------------------------------------------------------

describe('POST /roles', () => {
  it('creates a custom role with its policies (normalised) and pages, and audits it', async () => {
    const res = await call(server, 'POST', '/roles', {
      token: adminToken,
      body: {
        name: '  Data stewards ',
        description: 'Look after the tables',
        policies: [
          { resource: 'users', actions: ['update', 'read', 'read'] },
          { resource: 'roles', actions: ['read'] },
          { resource: 'users', actions: ['create'] },
          { resource: 'audits', actions: [] },
        ],
        pageIds: ['users', 'dashboard', 'users'],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      name: 'Data stewards',
      description: 'Look after the tables',
      type: 'custom',
      isAdmin: false,
      isActive: true,
      userCount: 0,
      createdBy: server.company.adminUserId,
      createdByName: 'Ada Admin',
      policies: [
        { resource: 'users', actions: ['read', 'create', 'update'] },
        { resource: 'roles', actions: ['read'] },
      ],
      pageIds: ['dashboard', 'users'],
    });
    expect(await storedPolicies(data.id)).toEqual([
      { resource: 'roles', actions: ['read'] },
      { resource: 'users', actions: ['read', 'create', 'update'] },
    ]);
    expect(await storedPages(data.id)).toEqual(['dashboard', 'users']);

    const [audit] = await auditsOf(data.id, 'role');
    expect(audit).toMatchObject({ operation: 'create', userId: server.company.adminUserId, companyId: server.company.companyId });
    expect(audit.changes).toEqual({
      after: {
        name: 'Data stewards',
        description: 'Look after the tables',
        type: 'custom',
        isActive: true,
        policies: data.policies,
        pageIds: ['dashboard', 'users'],
      },
    });

    const read = await call(server, 'GET', `/role/${data.id}`, { token: reader.token });
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(data);
  });

  it('gives a new role the dashboard when no pages are named, and none for an empty list', async () => {
    const plain = await newRole();
    expect((await call(server, 'GET', `/role/${plain.id}`, { token: adminToken })).json().data).toMatchObject({
      pageIds: ['dashboard'],
      policies: [],
    });
    const bare = await newRole({ pageIds: [] });
    expect(await storedPages(bare.id)).toEqual([]);
  });

  it.each([
    [{ description: 'no name' }, 'name: is required'],
    [{ name: '   ' }, 'name: is required'],
    [{ name: 'x'.repeat(61) }, 'name: must be at most 60 characters'],
    [{ name: 'Long text', description: 'd'.repeat(501) }, 'description: must be at most 500 characters'],
    [
      { name: 'Bad policy', policies: [{ resource: 'spaceships', actions: ['read'] }] },
      /^policies\.0\.resource: "spaceships" is not a resource/,
    ],
    [
      {
        name: 'Bad action',
        policies: [
          { resource: 'roles', actions: ['read'] },
          { resource: 'audits', actions: ['delete'] },
        ],
      },
      'policies.1.actions: audits allows only read',
    ],
    [{ name: 'Bad shape', policies: [{ resource: 'roles' }] }, /^policies\.0\.actions: /],
    [{ name: 'Not a list', policies: 'all' }, /^policies: must be a list/],
    [{ name: 'Bad page', pageIds: ['dashboard', 'nope'] }, 'pageIds: "nope" is not a page of the console'],
    [{ name: 'Admin page', pageIds: ['outbox'] }, 'pageIds: Mail outbox (outbox) is for admin roles only'],
  ])('refuses %j with 400 naming the field, storing nothing', async (body, message) => {
    await expectRefused(call(server, 'POST', '/roles', { token: adminToken, body }), 400, message);
  });

  it('refuses a name the company already uses, whatever its case (409)', async () => {
    const first = await newRole();
    await expectRefused(
      call(server, 'POST', '/roles', { token: adminToken, body: { name: first.name.toUpperCase() } }),
      409,
      `A role named "${first.name.toUpperCase()}" already exists`,
    );
    await expectRefused(
      call(server, 'POST', '/roles', { token: adminToken, body: { name: 'member' } }),
      409,
      'A role named "member" already exists',
    );
  });

  it('lets the unique index decide between two creations racing for one name', async () => {
    const body = { name: 'Racers', description: 'first past the post' };
    const answers = await Promise.all([
      call(server, 'POST', '/roles', { token: adminToken, body }),
      call(server, 'POST', '/roles', { token: adminToken, body: { ...body, name: 'RACERS' } }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const rows = await server.db.select().from(roles).where(eq(roles.companyId, server.company.companyId));
    expect(rows.filter((r) => r.name.toLowerCase() === 'racers')).toHaveLength(1);
  });

  it('allows the same name in another company', async () => {
    const res = await call(server, 'POST', '/roles', { token: adminToken, body: { name: 'Globex analysts' } });
    expect(res.statusCode).toBe(201);
  });

  it('keeps hostile text as text', async () => {
    const role = await newRole({ name: HOSTILE.html, description: HOSTILE.sql });
    const res = await call(server, 'GET', `/role/${role.id}`, { token: adminToken });
    expect(res.json().data).toMatchObject({ name: HOSTILE.html, description: HOSTILE.sql });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('needs roles/create (403 for a reader, nothing stored) and a session (401)', async () => {
    await expectRefused(call(server, 'POST', '/roles', { token: reader.token, body: { name: 'Sneaky' } }), 403, DENIED);
    await expectRefused(call(server, 'POST', '/roles', { token: editor.token, body: { name: 'Sneaky' } }), 403, DENIED);
    await expectRefused(call(server, 'POST', '/roles', { body: { name: 'Sneaky' } }), 401, 'Invalid JWT token');
  });
});

// ---- lists ----------------------------------------------------------------------------------------

describe('role lists', () => {
  it('lists rows with user counts and creator names, last changed first', async () => {
    const res = await call(server, 'GET', '/roles/0/1000', { token: reader.token });
    expect(res.statusCode).toBe(200);
    const { rows, count: total, countExact } = res.json().data;
    const companyRoles = await server.db.select().from(roles).where(eq(roles.companyId, server.company.companyId));
    expect(total).toBe(companyRoles.length);
    expect(countExact).toBe(true);
    expect(rows.map((r: { id: string }) => r.id).sort()).toEqual(companyRoles.map((r) => r.id).sort());
    // Newest change first, the id breaking ties.
    const order = [...companyRoles].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1));
    expect(rows.map((r: { id: string }) => r.id)).toEqual(order.map((r) => r.id));

    const member = rows.find((r: { id: string }) => r.id === server.company.memberRoleId);
    const memberHolders = await server.db.select({ n: count() }).from(users).where(eq(users.roleId, server.company.memberRoleId));
    expect(member).toEqual({
      id: server.company.memberRoleId,
      name: 'Member',
      description: expect.any(String),
      type: 'system',
      isAdmin: false,
      isActive: true,
      userCount: memberHolders[0].n,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: null,
      createdByName: null,
    });
    const readersRole = rows.find((r: { id: string }) => r.id === reader.roleId);
    expect(readersRole.userCount).toBe(1);
    expect(rows.some((r: { id: string }) => r.id === otherRoleId)).toBe(false);
  });

  it('pages without repeating or skipping a row', async () => {
    const all = (await call(server, 'GET', '/roles/0/1000', { token: reader.token })).json().data.rows.map((r: { id: string }) => r.id);
    const seen: string[] = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      const page = await call(server, 'GET', `/roles/${offset}/2`, { token: reader.token });
      expect(page.json().data.count).toBe(all.length);
      seen.push(...page.json().data.rows.map((r: { id: string }) => r.id));
    }
    expect(seen).toEqual(all);
  });

  it('filters by type, status, creator, dates and search', async () => {
    const filter = (body: unknown, sort = 'DESC/updatedAt') =>
      call(server, 'POST', `/roles/filter/0/100/${sort}`, { token: reader.token, body });
    const names = async (body: unknown, sort?: string) => {
      const res = await filter(body, sort);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.rows.map((r: { name: string }) => r.name);
    };
    expect((await names({ type: 'system' })).sort()).toEqual(['Admin', 'Member', 'Viewer']);
    expect(await names({ type: ['system', 'custom'] })).toHaveLength((await names({})).length);

    const sleepy = await newRole({ name: 'Sleepy role', description: 'Quarterly auditors' });
    await call(server, 'PUT', `/roles/activate/${sleepy.id}`, { token: adminToken, body: { isActive: false } });
    expect(await names({ status: 'inactive' })).toEqual(['Sleepy role']);
    expect(await names({ status: 'active' })).not.toContain('Sleepy role');
    expect(await names({ status: ['active', 'inactive'] })).toContain('Sleepy role');

    expect(await names({ search: 'QUARTERLY' })).toEqual(['Sleepy role']);
    expect(await names({ search: 'sleepy' })).toEqual(['Sleepy role']);
    expect(await names({ search: '%' })).toEqual([]);

    // Roles made directly in the database by the test helpers have no creator.
    const byAdmin = await names({ user: server.company.adminUserId });
    expect(byAdmin).toContain('Sleepy role');
    expect(byAdmin).not.toContain('Member');
    expect(await names({ user: reader.id })).toEqual([]);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    expect(await names({ startDate: tomorrow })).toEqual([]);
    expect(await names({ endDate: today, search: 'sleepy' })).toEqual(['Sleepy role']);
    expect(await names({ startDate: '', endDate: null, type: [], search: null })).toHaveLength((await names({})).length);

    const byName = await names({ type: 'system' }, 'ASC/name');
    expect(byName).toEqual(['Admin', 'Member', 'Viewer']);
    expect(await names({ type: 'system' }, 'desc/name')).toEqual(['Viewer', 'Member', 'Admin']);
  });

  it.each([
    ['/roles/filter/0/10/DESC/updatedAt', { colour: 'red' }, /colour/],
    ['/roles/filter/0/10/DESC/updatedAt', { type: 'builtin' }, 'type: must be one of system, custom'],
    ['/roles/filter/0/10/DESC/updatedAt', { status: 'gone' }, 'status: must be one of active, inactive'],
    ['/roles/filter/0/10/DESC/updatedAt', { user: 'ada' }, /^user: must be a valid id/],
    ['/roles/filter/0/10/DESC/updatedAt', { startDate: 'yesterday' }, 'startDate: must be a date such as 2026-11-01'],
    ['/roles/filter/0/10/DESC/password', {}, /^field: must be one of name, createdAt, updatedAt, type/],
    ['/roles/filter/0/10/SIDEWAYS/name', {}, 'order: must be ASC or DESC'],
    ['/roles/filter/0/0/DESC/name', {}, 'limit: must be at least 1'],
    ['/roles/search/0/10', { search: 'a', page: 2 }, /page/],
  ])('%s with %j is a 400 naming the field', async (path, body, message) => {
    const res = await call(server, 'POST', path, { token: reader.token, body });
    expect(res.statusCode).toBe(400);
    if (typeof message === 'string') expect(res.json().message).toBe(message);
    else expect(res.json().message).toMatch(message);
  });

  it('searches with the path offset and limit winning over the body', async () => {
    for (const n of [1, 2, 3]) await newRole({ name: `Searchable ${n}` });
    const res = await call(server, 'POST', '/roles/search/1/1', {
      token: reader.token,
      body: { search: 'searchable', offset: 0, limit: 50 },
    });
    expect(res.statusCode).toBe(200);
    const { rows, count: total } = res.json().data;
    expect(total).toBe(3);
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['Searchable 2']);
    const empty = await call(server, 'POST', '/roles/search/0/10', { token: reader.token, body: {} });
    expect(empty.json().data.count).toBe((await call(server, 'GET', '/roles/0/1000', { token: reader.token })).json().data.count);
  });

  it('answers cards that match the stored roles', async () => {
    const res = await call(server, 'GET', '/roles/cards', { token: reader.token });
    expect(res.statusCode).toBe(200);
    const rows = await server.db.select().from(roles).where(eq(roles.companyId, server.company.companyId));
    const value = (key: string) => res.json().data.cards.find((c: { key: string }) => c.key === key)?.value;
    expect(res.json().data.cards.map((c: { key: string }) => c.key)).toEqual(['total', 'active', 'inactive', 'custom', 'system']);
    expect(value('total')).toBe(rows.length);
    expect(value('active')).toBe(rows.filter((r) => r.isActive).length);
    expect(value('inactive')).toBe(rows.filter((r) => !r.isActive).length);
    expect(value('inactive')).toBeGreaterThan(0);
    expect(value('custom')).toBe(rows.filter((r) => r.type === 'custom').length);
    expect(value('system')).toBe(3);
  });

  it('offers the filter choices, with a trailing slash too', async () => {
    const res = await call(server, 'GET', '/roles/filter/props/', { token: reader.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      type: [
        { id: 'system', name: 'System' },
        { id: 'custom', name: 'Custom' },
      ],
      user: [{ id: server.company.adminUserId, name: 'Ada Admin' }],
      status: [
        { id: 'active', name: 'Active' },
        { id: 'inactive', name: 'Inactive' },
      ],
    });
  });

  it.each([
    ['GET', '/roles/0/10'],
    ['POST', '/roles/filter/0/10/DESC/updatedAt'],
    ['POST', '/roles/search/0/10'],
    ['GET', '/roles/cards'],
    ['GET', '/roles/filter/props'],
    ['GET', '/roles/policies/pages'],
  ] as const)('%s %s needs roles/read', async (method, path) => {
    const res = await call(server, method, path, { token: nobody.token, body: method === 'POST' ? {} : undefined });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(DENIED);
  });
});

// ---- one role -------------------------------------------------------------------------------------

describe('GET /role/{id} and /roles/policy/{id}', () => {
  it('answers the role with its policies and pages', async () => {
    const role = await newRole({ policies: [{ resource: 'sessions', actions: ['read'] }], pageIds: ['sessions'] });
    const res = await call(server, 'GET', `/roles/policy/${role.id}`, { token: reader.token });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.role).toMatchObject({ id: role.id, name: role.name, userCount: 0, type: 'custom' });
    expect(data.role.policies).toBeUndefined();
    expect(data.policies).toEqual([{ resource: 'sessions', actions: ['read'] }]);
    expect(data.pages).toEqual([
      { id: 'sessions', title: 'Sessions', url: '/sessions', group: 'administration', icon: 'devices', adminOnly: false },
    ]);
  });

  it('shows an admin role holding every policy', async () => {
    const res = await call(server, 'GET', `/role/${server.company.adminRoleId}`, { token: reader.token });
    expect(res.json().data).toMatchObject({ name: 'Admin', isAdmin: true, type: 'system' });
    expect(res.json().data.policies).toEqual(POLICY_RESOURCES.map((r) => ({ resource: r.resource, actions: [...r.actions] })));
    expect(res.json().data.pageIds).toEqual(PAGE_CATALOGUE.map((p) => p.id));
  });

  it.each(['/role', '/roles/policy', '/policies', '/roles/policies/pages'])(
    "%s/{id}: another company's role is 404, a bad id 400, no policy 403",
    async (path) => {
      const foreign = await call(server, 'GET', `${path}/${otherRoleId}`, { token: adminToken });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).toBe('Role not found');
      const missing = await call(server, 'GET', `${path}/${crypto.randomUUID()}`, { token: adminToken });
      expect(missing.json()).toEqual({ message: 'Role not found' });
      const bad = await call(server, 'GET', `${path}/42`, { token: adminToken });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('id: must be a valid id');
      const denied = await call(server, 'GET', `${path}/${reader.roleId}`, { token: nobody.token });
      expect(denied.statusCode).toBe(403);
    },
  );
});

// ---- edit -----------------------------------------------------------------------------------------

describe('PUT /roles/{id}', () => {
  it('renames and redescribes, auditing only what changed', async () => {
    const role = await newRole({ description: 'Before' });
    const before = await roleRow(role.id);
    const res = await call(server, 'PUT', `/roles/${role.id}`, {
      token: editor.token,
      body: { name: 'Renamed team', description: 'Before', id: role.id, userCount: 99 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: role.id, name: 'Renamed team', description: 'Before', userCount: 0 });
    const after = await roleRow(role.id);
    expect(after.name).toBe('Renamed team');
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    const [audit] = await auditsOf(role.id, 'role');
    expect(audit).toMatchObject({ operation: 'update', userId: editor.id });
    expect(audit.changes).toEqual({ before: { name: role.name }, after: { name: 'Renamed team' } });

    const desc2 = await call(server, 'PUT', `/roles/${role.id}`, { token: editor.token, body: { description: 'After' } });
    expect(desc2.json().data.description).toBe('After');
    expect((await auditsOf(role.id, 'role'))[0].changes).toEqual({ before: { description: 'Before' }, after: { description: 'After' } });
  });

  it('writes nothing when nothing changes, and allows a change of case of its own name', async () => {
    const role = await newRole();
    const audits = (await auditsOf(role.id)).length;
    const same = await call(server, 'PUT', `/roles/${role.id}`, { token: adminToken, body: { name: role.name } });
    expect(same.statusCode).toBe(200);
    expect(await auditsOf(role.id)).toHaveLength(audits);
    const cased = await call(server, 'PUT', `/roles/${role.id}`, { token: adminToken, body: { name: role.name.toUpperCase() } });
    expect(cased.statusCode).toBe(200);
    expect((await roleRow(role.id)).name).toBe(role.name.toUpperCase());
  });

  it('refuses a name another role has (409), leaving the role as it was', async () => {
    const role = await newRole();
    await expectRefused(
      call(server, 'PUT', `/roles/${role.id}`, { token: adminToken, body: { name: 'ADMIN' } }),
      409,
      'A role named "ADMIN" already exists',
    );
  });

  it('will not rename a system role, but edits its description', async () => {
    await expectRefused(
      call(server, 'PUT', `/roles/${server.company.memberRoleId}`, { token: adminToken, body: { name: 'Staff' } }),
      400,
      'name: Member is a system role and cannot be renamed',
    );
    const res = await call(server, 'PUT', `/roles/${server.company.memberRoleId}`, {
      token: adminToken,
      body: { name: 'Member', description: 'Everyone' },
    });
    expect(res.statusCode).toBe(200);
    expect((await roleRow(server.company.memberRoleId)).description).toBe('Everyone');
  });

  it.each([
    [{ name: '' }, 'name: is required'],
    [{ name: 'n'.repeat(61) }, 'name: must be at most 60 characters'],
    [{ description: 'd'.repeat(501) }, 'description: must be at most 500 characters'],
    [{ description: 42 }, 'description: must be text'],
    [{}, 'body: give a name or a description to change'],
  ])('refuses %j with 400, changing nothing', async (body, message) => {
    const role = await newRole();
    await expectRefused(call(server, 'PUT', `/roles/${role.id}`, { token: adminToken, body }), 400, message);
  });

  it("needs roles/update, and never reaches another company's role", async () => {
    const role = await newRole();
    await expectRefused(call(server, 'PUT', `/roles/${role.id}`, { token: reader.token, body: { name: 'Nope' } }), 403, DENIED);
    await expectRefused(
      call(server, 'PUT', `/roles/${otherRoleId}`, { token: adminToken, body: { name: 'Hijacked' } }),
      404,
      'Role not found',
    );
    expect((await roleRow(otherRoleId)).name).toBe('Globex analysts');
  });
});

// ---- activation -----------------------------------------------------------------------------------

describe('PUT /roles/activate/{id}', () => {
  it('deactivates and reactivates a role nobody holds, auditing each', async () => {
    const role = await newRole();
    const off = await call(server, 'PUT', `/roles/activate/${role.id}`, { token: editor.token, body: { isActive: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ id: role.id, isActive: false });
    expect((await roleRow(role.id)).isActive).toBe(false);
    expect((await auditsOf(role.id, 'role'))[0]).toMatchObject({
      operation: 'deactivate',
      changes: { before: { isActive: true }, after: { isActive: false } },
    });

    // A deactivated role cannot be given to anyone.
    const invite = await call(server, 'POST', '/user', {
      token: adminToken,
      body: { email: 'late@acme.test', firstName: 'Late', roleId: role.id },
    });
    expect(invite.json().message).toBe('roleId: this role is deactivated');
    expect(
      (await call(server, 'GET', '/roles/active', { token: nobody.token })).json().data.map((r: { id: string }) => r.id),
    ).not.toContain(role.id);

    const on = await call(server, 'PUT', `/roles/activate/${role.id}`, { token: editor.token, body: { isActive: 'true' } });
    expect(on.json().data.isActive).toBe(true);
    expect((await auditsOf(role.id, 'role'))[0]).toMatchObject({ operation: 'activate' });
    const audits = (await auditsOf(role.id)).length;
    const again = await call(server, 'PUT', `/roles/activate/${role.id}`, { token: editor.token, body: { isActive: true } });
    expect(again.statusCode).toBe(200);
    expect(await auditsOf(role.id)).toHaveLength(audits);
  });

  it('refuses to deactivate a role users hold, saying how many', async () => {
    const role = await newRole();
    await createActiveUser(server, adminToken, { email: 'holder.one@acme.test', roleId: role.id });
    await expectRefused(
      call(server, 'PUT', `/roles/activate/${role.id}`, { token: adminToken, body: { isActive: false } }),
      400,
      '1 user has this role; give them another role first',
    );
    // An invited user holds the role too.
    await call(server, 'POST', '/user', { token: adminToken, body: { email: 'holder.two@acme.test', firstName: 'Two', roleId: role.id } });
    await expectRefused(
      call(server, 'PUT', `/roles/activate/${role.id}`, { token: adminToken, body: { isActive: false } }),
      400,
      '2 users have this role; give them another role first',
    );
  });

  it('refuses to deactivate a system role', async () => {
    await expectRefused(
      call(server, 'PUT', `/roles/activate/${server.company.adminRoleId}`, { token: adminToken, body: { isActive: false } }),
      400,
      'isActive: Admin is a system role and cannot be deactivated',
    );
  });

  it.each([[{}], [{ isActive: 'maybe' }], [{ isActive: 1 }]])('refuses %j with 400 naming isActive', async (body) => {
    const role = await newRole();
    await expectRefused(
      call(server, 'PUT', `/roles/activate/${role.id}`, { token: adminToken, body }),
      400,
      'isActive: must be true or false',
    );
  });

  it("needs roles/update, and never reaches another company's role", async () => {
    const role = await newRole();
    await expectRefused(call(server, 'PUT', `/roles/activate/${role.id}`, { token: reader.token, body: { isActive: false } }), 403, DENIED);
    await expectRefused(
      call(server, 'PUT', `/roles/activate/${otherRoleId}`, { token: adminToken, body: { isActive: false } }),
      404,
      'Role not found',
    );
    expect((await roleRow(otherRoleId)).isActive).toBe(true);
  });
});

// ---- delete ---------------------------------------------------------------------------------------

describe('DELETE /roles/{id}', () => {
  it('deletes a role nobody holds, with its policies and pages, and audits what it was', async () => {
    const role = await newRole({ policies: [{ resource: 'users', actions: ['read'] }], pageIds: ['dashboard', 'users'] });
    const res = await call(server, 'DELETE', `/roles/${role.id}`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: `The role ${role.name} has been deleted` });
    expect(await roleRow(role.id)).toBeUndefined();
    expect(await storedPolicies(role.id)).toEqual([]);
    expect(await storedPages(role.id)).toEqual([]);
    const [audit] = await auditsOf(role.id, 'role');
    expect(audit).toMatchObject({ operation: 'delete' });
    expect(audit.changes).toEqual({
      before: {
        name: role.name,
        description: expect.any(String),
        type: 'custom',
        isActive: true,
        policies: [{ resource: 'users', actions: ['read'] }],
        pageIds: ['dashboard', 'users'],
      },
    });
    expect((await call(server, 'GET', `/role/${role.id}`, { token: adminToken })).statusCode).toBe(404);
    expect((await call(server, 'DELETE', `/roles/${role.id}`, { token: adminToken })).statusCode).toBe(404);
  });

  it('refuses system roles and roles users hold', async () => {
    await expectRefused(
      call(server, 'DELETE', `/roles/${server.company.memberRoleId}`, { token: adminToken }),
      400,
      'id: Member is a system role and cannot be deleted',
    );
    await expectRefused(
      call(server, 'DELETE', `/roles/${reader.roleId}`, { token: adminToken }),
      400,
      '1 user has this role; give them another role first',
    );
  });

  it("needs roles/delete (an editor may not), and never reaches another company's role", async () => {
    const role = await newRole();
    await expectRefused(call(server, 'DELETE', `/roles/${role.id}`, { token: editor.token }), 403, DENIED);
    await expectRefused(call(server, 'DELETE', `/roles/${otherRoleId}`, { token: adminToken }), 404, 'Role not found');
    expect(await roleRow(otherRoleId)).toBeDefined();
  });
});

// ---- policies -------------------------------------------------------------------------------------

describe('role policies', () => {
  it("GET /policies/{id} answers a role's policies", async () => {
    const role = await newRole({ policies: [{ resource: 'apikeys', actions: ['delete', 'read'] }] });
    const res = await call(server, 'GET', `/policies/${role.id}`, { token: reader.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      roleId: role.id,
      roleName: role.name,
      isAdmin: false,
      policies: [{ resource: 'apikeys', actions: ['read', 'delete'] }],
    });
    const admin = await call(server, 'GET', `/policies/${server.company.adminRoleId}`, { token: reader.token });
    expect(admin.json().data.isAdmin).toBe(true);
    expect(admin.json().data.policies).toHaveLength(POLICY_RESOURCES.length);
  });

  it("PUT /policies/assign/{id} replaces them, audits, and tells the role's users", async () => {
    const role = await newRole({
      policies: [
        { resource: 'users', actions: ['read'] },
        { resource: 'sessions', actions: ['read'] },
      ],
    });
    const holder = await createActiveUser(server, adminToken, { email: 'policy.holder@acme.test', roleId: role.id });
    await call(server, 'POST', '/user', {
      token: adminToken,
      body: { email: 'policy.invitee@acme.test', firstName: 'Invitee', roleId: role.id },
    });
    const invitee = (await server.db.select().from(users).where(eq(users.email, 'policy.invitee@acme.test')))[0];
    const updatedBefore = (await roleRow(role.id)).updatedAt;

    const res = await call(server, 'PUT', `/policies/assign/${role.id}`, {
      token: editor.token,
      body: {
        policies: [
          { resource: 'workspaces', actions: ['create', 'read'] },
          { resource: 'users', actions: ['read', 'update'] },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = [
      { resource: 'users', actions: ['read', 'update'] },
      { resource: 'workspaces', actions: ['read', 'create'] },
    ];
    expect(res.json().data).toEqual({ roleId: role.id, roleName: role.name, isAdmin: false, policies: expected });
    expect(await storedPolicies(role.id)).toEqual(expected);
    expect((await roleRow(role.id)).updatedAt.getTime()).toBeGreaterThan(updatedBefore.getTime());

    const [audit] = await auditsOf(role.id, 'role_policies');
    expect(audit).toMatchObject({ operation: 'update', userId: editor.id });
    expect(audit.changes).toEqual({
      before: {
        policies: [
          { resource: 'users', actions: ['read'] },
          { resource: 'sessions', actions: ['read'] },
        ],
      },
      after: { policies: expected },
    });

    const told = await server.db.select().from(notifications).where(eq(notifications.userId, holder.id));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 'role_changed', link: '/', createdBy: editor.id, status: 'unread' });
    expect(told[0].message).toContain(role.name);
    // Only active users are told; an invitation not yet accepted is not.
    expect(await server.db.select().from(notifications).where(eq(notifications.userId, invitee.id))).toEqual([]);

    // Sending the same list again changes nothing and writes nothing.
    const audits = (await auditsOf(role.id)).length;
    await call(server, 'PUT', `/policies/assign/${role.id}`, { token: editor.token, body: { policies: expected } });
    expect(await auditsOf(role.id)).toHaveLength(audits);

    const cleared = await call(server, 'PUT', `/policies/assign/${role.id}`, { token: editor.token, body: { policies: [] } });
    expect(cleared.json().data.policies).toEqual([]);
    expect(await storedPolicies(role.id)).toEqual([]);
  });

  it.each([
    [{}, /^policies: /],
    [
      {
        policies: [
          { resource: 'users', actions: ['read'] },
          { resource: 'galaxies', actions: ['read'] },
        ],
      },
      /^policies\.1\.resource: "galaxies" is not a resource/,
    ],
    [{ policies: [{ resource: 'sessions', actions: ['update'] }] }, 'policies.0.actions: sessions allows only read, delete'],
    [{ policies: [{ resource: 'users', actions: 'read' }] }, /^policies\.0\.actions: must be a list/],
    [{ policies: Array.from({ length: 101 }, () => ({ resource: 'users', actions: ['read'] })) }, 'policies: may hold at most 100 entries'],
  ])('refuses %j with 400 naming the field, keeping the stored policies', async (body, message) => {
    const role = await newRole({ policies: [{ resource: 'users', actions: ['read'] }] });
    await expectRefused(call(server, 'PUT', `/policies/assign/${role.id}`, { token: adminToken, body }), 400, message);
    expect(await storedPolicies(role.id)).toEqual([{ resource: 'users', actions: ['read'] }]);
  });

  it("refuses to edit an admin role's policies: it holds everything", async () => {
    await expectRefused(
      call(server, 'PUT', `/policies/assign/${server.company.adminRoleId}`, { token: adminToken, body: { policies: [] } }),
      400,
      'policies: Admin is an admin role; it holds every policy and they cannot be changed',
    );
  });

  it("needs roles/update, and never reaches another company's role", async () => {
    const role = await newRole();
    const body = { policies: [{ resource: 'users', actions: ['read'] }] };
    await expectRefused(call(server, 'PUT', `/policies/assign/${role.id}`, { token: reader.token, body }), 403, DENIED);
    await expectRefused(call(server, 'PUT', `/policies/assign/${otherRoleId}`, { token: adminToken, body }), 404, 'Role not found');
    expect(await storedPolicies(otherRoleId)).toEqual([]);
  });
});

// ---- pages ----------------------------------------------------------------------------------------

describe('role pages', () => {
  it('GET /roles/policies/pages answers the catalogue in menu order', async () => {
    const res = await call(server, 'GET', '/roles/policies/pages', { token: reader.token });
    expect(res.statusCode).toBe(200);
    const pages = res.json().data;
    expect(pages.map((p: { id: string }) => p.id)).toEqual(PAGE_CATALOGUE.map((p) => p.id));
    expect(pages.find((p: { id: string }) => p.id === 'outbox')).toMatchObject({
      adminOnly: true,
      url: '/outbox',
      groupTitle: 'Administration',
    });
    expect(pages.find((p: { id: string }) => p.id === 'users')).toEqual({
      id: 'users',
      title: 'Users',
      url: '/users',
      group: 'access',
      groupTitle: 'Access control',
      icon: 'people',
      adminOnly: false,
    });
  });

  it("assigns and unassigns pages, auditing and telling the role's users; the menu follows at the next sign-in", async () => {
    const role = await newRole({ pageIds: ['dashboard'] });
    const holder = await createActiveUser(server, adminToken, { email: 'page.holder@acme.test', roleId: role.id });

    const added = await call(server, 'PUT', `/roles/policies/pages/assign/${role.id}`, {
      token: editor.token,
      body: { pageIds: ['audits', 'users', 'users'] },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.pageIds).toEqual(['dashboard', 'users', 'audits']);
    expect(added.json().data.pages.map((p: { url: string }) => p.url)).toEqual(['/dashboard', '/users', '/audits']);
    expect((await auditsOf(role.id, 'role_pages'))[0]).toMatchObject({
      operation: 'assign',
      userId: editor.id,
      changes: { before: { pageIds: ['dashboard'] }, after: { pageIds: ['dashboard', 'users', 'audits'] } },
    });
    const told = await server.db.select().from(notifications).where(eq(notifications.userId, holder.id));
    expect(told.map((n) => [n.type, n.link])).toEqual([['role_changed', '/']]);

    const session = await signInFully(server, holder);
    const urls = session.navItems.userNavItemJson.items.flatMap((g) => g.children.map((c) => c.url));
    expect(urls).toEqual(['/dashboard', '/users', '/audits']);

    // The dashboard may go too.
    const removed = await call(server, 'PUT', `/roles/policies/pages/unassign/${role.id}`, {
      token: editor.token,
      body: { pageIds: ['dashboard', 'audits', 'apikeys'] },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.pageIds).toEqual(['users']);
    expect(await storedPages(role.id)).toEqual(['users']);
    expect((await auditsOf(role.id, 'role_pages'))[0]).toMatchObject({
      operation: 'unassign',
      changes: { before: { pageIds: ['dashboard', 'users', 'audits'] }, after: { pageIds: ['users'] } },
    });
    const read = await call(server, 'GET', `/roles/policies/pages/${role.id}`, { token: reader.token });
    expect(read.json().data).toMatchObject({ roleId: role.id, roleName: role.name, pageIds: ['users'] });

    // Nothing to change: nothing written.
    const audits = (await auditsOf(role.id)).length;
    await call(server, 'PUT', `/roles/policies/pages/assign/${role.id}`, { token: editor.token, body: { pageIds: ['users'] } });
    expect(await auditsOf(role.id)).toHaveLength(audits);
  });

  it.each([
    ['assign', { pageIds: ['users', 'reporting', 'billing'] }, 'pageIds: "reporting", "billing" are not pages of the console'],
    ['assign', { pageIds: ['outbox', 'users'] }, 'pageIds: Mail outbox (outbox) is for admin roles only'],
    ['assign', { pageIds: [] }, 'pageIds: choose at least one page'],
    ['assign', {}, /^pageIds: /],
    ['unassign', { pageIds: ['ghost'] }, 'pageIds: "ghost" is not a page of the console'],
    ['unassign', { pageIds: [''] }, 'pageIds.0: may not hold an empty page id'],
  ])('%s with %j is a 400 naming the field, changing nothing', async (operation, body, message) => {
    const role = await newRole({ pageIds: ['dashboard', 'users'] });
    await expectRefused(call(server, 'PUT', `/roles/policies/pages/${operation}/${role.id}`, { token: adminToken, body }), 400, message);
    expect(await storedPages(role.id)).toEqual(['dashboard', 'users']);
  });

  it('lets an admin role hold admin-only pages but keeps its way back to the roles page', async () => {
    const ok = await call(server, 'PUT', `/roles/policies/pages/assign/${server.company.adminRoleId}`, {
      token: adminToken,
      body: { pageIds: ['outbox'] },
    });
    expect(ok.statusCode).toBe(200);
    await expectRefused(
      call(server, 'PUT', `/roles/policies/pages/unassign/${server.company.adminRoleId}`, {
        token: adminToken,
        body: { pageIds: ['roles'] },
      }),
      400,
      'pageIds: Admin is an admin role and keeps the Roles and policies page, the way back to this editor',
    );
  });

  it("needs roles/update, and never reaches another company's role", async () => {
    for (const operation of ['assign', 'unassign']) {
      const role = await newRole({ pageIds: ['dashboard'] });
      await expectRefused(
        call(server, 'PUT', `/roles/policies/pages/${operation}/${role.id}`, {
          token: reader.token,
          body: { pageIds: ['dashboard', 'users'] },
        }),
        403,
        DENIED,
      );
      await expectRefused(
        call(server, 'PUT', `/roles/policies/pages/${operation}/${otherRoleId}`, {
          token: adminToken,
          body: { pageIds: ['dashboard', 'users'] },
        }),
        404,
        'Role not found',
      );
    }
    expect(await storedPages(otherRoleId)).toEqual(['dashboard']);
  });
});
