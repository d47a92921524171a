import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { systemAudits, users } from '../../server/db/schema';
import { selectRows } from '../../server/db/client';
import {
  ANCHOR_STRIDE,
  COUNT_CAP,
  DEFERRED_JOIN_FROM,
  endDateFilter,
  filterBody,
  humanise,
  idChoiceFilter,
  likePattern,
  listPage,
  readsOnly,
  searching,
  sortParams,
  startDateFilter,
  textChoiceFilter,
} from '../../server/http/lists';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';

describe('the list engine', () => {
  let server: TestServer;
  const ROWS = COUNT_CAP + 500;

  beforeAll(async () => {
    server = await createTestServer();
    const { companyId } = server.company;
    await server.db.execute(sql`
      insert into system_audits (company_id, model, operation, record_id, created_at)
      select ${companyId}::uuid, case when g % 200 = 0 then 'role' else 'user' end, 'update', 'r' || g,
             now() - (g || ' seconds')::interval
      from generate_series(1, ${ROWS}) g`);
  });
  afterAll(() => server.close());

  const query = (where: ReturnType<typeof and>) => ({
    countFrom: systemAudits,
    where,
    page: (offset: number, limit: number) =>
      server.db
        .select({ id: systemAudits.id, model: systemAudits.model })
        .from(systemAudits)
        .where(where)
        .orderBy(desc(systemAudits.createdAt))
        .offset(offset)
        .limit(limit),
  });
  const tenant = () => eq(systemAudits.companyId, server.company.companyId);

  it(`stops counting at ${COUNT_CAP} and says the count is not exact`, async () => {
    const answer = await listPage(server.db, query(and(tenant(), eq(systemAudits.model, 'user'))), 0, 10);
    expect(answer.rows).toHaveLength(10);
    expect(answer).toMatchObject({ count: COUNT_CAP, countExact: false });
  });

  it('counts exactly below the cap', async () => {
    const answer = await listPage(server.db, query(and(tenant(), eq(systemAudits.model, 'role'))), 0, 10);
    expect(answer).toMatchObject({ count: Math.floor(ROWS / 200), countExact: true });
  });

  it('takes the total from a short page without counting, and counts when a page past the end is empty', async () => {
    const where = and(tenant(), eq(systemAudits.model, 'role'));
    const total = Math.floor(ROWS / 200);
    const last = await listPage(server.db, query(where), total - 3, 10);
    expect(last).toMatchObject({ count: total, countExact: true });
    expect(last.rows).toHaveLength(3);
    const beyond = await listPage(server.db, query(where), total + 100, 10);
    expect(beyond).toMatchObject({ rows: [], count: total, countExact: true });
  });

  it('reads a deep page by its ids first, and answers the rows a direct read would, ties included', async () => {
    const { companyId } = server.company;
    // Entries sharing one time, around the first anchor (ANCHOR_STRIDE rows in) either way: their order is the id's alone.
    for (const record of [`r${ANCHOR_STRIDE}`, `r${ROWS - ANCHOR_STRIDE}`]) {
      await server.db.execute(sql`
        insert into system_audits (company_id, model, operation, record_id, created_at)
        select ${companyId}::uuid, 'user', 'update', 'tie' || g, (select created_at from system_audits where record_id = ${record})
        from generate_series(1, 40) g`);
    }
    const token = (await signInAdmin(server)).accessToken!;
    const direct = async (offset: number, where = sql`true`, order = sql`created_at desc, id desc`) =>
      (
        await selectRows<{ id: string }>(
          server.db,
          sql`select id from system_audits where company_id = ${companyId}::uuid and ${where} order by ${order} offset ${offset} limit 10`,
        )
      ).map((row) => row.id);
    const total = Number(
      (
        await selectRows<{ n: string }>(server.db, sql`select count(*)::text as n from system_audits where company_id = ${companyId}::uuid`)
      )[0].n,
    );
    for (const offset of [
      DEFERRED_JOIN_FROM - 10,
      DEFERRED_JOIN_FROM,
      5_000,
      ANCHOR_STRIDE - 30,
      ANCHOR_STRIDE - 5,
      ANCHOR_STRIDE + 15,
      total - 5,
    ]) {
      const res = await call(server, 'GET', `/system/audits/${offset}/10`, { token });
      expect(res.statusCode, res.body).toBe(200);
      const ids = (res.json().data.rows as Array<{ id: string }>).map((row) => row.id);
      expect({ offset, ids }).toEqual({ offset, ids: await direct(offset) });
    }
    // A filtered and a sorted list, deep.
    const filtered = await call(server, 'POST', `/system/audits/filter/${DEFERRED_JOIN_FROM + 7}/10`, { token, body: { model: 'user' } });
    expect((filtered.json().data.rows as Array<{ id: string }>).map((row) => row.id)).toEqual(
      await direct(DEFERRED_JOIN_FROM + 7, sql`model = 'user'`),
    );
    for (const offset of [ANCHOR_STRIDE - 20, ANCHOR_STRIDE + 5, total - 30]) {
      const sorted = await call(server, 'POST', `/system/audits/filter/${offset}/10?sort=createdAt&order=ASC`, { token, body: {} });
      expect(sorted.statusCode, sorted.body).toBe(200);
      expect({ offset, ids: (sorted.json().data.rows as Array<{ id: string }>).map((row) => row.id) }).toEqual({
        offset,
        ids: await direct(offset, sql`true`, sql`created_at asc, id asc`),
      });
    }
  });

  it("cuts a page's ids from its base table only when its condition and order read nothing else", () => {
    const mine = eq(systemAudits.companyId, server.company.companyId);
    expect(readsOnly(systemAudits, mine, desc(systemAudits.createdAt), desc(systemAudits.id))).toBe(true);
    expect(readsOnly(systemAudits, sql`lower(${systemAudits.model}) = ${'user'}`)).toBe(true);
    // Another table's column, in a condition or an order.
    expect(readsOnly(systemAudits, and(mine, eq(users.email, 'a@example.test')))).toBe(false);
    expect(readsOnly(systemAudits, mine, desc(users.createdAt))).toBe(false);
    // A subquery it cannot see into.
    const subquery = server.db.select({ id: users.id }).from(users);
    expect(readsOnly(systemAudits, sql`${systemAudits.userId} in ${subquery}`)).toBe(false);
  });

  it('treats % and _ typed in a search as literal characters', async () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    await server.db.insert(systemAudits).values({ companyId: server.company.companyId, model: 'odd', operation: 'a%b_c', recordId: 'x' });
    const found = await server.db
      .select()
      .from(systemAudits)
      .where(and(tenant(), searching([systemAudits.operation], '%b_')));
    expect(found.map((r) => r.operation)).toEqual(['a%b_c']);
    const none = await server.db
      .select()
      .from(systemAudits)
      .where(and(tenant(), searching([systemAudits.operation], 'a_b')));
    expect(none).toEqual([]);
  });
});

describe('filter fields', () => {
  const body = filterBody({ status: textChoiceFilter, user: idChoiceFilter, startDate: startDateFilter, endDate: endDateFilter });

  it('accepts one value or a list, and treats empty values as no filter', () => {
    expect(body.parse({ status: 'active', user: '' })).toMatchObject({ status: ['active'], user: [] });
    expect(body.parse({ status: ['a', 'b'], user: null })).toMatchObject({ status: ['a', 'b'], user: [] });
    expect(body.parse(undefined)).toEqual({ status: [], user: [], startDate: null, endDate: null });
  });

  it('makes a bare end date cover its whole day', () => {
    const parsed = body.parse({ startDate: '2026-11-01', endDate: '2026-11-02' });
    expect(parsed.startDate?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(parsed.endDate?.toISOString()).toBe('2026-11-02T23:59:59.999Z');
  });

  it('names the field at fault', () => {
    const problems = (value: unknown) => body.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(problems({ user: 'not-an-id' }).join()).toMatch(/^user: /);
    expect(problems({ startDate: 'yesterday' })).toEqual(['startDate: must be a date such as 2026-11-01']);
    expect(problems({ colour: 'red' }).join()).toContain('colour');
  });

  it('allows only the declared sorts', () => {
    const sort = sortParams(['createdAt', 'email']);
    expect(sort.parse({ order: 'desc', field: 'email' })).toEqual({ order: 'DESC', field: 'email' });
    expect(sort.safeParse({ order: 'DESC', field: 'passwordHash' }).success).toBe(false);
    expect(sort.safeParse({ order: 'SIDEWAYS', field: 'email' }).success).toBe(false);
  });

  it('turns stored values into labels', () => {
    expect(humanise('password_change')).toBe('Password change');
    expect(humanise('accessEvents')).toBe('Access events');
  });
});
