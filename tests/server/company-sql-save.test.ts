import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { canRunStatements } from '../../server/connectors/types';
import { qualityRules, systemAudits, workflows } from '../../server/db/schema';
import { configFromUrl, MYSQL_URL, onMysql, randomName, skipMysql } from './connectors/db-helpers';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';

/**
 * Queries a company writes are checked as they are saved, in the dialect of the connection they
 * will run on (server/sql/company-sql.ts): a custom rule's `params.sql` and a copy task's
 * `from.query` that may not run are a 400 naming the field, and nothing is stored.
 */

let server: TestServer;
let token: string;

const connection = async (body: Record<string, unknown>) => {
  const res = await call(server, 'POST', '/connections', { token, body: { isSource: true, isDestination: true, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
};

const register = async (connectionId: string, endpoint: string) => {
  const res = await call(server, 'POST', '/table', { token, body: { connectionId, endpoint } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
};

const pair = async (sourceId: string, destinationId: string) => {
  const id = crypto.randomUUID();
  const res = await call(server, 'PUT', `/source/destination/${id}`, { token, body: { sourceId, destinationId } });
  expect(res.statusCode, res.body).toBe(201);
  return id;
};

const addRule = (tableId: string, body: Record<string, unknown>) => call(server, 'POST', `/table/dataQuality/${tableId}`, { token, body });
const customRule = (sql: string, extra: Record<string, unknown> = {}) => ({
  name: 'Custom check',
  functionName: 'custom_sql',
  params: { sql },
  ...extra,
});

/** What a refused save must leave as it was: the rules, the workflows and the audit trail. */
async function stored() {
  const { companyId } = server.company;
  return {
    rules: await server.db.select().from(qualityRules).where(eq(qualityRules.companyId, companyId)).orderBy(asc(qualityRules.id)),
    workflows: await server.db.select().from(workflows).where(eq(workflows.companyId, companyId)).orderBy(asc(workflows.id)),
    audits: (await server.db.select({ id: systemAudits.id }).from(systemAudits)).length,
  };
}

let shopId: string;
let lakeId: string;

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  const shop = `shop-${crypto.randomBytes(4).toString('hex')}`;
  shopId = await connection({ name: 'Shop', type: 'embedded', settings: { database: shop } });
  lakeId = await connection({ name: 'Lake', type: 'embedded', settings: { database: `lake-${crypto.randomBytes(4).toString('hex')}` } });
  const connector = server.app.ctx.connectors.open({
    companyId: server.company.companyId,
    type: 'embedded',
    settings: { database: shop },
    secrets: {},
  });
  if (!canRunStatements(connector)) throw new Error('an embedded database runs statements');
  await connector.runStatements([
    'create table public.orders (id int primary key, amount numeric)',
    'insert into public.orders values (1, 10), (2, -5)',
  ]);
});
afterAll(async () => server?.close());

describe('saving a custom data-quality rule', () => {
  let tableId: string;
  beforeAll(async () => {
    tableId = await register(shopId, 'public.orders');
  });

  it('refuses a query that may not run, naming params.sql, and stores nothing', async () => {
    const before = await stored();
    const cases: Array<[string, string]> = [
      ["select pg_read_file('/etc/passwd') as secret", 'params.sql: pg_read_file is not allowed: it reads files of the database server'],
      [
        'with gone as (delete from public.orders returning *) select * from gone',
        'params.sql: A WITH query here may not change data (DELETE in "gone")',
      ],
      ['select * from public.orders for update', 'params.sql: FOR UPDATE is not allowed: a query here may not lock rows'],
      [
        "select * from public.orders where query_to_xml('delete from public.orders', true, true, '') is not null",
        'params.sql: query_to_xml is not allowed: it runs SQL of its own, given as text or built by the server, which this check cannot see',
      ],
      ['select * from public.orders where )', 'params.sql: The query cannot be read: syntax error at or near ")" (line 1, position 35)'],
    ];
    for (const [sql, message] of cases) {
      const res = await addRule(tableId, customRule(sql));
      expect(res.statusCode, sql).toBe(400);
      expect(res.json().message, sql).toBe(message);
    }
    expect(await stored()).toEqual(before);
  });

  it('keeps a rule as it was when a change to it is refused', async () => {
    const added = await addRule(tableId, customRule('select * from public.orders where amount < 0'));
    expect(added.statusCode, added.body).toBe(201);
    const rule = added.json().data;
    const before = await stored();
    const changed = await addRule(tableId, customRule("select lo_import('/etc/passwd')", { id: rule.id }));
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe(
      'params.sql: lo_import is not allowed: large objects read and write files of the database server and outlast the query',
    );
    expect(await stored()).toEqual(before);
    const list = (await call(server, 'GET', `/table/dataQuality/${tableId}/0/10`, { token })).json().data.rows;
    expect(list.find((row: { id: string }) => row.id === rule.id).params).toEqual({ sql: 'select * from public.orders where amount < 0' });
  });
});

describe.skipIf(skipMysql)('saving a custom rule of a MariaDB table', () => {
  const database = randomName('save_sql');
  let tableId: string;
  beforeAll(async () => {
    await onMysql(async (connection) => {
      await connection.query(`create database ${database}`);
      await connection.query(`create table ${database}.orders (id int primary key, amount decimal(10,2))`);
    });
    const plant = configFromUrl('mysql', MYSQL_URL, { database });
    const plantId = await connection({ name: 'Plant', type: 'mysql', settings: { ...plant.settings, ...plant.secrets } });
    tableId = await register(plantId, `${database}.orders`);
  });
  afterAll(async () => {
    await onMysql((connection) => connection.query(`drop database if exists ${database}`));
  });

  it('reads the query as MySQL: its own refusals, and PostgreSQL syntax is not MySQL', async () => {
    const before = await stored();
    const cases: Array<[string, string | RegExp]> = [
      [`select @@datadir as dir from ${database}.orders`, 'params.sql: @@datadir is not allowed: it reads settings of the database server'],
      [`select load_file('/etc/passwd') as secret`, 'params.sql: load_file is not allowed: it reads files of the database server'],
      [
        `select * from ${database}.orders where id ~ '^1'`,
        /^params\.sql: The query cannot be read: unexpected "~" \(line 1, position \d+\)$/,
      ],
    ];
    for (const [sql, message] of cases) {
      const res = await addRule(tableId, customRule(sql));
      expect(res.statusCode, sql).toBe(400);
      expect(res.json().message, sql).toMatch(message);
    }
    expect(await stored()).toEqual(before);
    const fine = await addRule(tableId, customRule(`select * from ${database}.orders where amount < 0`));
    expect(fine.statusCode, fine.body).toBe(201);
  });
});

describe('saving a workflow whose copy reads a query', () => {
  const copy = (query: string, id = 'copy') => ({
    id,
    name: `Copy ${id}`,
    type: 'copy',
    from: { query },
    to: { table: `public.${id}`, mode: 'replace' },
  });
  let pairId: string;
  beforeAll(async () => {
    pairId = await pair(shopId, lakeId);
  });

  it('refuses a query that may not run, naming the task’s from.query, and stores nothing', async () => {
    const before = await stored();
    const cases: Array<[unknown[], string]> = [
      [[copy("select pg_ls_dir('.') as entry")], 'tasks.0.from.query: pg_ls_dir is not allowed: it reads files of the database server'],
      [
        [copy('select * from public.orders', 'fine'), copy('select * from public.orders where pg_try_advisory_lock(7)', 'locking')],
        'tasks.1.from.query: pg_try_advisory_lock is not allowed: it takes or frees locks that outlast the query',
      ],
      [[copy('select 1; select 2')], 'tasks.0.from.query: Only one statement may run here; this text holds 2'],
    ];
    for (const [tasks, message] of cases) {
      const res = await call(server, 'POST', '/workflow', {
        token,
        body: { name: `Nightly ${crypto.randomBytes(3).toString('hex')}`, pairId, tasks },
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await stored()).toEqual(before);
  });

  it('keeps a workflow as it was when an edit brings in a query that may not run', async () => {
    const made = await call(server, 'POST', '/workflow', {
      token,
      body: { name: 'Orders nightly', pairId, tasks: [copy('select id, amount from public.orders -- all of them\n')] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const before = await stored();
    const edited = await call(server, 'PUT', `/workflow/${made.json().data.id}`, {
      token,
      body: { tasks: [copy("select set_config('work_mem', '1GB', false)")] },
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(
      'tasks.0.from.query: set_config is not allowed: it reads or changes settings of the database server or the session',
    );
    expect(await stored()).toEqual(before);
  });
});
