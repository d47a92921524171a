import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { systemAudits } from '../../server/db/schema';
import {
  COUNT_CAP,
  endDateFilter,
  filterBody,
  humanise,
  idChoiceFilter,
  likePattern,
  listPage,
  searching,
  sortParams,
  startDateFilter,
  textChoiceFilter,
} from '../../server/http/lists';
import { createTestServer, type TestServer } from './harness';

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
