import { daysAgo } from '../../server/audits/counts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { accessEvents, NO_COMPANY, systemAudits } from '../../server/db/schema';
import { provisionCompany } from '../../server/tenancy/provision';
import { buildApp } from '../../server/app';
import { analyzeStaleTables } from '../../server/audits/statistics';
import { selectRows } from '../../server/db/client';
import { call, createActiveUser, createOtherCompany, HOSTILE, signInAdmin, signInFully, snapshot, userWithPolicies } from './helpers';

let server: TestServer;
let adminToken: string;
let companyId: string;
let adminId: string;
let member: { id: string; email: string };
let other: Awaited<ReturnType<typeof createOtherCompany>>;

type AuditStored = typeof systemAudits.$inferSelect;
type EventStored = typeof accessEvents.$inferSelect;

const MODELS = ['workspace', 'apikey', 'role'];
const OPERATIONS = ['create', 'update', 'delete', 'activate'];
const day = (d: number, hour = 12) => new Date(Date.UTC(2025, 2, d, hour, 0, 0));

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  companyId = server.company.companyId;
  adminId = server.company.adminUserId;
  member = await createActiveUser(server, adminToken, { email: 'mia.member@acme.test', firstName: 'Mia' });
  other = await createOtherCompany(server);

  // 48 entries over 1–24 March 2025, by the admin, the member, the admin acting as the member, and the system;
  // five share one instant so that the order must fall back on the id.
  await server.db.insert(systemAudits).values(
    Array.from({ length: 48 }, (_, i) => ({
      companyId,
      model: MODELS[i % 3],
      operation: OPERATIONS[i % 4],
      userId: [adminId, member.id, member.id, null][i % 4],
      impersonatorUserId: i % 4 === 2 ? adminId : null,
      recordId: `rec-${i}`,
      changes: i === 17 ? { after: { note: 'zebra needle here' } } : { after: { name: `Thing ${i}` } },
      ip: '203.0.113.9',
      createdAt: i < 5 ? day(20) : day(1 + (i % 24), i % 24),
    })),
  );
  // Another company's entries, with the same models, never shown to this one.
  await server.db.insert(systemAudits).values(
    Array.from({ length: 6 }, (_, i) => ({
      companyId: other.companyId,
      model: 'secretmodel',
      operation: 'create',
      userId: other.adminUserId,
      recordId: `theirs-${i}`,
      createdAt: day(5),
    })),
  );
});
afterAll(async () => {
  await server?.close();
});

// ---- Oracles: what a list must hold, computed here from the stored rows ----------------------------

const newestFirst = <T extends { createdAt: Date; id: string }>(a: T, b: T) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

async function storedAudits(): Promise<AuditStored[]> {
  return (await server.db.select().from(systemAudits).where(eq(systemAudits.companyId, companyId))).sort(newestFirst);
}
async function storedEvents(): Promise<EventStored[]> {
  return (await server.db.select().from(accessEvents).where(eq(accessEvents.companyId, companyId))).sort(newestFirst);
}

/** The search as the server means it: a case-insensitive substring of any of the columns. */
const holds = (term: string, ...texts: Array<string | null>) => texts.some((t) => t?.toLowerCase().includes(term.toLowerCase()));
const auditHolds = (term: string) => (r: AuditStored) =>
  holds(term, r.model, r.operation, r.recordId, r.changes ? JSON.stringify(r.changes) : null);
const eventHolds = (term: string) => (r: EventStored) => holds(term, r.email, r.event, r.reason, r.ip, r.userAgent);

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = { id: string; [field: string]: any };
const rowsOf = (res: { json(): { data: { rows: Row[] } } }): Row[] => res.json().data.rows;

describe('GET /system/audits/{o}/{l}', () => {
  it('lists the company’s entries newest first, with who made them', async () => {
    const stored = await storedAudits();
    const res = await call(server, 'GET', '/system/audits/0/1000', { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('System audits');
    expect(ids(body.data.rows)).toEqual(ids(stored));
    expect(body.data).toMatchObject({ count: stored.length, countExact: true });

    const impersonated = body.data.rows.find((r: { recordId: string }) => r.recordId === 'rec-6');
    expect(impersonated).toEqual({
      id: expect.any(String),
      model: 'workspace',
      operation: 'delete',
      recordId: 'rec-6',
      userId: member.id,
      userEmail: 'mia.member@acme.test',
      userName: 'Mia Invitee',
      impersonatorUserId: adminId,
      impersonatorEmail: 'admin@acme.test',
      apiKeyId: null,
      apiKeyName: null,
      changes: { after: { name: 'Thing 6' } },
      ip: '203.0.113.9',
      createdAt: day(7, 6).toISOString(),
    });
    const system = body.data.rows.find((r: { recordId: string }) => r.recordId === 'rec-7');
    expect(system).toMatchObject({ userId: null, userEmail: null, userName: null, impersonatorEmail: null });
    expect(body.data.rows.some((r: { model: string }) => r.model === 'secretmodel')).toBe(false);
  });

  it('pages without gaps or repeats, also across entries of the same instant', async () => {
    const stored = await storedAudits();
    const seen: string[] = [];
    for (let offset = 0; offset < stored.length; offset += 7) {
      const res = await call(server, 'GET', `/system/audits/${offset}/7`, { token: adminToken });
      expect(res.statusCode).toBe(200);
      const { rows, count, countExact } = res.json().data;
      expect(rows.length).toBe(Math.min(7, stored.length - offset));
      expect(count).toBe(stored.length);
      expect(countExact).toBe(true);
      seen.push(...ids(rows));
    }
    expect(seen).toEqual(ids(stored));
    const past = await call(server, 'GET', `/system/audits/${stored.length + 5}/7`, { token: adminToken });
    expect(past.json().data).toEqual({ rows: [], count: stored.length, countExact: true });
  });

  it('names a bad offset or limit', async () => {
    for (const [path, field] of [
      ['/system/audits/-1/10', 'offset'],
      ['/system/audits/0/0', 'limit'],
      ['/system/audits/0/1001', 'limit'],
      ['/system/audits/x/10', 'offset'],
    ] as const) {
      const res = await call(server, 'GET', path, { token: adminToken });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
  });
});

describe('POST /system/audits/filter/{o}/{l}', () => {
  const filter = (body: unknown, path = '/system/audits/filter/0/1000', token = adminToken) => call(server, 'POST', path, { token, body });

  it('filters by each field, alone and together', async () => {
    const stored = await storedAudits();
    const cases: Array<[Record<string, unknown>, (r: AuditStored) => boolean]> = [
      [{ model: 'apikey' }, (r) => r.model === 'apikey'],
      [{ model: ['apikey', 'role'] }, (r) => r.model === 'apikey' || r.model === 'role'],
      [{ operation: 'delete' }, (r) => r.operation === 'delete'],
      [{ operation: ['create', 'activate'] }, (r) => r.operation === 'create' || r.operation === 'activate'],
      [{ user: member.id }, (r) => r.userId === member.id],
      [{ user: [adminId, member.id] }, (r) => r.userId === adminId || r.userId === member.id],
      [{ startDate: '2025-03-10' }, (r) => r.createdAt >= day(10, 0)],
      [{ endDate: '2025-03-12' }, (r) => r.createdAt < day(13, 0)],
      [{ startDate: '2025-03-10T06:00:00Z', endDate: '2025-03-12' }, (r) => r.createdAt >= day(10, 6) && r.createdAt < day(13, 0)],
      [{ search: 'ZEBRA' }, auditHolds('zebra')],
      [{ search: 'rec-4' }, auditHolds('rec-4')],
      [{ search: 'apike' }, auditHolds('apike')],
      [{ search: 'activ' }, auditHolds('activ')],
      [{ search: '%' }, () => false],
      [
        { model: ['apikey', 'role'], user: [adminId, member.id] },
        (r) => (r.model === 'apikey' || r.model === 'role') && (r.userId === adminId || r.userId === member.id),
      ],
      [{ model: ['role', 'role', ''] }, (r) => r.model === 'role'],
      [
        { model: 'workspace', operation: 'create', user: adminId },
        (r) => r.model === 'workspace' && r.operation === 'create' && r.userId === adminId,
      ],
      [{ model: '', operation: [], user: null, startDate: '', endDate: null, search: '' }, () => true],
    ];
    for (const [body, keep] of cases) {
      const res = await filter(body);
      expect(res.statusCode, JSON.stringify(body) + res.body).toBe(200);
      const expected = stored.filter(keep);
      expect(ids(rowsOf(res)), JSON.stringify(body)).toEqual(ids(expected));
      expect(res.json().data.count, JSON.stringify(body)).toBe(expected.length);
    }
    // Sanity: the cases are not all empty or all full.
    expect(stored.filter((r) => r.model === 'apikey').length).toBeGreaterThan(0);
    expect(stored.filter((r) => r.model === 'apikey').length).toBeLessThan(stored.length);
  });

  it('finds by search the entries of the people whose email or name holds the text', async () => {
    const stored = await storedAudits();
    // The member is "Mia Invitee", mia.member@acme.test; the entries made by them hold neither.
    for (const search of ['mia invitee', 'MIA.MEMBER@', 'Mia Invitee']) {
      const res = await filter({ search });
      expect(res.statusCode, res.body).toBe(200);
      const expected = stored.filter((r) => r.userId === member.id || auditHolds(search)(r));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(rowsOf(res)), search).toEqual(ids(expected));
      expect(res.json().data.count).toBe(expected.length);
    }
    // A text that names somebody and some entries finds both, newest first.
    const both = await filter({ search: 'zebra' });
    expect(ids(rowsOf(both))).toEqual(ids(stored.filter(auditHolds('zebra'))));
    // With the other filters: only that person's entries of the model.
    const narrowed = await filter({ search: 'Mia Invitee', model: 'role' });
    expect(ids(rowsOf(narrowed))).toEqual(ids(stored.filter((r) => r.userId === member.id && r.model === 'role')));
    // Another company's people are not found.
    const foreign = await filter({ search: other.adminEmail });
    expect(rowsOf(foreign)).toEqual([]);
  });

  it('pages a filter on several values in the same order as one on all of them', async () => {
    const stored = await storedAudits();
    const bodies: Array<{ model?: string[]; user?: string[]; operation?: string }> = [
      { model: ['apikey', 'role'] },
      { user: [adminId, member.id] },
      { model: ['workspace', 'role'], operation: 'update' },
    ];
    for (const body of bodies) {
      const expected = stored.filter(
        (r) =>
          (!body.model || body.model.includes(r.model)) &&
          (!body.user || body.user.includes(r.userId!)) &&
          (!body.operation || r.operation === body.operation),
      );
      const seen: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 5) {
        const res = await filter(body, `/system/audits/filter/${offset}/5`);
        expect(res.json().data.count, JSON.stringify(body)).toBe(expected.length);
        seen.push(...ids(rowsOf(res)));
      }
      expect(seen, JSON.stringify(body)).toEqual(ids(expected));
    }
  });

  it('takes offset and limit from the path over the body', async () => {
    const stored = (await storedAudits()).filter((r) => r.model === 'role');
    const res = await filter({ model: 'role', offset: 0, limit: 1 }, '/system/audits/filter/2/3');
    expect(res.statusCode).toBe(200);
    expect(ids(rowsOf(res))).toEqual(ids(stored.slice(2, 5)));
    expect(res.json().data.count).toBe(stored.length);
  });

  it('never finds another company’s entries', async () => {
    for (const body of [{ model: 'secretmodel' }, { user: other.adminUserId }, { search: 'theirs' }]) {
      const res = await filter(body);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ rows: [], count: 0, countExact: true });
    }
    const theirs = await filter({}, '/system/audits/filter/0/1000', other.adminToken);
    expect(rowsOf(theirs).every((r) => !r.recordId?.startsWith('rec-'))).toBe(true);
    expect(rowsOf(theirs).filter((r) => r.model === 'secretmodel')).toHaveLength(6);
  });

  it('refuses bad fields with a 400 that names them, and changes nothing', async () => {
    const before = await snapshot(server.db);
    const cases: Array<[unknown, RegExp]> = [
      [{ modle: 'role' }, /modle/],
      [{ user: 'not-an-id' }, /^user: /],
      [{ user: [member.id, 42] }, /^user/],
      [{ startDate: 'yesterday' }, /^startDate: must be a date/],
      [{ endDate: '2025-13-45' }, /^endDate: must be a date/],
      [{ search: 'x'.repeat(201) }, /^search: must be at most 200 characters/],
      [{ model: 7 }, /^model/],
      [{ offset: -1 }, /^offset: /],
      [{ search: HOSTILE.sql, model: HOSTILE.html, extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const res = await filter(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const bad = await filter({}, '/system/audits/filter/0/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^limit: /);
    // Hostile text in valid fields is only text.
    const hostile = await filter({ search: HOSTILE.sql, model: HOSTILE.html });
    expect(hostile.statusCode).toBe(200);
    expect(hostile.json().data.rows).toEqual([]);
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('GET /system/audits/filter/props and /cards', () => {
  it('offers the models, operations and users present in the company', async () => {
    const stored = await storedAudits();
    const res = await call(server, 'GET', '/system/audits/filter/props', { token: adminToken });
    expect(res.statusCode).toBe(200);
    const { model, operation, user } = res.json().data;
    expect(model).toEqual(
      [...new Set(stored.map((r) => r.model))].sort().map((id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1) })),
    );
    expect(model.map((c: { id: string }) => c.id)).not.toContain('secretmodel');
    expect(operation.map((c: { id: string }) => c.id)).toEqual([...new Set(stored.map((r) => r.operation))].sort());
    expect(user).toEqual(
      expect.arrayContaining([
        { id: adminId, name: 'Ada Admin' },
        { id: member.id, name: 'Mia Invitee' },
      ]),
    );
    expect(user.map((c: { id: string }) => c.id).sort()).toEqual([...new Set(stored.map((r) => r.userId).filter(Boolean))].sort());
  });

  it('counts entries in total, today, over 7 days, and the people behind them', async () => {
    const stored = await storedAudits();
    const now = Date.now();
    const midnight = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
    const week = stored.filter((r) => r.createdAt.getTime() >= now - 7 * 86400_000);
    const res = await call(server, 'GET', '/system/audits/cards', { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.cards).toEqual([
      { key: 'total', label: 'Audit entries', value: stored.length },
      { key: 'today', label: 'Entries today', value: stored.filter((r) => r.createdAt.getTime() >= midnight).length },
      { key: 'last7Days', label: 'Entries in the last 7 days', value: week.length },
      {
        key: 'users7Days',
        label: 'Users who made changes in the last 7 days',
        value: new Set(week.map((r) => r.userId).filter(Boolean)).size,
      },
    ]);
    // The fixture's March 2025 entries are in the total only.
    expect(res.json().data.cards[0].value).toBeGreaterThan(res.json().data.cards[2].value + 40);
  });

  it('caps the count of a big company at 10,000 and says so', async () => {
    const big = await provisionCompany(server.db, {
      name: 'Bigco',
      hostname: 'bigco',
      admin: { email: 'admin@bigco.test', password: server.company.adminPassword, firstName: 'Big', lastName: 'Boss' },
    });
    await server.db.execute(sql`
      insert into system_audits (company_id, model, operation, record_id, created_at)
      select ${big.companyId}::uuid, 'bulk', case when g % 2 = 0 then 'update' else 'create' end, 'bulk-' || g, now() - (g || ' seconds')::interval
      from generate_series(1, 10050) g`);
    const token = (
      await signInFully(server, { email: 'admin@bigco.test', password: server.company.adminPassword, companyHostname: 'bigco' })
    ).accessToken!;
    const list = await call(server, 'GET', '/system/audits/0/10', { token });
    expect(list.json().data).toMatchObject({ count: 10_000, countExact: false });
    expect(list.json().data.rows).toHaveLength(10);
    // A short page still tells the exact total, however deep.
    const last = await call(server, 'GET', '/system/audits/10049/10', { token });
    expect(last.json().data).toMatchObject({ count: 10_051, countExact: true });
    const filtered = await call(server, 'POST', '/system/audits/filter/0/10', { token, body: { operation: 'create' } });
    // 5,025 odd numbers, and the company's own creation.
    expect(filtered.json().data).toMatchObject({ count: 5026, countExact: true });
    const cards = (await call(server, 'GET', '/system/audits/cards', { token })).json().data.cards;
    expect(cards[0]).toEqual({ key: 'total', label: 'Audit entries (10,000 or more)', value: 10_000 });
    expect(cards[1].value).toBeGreaterThan(0);
    expect((await call(server, 'GET', '/system/audits/filter/props', { token })).json().data.model).toEqual([
      { id: 'bulk', name: 'Bulk' },
      { id: 'company', name: 'Company' },
    ]);
  });
});

describe('who may read audits and access events', () => {
  it('needs the audits or accessEvents policy; no route changes anything', async () => {
    const plain = await userWithPolicies(server, adminToken, 'plain@acme.test', [{ resource: 'users', actions: ['read'] }]);
    const auditor = await userWithPolicies(server, adminToken, 'auditor@acme.test', [{ resource: 'audits', actions: ['read'] }]);
    const watcher = await userWithPolicies(server, adminToken, 'watcher@acme.test', [{ resource: 'accessEvents', actions: ['read'] }]);
    const auditRoutes: Array<['GET' | 'POST', string]> = [
      ['GET', '/system/audits/0/10'],
      ['POST', '/system/audits/filter/0/10'],
      ['GET', '/system/audits/filter/props'],
      ['GET', '/system/audits/cards'],
    ];
    const eventRoutes: Array<['GET' | 'POST', string]> = [
      ['GET', '/access/events/0/10'],
      ['POST', '/access/events/filter/0/10'],
      ['GET', '/access/events/filter/props'],
      ['GET', '/access/events/cards'],
      ['GET', '/fetchDistinctEventStatus'],
    ];
    for (const [method, path] of [...auditRoutes, ...eventRoutes]) {
      const denied = await call(server, method, path, { token: plain.token, body: method === 'POST' ? {} : undefined });
      expect(denied.statusCode, path).toBe(403);
      expect(denied.json().message).toBe('Resource Access not provided');
      expect((await call(server, method, path, { body: method === 'POST' ? {} : undefined })).statusCode, path).toBe(401);
    }
    for (const [method, path] of auditRoutes) {
      expect((await call(server, method, path, { token: auditor.token, body: method === 'POST' ? {} : undefined })).statusCode, path).toBe(
        200,
      );
      expect((await call(server, method, path, { token: watcher.token, body: method === 'POST' ? {} : undefined })).statusCode, path).toBe(
        403,
      );
    }
    for (const [method, path] of eventRoutes) {
      expect((await call(server, method, path, { token: watcher.token, body: method === 'POST' ? {} : undefined })).statusCode, path).toBe(
        200,
      );
      expect((await call(server, method, path, { token: auditor.token, body: method === 'POST' ? {} : undefined })).statusCode, path).toBe(
        403,
      );
    }
    const [target] = await storedAudits();
    for (const [method, path] of [
      ['DELETE', `/system/audits/${target.id}`],
      ['PUT', `/system/audits/${target.id}`],
      ['POST', '/system/audits'],
    ] as const) {
      expect((await call(server, method, path, { token: adminToken, body: method === 'DELETE' ? undefined : {} })).statusCode, path).toBe(
        404,
      );
    }
    expect((await storedAudits()).map((r) => r.id)).toContain(target.id);
  });
});

// ---- Security access events --------------------------------------------------------------------------

describe('access events', () => {
  beforeAll(async () => {
    const statuses = ['success', 'failure', 'blocked'];
    const events = ['signin', 'otp', 'password_change', 'impersonation'];
    await server.db.insert(accessEvents).values(
      Array.from({ length: 36 }, (_, i) => ({
        companyId,
        userId: i % 3 === 2 ? null : [adminId, member.id][i % 3],
        email: i % 3 === 2 ? 'ghost@acme.test' : ['admin@acme.test', 'mia.member@acme.test'][i % 3],
        event: events[i % 4],
        status: statuses[i % 3],
        reason: i % 3 === 1 ? 'bad_password' : null,
        ip: `192.0.2.${i}`,
        userAgent: i === 11 ? 'Curl/8.0 walrus' : 'Mozilla/5.0',
        impersonatorUserId: events[i % 4] === 'impersonation' ? adminId : null,
        createdAt: day(1 + (i % 20), i % 24),
      })),
    );
    // A sign-in naming an unknown company, with the member's address: never any tenant's.
    await server.db
      .insert(accessEvents)
      .values({ companyId: NO_COMPANY, email: 'mia.member@acme.test', event: 'signin', status: 'failure', reason: 'unknown_company' });
    await server.db
      .insert(accessEvents)
      .values({ companyId: other.companyId, email: 'spy@globex.test', event: 'signin', status: 'failure', reason: 'bad_password' });
  });

  it('lists the company’s events newest first with names, never a company-less or foreign one', async () => {
    const stored = await storedEvents();
    const res = await call(server, 'GET', '/access/events/0/1000', { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Access events');
    expect(ids(rowsOf(res))).toEqual(ids(stored));
    expect(res.json().data).toMatchObject({ count: stored.length, countExact: true });
    const rows = rowsOf(res) as Array<Record<string, unknown>>;
    expect(rows.some((r) => r.reason === 'unknown_company' || r.email === 'spy@globex.test')).toBe(false);
    const impersonation = rows.find((r) => r.event === 'impersonation' && r.userId === member.id);
    expect(impersonation).toEqual({
      id: expect.any(String),
      userId: member.id,
      email: 'mia.member@acme.test',
      userName: 'Mia Invitee',
      event: 'impersonation',
      status: expect.any(String),
      reason: expect.anything(),
      ip: expect.stringMatching(/^192\.0\.2\./),
      userAgent: expect.any(String),
      impersonatorUserId: adminId,
      impersonatorEmail: 'admin@acme.test',
      createdAt: expect.any(String),
    });
    const page2 = await call(server, 'GET', '/access/events/5/5', { token: adminToken });
    expect(ids(rowsOf(page2))).toEqual(ids(stored.slice(5, 10)));
  });

  it('filters by user, status, dates and search', async () => {
    const stored = await storedEvents();
    const cases: Array<[Record<string, unknown>, (r: EventStored) => boolean]> = [
      [{ user: member.id }, (r) => r.userId === member.id],
      [{ status: 'blocked' }, (r) => r.status === 'blocked'],
      [{ status: ['failure', 'blocked'] }, (r) => r.status !== 'success'],
      [{ startDate: '2025-03-15' }, (r) => r.createdAt >= day(15, 0)],
      [{ endDate: '2025-03-03' }, (r) => r.createdAt < day(4, 0)],
      [{ search: 'GHOST@' }, eventHolds('ghost@')],
      [{ search: 'password_ch' }, eventHolds('password_ch')],
      [{ search: 'bad_pass' }, eventHolds('bad_pass')],
      [{ search: '192.0.2.3' }, eventHolds('192.0.2.3')],
      [{ search: 'walrus' }, eventHolds('walrus')],
      [{ user: adminId, status: 'success' }, (r) => r.userId === adminId && r.status === 'success'],
    ];
    for (const [body, keep] of cases) {
      const res = await call(server, 'POST', '/access/events/filter/0/1000', { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body) + res.body).toBe(200);
      const expected = stored.filter(keep);
      expect(expected.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(ids(rowsOf(res)), JSON.stringify(body)).toEqual(ids(expected));
    }
    const several: Array<{ status?: string[]; user?: string[] }> = [{ status: ['failure', 'blocked'] }, { user: [adminId, member.id] }];
    for (const body of several) {
      const expected = stored.filter((r) => (body.status ? body.status.includes(r.status) : body.user!.includes(r.userId!)));
      const seen: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 6) {
        const res = await call(server, 'POST', `/access/events/filter/${offset}/6`, { token: adminToken, body });
        expect(res.json().data.count).toBe(expected.length);
        seen.push(...ids(rowsOf(res)));
      }
      expect(seen, JSON.stringify(body)).toEqual(ids(expected));
    }
    const foreign = await call(server, 'POST', '/access/events/filter/0/10', { token: adminToken, body: { search: 'spy@globex' } });
    expect(foreign.json().data).toEqual({ rows: [], count: 0, countExact: true });
    const unknownCompany = await call(server, 'POST', '/access/events/filter/0/100', {
      token: adminToken,
      body: { search: 'unknown_company' },
    });
    expect(unknownCompany.json().data.rows).toEqual([]);
  });

  it('finds by search the events of the people whose name holds the text', async () => {
    const stored = await storedEvents();
    // The member's events hold their email, not their name.
    expect(stored.filter(eventHolds('mia invitee')).length).toBe(0);
    const res = await call(server, 'POST', '/access/events/filter/0/1000', { token: adminToken, body: { search: 'Mia Invitee' } });
    expect(res.statusCode, res.body).toBe(200);
    const expected = stored.filter((r) => r.userId === member.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(rowsOf(res))).toEqual(ids(expected));
  });

  it('names bad filter fields', async () => {
    const before = await snapshot(server.db);
    for (const [body, message] of [
      [{ status: 'weird' }, /^status: must be one of blocked, failure, success/],
      [{ status: ['success', 'nope'] }, /^status: must be one of blocked, failure, success \(not "nope"\)/],
      [{ user: 'abc' }, /^user: /],
      [{ startDate: 'soon' }, /^startDate: /],
      [{ model: 'role' }, /model/],
    ] as const) {
      const res = await call(server, 'POST', '/access/events/filter/0/10', { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('offers users and statuses present, and the distinct statuses', async () => {
    const stored = await storedEvents();
    const props = await call(server, 'GET', '/access/events/filter/props', { token: adminToken });
    expect(props.statusCode).toBe(200);
    expect(props.json().data.status).toEqual([
      { id: 'blocked', name: 'Blocked' },
      { id: 'failure', name: 'Failure' },
      { id: 'success', name: 'Success' },
    ]);
    expect(
      props
        .json()
        .data.user.map((u: { id: string }) => u.id)
        .sort(),
    ).toEqual([...new Set(stored.map((r) => r.userId).filter(Boolean))].sort());
    const distinct = await call(server, 'GET', '/fetchDistinctEventStatus', { token: adminToken });
    expect(distinct.json()).toEqual({ message: 'Access event statuses', statusValues: ['blocked', 'failure', 'success'] });

    // Each company's own: the other one has had sign-ins and one failure, nothing blocked.
    const other2 = await call(server, 'GET', '/fetchDistinctEventStatus', { token: other.adminToken });
    expect(other2.json().statusValues).toEqual(['failure', 'success']);
  });

  it('counts sign-ins and failures today, blocked and impersonations over 7 days', async () => {
    const failed = await call(server, 'POST', '/signin', {
      body: { email: 'mia.member@acme.test', password: 'Wrong-password-1', companyHostname: 'acme' },
      ip: '198.51.100.77',
    });
    expect(failed.statusCode).toBe(401);
    await server.db.insert(accessEvents).values([
      {
        companyId,
        userId: member.id,
        email: 'mia.member@acme.test',
        event: 'signin',
        status: 'blocked',
        reason: 'throttled',
        createdAt: new Date(Date.now() - 3 * 86400_000),
      },
      {
        companyId,
        userId: member.id,
        email: 'mia.member@acme.test',
        event: 'impersonation',
        status: 'success',
        impersonatorUserId: adminId,
        createdAt: new Date(Date.now() - 6 * 86400_000),
      },
      {
        companyId,
        userId: member.id,
        email: 'mia.member@acme.test',
        event: 'impersonation',
        status: 'success',
        impersonatorUserId: adminId,
        createdAt: new Date(Date.now() - 8 * 86400_000),
      },
    ]);
    const stored = await storedEvents();
    const midnight = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
    const weekAgo = Date.now() - 7 * 86400_000;
    const res = await call(server, 'GET', '/access/events/cards', { token: adminToken });
    expect(res.statusCode).toBe(200);
    const expected = [
      stored.filter((r) => r.event === 'signin' && r.status === 'success' && r.createdAt.getTime() >= midnight).length,
      stored.filter((r) => r.status === 'failure' && r.createdAt.getTime() >= midnight).length,
      stored.filter((r) => r.status === 'blocked' && r.createdAt.getTime() >= weekAgo).length,
      stored.filter((r) => r.event === 'impersonation' && r.status === 'success' && r.createdAt.getTime() >= weekAgo).length,
    ];
    expect(expected[0]).toBeGreaterThan(0);
    expect(expected[1]).toBeGreaterThan(0);
    expect(expected[2]).toBeGreaterThan(0);
    expect(expected[3]).toBeGreaterThan(0);
    expect(res.json().data.cards).toEqual([
      { key: 'signinsToday', label: 'Successful sign-ins today', value: expected[0] },
      { key: 'failuresToday', label: 'Failures today', value: expected[1] },
      { key: 'blocked7Days', label: 'Blocked attempts in the last 7 days', value: expected[2] },
      { key: 'impersonations7Days', label: 'Impersonations in the last 7 days', value: expected[3] },
    ]);
  });
});

describe('planner statistics of the list tables', () => {
  const lastAnalyze = async (table: string) => {
    const [row] = await selectRows<{ last_analyze: Date | string | null }>(
      server.db,
      sql`select last_analyze from pg_stat_user_tables where schemaname = current_schema() and relname = ${table}`,
    );
    return row?.last_analyze ?? null;
  };
  const addEntries = (n: number) =>
    server.db.execute(sql`
      insert into system_audits (company_id, model, operation)
      select ${companyId}::uuid, 'stats', 'create' from generate_series(1, ${n}) g`);

  it('analyses a table once enough of it changed, and not again until more does', async () => {
    await addEntries(60);
    expect(await analyzeStaleTables(server.db)).toContain('system_audits');
    const first = await lastAnalyze('system_audits');
    expect(first).not.toBeNull();
    expect(await analyzeStaleTables(server.db)).not.toContain('system_audits');
    await addEntries(10);
    expect(await analyzeStaleTables(server.db)).not.toContain('system_audits');
  });

  it('on the embedded database, a server analyses stale list tables before it answers', async () => {
    await addEntries(5000);
    const before = await lastAnalyze('system_audits');
    const app = await buildApp(server.app.ctx);
    await app.ready();
    const after = await lastAnalyze('system_audits');
    await app.close();
    if (server.database.kind === 'pglite') {
      expect(new Date(after!).getTime()).toBeGreaterThan(new Date(before!).getTime());
    } else {
      // PostgreSQL's autovacuum does it there; the server schedules nothing.
      expect(after).toEqual(before);
    }
  });
});

describe('the window of the cards', () => {
  it('starts "the last 7 days" at a whole minute, so that calls within a minute share one kept count', () => {
    expect(daysAgo(7, new Date('2026-11-28T10:15:42.123Z')).toISOString()).toBe('2026-11-21T10:15:00.000Z');
    expect(daysAgo(7, new Date('2026-11-28T10:15:59.999Z'))).toEqual(daysAgo(7, new Date('2026-11-28T10:15:00.000Z')));
  });
});
