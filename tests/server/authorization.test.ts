import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { notifications, systemAudits, userPolicies } from '../../server/db/schema';
import { POLICY_ACTIONS, POLICY_RESOURCES } from '../../server/auth/policies';
import { call, createActiveUser, createOtherCompany, signInAdmin, userWithPolicies } from './helpers';

const DENIED = 'Resource Access not provided';
const EVERYTHING = POLICY_RESOURCES.map((r) => ({ resource: r.resource, actions: [...r.actions] }));

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
/** Role: users/read and sessions/read. */
let viewer: Awaited<ReturnType<typeof userWithPolicies>>;
/** Role: users/read and users/update: may set others' policies without being an admin. */
let manager: Awaited<ReturnType<typeof userWithPolicies>>;
/** Role: roles/read, audits/read. */
let member: Awaited<ReturnType<typeof userWithPolicies>>;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token!;
  other = await createOtherCompany(server);
  viewer = await userWithPolicies(server, adminToken, 'viewer@acme.test', [
    { resource: 'users', actions: ['read'] },
    { resource: 'sessions', actions: ['read'] },
  ]);
  manager = await userWithPolicies(server, adminToken, 'manager@acme.test', [{ resource: 'users', actions: ['read', 'update'] }]);
  member = await userWithPolicies(server, adminToken, 'member@acme.test', [
    { resource: 'roles', actions: ['read'] },
    { resource: 'audits', actions: ['read'] },
  ]);
});
afterAll(async () => {
  await server?.close();
});

async function ownPolicies(userId: string) {
  const rows = await server.db
    .select({ resource: userPolicies.resource, actions: userPolicies.actions })
    .from(userPolicies)
    .where(eq(userPolicies.userId, userId));
  return rows.sort((a, b) => a.resource.localeCompare(b.resource));
}

async function tallies() {
  return {
    userPolicies: await server.db.select().from(userPolicies).orderBy(userPolicies.userId, userPolicies.resource),
    audits: (await server.db.select({ n: count() }).from(systemAudits))[0].n,
    notifications: (await server.db.select({ n: count() }).from(notifications))[0].n,
  };
}

const setPolicies = (userId: string, policies: unknown, token = adminToken) =>
  call(server, 'POST', `/authorization/policies/${userId}`, { token, body: { policies } });

describe('GET /authorization/policies', () => {
  it('answers the catalogue to any signed-in user', async () => {
    const res = await call(server, 'GET', '/authorization/policies', { token: member.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      resources: POLICY_RESOURCES.map((r) => ({ resource: r.resource, label: r.label, actions: [...r.actions] })),
      actions: [...POLICY_ACTIONS],
    });
    expect(res.json().data.resources.find((r: { resource: string }) => r.resource === 'audits').actions).toEqual(['read']);
  });

  it('needs a session', async () => {
    const res = await call(server, 'GET', '/authorization/policies');
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /authorization/policies/{userId}', () => {
  it("answers one's own policies without users/read", async () => {
    const res = await call(server, 'GET', `/authorization/policies/${member.id}`, { token: member.token });
    expect(res.statusCode).toBe(200);
    const policies = [
      { resource: 'roles', actions: ['read'] },
      { resource: 'audits', actions: ['read'] },
    ];
    expect(res.json().data).toEqual({
      userId: member.id,
      roleId: member.roleId,
      roleName: 'Role for member@acme.test',
      isAdmin: false,
      role: policies,
      user: [],
      effective: policies,
    });
  });

  it("answers someone else's with users/read only", async () => {
    const denied = await call(server, 'GET', `/authorization/policies/${viewer.id}`, { token: member.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const allowed = await call(server, 'GET', `/authorization/policies/${member.id}`, { token: viewer.token });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().data.userId).toBe(member.id);
  });

  it('shows an admin holding everything', async () => {
    const res = await call(server, 'GET', `/authorization/policies/${server.company.adminUserId}`, { token: viewer.token });
    expect(res.json().data).toMatchObject({
      isAdmin: true,
      roleId: server.company.adminRoleId,
      roleName: 'Admin',
      role: EVERYTHING,
      user: [],
      effective: EVERYTHING,
    });
  });

  it('is a 404 for a user of another company and a 400 for a bad id', async () => {
    const foreign = await call(server, 'GET', `/authorization/policies/${other.adminUserId}`, { token: adminToken });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('User not found');
    const bad = await call(server, 'GET', '/authorization/policies/not-an-id', { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('userId: must be a valid id');
  });
});

describe('POST /authorization/policies/{userId}', () => {
  it("replaces a user's own policies, which then replace the role's per resource; audited and told", async () => {
    const target = await userWithPolicies(server, adminToken, 'target.one@acme.test', [
      { resource: 'users', actions: ['read'] },
      { resource: 'sessions', actions: ['read', 'delete'] },
    ]);
    const res = await setPolicies(target.id, [
      { resource: 'sessions', actions: ['read'] },
      { resource: 'workspaces', actions: ['update', 'read'] },
      { resource: 'users', actions: [] },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const own = [
      { resource: 'users', actions: [] },
      { resource: 'workspaces', actions: ['read', 'update'] },
      { resource: 'sessions', actions: ['read'] },
    ];
    expect(res.json().data).toMatchObject({
      userId: target.id,
      isAdmin: false,
      role: [
        { resource: 'users', actions: ['read'] },
        { resource: 'sessions', actions: ['read', 'delete'] },
      ],
      user: own,
      // The user's empty users entry takes users away; sessions is narrowed; workspaces is added.
      effective: [
        { resource: 'workspaces', actions: ['read', 'update'] },
        { resource: 'sessions', actions: ['read'] },
      ],
    });
    expect(await ownPolicies(target.id)).toEqual([
      { resource: 'sessions', actions: ['read'] },
      { resource: 'users', actions: [] },
      { resource: 'workspaces', actions: ['read', 'update'] },
    ]);

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'user_policies'), eq(systemAudits.recordId, target.id)))
      .orderBy(desc(systemAudits.createdAt));
    expect(audit).toMatchObject({
      operation: 'update',
      userId: server.company.adminUserId,
      changes: { before: { policies: [] }, after: { policies: own } },
    });

    const told = await server.db.select().from(notifications).where(eq(notifications.userId, target.id));
    expect(told.map((n) => [n.type, n.link, n.createdBy])).toEqual([['policies_changed', '/', server.company.adminUserId]]);

    // What the user now sees of themselves.
    const mine = await call(server, 'GET', '/authorization/user/policies', { token: target.token });
    expect(mine.json().data).toEqual({ isAdmin: false, policies: res.json().data.effective });

    // An empty list removes them: the role's apply again.
    const cleared = await setPolicies(target.id, []);
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.user).toEqual([]);
    expect(cleared.json().data.effective).toEqual(cleared.json().data.role);
    expect(await ownPolicies(target.id)).toEqual([]);
  });

  it('may be done by a user with users/update who is not an admin', async () => {
    const target = await userWithPolicies(server, adminToken, 'target.two@acme.test', []);
    const res = await setPolicies(target.id, [{ resource: 'audits', actions: ['read'] }], manager.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await ownPolicies(target.id)).toEqual([{ resource: 'audits', actions: ['read'] }]);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'user_policies'), eq(systemAudits.recordId, target.id)));
    expect(audit.userId).toBe(manager.id);
  });

  it('writes nothing when the list is what the user has', async () => {
    const target = await userWithPolicies(server, adminToken, 'target.three@acme.test', []);
    await setPolicies(target.id, [{ resource: 'audits', actions: ['read'] }]);
    const before = await tallies();
    const res = await setPolicies(target.id, [{ resource: 'audits', actions: ['read', 'read'] }]);
    expect(res.statusCode).toBe(200);
    expect(await tallies()).toEqual(before);
  });

  it.each([
    [[{ resource: 'planets', actions: ['read'] }], /^policies\.0\.resource: "planets" is not a resource/],
    [
      [
        { resource: 'users', actions: ['read'] },
        { resource: 'outbox', actions: ['delete'] },
      ],
      'policies.1.actions: outbox allows only read',
    ],
    ['everything', /^policies: must be a list/],
    [[{ actions: ['read'] }], 'policies.0.resource: is required'],
  ])('refuses %j with 400 naming the field, storing nothing', async (policies, message) => {
    const target = await userWithPolicies(server, adminToken, `target.${Math.random().toString(36).slice(2)}@acme.test`, []);
    await setPolicies(target.id, [{ resource: 'sessions', actions: ['read'] }]);
    const before = await tallies();
    const res = await setPolicies(target.id, policies);
    expect(res.statusCode).toBe(400);
    if (typeof message === 'string') expect(res.json().message).toBe(message);
    else expect(res.json().message).toMatch(message);
    expect(await tallies()).toEqual(before);
  });

  it("refuses one's own policies and those of an admin", async () => {
    const before = await tallies();
    const own = await setPolicies(manager.id, [{ resource: 'roles', actions: ['read', 'create', 'update', 'delete'] }], manager.token);
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe('userId: you cannot change your own policies; ask another administrator');

    const secondAdmin = await createActiveUser(server, adminToken, { email: 'second.admin@acme.test', roleId: server.company.adminRoleId });
    const afterInvite = await tallies();
    const admin = await setPolicies(secondAdmin.id, [{ resource: 'users', actions: [] }]);
    expect(admin.statusCode).toBe(400);
    expect(admin.json().message).toBe(
      'userId: second.admin@acme.test has an admin role, which holds every policy; give them another role to limit what they may do',
    );
    expect(await tallies()).toEqual(afterInvite);
    expect(before.userPolicies).toEqual(afterInvite.userPolicies);
  });

  it('needs users/update, and never reaches a user of another company', async () => {
    const target = await userWithPolicies(server, adminToken, 'target.four@acme.test', []);
    const before = await tallies();
    const denied = await setPolicies(target.id, [{ resource: 'users', actions: ['read'] }], viewer.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const foreign = await setPolicies(other.adminUserId, [{ resource: 'users', actions: ['read'] }]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('User not found');
    expect(await tallies()).toEqual(before);
    // The other company's admin is still an admin there.
    const theirs = await call(server, 'GET', '/authorization/user/policies', { token: other.adminToken });
    expect(theirs.json().data.isAdmin).toBe(true);
  });
});

describe('GET /authorization/user/policies', () => {
  it("answers the caller's effective policies", async () => {
    const res = await call(server, 'GET', '/authorization/user/policies', { token: viewer.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Your policies',
      data: {
        isAdmin: false,
        policies: [
          { resource: 'users', actions: ['read'] },
          { resource: 'sessions', actions: ['read'] },
        ],
      },
    });
  });

  it('answers everything for an admin', async () => {
    const res = await call(server, 'GET', '/authorization/user/policies', { token: adminToken });
    expect(res.json().data).toEqual({ isAdmin: true, policies: EVERYTHING });
  });

  it('answers nothing for a user whose role holds nothing', async () => {
    // A role made with no policy (the default Member role reads the company's data work).
    const plain = await userWithPolicies(server, adminToken, 'plain@acme.test', []);
    const res = await call(server, 'GET', '/authorization/user/policies', { token: plain.token });
    expect(res.json().data).toEqual({ isAdmin: false, policies: [] });
  });
});
