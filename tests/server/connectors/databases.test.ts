import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeEmbeddedDatabases, openEmbeddedConnector } from '../../../server/connectors/embedded';
import { openMysqlConnector } from '../../../server/connectors/mysql';
import { openPostgresConnector } from '../../../server/connectors/postgresql';
import type { TableSource } from '../../../server/connectors/types';
import { closedPort, configFromUrl, MYSQL_URL, onMysql, onPostgres, POSTGRES_URL, randomName, skipMysql, skipPostgres } from './db-helpers';
import { connectorFailure as failureOf, TEST_COMPANY_ID, testReach } from './test-context';

/** The connectors of the database types against real servers, and the embedded database on disk. */

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const quick = { timeoutMs: 10_000 };

describe.skipIf(skipPostgres)('PostgreSQL connector', () => {
  const schema = randomName('conn_pg');
  let source: TableSource;

  beforeAll(async () => {
    await onPostgres(async (client) => {
      await client.query(`create schema ${schema}`);
      await client.query(
        `create table ${schema}.orders (id integer primary key, customer text not null, amount numeric(10,2), placed_at timestamptz)`,
      );
      await client.query(`insert into ${schema}.orders values (1, 'ann', 10.50, now()), (2, 'bob', null, null), (3, 'cy', 7, now())`);
      await client.query(`create view ${schema}.big_orders as select * from ${schema}.orders where amount > 10`);
      await client.query(`analyze ${schema}.orders`);
    });
    source = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL), { reach: testReach() });
  });

  afterAll(async () => {
    await source?.close();
    await onPostgres((client) => client.query(`drop schema if exists ${schema} cascade`));
  });

  const orderCount = () =>
    onPostgres(async (client) => Number((await client.query(`select count(*) as n from ${schema}.orders`)).rows[0].n));

  it('connects for real and answers the latency and what the server says of itself', async () => {
    const result = await source.test();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.latencyMs).toBeLessThan(10_000);
    expect(result.detail).toMatch(/^PostgreSQL \d+/);
  });

  it('reports refused credentials in the server’s own words, as auth', async () => {
    const user = randomName('nobody');
    const stranger = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL, { user, password: 'wrong-password' }), {
      reach: testReach(),
    });
    const error = await failureOf(stranger.test());
    expect(error.kind).toBe('auth');
    // A server checking passwords says the password failed; one trusting local connections, that the role does not exist.
    expect(error.message).toMatch(new RegExp(`password authentication failed for user "${user}"|role "${user}" does not exist`));
  });

  it('reports a port where nothing listens as unreachable, in words that do not tell how it failed', async () => {
    const port = await closedPort();
    const nowhere = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL, { port }), { reach: testReach() });
    const error = await failureOf(nowhere.test());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`PostgreSQL could not reach the database at ${new URL(POSTGRES_URL).hostname}:${port}`);
    await nowhere.close();
  });

  it('lists the tables and views of the schemas, with the row estimate of a table', async () => {
    const endpoints = await source.endpoints();
    expect(endpoints).toContainEqual({ id: `${schema}.orders`, name: 'orders', kind: 'table', group: schema, format: 'table', rows: 3 });
    expect(endpoints).toContainEqual({ id: `${schema}.big_orders`, name: 'big_orders', kind: 'table', group: schema, format: 'view' });
    expect(endpoints.some((endpoint) => endpoint.group === 'pg_catalog' || endpoint.group === 'information_schema')).toBe(false);
  });

  it('describes the columns in their order, with the server’s type names', async () => {
    expect(await source.columns(`${schema}.orders`)).toEqual([
      { name: 'id', dataType: 'integer', nullable: false, position: 1 },
      { name: 'customer', dataType: 'text', nullable: false, position: 2 },
      { name: 'amount', dataType: 'numeric(10,2)', nullable: true, position: 3 },
      { name: 'placed_at', dataType: 'timestamp with time zone', nullable: true, position: 4 },
    ]);
  });

  it('says a missing table is missing, in the server’s words', async () => {
    const error = await failureOf(source.columns(`${schema}.no_such_table`));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`relation "${schema}.no_such_table" does not exist`);
  });

  it('runs a statement with $n parameters', async () => {
    expect(await source.query('select $1::int + 1 as answer, $2::text as word', [41, 'yes'], quick)).toEqual([{ answer: 42, word: 'yes' }]);
  });

  it('refuses a write in a read-only statement and leaves the table as it was', async () => {
    const error = await failureOf(source.query(`delete from ${schema}.orders`, [], { ...quick, readOnly: true }));
    expect(error.kind).toBe('read_only');
    expect(error.message).toBe('cannot execute DELETE in a read-only transaction');
    expect(await orderCount()).toBe(3);
  });

  it('refuses a second statement hidden after the first', async () => {
    const error = await failureOf(source.query(`select 1; delete from ${schema}.orders`, [], quick));
    expect(error.message).toBe('cannot insert multiple commands into a prepared statement');
    expect(await orderCount()).toBe(3);
  });

  it('stops a statement at its time limit', async () => {
    const { value: error, ms } = await timed(() => failureOf(source.query('select pg_sleep(5)', [], { timeoutMs: 1000 })));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('canceling statement due to statement timeout');
    expect(ms).toBeLessThan(4000);
    // The pool still answers afterwards.
    expect(await source.query('select 1 as one', [], quick)).toEqual([{ one: 1 }]);
  });

  it('reads at most maxRows rows', async () => {
    const rows = await source.query('select g from generate_series(1, 100000) g', [], { ...quick, maxRows: 5 });
    expect(rows.map((row) => row.g)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps dates and times as the server writes them', async () => {
    const [row] = await source.query(`select '2024-05-01 10:00:00'::timestamp as local, '2024-05-01'::date as day`, [], quick);
    expect(row).toEqual({ local: '2024-05-01 10:00:00', day: '2024-05-01' });
  });
});

describe.skipIf(skipMysql)('MySQL / MariaDB connector', () => {
  const database = randomName('conn_my');
  let source: TableSource;

  beforeAll(async () => {
    await onMysql(async (connection) => {
      await connection.query(`create database ${database}`);
      await connection.query(
        `create table ${database}.orders (id int primary key, customer varchar(80) not null, amount decimal(10,2), placed_at datetime)`,
      );
      await connection.query(`insert into ${database}.orders values (1, 'ann', 10.50, now()), (2, 'bob', null, null), (3, 'cy', 7, now())`);
      await connection.query(`create view ${database}.big_orders as select * from ${database}.orders where amount > 10`);
      await connection.query(`analyze table ${database}.orders`);
    });
    source = openMysqlConnector(configFromUrl('mysql', MYSQL_URL, { database }), { reach: testReach() });
  });

  afterAll(async () => {
    await source?.close();
    await onMysql((connection) => connection.query(`drop database if exists ${database}`));
  });

  const orderCount = () =>
    onMysql(async (connection) =>
      Number(((await connection.query(`select count(*) as n from ${database}.orders`))[0] as Array<{ n: number }>)[0]!.n),
    );

  it('connects for real and answers the latency and the server’s version', async () => {
    const result = await source.test();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.latencyMs).toBeLessThan(10_000);
    expect(result.detail).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('reports a wrong password in the server’s own words, as auth', async () => {
    const stranger = openMysqlConnector(configFromUrl('mysql', MYSQL_URL, { database, password: 'wrong-password' }), {
      reach: testReach(),
    });
    const error = await failureOf(stranger.test());
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/^Access denied for user '.+'@'.+' \(using password: YES\)$/);
  });

  it('reports a port where nothing listens as unreachable, in words that do not tell how it failed', async () => {
    const port = await closedPort();
    const nowhere = openMysqlConnector(configFromUrl('mysql', MYSQL_URL, { database, port }), { reach: testReach() });
    const error = await failureOf(nowhere.test());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`MySQL could not reach the database at ${new URL(MYSQL_URL).hostname}:${port}`);
  });

  it('lists the tables and views of the configured database', async () => {
    const endpoints = await source.endpoints();
    expect(endpoints.map((endpoint) => endpoint.id).sort()).toEqual([`${database}.big_orders`, `${database}.orders`]);
    const orders = endpoints.find((endpoint) => endpoint.name === 'orders')!;
    expect(orders).toMatchObject({ kind: 'table', group: database, format: 'table' });
    expect(typeof orders.rows).toBe('number');
    expect(endpoints.find((endpoint) => endpoint.name === 'big_orders')).toEqual({
      id: `${database}.big_orders`,
      name: 'big_orders',
      kind: 'table',
      group: database,
      format: 'view',
    });
  });

  it('describes the columns in their order, with the server’s type names', async () => {
    const columns = await source.columns(`${database}.orders`);
    expect(columns.map(({ name, nullable, position }) => ({ name, nullable, position }))).toEqual([
      { name: 'id', nullable: false, position: 1 },
      { name: 'customer', nullable: false, position: 2 },
      { name: 'amount', nullable: true, position: 3 },
      { name: 'placed_at', nullable: true, position: 4 },
    ]);
    expect(columns.map((column) => column.dataType)).toEqual([expect.stringMatching(/^int/), 'varchar(80)', 'decimal(10,2)', 'datetime']);
  });

  it('says a missing table is missing, in the server’s words', async () => {
    const error = await failureOf(source.columns(`${database}.no_such_table`));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`Table '${database}.no_such_table' doesn't exist`);
  });

  it('runs a statement with ? parameters', async () => {
    expect(await source.query('select ? + 1 as answer, ? as word', [41, 'yes'], quick)).toEqual([{ answer: 42, word: 'yes' }]);
  });

  it('refuses a write in a read-only statement and leaves the table as it was', async () => {
    const error = await failureOf(source.query(`delete from ${database}.orders`, [], { ...quick, readOnly: true }));
    expect(error.kind).toBe('read_only');
    expect(error.message).toBe('Cannot execute statement in a READ ONLY transaction');
    expect(await orderCount()).toBe(3);
  });

  it('refuses a second statement hidden after the first', async () => {
    const error = await failureOf(source.query(`select 1; delete from ${database}.orders`, [], quick));
    expect(error.kind).toBe('invalid');
    expect(await orderCount()).toBe(3);
  });

  it('stops a statement at its time limit', async () => {
    const { value: error, ms } = await timed(() => failureOf(source.query('select sleep(5)', [], { timeoutMs: 1000 })));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/max_statement_time exceeded|maximum statement execution time exceeded/);
    expect(ms).toBeLessThan(4000);
    expect(await source.query('select 1 as one', [], quick)).toEqual([{ one: 1 }]);
  });

  it('reads at most maxRows rows, and the next statement reads them all again', async () => {
    const numbers = 'select 1 as n union all select 2 union all select 3 union all select 4 union all select 5 union all select 6';
    expect(await source.query(numbers, [], { ...quick, maxRows: 2 })).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await source.query(numbers, [], quick)).toHaveLength(6);
  });
});

describe('Embedded connector', () => {
  let dataDir: string;
  const connect = (database: string) =>
    openEmbeddedConnector({ companyId: TEST_COMPANY_ID, type: 'embedded', settings: { database }, secrets: {} }, { dataDir });

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-connector-'));
  });

  afterAll(async () => {
    await closeEmbeddedDatabases();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const companyDatabases = () => path.join(dataDir, 'companies', TEST_COMPANY_ID, 'embedded');

  it('creates the database in <dataDir>/companies/<companyId>/embedded/<name> and says what it is', async () => {
    const result = await connect('sales').test();
    expect(result.detail).toMatch(/^PostgreSQL \d+.*PGlite/);
    expect(fs.existsSync(path.join(companyDatabases(), 'sales'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'embedded'))).toBe(false);
  });

  it('refuses a name with anything but letters, digits, - and _', async () => {
    for (const name of ['../escape', 'with space', '']) {
      const error = await failureOf(connect(name).test());
      expect(error.kind).toBe('invalid');
      expect(error.message).toContain('use letters, digits, - and _');
    }
    // The folders of databases (each open one has its lock file beside it).
    const folders = fs.readdirSync(companyDatabases(), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name)).toEqual(['sales']);
  });

  it('keeps its data across a close and a reopen, and two connectors of one name share it', async () => {
    const writer = connect('kept');
    await writer.query('create table notes (id integer primary key, body text not null)', [], quick);
    await writer.query('insert into notes values ($1, $2)', [1, 'first'], quick);
    expect(await connect('kept').query('select body from notes', [], quick)).toEqual([{ body: 'first' }]);
    await closeEmbeddedDatabases();
    expect(await connect('kept').query('select id, body from notes', [], quick)).toEqual([{ id: 1, body: 'first' }]);
  });

  it('lists its tables and views and describes their columns', async () => {
    const source = connect('sales');
    await source.query('create table items (id integer primary key, label varchar(40), added_at timestamp)', [], quick);
    await source.query('create view recent_items as select * from items', [], quick);
    const endpoints = await source.endpoints();
    expect(endpoints.filter((endpoint) => endpoint.name.includes('items')).map((endpoint) => [endpoint.id, endpoint.format])).toEqual([
      ['public.items', 'table'],
      ['public.recent_items', 'view'],
    ]);
    expect(await source.columns('public.items')).toEqual([
      { name: 'id', dataType: 'integer', nullable: false, position: 1 },
      { name: 'label', dataType: 'character varying(40)', nullable: true, position: 2 },
      { name: 'added_at', dataType: 'timestamp without time zone', nullable: true, position: 3 },
    ]);
    const error = await failureOf(source.columns('public.missing'));
    expect(error).toMatchObject({ kind: 'not_found', message: 'relation "public.missing" does not exist' });
  });

  it('refuses a write in a read-only statement', async () => {
    const source = connect('sales');
    await source.query('create table guarded (n integer)', [], quick);
    const error = await failureOf(source.query('insert into guarded values (1)', [], { ...quick, readOnly: true }));
    expect(error).toMatchObject({ kind: 'read_only', message: 'cannot execute INSERT in a read-only transaction' });
    expect(await source.query('select count(*) as n from guarded', [], quick)).toEqual([{ n: 0 }]);
  });

  it('gives statements one at a time, so read-only and writing statements never share a transaction', async () => {
    // Two connectors of one database: one open instance, one queue.
    const [writer, reader] = [connect('sales'), connect('sales')];
    await writer.query('create table hits (n integer)', [], quick);
    const work = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? writer.query('insert into hits values ($1)', [i], quick)
        : reader.query('select count(*) as n from hits', [], { ...quick, readOnly: true }),
    );
    await Promise.all(work);
    expect(await reader.query('select count(*) as n from hits', [], quick)).toEqual([{ n: 6 }]);
  });

  it('answers a statement that overran its time limit as a timeout and keeps nothing it wrote', async () => {
    const source = connect('sales');
    await source.query('create table slow (n integer)', [], quick);
    const error = await failureOf(source.query('insert into slow select 1 from pg_sleep(1.5)', [], { timeoutMs: 1000 }));
    expect(error).toMatchObject({ kind: 'timeout', message: 'The statement took longer than 1 s' });
    expect(await source.query('select count(*) as n from slow', [], quick)).toEqual([{ n: 0 }]);
    const sleep = await failureOf(source.query('select pg_sleep(2)', [], { timeoutMs: 1000 }));
    expect(sleep.kind).toBe('timeout');
  });

  it('does not run a statement whose time limit passed while it waited for its turn', async () => {
    const source = connect('sales');
    await source.query('create table queued (n integer)', [], quick);
    const long = source.query('select pg_sleep(1.5)', [], quick);
    const late = failureOf(source.query('insert into queued values (1)', [], { timeoutMs: 500 }));
    await long;
    expect((await late).kind).toBe('timeout');
    expect(await source.query('select count(*) as n from queued', [], quick)).toEqual([{ n: 0 }]);
  });

  it('reads at most maxRows rows', async () => {
    const rows = await connect('sales').query('select g from generate_series(1, 1000) g', [], { ...quick, maxRows: 3 });
    expect(rows).toEqual([{ g: 1 }, { g: 2 }, { g: 3 }]);
  });

  it('keeps databases in memory, by name, without a data directory', async () => {
    const memory = (database: string) =>
      openEmbeddedConnector({ companyId: TEST_COMPANY_ID, type: 'embedded', settings: { database }, secrets: {} }, {});
    await memory('scratch').query('create table t (n integer)', [], quick);
    await memory('scratch').query('insert into t values (7)', [], quick);
    expect(await memory('scratch').query('select n from t', [], quick)).toEqual([{ n: 7 }]);
    expect(fs.readdirSync(companyDatabases())).not.toContain('scratch');
  });
});
