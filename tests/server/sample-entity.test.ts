import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../../server/db/client';
import { systemAudits } from '../../server/db/schema';
import { labelRow, type Label } from '../sample/labels-contract';
import { labels, LABELS_SQL, labelsModule } from '../sample/labels-module';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin } from './helpers';
import { collectRouteTable } from './route-table';

/**
 * A sample entity declared only for the tests (tests/sample: contract, table, migration,
 * repository) gets from the shared entity routes alone its routes under its policy, its OpenAPI
 * operations, validation, audit entries, row-level security and the walls between companies.
 */

let server: TestServer;
let adminToken: string;
let adminId: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;

beforeAll(async () => {
  server = await createTestServer({}, { modules: [labelsModule], moduleSql: LABELS_SQL });
  const admin = await signInAdmin(server);
  adminToken = admin.accessToken!;
  adminId = String(admin.id);
  other = await createOtherCompany(server);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const as = (token: string) => ({
  get: (path: string) => call(server, 'GET', path, { token }),
  send: (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => call(server, method, path, { token, body }),
});

/** A company's labels as stored, to compare before and after a refused change. */
const companyLabels = (companyId: string) =>
  server.db.select().from(labels).where(eq(labels.companyId, companyId)).orderBy(asc(labels.name)).then(JSON.stringify);

describe('an entity declared by its contract and repository alone', () => {
  it('gets exactly the routes its contract names, at its paths, guarded by its policy', async () => {
    const table = await collectRouteTable(server.app, [labelsModule]);
    const mine = table
      .filter((route) => route.url.includes('label'))
      .map((route) => `${route.method} ${route.url} ${(route.config.policy as readonly string[]).join('/')}`)
      .sort();
    expect(mine).toEqual(
      [
        'GET /labels/:offset/:limit labels/read',
        'POST /labels/filter/:offset/:limit/:order/:field labels/read',
        'GET /labels/filter/props labels/read',
        'GET /label/:id labels/read',
        'POST /label labels/create',
        'PUT /label/:id labels/update',
        'DELETE /label/:id labels/delete',
        'PUT /label/activate/:id labels/update',
        'PUT /label/deactivate/:id labels/update',
        'GET /user/:id/labels labels/read',
      ].sort(),
    );
  });

  it('is described in the OpenAPI document: a summary, a tag and the answer schema of every operation', async () => {
    const document = server.app.swagger() as {
      paths: Record<string, Record<string, { summary?: string; tags?: string[]; responses?: Record<string, { content?: unknown }> }>>;
    };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.includes('label'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));
    expect(operations).toHaveLength(10);
    for (const { path, method, operation } of operations) {
      expect(operation.summary, `${method} ${path}`).toMatch(/label/i);
      expect(operation.tags).toEqual(['Labels']);
      const answer = Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
      expect(answer, `${method} ${path}`).toBeDefined();
      expect(JSON.stringify(answer![1])).toContain('"message"');
    }
    const one = document.paths['/api/v1/label/{id}'].get.responses!['200'];
    expect(JSON.stringify(one)).toContain('"colour"');
  });

  it('creates, lists, filters, sorts, reads, changes, activates and deletes, auditing each change', async () => {
    const admin = as(adminToken);
    const created = await admin.send('POST', '/label', { name: 'Urgent', colour: 'red' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe('Label created');
    const urgent = labelRow.parse(created.json().data);
    expect(urgent).toMatchObject({ name: 'Urgent', colour: 'red', isActive: true, ownerId: adminId });
    await admin.send('POST', '/label', { name: 'Later', colour: 'blue' });
    await admin.send('POST', '/label', { name: 'Archive', colour: 'green' });

    const list = await admin.get('/labels/0/2');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ count: 3, countExact: true });
    expect(list.json().data.rows).toHaveLength(2);
    for (const row of list.json().data.rows) labelRow.parse(row);

    const filtered = await admin.send('POST', '/labels/filter/0/10/ASC/name', { colour: ['red', 'green'] });
    expect(filtered.json().data.rows.map((row: Label) => row.name)).toEqual(['Archive', 'Urgent']);
    const searched = await admin.send('POST', '/labels/filter/0/10/DESC/name', { search: 'a' });
    expect(searched.json().data.rows.map((row: Label) => row.name)).toEqual(['Later', 'Archive']);
    expect((await admin.get('/labels/filter/props')).json().data.colour).toHaveLength(3);

    expect((await admin.get(`/label/${urgent.id}`)).json().data).toEqual(urgent);
    const renamed = await admin.send('PUT', `/label/${urgent.id}`, { name: 'Now' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ message: 'Label saved', data: { name: 'Now', colour: 'red' } });
    const same = await admin.send('PUT', `/label/${urgent.id}`, { name: 'Now', colour: 'red' });
    expect(same.json()).toMatchObject({ message: 'Nothing to change', data: { name: 'Now' } });
    const off = await admin.send('PUT', `/label/deactivate/${urgent.id}`);
    expect(off.json()).toMatchObject({ message: 'Label deactivated', data: { isActive: false } });
    expect((await admin.send('PUT', `/label/activate/${urgent.id}`)).json().data.isActive).toBe(true);

    const mine = await admin.get(`/user/${adminId}/labels?offset=0&limit=10`);
    expect(mine.json().data.count).toBe(3);

    const deleted = await admin.send('DELETE', `/label/${urgent.id}`);
    expect(deleted.json()).toEqual({ message: 'Label deleted' });
    expect((await admin.get(`/label/${urgent.id}`)).statusCode).toBe(404);

    const audits = await server.db
      .select({ operation: systemAudits.operation, changes: systemAudits.changes })
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'label'), eq(systemAudits.recordId, urgent.id)))
      .orderBy(asc(systemAudits.createdAt));
    expect(audits.map((audit) => audit.operation)).toEqual(['create', 'update', 'deactivate', 'activate', 'delete']);
    expect(audits[1].changes).toEqual({ before: { name: 'Urgent' }, after: { name: 'Now' } });
  });

  it('refuses bad input naming the field, and a name taken, leaving the rows as they were', async () => {
    const admin = as(adminToken);
    const before = await companyLabels(server.company.companyId);
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/label', { name: '', colour: 'red' }, 400, /name/],
      ['POST', '/label', { name: 'Plain', colour: 'pink' }, 400, /colour: must be red, blue or green/],
      ['POST', '/label', { name: 'Later', colour: 'red' }, 409, /already exists/],
      ['POST', '/labels/filter/0/10/ASC/ownerId', {}, 400, /field/],
      ['PUT', '/label/not-an-id', { name: 'X' }, 400, /id/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const answer = await admin.send(method as 'POST' | 'PUT', path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBe(status);
      expect(answer.json().message).toMatch(message);
    }
    expect(await companyLabels(server.company.companyId)).toBe(before);
  });

  it("keeps each company to its own labels: another company's are missing, and its own list is empty", async () => {
    const admin = as(adminToken);
    const [label] = (await admin.get('/labels/0/10')).json().data.rows as Label[];
    const before = await companyLabels(server.company.companyId);
    const intruder = as(other.adminToken);
    expect((await intruder.get('/labels/0/10')).json().data).toMatchObject({ rows: [], count: 0 });
    expect((await intruder.get(`/label/${label.id}`)).statusCode).toBe(404);
    expect((await intruder.send('PUT', `/label/${label.id}`, { name: 'Taken over' })).statusCode).toBe(404);
    expect((await intruder.send('DELETE', `/label/${label.id}`)).statusCode).toBe(404);
    expect((await intruder.send('PUT', `/label/deactivate/${label.id}`)).statusCode).toBe(404);
    expect(await companyLabels(server.company.companyId)).toBe(before);
  });

  it('gets the row-level security every tenant table has, from the migrator rather than its own SQL', async () => {
    const [state] = await selectRows<{ enabled: boolean; policies: number }>(
      server.db,
      sql`select c.relrowsecurity as enabled, (select count(*) from pg_policies p where p.tablename = 'labels' and p.policyname = 'company_rows' and p.schemaname = current_schema())::int as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = 'labels' and n.nspname = current_schema()`,
    );
    expect(state).toEqual({ enabled: true, policies: 1 });
  });
});
