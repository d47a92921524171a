import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { notifications } from '../../server/db/schema';
import { call, createActiveUser, createOtherCompany, HOSTILE, signInAdmin, signInFully, snapshot, userWithPolicies } from './helpers';

let server: TestServer;
let adminToken: string;
let companyId: string;
let adminId: string;
let mia: { id: string; email: string; token: string };
let noah: { id: string; email: string; token: string };
let reader: { id: string; token: string };
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let theirNotificationId: string;

type Stored = typeof notifications.$inferSelect;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = { id: string; [field: string]: any };

const TYPES = ['role_changed', 'job_failed', 'invitation_accepted'];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const day = (d: number, hour = 9) => new Date(Date.UTC(2025, 4, d, hour));

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  companyId = server.company.companyId;
  adminId = server.company.adminUserId;
  const signedIn = async (email: string, firstName: string) => {
    const user = await createActiveUser(server, adminToken, { email, firstName });
    return { ...user, token: (await signInFully(server, user)).accessToken! };
  };
  mia = await signedIn('mia@acme.test', 'Mia');
  noah = await signedIn('noah@acme.test', 'Noah');
  reader = await userWithPolicies(server, adminToken, 'reader@acme.test', [{ resource: 'notifications', actions: ['read'] }]);
  other = await createOtherCompany(server);

  // Mia: 14 notifications over two weeks, some read, from the admin or the system; Noah: 5; the admin: 3.
  const rows = [
    ...Array.from({ length: 14 }, (_, i) => ({
      companyId,
      userId: mia.id,
      type: TYPES[i % 3],
      title: `${LETTERS[i]} title for Mia`,
      message: i === 4 ? 'Your nightly load of the ORCHID table failed' : `Message ${i}`,
      link: i % 2 ? `/workspaces/${i}` : null,
      status: i % 4 === 0 ? 'read' : 'unread',
      readAt: i % 4 === 0 ? day(20) : null,
      createdBy: i % 3 === 0 ? adminId : null,
      createdAt: i < 3 ? day(10) : day(1 + i, i),
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      companyId,
      userId: noah.id,
      type: i === 0 ? 'weekly_report' : 'role_changed',
      title: `${LETTERS[i + 14]} title for Noah`,
      message: i === 0 ? 'orchid report for Noah' : 'Hello Noah',
      status: 'unread',
      createdBy: mia.id,
      createdAt: day(2 + i),
    })),
    ...Array.from({ length: 3 }, (_, i) => ({
      companyId,
      userId: adminId,
      type: 'invitation_accepted',
      title: `${LETTERS[i + 20]} title for the admin`,
      createdBy: noah.id,
      createdAt: day(5 + i),
    })),
  ];
  await server.db.insert(notifications).values(rows);
  const [theirs] = await server.db
    .insert(notifications)
    .values({
      companyId: other.companyId,
      userId: other.adminUserId,
      type: 'secret_type',
      title: 'orchid for Globex only',
      createdAt: day(6),
    })
    .returning();
  theirNotificationId = theirs.id;
});
afterAll(async () => {
  await server?.close();
});

// ---- Oracles -------------------------------------------------------------------------------------

const newestFirst = (a: Stored, b: Stored) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
async function stored(userId?: string): Promise<Stored[]> {
  const rows = await server.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.companyId, companyId), userId ? eq(notifications.userId, userId) : undefined));
  return rows.sort(newestFirst);
}
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
const rowsOf = (res: { json(): { data: { rows: Row[] } } }): Row[] => res.json().data.rows;
const holds = (term: string) => (r: Stored) => [r.title, r.message].some((t) => t.toLowerCase().includes(term.toLowerCase()));

describe('GET /notification/{o}/{l}', () => {
  it('shows a user their own notifications only, newest first, with names', async () => {
    const own = await stored(mia.id);
    const res = await call(server, 'GET', '/notification/0/100', { token: mia.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Notifications');
    expect(ids(rowsOf(res))).toEqual(ids(own));
    expect(res.json().data).toMatchObject({ count: own.length, countExact: true });
    const sample = rowsOf(res).find((r) => r.title === 'D title for Mia');
    expect(sample).toEqual({
      id: expect.any(String),
      userId: mia.id,
      userName: 'Mia Invitee',
      type: 'role_changed',
      title: 'D title for Mia',
      message: 'Message 3',
      link: '/workspaces/3',
      status: 'unread',
      createdBy: adminId,
      createdByName: 'Ada Admin',
      createdAt: day(4, 3).toISOString(),
      readAt: null,
    });
    const system = rowsOf(res).find((r) => r.title === 'B title for Mia');
    expect(system).toMatchObject({ createdBy: null, createdByName: null });
  });

  it('shows everyone’s in the company to admins and to holders of notifications/read, never another company’s', async () => {
    const everyone = await stored();
    expect(new Set(everyone.map((r) => r.userId)).size).toBeGreaterThanOrEqual(3);
    for (const token of [adminToken, reader.token]) {
      const res = await call(server, 'GET', '/notification/0/1000', { token });
      expect(res.statusCode).toBe(200);
      expect(ids(rowsOf(res))).toEqual(ids(everyone));
      expect(rowsOf(res).find((r) => r.userId === noah.id)).toMatchObject({ userName: 'Noah Invitee', createdByName: 'Mia Invitee' });
    }
    const theirs = await call(server, 'GET', '/notification/0/1000', { token: other.adminToken });
    expect(ids(rowsOf(theirs))).toEqual([theirNotificationId]);
  });

  it('pages without gaps or repeats', async () => {
    const own = await stored(mia.id);
    const seen: string[] = [];
    for (let offset = 0; offset < own.length; offset += 4) {
      const res = await call(server, 'GET', `/notification/${offset}/4`, { token: mia.token });
      expect(res.json().data.count).toBe(own.length);
      seen.push(...ids(rowsOf(res)));
    }
    expect(seen).toEqual(ids(own));
    const bad = await call(server, 'GET', '/notification/0/5000', { token: mia.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('limit: must be at most 1000');
    expect((await call(server, 'GET', '/notification/0/10')).statusCode).toBe(401);
  });
});

describe('POST /notification/filter/{o}/{l}/{order}/{field}', () => {
  const filter = (token: string, body: unknown, sort = 'DESC/createdAt', page = '0/1000') =>
    call(server, 'POST', `/notification/filter/${page}/${sort}`, { token, body });

  it('filters a user’s own by each field', async () => {
    const own = await stored(mia.id);
    const cases: Array<[Record<string, unknown>, (r: Stored) => boolean]> = [
      [{ status: 'unread' }, (r) => r.status === 'unread'],
      [{ status: ['read'] }, (r) => r.status === 'read'],
      [{ type: 'job_failed' }, (r) => r.type === 'job_failed'],
      [{ type: ['job_failed', 'invitation_accepted'] }, (r) => r.type !== 'role_changed'],
      [{ createdBy: adminId }, (r) => r.createdBy === adminId],
      [{ startDate: '2025-05-08' }, (r) => r.createdAt >= day(8, 0)],
      [{ endDate: '2025-05-06' }, (r) => r.createdAt < day(7, 0)],
      [{ search: 'orchid' }, holds('orchid')],
      [{ search: 'C TITLE' }, holds('c title')],
      [{ user: mia.id }, () => true],
      [
        { status: 'unread', type: 'role_changed', createdBy: adminId },
        (r) => r.status === 'unread' && r.type === 'role_changed' && r.createdBy === adminId,
      ],
    ];
    for (const [body, keep] of cases) {
      const res = await filter(mia.token, body);
      expect(res.statusCode, JSON.stringify(body) + res.body).toBe(200);
      const expected = own.filter(keep);
      expect(expected.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(ids(rowsOf(res)), JSON.stringify(body)).toEqual(ids(expected));
      expect(res.json().data.count).toBe(expected.length);
    }
  });

  it('lets a user name only themselves; an admin may name anyone of the company', async () => {
    const asMia = await filter(mia.token, { user: noah.id });
    expect(asMia.statusCode).toBe(200);
    expect(asMia.json().data).toEqual({ rows: [], count: 0, countExact: true });
    const orchidForMia = await filter(mia.token, { search: 'orchid' });
    expect(rowsOf(orchidForMia).every((r) => r.userId === mia.id)).toBe(true);

    const everyone = await stored();
    for (const [body, keep] of [
      [{ user: noah.id }, (r: Stored) => r.userId === noah.id],
      [{ user: [noah.id, adminId] }, (r: Stored) => r.userId === noah.id || r.userId === adminId],
      [{ createdBy: mia.id }, (r: Stored) => r.createdBy === mia.id],
      [{ search: 'orchid' }, holds('orchid')],
      [{ type: 'weekly_report' }, (r: Stored) => r.type === 'weekly_report'],
    ] as const) {
      const res = await filter(adminToken, body);
      expect(ids(rowsOf(res)), JSON.stringify(body)).toEqual(ids(everyone.filter(keep)));
    }
    // Several recipients, paged: the same order as the whole list.
    const several = everyone.filter((r) => r.userId === noah.id || r.userId === mia.id);
    for (const order of ['DESC', 'ASC'] as const) {
      const expected = order === 'DESC' ? several : [...several].reverse();
      const seen: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 4) {
        const res = await filter(adminToken, { user: [mia.id, noah.id] }, `${order}/createdAt`, `${offset}/4`);
        expect(res.json().data.count).toBe(expected.length);
        seen.push(...ids(rowsOf(res)));
      }
      expect(seen, order).toEqual(ids(expected));
    }
    const foreign = await filter(adminToken, { user: other.adminUserId });
    expect(foreign.json().data.rows).toEqual([]);
    const foreignType = await filter(adminToken, { type: 'secret_type' });
    expect(foreignType.json().data.rows).toEqual([]);
  });

  it('sorts by each allowed field, either way, and pages in that order', async () => {
    const own = await stored(mia.id);
    const key: Record<string, (r: Stored) => string | number | null> = {
      createdAt: (r) => r.createdAt.getTime(),
      readAt: (r) => r.readAt?.getTime() ?? null,
      type: (r) => r.type,
      title: (r) => r.title,
      status: (r) => r.status,
    };
    for (const field of Object.keys(key)) {
      for (const order of ['ASC', 'DESC'] as const) {
        // PostgreSQL puts nulls last going up and first going down; ties fall back on the newest first.
        const sign = order === 'ASC' ? 1 : -1;
        const expected = [...own].sort((a, b) => {
          const x = key[field](a);
          const y = key[field](b);
          if (x !== y) {
            if (x === null) return sign;
            if (y === null) return -sign;
            return (x < y ? -1 : 1) * sign;
          }
          if (field === 'createdAt') return (a.id < b.id ? -1 : 1) * sign;
          return newestFirst(a, b);
        });
        const res = await filter(mia.token, {}, `${order.toLowerCase()}/${field}`);
        expect(res.statusCode, res.body).toBe(200);
        expect(ids(rowsOf(res)), `${order} ${field}`).toEqual(ids(expected));
        const page = await filter(mia.token, {}, `${order}/${field}`, '3/4');
        expect(ids(rowsOf(page)), `${order} ${field} page`).toEqual(ids(expected.slice(3, 7)));
      }
    }
    const unsorted = await call(server, 'POST', '/notification/filter/0/1000', { token: mia.token, body: {} });
    expect(ids(rowsOf(unsorted))).toEqual(ids(own));
  });

  it('refuses bad sorts and fields with a 400 naming them, and changes nothing', async () => {
    const before = await snapshot(server.db);
    const unread = (await stored(mia.id)).filter((r) => r.status === 'unread').length;
    const cases: Array<[string, unknown, RegExp]> = [
      ['DESC/createdAt', { status: 'archived' }, /^status: must be one of unread, read/],
      ['DESC/createdAt', { user: 'me' }, /^user: /],
      ['DESC/createdAt', { createdBy: 'someone' }, /^createdBy: /],
      ['DESC/createdAt', { startDate: '31/12/2025' }, /^startDate: /],
      ['DESC/createdAt', { search: 'x'.repeat(300) }, /^search: /],
      ['DESC/createdAt', { colour: 'red' }, /colour/],
      ['UP/createdAt', {}, /^order: must be ASC or DESC/],
      ['DESC/password', {}, /^field: must be one of createdAt, readAt, type, title, status/],
      ['DESC/createdAt', { search: HOSTILE.sql, status: HOSTILE.html }, /^status: /],
    ];
    for (const [sort, body, message] of cases) {
      const res = await filter(mia.token, body, sort);
      expect(res.statusCode, `${sort} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    expect((await stored(mia.id)).filter((r) => r.status === 'unread').length).toBe(unread);
  });
});

describe('GET /notification/search/{o}/{l}/{searchText}', () => {
  it('finds text in titles and messages of the caller’s notifications (everyone’s for admins)', async () => {
    const own = await stored(mia.id);
    const res = await call(server, 'GET', '/notification/search/0/100/ORCHID', { token: mia.token });
    expect(res.statusCode).toBe(200);
    expect(ids(rowsOf(res))).toEqual(ids(own.filter(holds('orchid'))));
    expect(rowsOf(res)).toHaveLength(1);
    const spaced = await call(server, 'GET', `/notification/search/0/100/${encodeURIComponent('title for mia')}`, { token: mia.token });
    expect(ids(rowsOf(spaced))).toEqual(ids(own));
    const paged = await call(server, 'GET', `/notification/search/2/3/${encodeURIComponent('title for')}`, { token: mia.token });
    expect(ids(rowsOf(paged))).toEqual(ids(own.slice(2, 5)));
    expect(paged.json().data.count).toBe(own.length);

    const all = await call(server, 'GET', '/notification/search/0/100/orchid', { token: adminToken });
    expect(ids(rowsOf(all))).toEqual(ids((await stored()).filter(holds('orchid'))));
    expect(rowsOf(all)).toHaveLength(2);
    const wildcard = await call(server, 'GET', `/notification/search/0/100/${encodeURIComponent('%')}`, { token: adminToken });
    expect(rowsOf(wildcard)).toEqual([]);

    const longest = await call(server, 'GET', `/notification/search/0/10/${'y'.repeat(200)}`, { token: mia.token });
    expect(longest.json().data).toEqual({ rows: [], count: 0, countExact: true });
    // Past 200 characters the router itself refuses the path.
    const tooLong = await call(server, 'GET', `/notification/search/0/10/${'y'.repeat(201)}`, { token: mia.token });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json().message).toEqual(expect.any(String));
    const blank = await call(server, 'GET', '/notification/search/0/10/%20%20', { token: mia.token });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('searchText: is required');
  });
});

describe('GET /notification/options', () => {
  it('offers a user their own types, themselves and who sent theirs', async () => {
    const res = await call(server, 'GET', '/notification/options', { token: mia.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      status: [
        { id: 'unread', name: 'Unread' },
        { id: 'read', name: 'Read' },
      ],
      type: [
        { id: 'invitation_accepted', name: 'Invitation accepted' },
        { id: 'job_failed', name: 'Job failed' },
        { id: 'role_changed', name: 'Role changed' },
      ],
      user: [{ id: mia.id, name: 'Mia Invitee' }],
      createdBy: [{ id: adminId, name: 'Ada Admin' }],
    });
  });

  it('offers an admin every type, recipient and sender of the company', async () => {
    const everyone = await stored();
    const res = await call(server, 'GET', '/notification/options', { token: adminToken });
    const data = res.json().data;
    expect(data.type.map((c: { id: string }) => c.id)).toEqual([...new Set(everyone.map((r) => r.type))].sort());
    expect(data.type.map((c: { id: string }) => c.id)).not.toContain('secret_type');
    expect(data.user.map((c: { id: string }) => c.id).sort()).toEqual([...new Set(everyone.map((r) => r.userId))].sort());
    expect(data.createdBy.map((c: { id: string }) => c.id).sort()).toEqual(
      [...new Set(everyone.map((r) => r.createdBy).filter(Boolean))].sort(),
    );
    expect(data.createdBy).toContainEqual({ id: noah.id, name: 'Noah Invitee' });
  });
});

describe('the app bar: count, latest, marking read', () => {
  const count = async (token: string) => {
    const res = await call(server, 'GET', '/notifications/count', { token });
    expect(res.statusCode).toBe(200);
    return res.json().data as { unread: number; total: number };
  };

  it('counts and lists the caller’s own only, even for an admin', async () => {
    const own = await stored(mia.id);
    expect(await count(mia.token)).toMatchObject({ unread: own.filter((r) => r.status === 'unread').length, total: own.length });
    const adminOwn = await stored(adminId);
    expect(await count(adminToken)).toMatchObject({ unread: adminOwn.filter((r) => r.status === 'unread').length, total: adminOwn.length });

    const latest = await call(server, 'GET', '/notifications', { token: mia.token });
    expect(latest.statusCode).toBe(200);
    expect(ids(latest.json().data)).toEqual(ids(own.slice(0, 10)));
    const adminLatest = await call(server, 'GET', '/notifications', { token: adminToken });
    expect(ids(adminLatest.json().data)).toEqual(ids(adminOwn.slice(0, 10)));
  });

  it('marks one read: the count moves once; another’s or another company’s is a 404 and stays unread', async () => {
    const before = await count(mia.token);
    const [target] = (await stored(mia.id)).filter((r) => r.status === 'unread');
    const audits = (await snapshot(server.db)).audits;

    const res = await call(server, 'PUT', '/notification/count', { token: mia.token, body: { notificationId: target.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Notification marked as read');
    expect(res.json().data).toMatchObject({ id: target.id, status: 'read', readAt: expect.any(String) });
    expect(await count(mia.token)).toEqual({ ...before, unread: before.unread - 1 });

    const again = await call(server, 'PUT', '/notification/count', { token: mia.token, body: { notificationId: target.id } });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.readAt).toBe(res.json().data.readAt);
    expect(await count(mia.token)).toEqual({ ...before, unread: before.unread - 1 });

    const [noahs] = await stored(noah.id);
    for (const [token, id] of [
      [mia.token, noahs.id],
      [adminToken, noahs.id],
      [mia.token, theirNotificationId],
      [mia.token, '00000000-0000-4000-8000-000000000000'],
    ]) {
      const refused = await call(server, 'PUT', '/notification/count', { token, body: { notificationId: id } });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('Notification not found');
    }
    const [noahsAfter] = (await stored(noah.id)).filter((r) => r.id === noahs.id);
    expect(noahsAfter).toMatchObject({ status: 'unread', readAt: null });
    const [theirs] = await server.db.select().from(notifications).where(eq(notifications.id, theirNotificationId));
    expect(theirs).toMatchObject({ status: 'unread', readAt: null });

    for (const [body, message] of [
      [{}, /^notificationId: /],
      [{ notificationId: 'abc' }, /^notificationId: must be a valid id/],
      [{ notificationId: HOSTILE.sql }, /^notificationId: /],
    ] as const) {
      const bad = await call(server, 'PUT', '/notification/count', { token: mia.token, body });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(message);
    }
    expect(await count(mia.token)).toEqual({ ...before, unread: before.unread - 1 });
    // Reading is the recipient's own state: no system audit entry.
    expect((await snapshot(server.db)).audits).toBe(audits);
  });

  it('marks all of the caller’s read, and no one else’s', async () => {
    const miaUnread = (await count(mia.token)).unread;
    expect(miaUnread).toBeGreaterThan(0);
    const noahBefore = await count(noah.token);
    const res = await call(server, 'PUT', '/notification', { token: mia.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: `${miaUnread} notifications marked as read`, data: { updated: miaUnread } });
    expect(await count(mia.token)).toMatchObject({ unread: 0 });
    expect((await stored(mia.id)).every((r) => r.status === 'read' && r.readAt !== null)).toBe(true);
    expect(await count(noah.token)).toEqual(noahBefore);
    expect((await stored(adminId)).some((r) => r.status === 'unread')).toBe(true);

    const nothing = await call(server, 'PUT', '/notification', { token: mia.token, body: {} });
    expect(nothing.json()).toEqual({ message: '0 notifications marked as read', data: { updated: 0 } });
    // A new one arrives: the count moves again.
    await server.db.insert(notifications).values({ companyId, userId: mia.id, type: 'role_changed', title: 'Z fresh' });
    expect(await count(mia.token)).toMatchObject({ unread: 1 });
    const latest = await call(server, 'GET', '/notifications', { token: mia.token });
    expect(latest.json().data[0]).toMatchObject({ title: 'Z fresh', status: 'unread' });
  });

  it('needs a signed-in caller', async () => {
    for (const [method, path] of [
      ['GET', '/notifications/count'],
      ['GET', '/notifications'],
      ['PUT', '/notification'],
      ['GET', '/notification/options'],
    ] as const) {
      const res = await call(server, method, path);
      expect(res.statusCode, path).toBe(401);
    }
  });
});
