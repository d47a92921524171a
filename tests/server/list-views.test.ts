import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { listSavedViews, systemAudits } from '../../server/db/schema';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, createOtherCompany, signInAdmin, signInFully } from './helpers';

describe('saved views of lists', () => {
  let server: TestServer;
  let adminToken: string;
  let member: { id: string; token: string };
  let other: Awaited<ReturnType<typeof createOtherCompany>>;

  beforeAll(async () => {
    server = await createTestServer();
    adminToken = (await signInAdmin(server)).accessToken!;
    const created = await createActiveUser(server, adminToken, { email: 'vi@acme.test' });
    member = { id: created.id, token: (await signInFully(server, created)).accessToken! };
    other = await createOtherCompany(server);
  });
  afterAll(() => server.close());

  const views = async (token: string, list = 'users') => {
    const res = await call(server, 'GET', `/lists/${list}/views`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Array<Record<string, unknown>>;
  };
  const failed = { status: ['failure'], search: 'ada' };

  it('keeps a view per user and list, answers it by name, and audits it', async () => {
    const res = await call(server, 'POST', '/lists/users/views', {
      token: member.token,
      body: { name: '  Failed sign-ins ', filter: failed, sort: { field: 'email', order: 'ASC' }, hidden: ['phone', 'phone'], order: null },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message: 'View "Failed sign-ins" saved',
      data: {
        id: expect.any(String),
        name: 'Failed sign-ins',
        filter: failed,
        sort: { field: 'email', order: 'ASC' },
        hidden: ['phone'],
        order: null,
        createdAt: expect.any(String),
      },
    });
    await call(server, 'POST', '/lists/users/views', { token: member.token, body: { name: 'all invited', filter: { status: 'invited' } } });
    expect((await views(member.token)).map((view) => view.name)).toEqual(['all invited', 'Failed sign-ins']);
    // Another user, another list, another company: none of them see it.
    expect(await views(adminToken)).toEqual([]);
    expect(await views(member.token, 'roles')).toEqual([]);
    expect(await views(other.adminToken)).toEqual([]);

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'list_view'), eq(systemAudits.recordId, res.json().data.id)));
    expect(audit).toMatchObject({ operation: 'create', userId: member.id });
  });

  it('refuses a second view of the same name in any case, with a 409 that changes nothing', async () => {
    const before = await server.db.select().from(listSavedViews);
    const res = await call(server, 'POST', '/lists/users/views', { token: member.token, body: { name: 'FAILED SIGN-INS' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('name: you already have a view of this list with this name');
    expect(await server.db.select().from(listSavedViews)).toEqual(before);
  });

  it('deletes one of your own views only', async () => {
    const [view] = await views(member.token);
    const foreign = await call(server, 'DELETE', `/lists/users/views/${String(view.id)}`, { token: adminToken });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('View not found');
    const res = await call(server, 'DELETE', `/lists/users/views/${String(view.id)}`, { token: member.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('View "all invited" deleted');
    expect((await views(member.token)).map((v) => v.name)).toEqual(['Failed sign-ins']);
    const again = await call(server, 'DELETE', `/lists/users/views/${String(view.id)}`, { token: member.token });
    expect(again.statusCode).toBe(404);
  });

  it.each([
    [{ name: '' }, /^name: is required/],
    [{ name: 'x'.repeat(61) }, /^name: must be at most 60 characters/],
    [{ name: 'v', sort: { field: 'email', order: 'UP' } }, /^sort\.order: must be ASC or DESC/],
    [{ name: 'v', filter: 'status' }, /^filter: /],
    [{ name: 'v', filter: { search: 'x'.repeat(10_001) } }, /^filter: must be at most 10,000 characters as JSON/],
    [{ name: 'v', extra: true }, /extra/],
  ])('refuses %j with a 400 that names the field', async (body, message) => {
    const before = await server.db.select().from(listSavedViews);
    const res = await call(server, 'POST', '/lists/users/views', { token: member.token, body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await server.db.select().from(listSavedViews)).toEqual(before);
  });

  it('needs a signed-in user', async () => {
    expect((await call(server, 'GET', '/lists/users/views')).statusCode).toBe(401);
  });
});
