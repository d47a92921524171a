import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { sessions } from '../../server/db/schema';
import {
  call,
  createActiveUser,
  createOtherCompany,
  HOSTILE,
  sessionIdOf,
  sessionRow,
  signInAdmin,
  signInFully,
  snapshot,
  userWithPolicies,
} from './helpers';

let server: TestServer;
let adminToken: string;
let companyId: string;
let adminId: string;
let mia: { id: string; email: string; password: string; token: string };
let noah: { id: string; email: string; password: string };
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let foreignSessionId: string;

type Stored = typeof sessions.$inferSelect;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = { id: string; [field: string]: any };

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const old = (d: number, hour = 9) => new Date(Date.UTC(2025, 5, d, hour));

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  companyId = server.company.companyId;
  adminId = server.company.adminUserId;
  const miaUser = await createActiveUser(server, adminToken, { email: 'mia@acme.test', firstName: 'Mia' });
  mia = { ...miaUser, token: (await signInFully(server, miaUser)).accessToken! };
  noah = await createActiveUser(server, adminToken, { email: 'noah@acme.test', firstName: 'Noah' });
  other = await createOtherCompany(server);
  foreignSessionId = sessionIdOf(other.adminToken);

  const base = { companyId, ip: '192.0.2.10', userAgent: 'Mozilla/5.0 (X11)' };
  await server.db.insert(sessions).values([
    // Mia: open, ended, waiting for a code, expired, ended by an admin (recently and long ago).
    { ...base, userId: mia.id, createdAt: ago(1 * HOUR), lastSeenAt: ago(HOUR / 2), expiresAt: ago(-7 * HOUR) },
    {
      ...base,
      userId: mia.id,
      createdAt: ago(2 * HOUR),
      expiresAt: ago(-6 * HOUR),
      endedAt: ago(HOUR),
      endReason: 'logout',
      isDeleted: true,
    },
    { ...base, userId: mia.id, stage: 'otp', createdAt: ago(2 * 60_000), expiresAt: ago(-8 * 60_000) },
    { ...base, userId: mia.id, createdAt: ago(30 * HOUR), lastSeenAt: ago(29 * HOUR), expiresAt: ago(22 * HOUR) },
    {
      ...base,
      userId: mia.id,
      createdAt: ago(48 * HOUR),
      expiresAt: ago(40 * HOUR),
      endedAt: ago(47 * HOUR),
      endReason: 'ended_by_admin',
      isDeleted: true,
    },
    {
      ...base,
      userId: mia.id,
      createdAt: ago(240 * HOUR),
      expiresAt: ago(232 * HOUR),
      endedAt: ago(239 * HOUR),
      endReason: 'ended_by_admin',
      isDeleted: true,
    },
    {
      ...base,
      userId: mia.id,
      createdAt: old(10),
      expiresAt: old(10, 17),
      endedAt: old(10, 10),
      endReason: 'ended_by_admin',
      isDeleted: true,
    },
    // Noah: an impersonation by the admin, another open session, and a long history.
    {
      companyId,
      userId: noah.id,
      impersonatorUserId: adminId,
      ip: '203.0.113.50',
      userAgent: 'Firefox walrus',
      createdAt: ago(HOUR / 2),
      expiresAt: ago(-7 * HOUR),
    },
    { ...base, userId: noah.id, createdAt: ago(4 * HOUR), expiresAt: ago(-4 * HOUR) },
    ...Array.from({ length: 20 }, (_, i) => ({
      ...base,
      userId: noah.id,
      createdAt: old(1 + (i % 10), i),
      expiresAt: old(1 + (i % 10), i + 8),
      ...(i % 2 ? { endedAt: old(1 + (i % 10), i + 1), endReason: 'logout', isDeleted: true } : {}),
    })),
  ]);
});
afterAll(async () => {
  await server?.close();
});

// ---- Oracles -------------------------------------------------------------------------------------

const newestFirst = (a: Stored, b: Stored) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const over = (r: Stored) => r.endedAt !== null || r.expiresAt.getTime() <= Date.now();
const openFirst = (a: Stored, b: Stored) => Number(over(a)) - Number(over(b)) || newestFirst(a, b);
async function stored(): Promise<Stored[]> {
  return (await server.db.select().from(sessions).where(eq(sessions.companyId, companyId))).sort(openFirst);
}
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
const rowsOf = (res: { json(): { data: { rows: Row[] } } }): Row[] => res.json().data.rows;
const list = (token: string, path: string, body?: unknown) => call(server, body === undefined ? 'GET' : 'POST', path, { token, body });

describe('GET /session/{o}/{l}', () => {
  it('lists the company’s sessions, open ones first, newest first, with who and whether current', async () => {
    const all = await stored();
    const res = await list(adminToken, '/session/0/1000');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Sessions');
    expect(ids(rowsOf(res))).toEqual(ids(all));
    expect(res.json().data).toMatchObject({ count: all.length, countExact: true });
    expect(rowsOf(res).some((r) => r.id === foreignSessionId)).toBe(false);

    const rows = rowsOf(res);
    const mine = rows.find((r) => r.id === sessionIdOf(adminToken))!;
    expect(mine).toMatchObject({
      current: true,
      active: true,
      isDeleted: false,
      userId: adminId,
      email: 'admin@acme.test',
      userName: 'Ada Admin',
    });
    expect(rows.filter((r) => r.current)).toHaveLength(1);
    const impersonation = rows.find((r) => r.userAgent === 'Firefox walrus')!;
    expect(impersonation).toEqual({
      id: expect.any(String),
      userId: noah.id,
      email: 'noah@acme.test',
      userName: 'Noah Invitee',
      ip: '203.0.113.50',
      userAgent: 'Firefox walrus',
      stage: 'full',
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      expiresAt: expect.any(String),
      endedAt: null,
      endReason: null,
      isDeleted: false,
      active: true,
      impersonatorUserId: adminId,
      impersonatorEmail: 'admin@acme.test',
      current: false,
    });
    const waiting = rows.find((r) => r.stage === 'otp')!;
    expect(waiting).toMatchObject({ isDeleted: false, active: false });
    // Expired without anyone ending it: over, though the stored flag was never set.
    const expired = rows.find((r) => r.userId === mia.id && r.endedAt === null && new Date(r.expiresAt).getTime() < Date.now())!;
    expect(expired).toMatchObject({ isDeleted: true, active: false });
    const ended = rows.find((r) => r.endReason === 'logout' && r.userId === mia.id)!;
    expect(ended).toMatchObject({ isDeleted: true, active: false });
  });

  it('pages across the open and the ended without gaps or repeats', async () => {
    const all = await stored();
    const openCount = all.filter((r) => !over(r)).length;
    expect(openCount).toBeGreaterThan(3);
    for (const size of [3, 4, openCount, openCount + 1]) {
      const seen: string[] = [];
      for (let offset = 0; offset < all.length; offset += size) {
        const res = await list(adminToken, `/session/${offset}/${size}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data.count).toBe(all.length);
        seen.push(...ids(rowsOf(res)));
      }
      expect(seen, `pages of ${size}`).toEqual(ids(all));
    }
    const past = await list(adminToken, `/session/${all.length + 3}/5`);
    expect(past.json().data).toEqual({ rows: [], count: all.length, countExact: true });
  });
});

describe('POST /session/filter/{o}/{l}/{order}/{field}', () => {
  const filter = (body: unknown, sort = 'ASC/isDeleted', page = '0/1000', token = adminToken) =>
    call(server, 'POST', `/session/filter/${page}/${sort}`, { token, body });

  it('filters by user, status, dates and search', async () => {
    const all = await stored();
    const active = (r: Stored) => !over(r) && r.stage === 'full';
    const matches = (term: string) => (r: Stored) =>
      [r.ip, r.userAgent].some((t) => t?.toLowerCase().includes(term)) ||
      (term === 'noah' && r.userId === noah.id) ||
      (term === 'mia invitee' && r.userId === mia.id);
    const cases: Array<[Record<string, unknown>, (r: Stored) => boolean]> = [
      [{ user: mia.id }, (r) => r.userId === mia.id],
      [{ user: [mia.id, noah.id] }, (r) => r.userId === mia.id || r.userId === noah.id],
      [{ status: 'active' }, active],
      [{ status: 'ended' }, over],
      [{ status: ['active', 'ended'] }, () => true],
      [{ startDate: '2025-06-05' }, (r) => r.createdAt >= old(5, 0)],
      [{ endDate: '2025-06-05' }, (r) => r.createdAt < old(6, 0)],
      [{ startDate: '2025-06-02', endDate: '2025-06-03T12:00:00Z' }, (r) => r.createdAt >= old(2, 0) && r.createdAt <= old(3, 12)],
      [{ search: 'NOAH' }, matches('noah')],
      [{ search: 'mia invitee' }, matches('mia invitee')],
      [{ search: '203.0.113' }, matches('203.0.113')],
      [{ search: 'walrus' }, matches('walrus')],
      [{ user: noah.id, status: 'active' }, (r) => r.userId === noah.id && active(r)],
      [{ user: '', status: [], startDate: null, endDate: '', search: '' }, () => true],
    ];
    for (const [body, keep] of cases) {
      const res = await filter(body);
      expect(res.statusCode, JSON.stringify(body) + res.body).toBe(200);
      const expected = all.filter(keep);
      expect(expected.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(ids(rowsOf(res)), JSON.stringify(body)).toEqual(ids(expected));
      expect(res.json().data.count).toBe(expected.length);
    }
    const defaultSort = await call(server, 'POST', '/session/filter/0/1000', { token: adminToken, body: { user: noah.id } });
    expect(ids(rowsOf(defaultSort))).toEqual(ids(all.filter((r) => r.userId === noah.id)));
  });

  it('sorts by each allowed field, either way, and pages in that order', async () => {
    const all = await stored();
    const key: Record<string, (r: Stored) => number | null> = {
      createdAt: (r) => r.createdAt.getTime(),
      lastSeenAt: (r) => r.lastSeenAt.getTime(),
      expiresAt: (r) => r.expiresAt.getTime(),
      endedAt: (r) => r.endedAt?.getTime() ?? null,
    };
    const expectedOrder = (field: string, order: 'ASC' | 'DESC') => {
      const sign = order === 'ASC' ? 1 : -1;
      if (field === 'isDeleted') return [...all].sort((a, b) => (Number(over(a)) - Number(over(b))) * sign || newestFirst(a, b));
      return [...all].sort((a, b) => {
        const x = key[field](a);
        const y = key[field](b);
        if (x !== y) {
          if (x === null) return sign;
          if (y === null) return -sign;
          return (x - y) * sign;
        }
        return field === 'createdAt' ? (a.id < b.id ? -1 : 1) * sign : newestFirst(a, b);
      });
    };
    for (const field of ['isDeleted', ...Object.keys(key)]) {
      for (const order of ['ASC', 'DESC'] as const) {
        const expected = expectedOrder(field, order);
        const res = await filter({}, `${order}/${field}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(ids(rowsOf(res)), `${order} ${field}`).toEqual(ids(expected));
        for (const [offset, limit] of [
          [0, 5],
          [4, 3],
          [9, 6],
          [30, 10],
        ]) {
          const page = await filter({}, `${order}/${field}`, `${offset}/${limit}`);
          expect(ids(rowsOf(page)), `${order} ${field} ${offset}/${limit}`).toEqual(ids(expected.slice(offset, offset + limit)));
        }
      }
    }
  });

  it('refuses bad sorts and fields with a 400 naming them', async () => {
    const before = await snapshot(server.db);
    const cases: Array<[string, unknown, RegExp]> = [
      ['ASC/isDeleted', { status: 'open' }, /^status: must be one of active, ended/],
      ['ASC/isDeleted', { user: 'x' }, /^user: /],
      ['ASC/isDeleted', { endDate: 'tomorrow' }, /^endDate: /],
      ['ASC/isDeleted', { ip: '1.2.3.4' }, /ip/],
      ['ASC/isDeleted', { search: 'x'.repeat(201) }, /^search: /],
      ['SIDEWAYS/isDeleted', {}, /^order: /],
      ['ASC/email', {}, /^field: must be one of isDeleted, createdAt, lastSeenAt, expiresAt, endedAt/],
      ['ASC/isDeleted', [HOSTILE.sql], /^body: /],
    ];
    for (const [sort, body, message] of cases) {
      const res = await filter(body, sort);
      expect(res.statusCode, `${sort} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await filter({}, 'ASC/isDeleted', '0/0')).json().message).toMatch(/^limit: /);
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('GET /session/filter/props and /session/cards', () => {
  it('offers the users who have sessions and the two statuses', async () => {
    const all = await stored();
    const res = await list(adminToken, '/session/filter/props');
    expect(res.statusCode).toBe(200);
    const { user, status } = res.json().data;
    expect(status).toEqual([
      { id: 'active', name: 'Active' },
      { id: 'ended', name: 'Ended' },
    ]);
    expect(user.map((u: { id: string }) => u.id).sort()).toEqual([...new Set(all.map((r) => r.userId))].sort());
    expect(user).toContainEqual({ id: noah.id, name: 'Noah Invitee' });
    expect(user.map((u: { id: string }) => u.id)).not.toContain(other.adminUserId);
  });

  it('counts open sessions, sign-ins today, ends by an admin and open impersonations', async () => {
    const all = await stored();
    const now = Date.now();
    const midnight = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
    const open = all.filter((r) => !over(r) && r.stage === 'full');
    const expected = [
      open.length,
      all.filter((r) => r.createdAt.getTime() >= midnight && r.stage === 'full' && !r.impersonatorUserId).length,
      all.filter((r) => r.endReason === 'ended_by_admin' && r.endedAt!.getTime() >= now - 7 * 24 * HOUR).length,
      open.filter((r) => r.impersonatorUserId).length,
    ];
    expect(expected[2]).toBe(1);
    expect(expected[3]).toBe(1);
    const res = await list(adminToken, '/session/cards');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.cards).toEqual([
      { key: 'openNow', label: 'Signed in now', value: expected[0], link: '/sessions' },
      { key: 'signInsToday', label: 'Sign-ins today', value: expected[1] },
      { key: 'endedByAdmin7Days', label: 'Ended by an admin in the last 7 days', value: expected[2] },
      { key: 'impersonationsOpen', label: 'Impersonation sessions open', value: expected[3] },
    ]);
  });
});

describe('who may see and end sessions', () => {
  it('needs sessions/read for the company’s lists', async () => {
    const plain = await userWithPolicies(server, adminToken, 'plain@acme.test', [{ resource: 'users', actions: ['read'] }]);
    const viewer = await userWithPolicies(server, adminToken, 'viewer@acme.test', [{ resource: 'sessions', actions: ['read'] }]);
    const routes: Array<['GET' | 'POST', string]> = [
      ['GET', '/session/0/10'],
      ['POST', '/session/filter/0/10/ASC/isDeleted'],
      ['POST', '/session/filter/0/10'],
      ['GET', '/session/filter/props'],
      ['GET', '/session/cards'],
    ];
    for (const [method, path] of routes) {
      const body = method === 'POST' ? {} : undefined;
      const denied = await call(server, method, path, { token: plain.token, body });
      expect(denied.statusCode, path).toBe(403);
      expect(denied.json().message).toBe('Resource Access not provided');
      expect((await call(server, method, path, { token: viewer.token, body })).statusCode, path).toBe(200);
      expect((await call(server, method, path, { body })).statusCode, path).toBe(401);
    }
    const seen = await call(server, 'GET', '/session/0/1000', { token: viewer.token });
    expect(rowsOf(seen).find((r) => r.current)?.userId).toBe(viewer.id);
  });

  it('GET /session/user/{id}: one’s own always, others’ with sessions/read, another company’s never', async () => {
    const all = await stored();
    const own = await list(mia.token, `/session/user/${mia.id}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(ids(rowsOf(own))).toEqual(ids(all.filter((r) => r.userId === mia.id)));
    expect(rowsOf(own).find((r) => r.current)?.id).toBe(sessionIdOf(mia.token));
    const paged = await list(mia.token, `/session/user/${mia.id}?offset=2&limit=3`);
    expect(ids(rowsOf(paged))).toEqual(ids(all.filter((r) => r.userId === mia.id).slice(2, 5)));

    const denied = await list(mia.token, `/session/user/${noah.id}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
    const viewer = await userWithPolicies(server, adminToken, 'viewer2@acme.test', [{ resource: 'sessions', actions: ['read'] }]);
    for (const token of [adminToken, viewer.token]) {
      const res = await list(token, `/session/user/${noah.id}`);
      expect(res.statusCode).toBe(200);
      expect(ids(rowsOf(res))).toEqual(ids(all.filter((r) => r.userId === noah.id)));
    }
    for (const id of [other.adminUserId, '00000000-0000-4000-8000-000000000000']) {
      const missing = await list(adminToken, `/session/user/${id}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('User not found');
    }
    const bad = await list(adminToken, '/session/user/not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('id: must be a valid id');
    const badLimit = await list(adminToken, `/session/user/${noah.id}?limit=0`);
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().message).toMatch(/^limit: /);
  });

  it('lets a holder of sessions/delete end another’s session; sessions/read alone may not', async () => {
    const target = (await signInFully(server, { email: noah.email, password: noah.password })).accessToken!;
    const targetId = sessionIdOf(target);
    const reader = await userWithPolicies(server, adminToken, 'reader@acme.test', [{ resource: 'sessions', actions: ['read'] }]);
    const ender = await userWithPolicies(server, adminToken, 'ender@acme.test', [{ resource: 'sessions', actions: ['delete'] }]);

    const refused = await call(server, 'PUT', '/session/logout', { token: reader.token, body: { sessionId: targetId } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Resource Access not provided');
    expect((await call(server, 'GET', '/user/profile', { token: target })).statusCode).toBe(200);

    const foreign = await call(server, 'PUT', '/session/logout', { token: ender.token, body: { sessionId: foreignSessionId } });
    expect(foreign.statusCode).toBe(404);
    expect((await sessionRow(server.db, foreignSessionId)).endedAt).toBeNull();

    const cardsBefore = (await list(adminToken, '/session/cards')).json().data.cards;
    const ended = await call(server, 'PUT', '/session/logout', { token: ender.token, body: { sessionId: targetId } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().message).toBe('The session of noah@acme.test has been ended');
    expect((await call(server, 'GET', '/user/profile', { token: target })).statusCode).toBe(401);
    expect((await call(server, 'GET', '/user/profile', { token: ender.token })).statusCode).toBe(200);

    const row = rowsOf(await list(adminToken, `/session/user/${noah.id}`)).find((r) => r.id === targetId);
    expect(row).toMatchObject({ isDeleted: true, active: false, endReason: 'ended_by_admin', endedAt: expect.any(String) });
    const cardsAfter = (await list(adminToken, '/session/cards')).json().data.cards;
    expect(cardsAfter[0].value).toBe(cardsBefore[0].value - 1);
    expect(cardsAfter[2].value).toBe(cardsBefore[2].value + 1);
    const endedOnly = await call(server, 'POST', '/session/filter/0/1000/ASC/isDeleted', {
      token: adminToken,
      body: { status: 'ended', user: noah.id },
    });
    expect(ids(rowsOf(endedOnly))).toContain(targetId);
    const activeOnly = await call(server, 'POST', '/session/filter/0/1000/ASC/isDeleted', {
      token: adminToken,
      body: { status: 'active', user: noah.id },
    });
    expect(ids(rowsOf(activeOnly))).not.toContain(targetId);
  });
});

describe('another company', () => {
  it('sees only its own sessions and never names ours', async () => {
    const res = await list(other.adminToken, '/session/0/1000');
    expect(res.statusCode).toBe(200);
    const theirs = await server.db.select().from(sessions).where(eq(sessions.companyId, other.companyId));
    expect(ids(rowsOf(res)).sort()).toEqual(ids(theirs).sort());
    const ours = await call(server, 'POST', '/session/filter/0/10/ASC/isDeleted', { token: other.adminToken, body: { user: mia.id } });
    expect(ours.json().data).toEqual({ rows: [], count: 0, countExact: true });
    const cards = (await list(other.adminToken, '/session/cards')).json().data.cards;
    expect(cards[3].value).toBe(0);
  });
});
