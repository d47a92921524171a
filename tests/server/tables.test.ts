import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { embeddedSource } from './embedded-source';
import { connections, dataTables, qualityResults, qualityRuns, systemAudits, tableColumns } from '../../server/db/schema';
import { call, createOtherCompany, signInAdmin, snapshot, userWithPolicies } from './helpers';

/** Tables, data dictionaries and data-quality rules (docs/api/tables.md), on an embedded database the test fills. */

const DENIED = 'Resource Access not provided';

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let connectionId: string;
let database: string;

/** The embedded database behind the test's connection, to shape its data directly. */
const source = () => embeddedSource(server, database);
/** Runs statements one by one (a source runs one statement per query). */
async function sql(statements: string) {
  const s = source();
  try {
    for (const statement of statements
      .split(/;\s*(?:\n|$)/)
      .map((t) => t.trim())
      .filter(Boolean))
      await s.query(statement, [], { timeoutMs: 30_000 });
  } finally {
    await s.close();
  }
}

const register = (body: Record<string, unknown>, token = adminToken) => call(server, 'POST', '/table', { token, body });
const addRule = (tableId: string, body: Record<string, unknown>) =>
  call(server, 'POST', `/table/dataQuality/${tableId}`, { token: adminToken, body });

async function upload(tableId: string, text: string, { name = 'dictionary.csv', token = adminToken } = {}) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return server.app.inject({
    method: 'POST',
    url: `/api/v1/tables/dictionary/upload/${tableId}`,
    headers: { 'x-access-token': token, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'tables.reader@acme.test', [{ resource: 'tables', actions: ['read'] }]);
  database = `shop-${crypto.randomBytes(4).toString('hex')}`;
  const made = await call(server, 'POST', '/connections', {
    token: adminToken,
    body: { name: 'Shop', type: 'embedded', settings: { database } },
  });
  expect(made.statusCode, made.body).toBe(201);
  connectionId = made.json().data.id;
  await sql(`
    create table public.customers (id int primary key, email text, full_name text not null, country text, signed_up_at timestamptz not null);
    insert into public.customers values
      (1, 'ada@example.test', 'Ada Lovelace', 'GB', now() - interval '3 days'),
      (2, 'grace@example.test', 'Grace Hopper', 'US', now() - interval '2 days'),
      (3, null, 'Alan Turing', 'GB', now() - interval '1 day'),
      (4, 'not-an-email', 'Edsger Dijkstra', 'NL', now() - interval '5 hours'),
      (5, 'ada@example.test', 'Ada Again', 'XX', now() - interval '1 hour');
    create table public.orders (id int primary key, amount numeric);`);
});
afterAll(async () => server?.close());

describe('registering a table', () => {
  let tableId: string;

  it("reads the endpoint's columns from the source and answers the table", async () => {
    const res = await register({ connectionId, endpoint: 'public.customers', description: 'People who bought something' });
    expect(res.statusCode, res.body).toBe(201);
    const row = res.json().data;
    tableId = row.id;
    expect(row).toMatchObject({
      name: 'customers',
      endpoint: 'public.customers',
      connectionId,
      connectionName: 'Shop',
      connectionType: 'embedded',
      columnCount: 5,
      describedCount: 0,
      ruleCount: 0,
      lastRun: null,
      isActive: true,
    });
    const dictionary = await call(server, 'GET', `/tables/dataDictionary/tableId/${tableId}/0/10`, { token: reader.token });
    expect(dictionary.json().data.rows.map((e: { name: string; nullable: boolean }) => [e.name, e.nullable])).toEqual([
      ['id', false],
      ['email', true],
      ['full_name', false],
      ['country', true],
      ['signed_up_at', false],
    ]);
    expect(dictionary.json().data.rows[0]).toMatchObject({
      dataType: expect.stringMatching(/int/),
      sensitivity: 'internal',
      present: true,
      description: '',
    });
    const [audit] = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, tableId));
    expect(audit).toMatchObject({ model: 'table', operation: 'create' });
  });

  it('refuses what cannot be registered, naming why, and stores nothing', async () => {
    const before = await snapshot(server.db);
    const slack = await call(server, 'POST', '/connections', {
      token: adminToken,
      body: { name: 'Chat', type: 'slack', settings: { webhookUrl: 'https://hooks.example.test/x' } },
    });
    const afterSlack = await snapshot(server.db);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ connectionId, endpoint: 'public.customers' }, 409, /^endpoint: this table is already registered from this connection/],
      [{ connectionId, endpoint: 'public.nowhere' }, 502, /nowhere|does not exist|not found/i],
      [{ connectionId: crypto.randomUUID(), endpoint: 'public.customers' }, 400, /^connectionId: no such connection/],
      [{ connectionId: slack.json().data.id, endpoint: 'webhook' }, 400, /^connectionId: a Slack connection has no tables/],
      [{ connectionId, endpoint: '' }, 400, /^endpoint: is required/],
    ];
    for (const [body, status, message] of cases) {
      const res = await register(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(afterSlack);
    expect(before).not.toEqual(afterSlack);
  });

  it('reads new, changed and dropped columns again, keeping what people wrote', async () => {
    await call(server, 'PUT', `/table/${tableId}`, {
      token: adminToken,
      body: { columns: [{ name: 'country', description: 'ISO country code' }] },
    });
    await sql('alter table public.customers add column vip boolean;\nalter table public.customers alter column country type varchar(2)');
    const refreshed = await call(server, 'POST', `/table/configure/${tableId}`, { token: adminToken });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().data).toEqual({ added: ['vip'], removed: [], changed: ['country'] });
    await sql('alter table public.customers drop column vip');
    const again = await call(server, 'POST', `/table/configure/${tableId}`, { token: adminToken });
    expect(again.json().data).toEqual({ added: [], removed: ['vip'], changed: [] });
    const entries = (await call(server, 'GET', `/tables/dataDictionary/tableId/${tableId}/0/20`, { token: adminToken })).json().data.rows;
    expect(entries.find((e: { name: string }) => e.name === 'vip')).toMatchObject({ present: false });
    expect(entries.find((e: { name: string }) => e.name === 'country')).toMatchObject({
      description: 'ISO country code',
      dataType: expect.stringMatching(/char/),
    });
    const table = (await call(server, 'GET', `/table/${tableId}`, { token: adminToken })).json().data;
    expect(table.columnCount).toBe(5);
  });

  it('lists, filters, searches, counts, and answers 404 for another company', async () => {
    await register({ connectionId, endpoint: 'public.orders', name: 'Orders' });
    const list = await call(server, 'GET', '/tables/0/10', { token: reader.token });
    expect(list.json().data.rows.map((t: { name: string }) => t.name)).toEqual(['Orders', 'customers']);
    const filtered = await call(server, 'POST', '/tables/filters/0/10', {
      token: reader.token,
      body: { endpoint: 'public.orders', source: 'embedded', connection: connectionId },
    });
    expect(filtered.json().data.rows.map((t: { name: string }) => t.name)).toEqual(['Orders']);
    const none = await call(server, 'POST', '/tables/filters/0/10', { token: reader.token, body: { source: 'mysql' } });
    expect(none.json().data).toMatchObject({ rows: [], count: 0 });
    const search = await call(server, 'GET', '/tables/search/0/10?searchText=bought', { token: reader.token });
    expect(search.json().data.rows.map((t: { name: string }) => t.name)).toEqual(['customers']);
    const props = (await call(server, 'GET', '/tables/filters', { token: reader.token })).json().data;
    expect(props).toMatchObject({
      connection: [{ id: connectionId, name: 'Shop' }],
      source: [{ id: 'embedded', name: 'Embedded database' }],
    });
    const cards = (await call(server, 'GET', '/tables/topCards', { token: reader.token })).json().data.cards;
    expect(Object.fromEntries(cards.map((c: { key: string; value: number }) => [c.key, c.value]))).toMatchObject({
      total: 2,
      active: 2,
      columns: 7,
    });
    const ofConnection = await call(server, 'GET', `/table/connection/${connectionId}`, { token: reader.token });
    expect(ofConnection.json().data).toHaveLength(2);

    for (const [method, path, body] of [
      ['GET', `/table/${tableId}`],
      ['PUT', `/table/${tableId}`, { name: 'Mine' }],
      ['POST', `/table/activate/${tableId}`, { isActive: false }],
      ['GET', `/tables/dataDictionary/tableId/${tableId}/0/10`],
      ['GET', `/table/dictionary/${tableId}`],
      ['POST', `/table/dataQuality/${tableId}`, { name: 'x', functionName: 'not_null', columnName: 'email' }],
      ['POST', `/table/${tableId}/configure`, {}],
    ] as const) {
      const res = await call(server, method, path, { token: other.adminToken, body });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await call(server, 'GET', '/tables/0/10', { token: other.adminToken })).json().data.rows).toEqual([]);
  });

  it('needs tables/create to register and tables/update to edit', async () => {
    expect((await register({ connectionId, endpoint: 'public.orders' }, reader.token)).json().message).toBe(DENIED);
    expect((await call(server, 'PUT', `/table/${tableId}`, { token: reader.token, body: { name: 'x' } })).statusCode).toBe(403);
  });
});

describe('the data dictionary', () => {
  let tableId: string;
  beforeAll(async () => {
    await sql('create table public.products (sku text primary key, name text, price numeric, "Weird, Name" text)');
    tableId = (await register({ connectionId, endpoint: 'public.products' })).json().data.id;
  });

  it('edits entries inline, changing only what is given, and audits it', async () => {
    const res = await call(server, 'PUT', `/table/${tableId}`, {
      token: adminToken,
      body: {
        columns: [
          { name: 'sku', description: 'Stock keeping unit', owner: 'Catalogue team' },
          { name: 'price', sensitivity: 'confidential' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Table "products" saved (2 dictionary entries)');
    expect(res.json().data.describedCount).toBe(1);
    const [sku] = await server.db.select().from(tableColumns).where(eq(tableColumns.name, 'sku'));
    expect(sku).toMatchObject({ description: 'Stock keeping unit', owner: 'Catalogue team', businessName: '', sensitivity: 'internal' });
    const bad = await call(server, 'PUT', `/table/${tableId}`, {
      token: adminToken,
      body: { columns: [{ name: 'skew', description: 'x' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('columns: "skew" is not a column of this table');
    const badSensitivity = await call(server, 'PUT', `/table/${tableId}`, {
      token: adminToken,
      body: { columns: [{ name: 'sku', sensitivity: 'secret' }] },
    });
    expect(badSensitivity.json().message).toMatch(/sensitivity: must be one of public, internal, confidential, pii/);
  });

  it('downloads the dictionary as CSV, which uploads back unchanged', async () => {
    const res = await call(server, 'GET', `/table/dictionary/${tableId}`, { token: reader.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="products-dictionary.csv"');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('column,position,data_type,nullable,description,business_name,sensitivity,owner,present');
    expect(lines[1]).toMatch(/^sku,1,text,no,Stock keeping unit,,internal,Catalogue team,yes$/);
    expect(lines).toContainEqual(expect.stringMatching(/^"Weird, Name",4,/));
    const back = await upload(tableId, res.body);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data).toEqual({ updated: 0, unchanged: 4 });
  });

  it('applies an upload whole: quoted fields, line breaks in quotes, a byte-order mark, formulas kept as text', async () => {
    const csv =
      '\uFEFFcolumn,description,business_name,sensitivity\r\n"Weird, Name","Free text, with a comma\nand a second line",Odd,PII\r\nname,"\'=SUM(A1:A2)",Product name,public\r\n';
    const res = await upload(tableId, csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: '2 entries updated, 0 unchanged', data: { updated: 2, unchanged: 0 } });
    const entries = (
      await call(server, 'GET', `/tables/dataDictionary/search/tableId/${tableId}/0/10?searchText=weird`, { token: adminToken })
    ).json().data.rows;
    expect(entries).toEqual([
      expect.objectContaining({
        name: 'Weird, Name',
        description: 'Free text, with a comma\nand a second line',
        businessName: 'Odd',
        sensitivity: 'pii',
      }),
    ]);
    const [name] = await server.db.select().from(tableColumns).where(eq(tableColumns.name, 'name'));
    expect(name.description).toBe('=SUM(A1:A2)');
    const download = await call(server, 'GET', `/table/dictionary/${tableId}`, { token: adminToken });
    expect(download.body).toContain(`"'=SUM(A1:A2)"`.replace(/"/g, ''));
  });

  it('changes nothing when any row is wrong, and says which lines are', async () => {
    const before = await snapshot(server.db);
    const cases: Array<[string, RegExp]> = [
      ['column,description\nsku,Fine\nemial,Typo\nprice,Fine too\n', /^line 3: column "emial" is not a column of this table$/],
      ['column,description,sensitivity\nsku,ok,secret\n', /^line 2: sensitivity must be one of public, internal, confidential, pii$/],
      ['column,colour\nsku,red\n', /^line 1: unknown columns "colour"/],
      ['description\nNo column\n', /^line 1: the header must have a "column" column/],
      ['column,description\nsku,a\nsku,b\n', /^line 3: column "sku" is already described on line 2$/],
      ['column,description\nsku,"unterminated\n', /^the file is not valid CSV/],
      ['', /^the file is empty/],
      [`column,description\n${'sku,' + 'x'.repeat(2001)}\n`, /^line 2: description must be at most 2000 characters$/],
      [
        `column,description\n${Array.from({ length: 5001 }, () => 'sku,x').join('\n')}\n`,
        /^the file has 5001 rows; at most 5000 are read$/,
      ],
    ];
    for (const [text, message] of cases) {
      const res = await upload(tableId, text);
      expect(res.statusCode, text.slice(0, 40)).toBe(400);
      expect(res.json().message, text.slice(0, 40)).toMatch(message);
    }
    const binary = await upload(tableId, 'PK\u0003\u0004\u0000\u0000binary', { name: 'book.xlsx' });
    expect(binary.json().message).toBe('file: this is not a text file; send a CSV file');
    const huge = await upload(tableId, `column,description\nsku,${'y'.repeat(1024 * 1024)}\n`);
    expect(huge.statusCode).toBe(413);
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('needs tables/update to upload', async () => {
    expect((await upload(tableId, 'column,description\nsku,x\n', { token: reader.token })).statusCode).toBe(403);
  });
});

describe('data-quality rules and runs', () => {
  let tableId: string;
  beforeAll(async () => {
    tableId = (await call(server, 'POST', '/tables/filters/0/10', { token: adminToken, body: { endpoint: 'public.customers' } })).json()
      .data.rows[0].id;
    await call(server, 'PUT', `/table/${tableId}`, { token: adminToken, body: { columns: [{ name: 'email', sensitivity: 'pii' }] } });
  });

  it('adds rules after checking them against the table, and lists them', async () => {
    const rules = [
      { name: 'Email given', functionName: 'not_null', columnName: 'email', severity: 'fail' },
      { name: 'Email unique', functionName: 'unique', columnName: 'email', severity: 'warn' },
      { name: 'Email shape', functionName: 'regex_match', columnName: 'email', params: { pattern: '^[^@]+@[^@]+$' }, tolerance: 0.5 },
      { name: 'Known country', functionName: 'in_set', columnName: 'country', params: { values: ['GB', 'US', 'NL'] } },
      { name: 'Some rows', functionName: 'row_count_between', params: { min: 1, max: 100 } },
      { name: 'Recent sign-ups', functionName: 'freshness', columnName: 'signed_up_at', params: { maxAgeMinutes: 24 * 60 } },
    ];
    for (const rule of rules) {
      const res = await addRule(tableId, rule);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({
        name: rule.name,
        functionType: rule.functionName === 'row_count_between' ? 'table' : 'column',
        lastResult: null,
      });
    }
    const list = await call(server, 'GET', `/table/dataQuality/${tableId}/0/10`, { token: reader.token });
    expect(list.json().data.rows.map((r: { name: string }) => r.name)).toEqual(rules.map((r) => r.name).reverse());
    const filtered = await call(server, 'POST', `/tables/dataQuality/filter/tableId/${tableId}/0/10`, {
      token: reader.token,
      body: { functionType: 'column', searchText: 'email' },
    });
    expect(
      filtered
        .json()
        .data.rows.map((r: { name: string }) => r.name)
        .sort(),
    ).toEqual(['Email given', 'Email shape', 'Email unique']);
    const searched = await call(server, 'GET', `/tables/dataQuality/search/tableId/${tableId}/0/10?searchText=freshness`, {
      token: reader.token,
    });
    expect(searched.json().data.rows.map((r: { name: string }) => r.name)).toEqual(['Recent sign-ups']);
  });

  it('refuses a rule that cannot run, naming the field', async () => {
    const before = await snapshot(server.db);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'x', functionName: 'not_null', columnName: 'emial' }, /^columnName: "emial" is not a column of this table/],
      [{ name: 'x', functionName: 'not_null' }, /^columnName: is required for not_null/],
      [{ name: 'x', functionName: 'value_between', columnName: 'id', params: { min: 10, max: 1 } }, /^params\.min: must not be above max/],
      [
        { name: 'x', functionName: 'regex_match', columnName: 'email', params: { pattern: '([a-z' } },
        /^params\.pattern: not a valid regular expression/,
      ],
      [
        { name: 'x', functionName: 'custom_sql', params: { sql: 'delete from public.customers' } },
        /^params\.sql: must be one SELECT or WITH statement/,
      ],
      [
        { name: 'x', functionName: 'custom_sql', params: { sql: 'select 1; drop table public.customers' } },
        /^params\.sql: must be one SELECT or WITH statement/,
      ],
      [{ name: 'x', functionName: 'not_null', columnName: 'email', tolerance: 2 }, /^tolerance: must be at most 1/],
      [{ name: 'x', functionName: 'sparkles', columnName: 'email' }, /^functionName: must be one of/],
    ];
    for (const [body, message] of cases) {
      const res = await addRule(tableId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('runs the rules against the live data: results, failing-row samples with PII masked, the run kept whole', async () => {
    const res = await call(server, 'POST', `/table/${tableId}/configure`, { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json().data;
    expect(run).toMatchObject({ tableId, trigger: 'manual', status: 'failed', error: null });
    const byName = Object.fromEntries(run.results.map((r: { ruleName: string }) => [r.ruleName, r]));
    expect(byName['Email given']).toMatchObject({ status: 'failed', rowsScanned: 5, rowsFailed: 1, failedShare: 0.2 });
    expect(byName['Email unique']).toMatchObject({ status: 'warned', rowsFailed: 1 });
    expect(byName['Email shape']).toMatchObject({ status: 'passed', rowsFailed: 1 });
    expect(byName['Known country']).toMatchObject({ status: 'failed', rowsFailed: 1 });
    expect(byName['Known country'].sample).toEqual([expect.objectContaining({ id: 5, country: 'XX', email: 'a***' })]);
    expect(byName['Some rows']).toMatchObject({ status: 'passed', observed: '5' });
    expect(byName['Recent sign-ups']).toMatchObject({ status: 'passed' });
    expect(byName['Email given'].query).toMatch(/select/i);
    const rule = (await call(server, 'GET', `/table/dataQuality/${tableId}/0/10`, { token: reader.token }))
      .json()
      .data.rows.find((r: { name: string }) => r.name === 'Known country');
    expect(rule.lastResult).toMatchObject({ runId: run.id, status: 'failed', rowsFailed: 1 });
    expect((await call(server, 'GET', `/table/${tableId}`, { token: reader.token })).json().data.lastRun).toMatchObject({
      id: run.id,
      status: 'failed',
    });
    // The table now fails its checks: the tables page's card and the dashboard's count it alike.
    const cardValue = async (path: string, key: string) =>
      ((await call(server, 'GET', path, { token: adminToken })).json().data.cards as Array<{ key: string; value: number }>).find(
        (card) => card.key === key,
      )?.value;
    expect(await cardValue('/tables/topCards', 'failing')).toBe(1);
    expect(await cardValue('/dashboard/topCards', 'failingTables')).toBe(1);
  });

  it('runs custom SQL read-only: a query that writes fails with the source’s message and changes nothing there', async () => {
    await sql('create sequence public.tickets');
    // A data-modifying WITH is refused as the rule is saved: its query is parsed then (server/sql/company-sql.ts).
    const deleting = await addRule(tableId, {
      name: 'Deleting',
      functionName: 'custom_sql',
      params: { sql: 'with gone as (delete from public.customers returning *) select * from gone' },
    });
    expect(deleting.statusCode, deleting.body).toBe(400);
    expect(deleting.json().message).toBe('params.sql: A WITH query here may not change data (DELETE in "gone")');
    const sneaky = [
      ['Drawing tickets', "select nextval('public.tickets') as ticket from public.customers", /read-only transaction/],
    ] as const;
    for (const [name, query, message] of sneaky) {
      const writing = await addRule(tableId, { name, functionName: 'custom_sql', params: { sql: query } });
      expect(writing.statusCode, writing.body).toBe(201);
      const run = (
        await call(server, 'POST', `/table/${tableId}/configure`, { token: adminToken, body: { ruleIds: [writing.json().data.id] } })
      ).json().data;
      expect(run.results, name).toEqual([
        expect.objectContaining({ ruleName: name, status: 'error', message: expect.stringMatching(message) }),
      ]);
      await call(server, 'DELETE', `/table/dataQuality/${writing.json().data.id}`, { token: adminToken });
    }
    const s = source();
    try {
      const [{ n, ticket }] = await s.query<{ n: number; ticket: string | null }>(
        'select (select count(*)::int from public.customers) as n, (select last_value::text from public.tickets where is_called) as ticket',
        [],
        { timeoutMs: 5000 },
      );
      expect({ n, ticket }).toEqual({ n: 5, ticket: null });
    } finally {
      await s.close();
    }
  });

  it('records a run whose source is gone as an error, with no partial results', async () => {
    await sql('create table public.doomed (id int)');
    const doomed = (await register({ connectionId, endpoint: 'public.doomed' })).json().data.id;
    await addRule(doomed, { name: 'Ids given', functionName: 'not_null', columnName: 'id' });
    await sql('drop table public.doomed');
    const res = await call(server, 'POST', `/table/${doomed}/configure`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'error', error: expect.stringMatching(/doomed/), results: [] });
    const [run] = await server.db.select().from(qualityRuns).where(eq(qualityRuns.tableId, doomed));
    expect(run.status).toBe('error');
    expect(await server.db.select().from(qualityResults).where(eq(qualityResults.runId, run.id))).toEqual([]);
  });

  it('refuses to run with nothing to run, on a deactivated connection, or without tables/update', async () => {
    const empty = (await register({ connectionId, endpoint: 'public.orders', name: 'Orders again' }).then((r) => r)).json();
    expect(empty.message).toMatch(/already registered/);
    const orders = (await call(server, 'POST', '/tables/filters/0/10', { token: adminToken, body: { endpoint: 'public.orders' } })).json()
      .data.rows[0].id;
    const none = await call(server, 'POST', `/table/${orders}/configure`, { token: adminToken });
    expect(none.json().message).toBe('The table "Orders" has no active data-quality rules to run');
    expect((await call(server, 'POST', `/table/${tableId}/configure`, { token: reader.token })).statusCode).toBe(403);
    await call(server, 'PUT', `/connections/activate/${connectionId}`, { token: adminToken, body: { isActive: false } });
    const off = await call(server, 'POST', `/table/${tableId}/configure`, { token: adminToken });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe('The connection "Shop" is deactivated; activate it first');
    await call(server, 'PUT', `/connections/activate/${connectionId}`, { token: adminToken, body: { isActive: true } });
  });

  it('changes a rule in place, deletes it with its results kept, and activates tables', async () => {
    const rule = (
      await call(server, 'GET', `/tables/dataQuality/search/tableId/${tableId}/0/10?searchText=Known`, { token: adminToken })
    ).json().data.rows[0];
    const changed = await addRule(tableId, {
      id: rule.id,
      name: 'Known country',
      functionName: 'in_set',
      columnName: 'country',
      params: { values: ['GB', 'US', 'NL', 'XX'] },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.params).toEqual({ values: ['GB', 'US', 'NL', 'XX'] });
    const removed = await call(server, 'DELETE', `/table/dataQuality/${rule.id}`, { token: adminToken });
    expect(removed.json().message).toBe('Rule "Known country" deleted');
    expect((await server.db.select().from(qualityResults).where(eq(qualityResults.ruleId, rule.id))).length).toBeGreaterThan(0);
    expect((await call(server, 'DELETE', `/table/dataQuality/${rule.id}`, { token: adminToken })).statusCode).toBe(404);
    const off = await call(server, 'POST', `/table/activate/${tableId}`, { token: adminToken, body: { isActive: false } });
    expect(off.json()).toMatchObject({ message: 'Table "customers" is deactivated', data: { isActive: false } });
    const [row] = await server.db.select().from(dataTables).where(eq(dataTables.id, tableId));
    expect(row.isActive).toBe(false);
  });
});

describe('custom SQL on a Databricks table', () => {
  it('is refused when the rule is saved, for the reason a run would give, and nothing is stored', async () => {
    const companyId = server.company.companyId;
    const [lakehouse] = await server.db
      .insert(connections)
      .values({ companyId, name: 'Lakehouse', type: 'databricks', settings: { host: 'adb-1.azuredatabricks.net', warehouseId: 'w1' } })
      .returning({ id: connections.id });
    const [table] = await server.db
      .insert(dataTables)
      .values({ companyId, connectionId: lakehouse!.id, endpoint: 'main.sales.orders', name: 'orders' })
      .returning({ id: dataTables.id });
    await server.db.insert(tableColumns).values({ companyId, tableId: table!.id, name: 'amount', position: 1, dataType: 'DECIMAL(12,2)' });
    const before = await snapshot(server.db);
    const res = await addRule(table!.id, {
      name: 'No negative amounts',
      functionName: 'custom_sql',
      params: { sql: 'select * from main.sales.orders where amount < 0' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(
      'params.sql: Custom SQL does not run on Databricks connections: its queries cannot be checked to read only; write the check as a built-in rule',
    );
    expect(await snapshot(server.db)).toEqual(before);
    // Built-in rules are saved as before.
    const builtIn = await addRule(table!.id, { name: 'Amount given', functionName: 'not_null', columnName: 'amount' });
    expect(builtIn.statusCode, builtIn.body).toBe(201);
  });
});
