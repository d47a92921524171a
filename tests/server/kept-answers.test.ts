import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { rolePolicies, roles, sessions, users } from '../../server/db/schema';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, inviteUser, sessionIdOf, signInAdmin, signInFully, userWithPolicies } from './helpers';

/**
 * Counts, session checks, grants and role names are kept in memory between requests and dropped
 * the moment the server writes a table they were read from (server/db/table-watch.ts). These tests
 * prove both halves: the second request does not ask the database again, and a write is seen by
 * the very next request.
 */
let server: TestServer;
let adminToken: string;
let statements: string[] = [];

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  const watch = server.database.watch;
  const observe = watch.observe.bind(watch);
  watch.observe = (statement: string) => {
    statements.push(statement);
    observe(statement);
  };
  for (const n of [1, 2, 3]) await inviteUser(server, adminToken, { email: `kept${n}@example.test` });
});
afterAll(() => server.close());
beforeEach(() => {
  statements = [];
});

const ran = (pattern: RegExp) => statements.filter((s) => pattern.test(s)).length;
const COUNT = /^select count\(\*\) from \(select 1 from "users"/;
const SESSION_LOOKUP = /from "sessions" inner join "users"/;

describe('list counts', () => {
  it('are counted once while paging, and again after a write to the table', async () => {
    const first = await call(server, 'GET', '/users/0/1', { token: adminToken });
    expect(first.statusCode, first.body).toBe(200);
    const before = first.json().data.count as number;
    expect(ran(COUNT)).toBe(1);

    statements = [];
    for (const offset of [1, 2]) {
      const page = await call(server, 'GET', `/users/${offset}/1`, { token: adminToken });
      expect(page.json().data.count).toBe(before);
    }
    expect(ran(COUNT)).toBe(0);

    await inviteUser(server, adminToken, { email: 'kept-new@example.test' });
    statements = [];
    const after = await call(server, 'GET', '/users/0/1', { token: adminToken });
    expect(after.json().data.count).toBe(before + 1);
    expect(ran(COUNT)).toBe(1);
  });

  it('are kept per filter: another filter counts on its own', async () => {
    await call(server, 'POST', '/users/filter/1/0/DESC/createdAt', { token: adminToken, body: { status: 'invited' } });
    statements = [];
    const invited = await call(server, 'POST', '/users/filter/1/0/DESC/createdAt', { token: adminToken, body: { status: 'invited' } });
    expect(ran(COUNT)).toBe(0);
    const searched = await call(server, 'POST', '/users/filter/1/0/DESC/createdAt', {
      token: adminToken,
      body: { status: 'invited', search: 'kept' },
    });
    expect(ran(COUNT)).toBe(1);
    expect(invited.json().data.count).toBeGreaterThanOrEqual(searched.json().data.count);
  });

  it('follow a write made straight to the database', async () => {
    const first = (await call(server, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
    await server.db.delete(users).where(eq(users.email, 'kept3@example.test'));
    const next = (await call(server, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
    expect(next).toBe(first - 1);
  });
});

describe('session checks', () => {
  it('ask the database once, not on every request', async () => {
    await call(server, 'GET', '/users/0/1', { token: adminToken });
    statements = [];
    await call(server, 'GET', '/users/0/1', { token: adminToken });
    await call(server, 'GET', '/system/audits/0/1', { token: adminToken });
    expect(ran(SESSION_LOOKUP)).toBe(0);
  });

  it('see a logout on the very next request', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'kept-logout@example.test' });
    const { accessToken } = await signInFully(server, member);
    expect((await call(server, 'GET', '/user/profile', { token: accessToken })).statusCode).toBe(200);
    expect((await call(server, 'GET', '/user/profile', { token: accessToken })).statusCode).toBe(200);
    expect((await call(server, 'PUT', '/session/logout', { token: accessToken })).statusCode).toBe(200);
    const after = await call(server, 'GET', '/user/profile', { token: accessToken });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Invalid JWT token');
  });

  it('see a session ended or a user deactivated straight in the database', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'kept-ended@example.test' });
    const first = await signInFully(server, member);
    expect((await call(server, 'GET', '/user/profile', { token: first.accessToken })).statusCode).toBe(200);
    await server.db
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(eq(sessions.id, sessionIdOf(first.accessToken!)));
    expect((await call(server, 'GET', '/user/profile', { token: first.accessToken })).statusCode).toBe(401);

    const second = await signInFully(server, member);
    expect((await call(server, 'GET', '/user/profile', { token: second.accessToken })).statusCode).toBe(200);
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, member.id));
    expect((await call(server, 'GET', '/user/profile', { token: second.accessToken })).statusCode).toBe(401);
  });
});

describe('grants and role names', () => {
  it('take a policy change into account on the very next request', async () => {
    const reader = await userWithPolicies(server, adminToken, 'kept-reader@example.test', [{ resource: 'users', actions: ['read'] }]);
    expect((await call(server, 'GET', '/users/0/1', { token: reader.token })).statusCode).toBe(200);
    expect((await call(server, 'GET', '/users/0/1', { token: reader.token })).statusCode).toBe(200);
    await server.db
      .update(rolePolicies)
      .set({ actions: [] })
      .where(and(eq(rolePolicies.roleId, reader.roleId), eq(rolePolicies.resource, 'users')));
    const denied = await call(server, 'GET', '/users/0/1', { token: reader.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
  });

  it('show a renamed role at once in the users list', async () => {
    const member = await inviteUser(server, adminToken, { email: 'kept-renamed@example.test' });
    const filter = { search: 'kept-renamed' };
    const listed = await call(server, 'POST', '/users/filter/10/0/DESC/createdAt', { token: adminToken, body: filter });
    const [row] = listed.json().data.rows;
    expect(row).toMatchObject({ id: member.id, roleName: 'Member', isAdmin: false });
    await server.db.update(roles).set({ name: 'Analyst' }).where(eq(roles.id, row.roleId));
    const renamed = await call(server, 'POST', '/users/filter/10/0/DESC/createdAt', { token: adminToken, body: filter });
    expect(renamed.json().data.rows[0]).toMatchObject({ id: member.id, roleName: 'Analyst' });
  });
});
