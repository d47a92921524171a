import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { addMembers } from '../../server/workspaces/members';
import {
  accessEvents,
  apiKeys,
  notifications,
  roles,
  sessions,
  systemAudits,
  userPolicies,
  users,
  workspaceMembers,
  workspaces,
} from '../../server/db/schema';
import {
  call,
  createActiveUser,
  createOtherCompany,
  HOSTILE,
  inviteUser,
  sessionIdOf,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
  userRow,
  userWithPolicies,
} from './helpers';

/**
 * The administration side of the users area: lists, filters, sort, cards, one user, the admin's
 * edit, delete, invitations with workspaces and demo accounts.
 */

const DENIED = 'Resource Access not provided';
let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let otherUserId: string;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let nobody: Awaited<ReturnType<typeof userWithPolicies>>;

const ws = { analytics: '', billing: '', retired: '', foreign: '' };
let customRoleId = '';
/** The "zeta" users: a fixed set the list tests filter and sort, made directly so their dates are known. */
const zeta: Record<'one' | 'two' | 'three' | 'four' | 'five', string> = { one: '', two: '', three: '', four: '', five: '' };

async function lastAudit(recordId: string, operation?: string) {
  const rows = await server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.recordId, recordId), operation ? eq(systemAudits.operation, operation) : undefined))
    .orderBy(systemAudits.createdAt);
  return rows[rows.length - 1];
}

async function membershipsOf(userId: string) {
  const rows = await server.db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, userId));
  return rows.map((r) => r.id).sort();
}

async function allMemberships() {
  return server.db.select().from(workspaceMembers).orderBy(workspaceMembers.userId, workspaceMembers.workspaceId);
}

beforeAll(async () => {
  server = await createTestServer();
  const { companyId, memberRoleId } = server.company;
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'reader@acme.test', [{ resource: 'users', actions: ['read'] }]);
  nobody = await userWithPolicies(server, adminToken, 'nobody@acme.test', []);

  const made = await server.db
    .insert(workspaces)
    .values([
      { companyId, name: 'Billing' },
      { companyId, name: 'Analytics' },
      { companyId, name: 'Retired', deletedAt: new Date() },
      { companyId: other.companyId, name: 'Foreign' },
    ])
    .returning();
  [ws.billing, ws.analytics, ws.retired, ws.foreign] = made.map((w) => w.id);
  const [custom] = await server.db.insert(roles).values({ companyId, name: 'Analyst' }).returning();
  customRoleId = custom.id;

  const day = (d: string) => new Date(`${d}T12:00:00.000Z`);
  const fixture = [
    {
      key: 'one',
      email: 'zeta.one@acme.test',
      firstName: 'Zed',
      lastName: 'Alpha',
      status: 'active',
      isActive: true,
      roleId: memberRoleId,
      createdAt: day('2026-01-01'),
      lastLoginAt: day('2026-03-01'),
      otpEnabled: true,
    },
    {
      key: 'two',
      email: 'zeta.two@acme.test',
      firstName: 'Yan',
      lastName: 'Beta',
      status: 'invited',
      isActive: true,
      roleId: memberRoleId,
      createdAt: day('2026-01-02'),
      lastLoginAt: null,
      otpEnabled: false,
    },
    {
      key: 'three',
      email: 'zeta.three@acme.test',
      firstName: 'Xia',
      lastName: 'Gamma',
      status: 'active',
      isActive: false,
      roleId: customRoleId,
      createdAt: day('2026-01-03'),
      lastLoginAt: day('2026-02-01'),
      otpEnabled: false,
    },
    {
      key: 'four',
      email: 'zeta.four@acme.test',
      firstName: 'Wil',
      lastName: 'Delta',
      status: 'invited',
      isActive: false,
      roleId: memberRoleId,
      createdAt: day('2026-01-04'),
      lastLoginAt: null,
      otpEnabled: false,
    },
    {
      key: 'five',
      email: 'zeta.five@acme.test',
      username: 'zorro',
      firstName: 'Val',
      lastName: 'Epsilon',
      status: 'active',
      isActive: true,
      roleId: customRoleId,
      createdAt: day('2026-01-04'),
      lastLoginAt: null,
      otpEnabled: false,
    },
  ] as const;
  for (const { key, ...values } of fixture) {
    const [row] = await server.db
      .insert(users)
      .values({ companyId, ...values, updatedAt: values.createdAt })
      .returning();
    zeta[key] = row.id;
  }
  await addMembers(server.db, companyId, [
    { userId: zeta.one, workspaceId: ws.analytics },
    { userId: zeta.two, workspaceId: ws.analytics },
    { userId: zeta.two, workspaceId: ws.billing },
    { userId: zeta.three, workspaceId: ws.billing },
    { userId: zeta.five, workspaceId: ws.retired },
  ]);
  const [foreign] = await server.db
    .insert(users)
    .values({
      companyId: other.companyId,
      email: 'zeta.foreign@globex.test',
      firstName: 'Zed',
      lastName: 'Foreign',
      status: 'active',
      roleId: other.memberRoleId,
    })
    .returning();
  otherUserId = foreign.id;
});

afterAll(async () => {
  await server?.close();
});

const filter = (path: string, body: unknown, token = adminToken) => call(server, 'POST', `/users/filter/${path}`, { token, body });
const emailsOf = (res: { json(): { data: { rows: { email: string }[] } } }) => res.json().data.rows.map((r) => r.email);
const zetaEmails = (...keys: Array<keyof typeof zeta>) => keys.map((k) => `zeta.${k}@acme.test`);

describe('GET /users/{offset}/{limit}', () => {
  it('answers rows of the contract, newest first, without secrets or picture bytes', async () => {
    await server.db
      .update(users)
      .set({ mpinHash: 'secret-hash', otpSecretEnc: 'enc', avatar: Buffer.from('img'), avatarType: 'image/png' })
      .where(eq(users.id, zeta.one));
    const res = await call(server, 'GET', '/users/0/1000', { token: adminToken });
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Users');
    expect(data.countExact).toBe(true);
    expect(data.count).toBe(data.rows.length);
    const one = data.rows.find((r: { id: string }) => r.id === zeta.one);
    expect(Object.keys(one).sort()).toEqual(
      [
        'id',
        'email',
        'username',
        'firstName',
        'lastName',
        'phone',
        'status',
        'isActive',
        'roleId',
        'roleName',
        'isAdmin',
        'workspaces',
        'otpEnabled',
        'otpRequired',
        'aiNotification',
        'hasAvatar',
        'lastLoginAt',
        'createdAt',
        'updatedAt',
        'createdBy',
      ].sort(),
    );
    expect(one).toMatchObject({
      email: 'zeta.one@acme.test',
      status: 'active',
      roleId: server.company.memberRoleId,
      roleName: 'Member',
      isAdmin: false,
      otpEnabled: true,
      hasAvatar: true,
      workspaces: [{ id: ws.analytics, name: 'Analytics' }],
      lastLoginAt: '2026-03-01T12:00:00.000Z',
      createdAt: '2026-01-01T12:00:00.000Z',
    });
    expect(res.body).not.toMatch(/secret-hash|passwordHash|mpinHash|otpSecret|"avatar"/);
    const admin = data.rows.find((r: { id: string }) => r.id === server.company.adminUserId);
    expect(admin).toMatchObject({ roleName: 'Admin', isAdmin: true, status: 'active', workspaces: [] });
    // Newest first.
    const created = data.rows.map((r: { createdAt: string }) => r.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect(data.rows.some((r: { id: string }) => r.id === otherUserId)).toBe(false);
  });

  it('lists workspaces by name, leaving deleted ones out, and lists the status by the rules', async () => {
    const res = await call(server, 'GET', '/users/0/1000', { token: adminToken });
    const byId = new Map(res.json().data.rows.map((r: { id: string }) => [r.id, r]));
    expect(byId.get(zeta.two)).toMatchObject({
      status: 'invited',
      workspaces: [
        { id: ws.analytics, name: 'Analytics' },
        { id: ws.billing, name: 'Billing' },
      ],
    });
    expect(byId.get(zeta.three)).toMatchObject({ status: 'inactive', isActive: false, roleName: 'Analyst' });
    // An invitation the admin deactivated is inactive, not pending.
    expect(byId.get(zeta.four)).toMatchObject({ status: 'inactive' });
    expect(byId.get(zeta.five)).toMatchObject({ status: 'active', username: 'zorro', workspaces: [] });
  });

  it('pages without gaps or repeats, and /users/0/null gives every user of the company', async () => {
    const [{ n }] = await server.db.select({ n: count() }).from(users).where(eq(users.companyId, server.company.companyId));
    const all = await call(server, 'GET', '/users/0/null', { token: adminToken });
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toMatchObject({ count: n, countExact: true });
    expect(all.json().data.rows).toHaveLength(n);
    const ids: string[] = [];
    for (let offset = 0; offset < n; offset += 3) {
      const page = await call(server, 'GET', `/users/${offset}/3`, { token: adminToken });
      expect(page.json().data.count).toBe(n);
      expect(page.json().data.countExact).toBe(true);
      ids.push(...page.json().data.rows.map((r: { id: string }) => r.id));
    }
    expect(ids).toEqual(all.json().data.rows.map((r: { id: string }) => r.id));
    const past = await call(server, 'GET', `/users/${n + 5}/3`, { token: adminToken });
    expect(past.json().data).toEqual({ rows: [], count: n, countExact: true });
  });

  it('names bad paging values', async () => {
    const cases: [string, RegExp][] = [
      ['/users/0/abc', /^limit: must be a number/],
      ['/users/0/0', /^limit: must be at least 1/],
      ['/users/0/1001', /^limit: must be at most 1000/],
      ['/users/-1/10', /^offset: must be 0 or more/],
    ];
    for (const [path, message] of cases) {
      const res = await call(server, 'GET', path, { token: adminToken });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it('needs users/read', async () => {
    for (const path of ['/users/0/10', '/users/0/null', '/users/filter/props', '/users/cards', `/users/${zeta.one}`]) {
      const res = await call(server, 'GET', path, { token: nobody.token });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().message).toBe(DENIED);
      expect((await call(server, 'GET', path, { token: reader.token })).statusCode, path).toBe(200);
    }
    const denied = await filter('10/0/DESC/createdAt', {}, nobody.token);
    expect(denied.statusCode).toBe(403);
  });
});

describe('POST /users/filter/{limit}/{offset}/{order}/{field}', () => {
  it('filters by each field', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ workspace: ws.analytics }, zetaEmails('one', 'two')],
      [{ workspace: [ws.analytics, ws.billing] }, zetaEmails('one', 'two', 'three')],
      [{ role: customRoleId }, zetaEmails('three', 'five')],
      [{ role: [customRoleId, server.company.memberRoleId] }, zetaEmails('one', 'two', 'three', 'four', 'five')],
      [{ status: 'active' }, zetaEmails('one', 'five')],
      [{ status: ['invited'] }, zetaEmails('two')],
      [{ status: ['inactive'] }, zetaEmails('three', 'four')],
      [{ status: ['active', 'invited'] }, zetaEmails('one', 'two', 'five')],
      [{ startDate: '2026-01-02', endDate: '2026-01-03' }, zetaEmails('two', 'three')],
      [{ startDate: '2026-01-04T00:00:00Z' }, zetaEmails('four', 'five')],
      [{ endDate: '2026-01-01' }, zetaEmails('one')],
      [{ workspace: '', role: [], status: null, startDate: '', endDate: null }, zetaEmails('one', 'two', 'three', 'four', 'five')],
    ];
    for (const [body, expected] of cases) {
      const res = await filter('100/0/ASC/email', { search: 'zeta.', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(emailsOf(res).sort(), JSON.stringify(body)).toEqual([...expected].sort());
      expect(res.json().data).toMatchObject({ count: expected.length, countExact: true });
    }
  });

  it('searches email, username, first, last and full name, case-insensitively, with % and _ taken literally', async () => {
    const cases: [string, string[]][] = [
      ['ZETA.TWO', zetaEmails('two')],
      ['zorro', zetaEmails('five')],
      ['xia', zetaEmails('three')],
      ['gamma', zetaEmails('three')],
      ['Wil Delta', zetaEmails('four')],
      ['Val Epsilon', zetaEmails('five')],
      // Email and username are different fields: text spanning both matches neither.
      ['acme.test zorro', []],
      ['%', []],
      ['zeta_', []],
    ];
    for (const [search, expected] of cases) {
      const res = await filter('100/0/DESC/createdAt', { search });
      expect(
        emailsOf(res)
          .filter((e: string) => e.startsWith('zeta.'))
          .sort(),
        search,
      ).toEqual([...expected].sort());
    }
    const foreign = await filter('100/0/DESC/createdAt', { search: 'foreign' });
    expect(emailsOf(foreign)).toEqual([]);
  });

  it('sorts by each field, with the id keeping equal keys in a stable order', async () => {
    const sorted = async (order: string, field: string) => emailsOf(await filter(`100/0/${order}/${field}`, { search: 'zeta.' }));
    expect(await sorted('ASC', 'firstName')).toEqual(zetaEmails('five', 'four', 'three', 'two', 'one'));
    expect(await sorted('desc', 'firstName')).toEqual(zetaEmails('one', 'two', 'three', 'four', 'five'));
    expect(await sorted('ASC', 'lastName')).toEqual(zetaEmails('one', 'two', 'four', 'five', 'three'));
    expect(await sorted('ASC', 'email')).toEqual(zetaEmails('five', 'four', 'one', 'three', 'two'));
    // Never signed in: last either way.
    expect((await sorted('DESC', 'lastLoginAt')).slice(0, 2)).toEqual(zetaEmails('one', 'three'));
    expect((await sorted('ASC', 'lastLoginAt')).slice(0, 2)).toEqual(zetaEmails('three', 'one'));
    const byStatus = await filter('100/0/ASC/status', { search: 'zeta.' });
    expect(byStatus.json().data.rows.map((r: { status: string }) => r.status)).toEqual([
      'active',
      'active',
      'inactive',
      'inactive',
      'invited',
    ]);
    const byUpdate = await sorted('ASC', 'updatedAt');
    expect(byUpdate.slice(0, 3)).toEqual(zetaEmails('one', 'two', 'three'));

    // four and five share their creation time: the id decides, the same way on every page.
    const [first, second] = [zeta.four, zeta.five].sort().reverse();
    const newest = await filter('2/0/DESC/createdAt', { search: 'zeta.' });
    expect(newest.json().data.rows.map((r: { id: string }) => r.id)).toEqual([first, second]);
    const pageOne = await filter('1/0/DESC/createdAt', { search: 'zeta.' });
    const pageTwo = await filter('1/1/DESC/createdAt', { search: 'zeta.' });
    expect([pageOne.json().data.rows[0].id, pageTwo.json().data.rows[0].id]).toEqual([first, second]);
  });

  it("reads one workspace's members in every order and page, as the filter over several workspaces does", async () => {
    const { companyId } = server.company;
    const [tied, empty] = await server.db
      .insert(workspaces)
      .values([
        { companyId, name: 'Tied' },
        { companyId, name: 'Empty' },
      ])
      .returning();
    await addMembers(
      server.db,
      companyId,
      [zeta.one, zeta.three, zeta.four, zeta.five].map((userId) => ({ userId, workspaceId: tied.id })),
    );
    const ids = (res: Awaited<ReturnType<typeof filter>>) => res.json().data.rows.map((r: { id: string }) => r.id);
    // four and five share their creation time: the id decides.
    const [later, earlier] = [zeta.four, zeta.five].sort().reverse();
    const expected: [string, Record<string, unknown>, string[]][] = [
      ['DESC/createdAt', {}, [later, earlier, zeta.three, zeta.one]],
      ['ASC/createdAt', {}, [zeta.one, zeta.three, earlier, later]],
      ['ASC/email', {}, [zeta.five, zeta.four, zeta.one, zeta.three]],
      ['DESC/createdAt', { status: 'inactive' }, [zeta.four, zeta.three]],
      ['DESC/createdAt', { search: 'zeta.f' }, [later, earlier]],
    ];
    for (const [sort, body, order] of expected) {
      for (const workspace of [tied.id, [tied.id, empty.id]]) {
        const label = `${sort} ${JSON.stringify({ workspace, ...body })}`;
        const whole = await filter(`10/0/${sort}`, { workspace, ...body });
        expect(ids(whole), label).toEqual(order);
        const pages = [];
        for (let offset = 0; offset < order.length; offset++)
          pages.push(...ids(await filter(`1/${offset}/${sort}`, { workspace, ...body })));
        expect(pages, label).toEqual(order);
        const first = await filter(`1/0/${sort}`, { workspace, ...body });
        expect(first.json().data, label).toMatchObject({ count: order.length, countExact: true });
      }
    }
    const foreign = await filter('10/0/DESC/createdAt', { workspace: ws.foreign });
    expect(ids(foreign)).toEqual([]);
    // The other tests know the fixture's workspaces only.
    await server.db.delete(workspaceMembers).where(eq(workspaceMembers.workspaceId, tied.id));
    await server.db.delete(workspaces).where(inArray(workspaces.id, [tied.id, empty.id]));
  });

  it('takes the limit before the offset in the path, and the path wins over the body', async () => {
    const res = await filter('2/1/ASC/firstName', { search: 'zeta.', offset: 4, limit: 1 });
    expect(res.statusCode).toBe(200);
    // Limit 2 from offset 1 (not limit 1 from offset 2).
    expect(emailsOf(res)).toEqual(zetaEmails('four', 'three'));
  });

  it('counts exactly on small data: a full page counts, a short page tells the count itself', async () => {
    const full = await filter('2/0/ASC/firstName', { search: 'zeta.' });
    expect(full.json().data).toMatchObject({ count: 5, countExact: true });
    expect(full.json().data.rows).toHaveLength(2);
    const short = await filter('4/3/ASC/firstName', { search: 'zeta.' });
    expect(short.json().data.rows).toHaveLength(2);
    expect(short.json().data).toMatchObject({ count: 5, countExact: true });
    const filtered = await filter('1/0/ASC/firstName', { search: 'zeta.', status: 'inactive' });
    expect(filtered.json().data).toMatchObject({ count: 2, countExact: true });
  });

  it('names unknown fields, bad values, bad sorts', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['10/0/DESC/createdAt', { colour: 'red' }, /colour/],
      ['10/0/DESC/createdAt', { status: 'gone' }, /^status: must be one of active, invited, inactive/],
      ['10/0/DESC/createdAt', { workspace: HOSTILE.sql }, /^workspace: must be a valid id/],
      ['10/0/DESC/createdAt', { role: ['not-an-id'] }, /^role/],
      ['10/0/DESC/createdAt', { startDate: 'yesterday' }, /^startDate: must be a date/],
      ['10/0/DESC/createdAt', { search: 'x'.repeat(201) }, /^search: must be at most 200/],
      ['10/0/DESC/password', {}, /^field: must be one of createdAt, updatedAt, email, firstName, lastName, lastLoginAt, status/],
      ['10/0/UP/createdAt', {}, /^order: must be ASC or DESC/],
      ['0/0/DESC/createdAt', {}, /^limit: must be at least 1/],
    ];
    for (const [path, body, message] of cases) {
      const res = await filter(path, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    // No body at all, or empty fields, is no filter.
    const [{ n }] = await server.db.select({ n: count() }).from(users).where(eq(users.companyId, server.company.companyId));
    const empty = await call(server, 'POST', '/users/filter/1000/0/DESC/createdAt', { token: adminToken });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data.count).toBe(n);
    const blank = await filter('1000/0/DESC/createdAt', { search: '', status: [] });
    expect(blank.json().data.count).toBe(n);
  });
});

describe('GET /users/filter/props and /users/cards', () => {
  it('offers the company’s workspaces (not deleted), roles and the statuses', async () => {
    const res = await call(server, 'GET', '/users/filter/props', { token: reader.token });
    expect(res.statusCode).toBe(200);
    const { workspace, role, status } = res.json().data;
    expect(workspace).toEqual([
      { id: ws.analytics, name: 'Analytics' },
      { id: ws.billing, name: 'Billing' },
    ]);
    const roleNames = role.map((r: { name: string }) => r.name);
    expect(roleNames).toEqual(expect.arrayContaining(['Admin', 'Member', 'Analyst']));
    expect(role.find((r: { name: string }) => r.name === 'Analyst').id).toBe(customRoleId);
    const [foreignRoles] = await server.db.select({ n: count() }).from(roles).where(eq(roles.companyId, other.companyId));
    expect(foreignRoles.n).toBeGreaterThan(0);
    expect(role.some((r: { id: string }) => r.id === other.memberRoleId)).toBe(false);
    expect(status).toEqual([
      { id: 'active', name: 'Active' },
      { id: 'invited', name: 'Invited' },
      { id: 'inactive', name: 'Inactive' },
    ]);
  });

  it('counts users by status and two-factor, moving as users are added', async () => {
    const read = async () => {
      const res = await call(server, 'GET', '/users/cards', { token: reader.token });
      expect(res.statusCode).toBe(200);
      return Object.fromEntries(res.json().data.cards.map((c: { key: string; value: number }) => [c.key, c.value]));
    };
    const before = await read();
    expect(Object.keys(before)).toEqual(['total', 'active', 'invited', 'inactive', 'twoFactor']);
    expect(before.total).toBe(before.active + before.invited + before.inactive);
    const { companyId, memberRoleId } = server.company;
    await server.db.insert(users).values([
      { companyId, email: 'card.a@acme.test', roleId: memberRoleId, status: 'active', otpEnabled: true },
      { companyId, email: 'card.b@acme.test', roleId: memberRoleId, status: 'invited' },
      { companyId, email: 'card.c@acme.test', roleId: memberRoleId, status: 'invited', isActive: false },
      { companyId: other.companyId, email: 'card.d@globex.test', roleId: other.memberRoleId, status: 'active' },
    ]);
    const after = await read();
    expect(after).toEqual({
      total: before.total + 3,
      active: before.active + 1,
      invited: before.invited + 1,
      inactive: before.inactive + 1,
      twoFactor: before.twoFactor + 1,
    });
    const res = await call(server, 'GET', '/users/cards', { token: reader.token });
    const active = res.json().data.cards.find((c: { key: string }) => c.key === 'active');
    expect(decodeURIComponent(active.link)).toBe('/users?filter={"status":["active"]}');
  });
});

describe('GET /users/{id}', () => {
  it('answers one user of the company, and 404 for another company’s', async () => {
    const res = await call(server, 'GET', `/users/${zeta.two}`, { token: reader.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: zeta.two,
      email: 'zeta.two@acme.test',
      status: 'invited',
      workspaces: [{ name: 'Analytics' }, { name: 'Billing' }],
    });
    const foreign = await call(server, 'GET', `/users/${otherUserId}`, { token: adminToken });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('User not found');
    const bad = await call(server, 'GET', '/users/not-an-id', { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^id: must be a valid id/);
  });
});

describe('PUT /user/profile/{id} (admin edit)', () => {
  const edit = (id: string, body: unknown, token = adminToken) => call(server, 'PUT', `/user/profile/${id}`, { token, body });

  it('saves the fields given, and audits only what changed', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'edit.me@acme.test', firstName: 'Edith' });
    const res = await edit(user.id, {
      firstName: 'Edith',
      lastName: 'Editor',
      username: 'Edith.E',
      phone: '+44 20 7946 0958',
      workspaceIds: [ws.billing, ws.analytics, ws.billing],
      otpRequired: true,
      // A form sending the whole record back: fields an admin cannot change are ignored.
      email: 'hijack@acme.test',
      status: 'invited',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: user.id,
      email: 'edit.me@acme.test',
      firstName: 'Edith',
      lastName: 'Editor',
      username: 'edith.e',
      phone: '+44 20 7946 0958',
      otpRequired: true,
      status: 'active',
      workspaces: [
        { id: ws.analytics, name: 'Analytics' },
        { id: ws.billing, name: 'Billing' },
      ],
    });
    const row = await userRow(server.db, user.id);
    expect(row).toMatchObject({ email: 'edit.me@acme.test', lastName: 'Editor', username: 'edith.e', otpRequired: true, status: 'active' });
    const audit = await lastAudit(user.id, 'update');
    expect(audit).toMatchObject({ model: 'user', userId: server.company.adminUserId });
    expect(audit.changes).toEqual({
      before: { lastName: 'Invitee', username: null, phone: null, otpRequired: false, workspaceIds: [] },
      after: {
        lastName: 'Editor',
        username: 'edith.e',
        phone: '+44 20 7946 0958',
        otpRequired: true,
        workspaceIds: [ws.analytics, ws.billing].sort(),
      },
    });

    // Workspaces are replaced, not added to.
    const again = await edit(user.id, { workspaceIds: [ws.analytics] });
    expect(again.json().data.workspaces).toEqual([{ id: ws.analytics, name: 'Analytics' }]);
    expect(await membershipsOf(user.id)).toEqual([ws.analytics]);
    // Nothing to change: no audit entry.
    const audits = (await snapshot(server.db)).audits;
    const same = await edit(user.id, { firstName: 'Edith', workspaceIds: [ws.analytics] });
    expect(same.statusCode).toBe(200);
    expect((await snapshot(server.db)).audits).toBe(audits);
    // A username or phone can be cleared.
    const cleared = await edit(user.id, { username: '', phone: null });
    expect(cleared.json().data).toMatchObject({ username: null, phone: null });
  });

  it('names bad fields and changes nothing', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'edit.bad@acme.test' });
    const [retiredRole] = await server.db
      .insert(roles)
      .values({ companyId: server.company.companyId, name: 'Old role', isActive: false })
      .returning();
    const before = await snapshot(server.db);
    const links = await allMemberships();
    const cases: [unknown, number, RegExp][] = [
      [{ firstName: '  ' }, 400, /^firstName: is required$/],
      [{ firstName: HOSTILE.html }, 400, /^firstName: may only contain letters/],
      [{ lastName: 'x'.repeat(101) }, 400, /^lastName: must be at most 100 characters/],
      [{ username: 'ab' }, 400, /^username: must be at least 3 characters/],
      [{ username: HOSTILE.sql }, 400, /^username: may only contain letters, digits, dots, underscores and hyphens/],
      [{ phone: 'call me' }, 400, /^phone: must be a phone number/],
      [{ roleId: 'admin' }, 400, /^roleId: must be a valid id/],
      [{ roleId: other.memberRoleId }, 400, /^roleId: no such role$/],
      [{ roleId: retiredRole.id }, 400, /^roleId: this role is deactivated$/],
      [{ workspaceIds: [ws.foreign] }, 400, /^workspaceIds: no such workspace/],
      [{ workspaceIds: [ws.analytics, ws.retired] }, 400, /^workspaceIds: no such workspace/],
      [{ workspaceIds: ws.analytics }, 400, /^workspaceIds: must be a list of workspace ids/],
      [{ workspaceIds: ['nope'] }, 400, /^workspaceIds.0: must be a valid id/],
      [{ isActive: 'no' }, 400, /^isActive: must be true or false/],
      [{ otpRequired: 1 }, 400, /^otpRequired: must be true or false/],
      [{ firstName: HOSTILE.huge }, 413, /too large/],
    ];
    for (const [body, status, message] of cases) {
      const res = await edit(user.id, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    expect(await allMemberships()).toEqual(links);
  });

  it('refuses a username another user has, in any case', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'edit.dup@acme.test' });
    const before = await snapshot(server.db);
    const res = await edit(user.id, { username: 'ZORRO', firstName: 'Changed' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('username: is already taken');
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('needs users/update; another company’s user is a 404; a bad id a 400', async () => {
    const before = await snapshot(server.db);
    const denied = await edit(zeta.one, { firstName: 'Nope' }, reader.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const foreign = await edit(otherUserId, { firstName: 'Nope' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('User not found');
    const fromThere = await edit(zeta.one, { firstName: 'Nope' }, other.adminToken);
    expect(fromThere.statusCode).toBe(404);
    const bad = await edit('12', { firstName: 'Nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^id: must be a valid id/);
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('changes the role, tells the user, and audits the role names', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'promote.me@acme.test' });
    const res = await edit(user.id, { roleId: customRoleId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ roleId: customRoleId, roleName: 'Analyst', isAdmin: false });
    const [notice] = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.type, 'role_changed')));
    expect(notice).toMatchObject({
      title: 'Your role has changed',
      message: 'Your role is now Analyst (it was Member).',
      link: '/profile',
      createdBy: server.company.adminUserId,
      status: 'unread',
    });
    expect((await lastAudit(user.id, 'update')).changes).toEqual({
      before: { roleId: server.company.memberRoleId, roleName: 'Member' },
      after: { roleId: customRoleId, roleName: 'Analyst' },
    });
    // The same role again is no change and no notice.
    await edit(user.id, { roleId: customRoleId });
    const notices = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.type, 'role_changed')));
    expect(notices).toHaveLength(1);
  });

  it('deactivating ends the user’s sessions at once; reactivating lets them sign in again', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'switch.off@acme.test' });
    const session = await signInFully(server, user);
    expect((await call(server, 'GET', '/user/profile', { token: session.accessToken })).statusCode).toBe(200);
    const res = await edit(user.id, { isActive: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ isActive: false, status: 'inactive' });
    const after = await call(server, 'GET', '/user/profile', { token: session.accessToken });
    expect(after.statusCode).toBe(401);
    const [row] = await server.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(session.accessToken!)));
    expect(row).toMatchObject({ endReason: 'user_deactivated' });
    expect(row.endedAt).not.toBeNull();
    const [event] = await server.db
      .select()
      .from(accessEvents)
      .where(and(eq(accessEvents.userId, user.id), eq(accessEvents.event, 'session_end')));
    expect(event).toMatchObject({ status: 'success', reason: 'user_deactivated' });
    expect((await lastAudit(user.id, 'update')).changes).toEqual({ before: { isActive: true }, after: { isActive: false } });
    expect((await signIn(server, user)).statusCode).toBe(403);

    const back = await edit(user.id, { isActive: true });
    expect(back.json().data.status).toBe('active');
    expect((await signIn(server, user)).statusCode).toBe(200);
  });

  it('keeps an active admin: no self-deactivation, no demoting the last admin', async () => {
    const before = await snapshot(server.db);
    const self = await edit(server.company.adminUserId, { isActive: false });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('isActive: you cannot deactivate your own account');
    const demote = await edit(server.company.adminUserId, { roleId: server.company.memberRoleId });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().message).toBe('roleId: the last active admin must keep an admin role');
    expect(await snapshot(server.db)).toEqual(before);

    // With a second admin, that one may step down.
    const second = await createActiveUser(server, adminToken, { email: 'second.admin@acme.test', roleId: server.company.adminRoleId });
    const secondToken = (await signInFully(server, second)).accessToken!;
    const stepDown = await edit(second.id, { roleId: server.company.memberRoleId }, secondToken);
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().data.isAdmin).toBe(false);
  });

  it('refuses to deactivate the last active admin, whoever asks', async () => {
    // An admin whose admin role was since deactivated still passes the guard but no longer counts as an active admin.
    const [lapsed] = await server.db
      .insert(roles)
      .values({ companyId: server.company.companyId, name: 'Lapsed admins', isAdmin: true })
      .returning();
    const acting = await createActiveUser(server, adminToken, { email: 'lapsed.admin@acme.test', roleId: lapsed.id });
    const token = (await signInFully(server, acting)).accessToken!;
    await server.db.update(roles).set({ isActive: false }).where(eq(roles.id, lapsed.id));
    const before = await snapshot(server.db);
    const res = await edit(server.company.adminUserId, { isActive: false }, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('isActive: the last active admin cannot be deactivated');
    const remove = await call(server, 'DELETE', `/users/${server.company.adminUserId}`, { token });
    expect(remove.statusCode).toBe(400);
    expect(remove.json().message).toBe('id: the last active admin cannot be deleted');
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('lets a users/update policy change members but not admins, nor give an admin role', async () => {
    const editor = await userWithPolicies(server, adminToken, 'editor@acme.test', [{ resource: 'users', actions: ['read', 'update'] }]);
    const member = await createActiveUser(server, adminToken, { email: 'edited.by.editor@acme.test' });
    const ok = await edit(member.id, { lastName: 'Changed' }, editor.token);
    expect(ok.statusCode).toBe(200);
    const before = await snapshot(server.db);
    const escalate = await edit(member.id, { roleId: server.company.adminRoleId }, editor.token);
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('roleId: only an admin can give an admin role');
    const touchAdmin = await edit(server.company.adminUserId, { firstName: 'Hacked' }, editor.token);
    expect(touchAdmin.statusCode).toBe(403);
    expect(touchAdmin.json().message).toBe("Only an admin can change an admin's account");
    const ownRole = await edit(editor.id, { roleId: customRoleId }, editor.token);
    expect(ownRole.statusCode).toBe(403);
    expect(ownRole.json().message).toBe('roleId: you cannot change your own role');
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('DELETE /users/{id}', () => {
  it('removes the user and what hangs on them, ends their sessions, turns off their API keys', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'leaving@acme.test' });
    const token = (await signInFully(server, user)).accessToken!;
    const { companyId } = server.company;
    await addMembers(server.db, companyId, [{ userId: user.id, workspaceId: ws.analytics }]);
    await server.db.insert(userPolicies).values({ companyId, userId: user.id, resource: 'users', actions: ['read'] });
    await server.db.insert(notifications).values({ companyId, userId: user.id, type: 'test', title: 'Hello' });
    const [key] = await server.db
      .insert(apiKeys)
      .values({ companyId, name: 'Leaver key', prefix: 'leaverprefix', keyHash: 'x', accessUserId: user.id })
      .returning();

    const res = await call(server, 'DELETE', `/users/${user.id}`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'leaving@acme.test has been deleted' });
    expect(await userRow(server.db, user.id)).toBeUndefined();
    expect((await call(server, 'GET', '/user/profile', { token })).statusCode).toBe(401);
    expect((await call(server, 'GET', `/users/${user.id}`, { token: adminToken })).statusCode).toBe(404);
    expect(await membershipsOf(user.id)).toEqual([]);
    expect(await server.db.select().from(userPolicies).where(eq(userPolicies.userId, user.id))).toEqual([]);
    expect(await server.db.select().from(notifications).where(eq(notifications.userId, user.id))).toEqual([]);
    const [keyAfter] = await server.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(keyAfter.isActive).toBe(false);
    const open = await server.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), inArray(sessions.endReason, ['user_deactivated'])));
    expect(open.length).toBeGreaterThan(0);
    const audit = await lastAudit(user.id, 'delete');
    expect(audit).toMatchObject({ model: 'user', userId: server.company.adminUserId });
    expect(audit.changes).toMatchObject({ before: { email: 'leaving@acme.test', roleName: 'Member', status: 'active' } });
    expect(JSON.stringify(audit.changes)).not.toMatch(/argon2/);
  });

  it('refuses oneself, needs users/delete, and 404s for another company’s user', async () => {
    const victim = await createActiveUser(server, adminToken, { email: 'not.deleted@acme.test' });
    const before = await snapshot(server.db);
    const self = await call(server, 'DELETE', `/users/${server.company.adminUserId}`, { token: adminToken });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('id: you cannot delete your own account');
    const denied = await call(server, 'DELETE', `/users/${victim.id}`, { token: reader.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const foreign = await call(server, 'DELETE', `/users/${otherUserId}`, { token: adminToken });
    expect(foreign.statusCode).toBe(404);
    const fromThere = await call(server, 'DELETE', `/users/${victim.id}`, { token: other.adminToken });
    expect(fromThere.statusCode).toBe(404);
    const bad = await call(server, 'DELETE', `/users/${encodeURIComponent(HOSTILE.sql)}`, { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(await snapshot(server.db)).toEqual(before);
    expect(await userRow(server.db, otherUserId)).toBeDefined();
  });

  it('lets a users/delete policy remove members but not admins', async () => {
    const remover = await userWithPolicies(server, adminToken, 'remover@acme.test', [{ resource: 'users', actions: ['delete'] }]);
    const member = await createActiveUser(server, adminToken, { email: 'removed.by.policy@acme.test' });
    expect((await call(server, 'DELETE', `/users/${member.id}`, { token: remover.token })).statusCode).toBe(200);
    const before = await snapshot(server.db);
    const admin = await call(server, 'DELETE', `/users/${server.company.adminUserId}`, { token: remover.token });
    expect(admin.statusCode).toBe(403);
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('POST /user (invitation) with workspaces and the users/create policy', () => {
  it('puts the invited user in the workspaces given', async () => {
    const res = await call(server, 'POST', '/user', {
      token: adminToken,
      body: { email: 'with.ws@acme.test', firstName: 'Wes', roleId: server.company.memberRoleId, workspaceIds: [ws.billing] },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id;
    expect(await membershipsOf(id)).toEqual([ws.billing]);
    const row = await call(server, 'GET', `/users/${id}`, { token: adminToken });
    expect(row.json().data).toMatchObject({ status: 'invited', workspaces: [{ id: ws.billing, name: 'Billing' }] });
    expect((await lastAudit(id, 'create')).changes).toMatchObject({ after: { email: 'with.ws@acme.test', workspaceIds: [ws.billing] } });
  });

  it('refuses unknown, deleted and foreign workspaces, storing nothing', async () => {
    const before = await snapshot(server.db);
    const links = await allMemberships();
    for (const workspaceIds of [[ws.foreign], [ws.retired], ['00000000-0000-4000-8000-000000000000'], ['x']]) {
      const res = await call(server, 'POST', '/user', {
        token: adminToken,
        body: { email: 'bad.ws@acme.test', firstName: 'Bad', roleId: server.company.memberRoleId, workspaceIds },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^workspaceIds/);
    }
    expect(await snapshot(server.db)).toEqual(before);
    expect(await allMemberships()).toEqual(links);
  });

  it('lets a users/create policy invite, but not give an admin role', async () => {
    const creator = await userWithPolicies(server, adminToken, 'creator@acme.test', [{ resource: 'users', actions: ['create'] }]);
    const ok = await call(server, 'POST', '/user', {
      token: creator.token,
      body: { email: 'by.creator@acme.test', firstName: 'Cy', roleId: server.company.memberRoleId },
    });
    expect(ok.statusCode).toBe(201);
    const before = await snapshot(server.db);
    const admin = await call(server, 'POST', '/user', {
      token: creator.token,
      body: { email: 'boss.by.creator@acme.test', firstName: 'Cy', roleId: server.company.adminRoleId },
    });
    expect(admin.statusCode).toBe(403);
    expect(admin.json().message).toBe('roleId: only an admin can give an admin role');
    const denied = await call(server, 'POST', '/user', {
      token: reader.token,
      body: { email: 'by.reader@acme.test', firstName: 'Re', roleId: server.company.memberRoleId },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('POST /client/createUser (demo accounts) and GET /client/checkDuplicateUserName/{name}', () => {
  const demo = {
    email: 'Demo.User@acme.test',
    username: 'Demo.User',
    firstName: 'Demi',
    lastName: 'User',
    password: 'Demo-pass-2026',
    roleId: '',
  };

  it('creates an active user who can sign in at once with the password given', async () => {
    const before = await snapshot(server.db);
    const res = await call(server, 'POST', '/client/createUser', {
      token: adminToken,
      body: { ...demo, roleId: server.company.memberRoleId },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json();
    expect(data).toMatchObject({
      email: 'demo.user@acme.test',
      username: 'demo.user',
      status: 'active',
      isActive: true,
      roleName: 'Member',
      createdBy: server.company.adminUserId,
    });
    expect(res.body).not.toMatch(/Demo-pass-2026|argon2/);
    // No invitation mail for a demo account.
    expect((await snapshot(server.db)).mails).toBe(before.mails);
    const session = await signInFully(server, { email: 'demo.user@acme.test', password: 'Demo-pass-2026' });
    expect(session.id).toBe(data.id);
    const audit = await lastAudit(data.id, 'create');
    expect(audit.changes).toEqual({
      after: {
        email: 'demo.user@acme.test',
        username: 'demo.user',
        firstName: 'Demi',
        lastName: 'User',
        roleId: server.company.memberRoleId,
        roleName: 'Member',
        status: 'active',
        demo: true,
      },
    });

    const taken = await call(server, 'GET', '/client/checkDuplicateUserName/DEMO.user', { token: nobody.token });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().data).toEqual({ duplicate: true });
    const free = await call(server, 'GET', '/client/checkDuplicateUserName/nobody.has.this', { token: nobody.token });
    expect(free.json().data).toEqual({ duplicate: false });
    // Another company's usernames are theirs.
    const elsewhere = await call(server, 'GET', '/client/checkDuplicateUserName/demo.user', { token: other.adminToken });
    expect(elsewhere.json().data).toEqual({ duplicate: false });
    const bad = await call(server, 'GET', '/client/checkDuplicateUserName/a', { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^name: must be at least 3 characters/);
  });

  it('refuses a taken email or username (409), bad fields (400), and users without users/create (403)', async () => {
    await call(server, 'POST', '/client/createUser', {
      token: adminToken,
      body: { ...demo, email: 'first.demo@acme.test', username: 'first.demo', roleId: server.company.memberRoleId },
    });
    const before = await snapshot(server.db);
    const good = { ...demo, email: 'second.demo@acme.test', username: 'second.demo', roleId: server.company.memberRoleId };
    const cases: [unknown, number, RegExp][] = [
      [{ ...good, email: 'FIRST.demo@acme.test' }, 409, /^A user with this email already exists$/],
      [{ ...good, username: 'First.Demo' }, 409, /^username: is already taken$/],
      [{ ...good, password: 'short1' }, 400, /^password: Password must be at least 10 characters long$/],
      [{ ...good, password: 'lettersonlypassword' }, 400, /^password: Password must contain both letters and digits$/],
      [{ ...good, username: undefined }, 400, /^username: /],
      [{ ...good, username: 'no spaces' }, 400, /^username: may only contain/],
      [{ ...good, email: HOSTILE.sql }, 400, /^email: must be a valid email address$/],
      [{ ...good, firstName: '' }, 400, /^firstName: is required$/],
      [{ ...good, roleId: other.adminRoleId }, 400, /^roleId: no such role$/],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(server, 'POST', '/client/createUser', { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const denied = await call(server, 'POST', '/client/createUser', { token: reader.token, body: good });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('activation tells the admins', () => {
  it('notifies every active admin but the new user when an invited user activates', async () => {
    const invitation = await inviteUser(server, adminToken, {
      email: 'newcomer@acme.test',
      firstName: 'Nia',
      lastName: 'Newcomer',
      roleId: server.company.adminRoleId,
    });
    const res = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword, newPassword: 'Newcomer-pass-1' },
    });
    expect(res.statusCode).toBe(200);
    const notices = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.type, 'invitation_accepted'), eq(notifications.link, `/users/${invitation.id}/show`)));
    const toAdmin = notices.filter((n) => n.userId === server.company.adminUserId);
    expect(toAdmin).toHaveLength(1);
    expect(toAdmin[0]).toMatchObject({
      companyId: server.company.companyId,
      title: 'Nia Newcomer accepted the invitation',
      message: 'newcomer@acme.test has activated their account.',
      link: `/users/${invitation.id}/show`,
      createdBy: invitation.id,
    });
    expect(notices.some((n) => n.userId === invitation.id)).toBe(false);
    const activation = await lastAudit(invitation.id, 'activate');
    expect(activation).toMatchObject({ model: 'user', userId: invitation.id });
    expect(activation.changes).toEqual({ before: { status: 'invited' }, after: { status: 'active' } });
    expect(notices.some((n) => n.companyId === other.companyId)).toBe(false);
  });
});
