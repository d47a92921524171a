import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { listColumnChoices, systemAudits } from '../../server/db/schema';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin, signInFully, createActiveUser } from './helpers';

describe('column choices of lists', () => {
  let server: TestServer;
  let adminToken: string;
  let member: { id: string; token: string };
  let other: Awaited<ReturnType<typeof createOtherCompany>>;

  beforeAll(async () => {
    server = await createTestServer();
    adminToken = (await signInAdmin(server)).accessToken!;
    const created = await createActiveUser(server, adminToken, { email: 'mo@acme.test' });
    member = { id: created.id, token: (await signInFully(server, created)).accessToken! };
    other = await createOtherCompany(server);
  });
  afterAll(() => server.close());

  const choices = async (token: string) => {
    const res = await call(server, 'GET', '/lists/columns', { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('keeps a tenant default set by an admin, shown to every user of that company only', async () => {
    const res = await call(server, 'PUT', '/lists/users.datatable/columns', {
      token: adminToken,
      body: { scope: 'tenant', hidden: ['phone', 'lastLoginAt', 'phone'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ hidden: ['phone', 'lastLoginAt'], order: null });

    expect((await choices(member.token))['users.datatable']).toEqual({
      tenant: { hidden: ['phone', 'lastLoginAt'], order: null },
      user: null,
    });
    expect(await choices(other.adminToken)).toEqual({});

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'list_columns'), eq(systemAudits.recordId, 'users.datatable')));
    expect(audit.operation).toBe('update');
  });

  it('lets a user override the default for themselves, and reset to it in one call', async () => {
    const saved = await call(server, 'PUT', '/lists/users.datatable/columns', {
      token: member.token,
      body: { hidden: ['email'], order: ['lastName', 'firstName'] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Saving twice keeps one row per user and list.
    await call(server, 'PUT', '/lists/users.datatable/columns', { token: member.token, body: { hidden: ['email', 'status'] } });
    expect((await choices(member.token))['users.datatable'].user).toEqual({ hidden: ['email', 'status'], order: null });
    expect((await choices(adminToken))['users.datatable'].user).toBeNull();

    const reset = await call(server, 'DELETE', '/lists/users.datatable/columns', { token: member.token });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await choices(member.token))['users.datatable']).toEqual({
      tenant: { hidden: ['phone', 'lastLoginAt'], order: null },
      user: null,
    });
  });

  it('refuses the tenant default to a user who is not an admin, and changes nothing', async () => {
    const before = await server.db.select().from(listColumnChoices);
    const put = await call(server, 'PUT', '/lists/users.datatable/columns', { token: member.token, body: { scope: 'tenant', hidden: [] } });
    expect(put.statusCode).toBe(403);
    expect(put.json().message).toBe('Resource Access not provided');
    const del = await call(server, 'DELETE', '/lists/users.datatable/columns?scope=tenant', { token: member.token });
    expect(del.statusCode).toBe(403);
    expect(await server.db.select().from(listColumnChoices)).toEqual(before);
  });

  it.each([
    ['/lists/has space/columns', { hidden: [] }, 'listKey'],
    ['/lists/users/columns', { hidden: 'email' }, 'hidden'],
    ['/lists/users/columns', { hidden: [''] }, 'hidden.0'],
    ['/lists/users/columns', { hidden: Array.from({ length: 101 }, (_, i) => `c${i}`) }, 'hidden'],
    ['/lists/users/columns', { hidden: [], scope: 'everyone' }, 'scope'],
    ['/lists/users/columns', { hidden: [], extra: 1 }, 'extra'],
  ])('answers 400 naming the field for bad input (%s %j)', async (path, body, field) => {
    const before = await server.db.select().from(listColumnChoices);
    const res = await call(server, 'PUT', encodeURI(path), { token: member.token, body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(field);
    expect(await server.db.select().from(listColumnChoices)).toEqual(before);
  });

  it('needs a signed-in user', async () => {
    const res = await call(server, 'GET', '/lists/columns');
    expect(res.statusCode).toBe(401);
  });
});
