import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWatermarks } from '../../../server/db/schema';
import { configFromUrl, MYSQL_URL, onMysql, onPostgres, POSTGRES_URL, randomName, skipMysql, skipPostgres } from '../connectors/db-helpers';
import { onEmbedded, readEmbedded } from '../embedded-source';
import { createTestServer, type TestServer } from '../harness';
import { call, signInAdmin } from '../helpers';
import { createConnection, createPair, createWorkflow, failureOf, recordingContext, runTask } from './tasks-helpers';

/**
 * Copies that never double rows: a merge by key columns into PostgreSQL, MariaDB and the embedded
 * database, run again and again without a row more; a destination whose rows repeat the key,
 * refused untouched; and incremental copies by a watermark column, whose watermark moves only
 * when a run succeeds.
 */

let server: TestServer;
let token: string;
let shop: string;
let shopId: string;

const copyTask = (fields: Record<string, unknown>) => ({
  id: `copy-${crypto.randomBytes(3).toString('hex')}`,
  name: 'Merge customers',
  type: 'copy' as const,
  ...fields,
});

/** A hostile column name: quotes of both dialects in it. */
const HOSTILE = 'na"me`x';

/** The source: customers keyed by id, each with a time of its last change. */
async function makeCustomers(table: string): Promise<void> {
  await onEmbedded(server, shop, [
    `create table ${table} (id integer primary key, "${HOSTILE.replace(/"/g, '""')}" varchar(60) not null, amount numeric(10,2), updated_at timestamp not null)`,
    `insert into ${table} select g, 'customer ' || g, g * 1.5, timestamp '2026-11-20 10:00:00' + g * interval '1 minute' from generate_series(1, 50) g`,
  ]);
}

interface Destination {
  kind: string;
  /** The table copied into, as the task names it. */
  table(name: string): string;
  workflow(): Promise<Awaited<ReturnType<typeof createWorkflow>>>;
  /** Row count and an md5 of every value, rows ordered by id. */
  fingerprint(table: string): Promise<{ rows: number; hash: string }>;
  /** Each row's id and name, ordered by id. */
  names(table: string, ids: number[]): Promise<Array<{ id: number; name: string }>>;
  run(statements: string[]): Promise<void>;
  /** The columns of the destination's unique keys. */
  uniqueKeys(table: string): Promise<string[]>;
}

const pgLike = (kind: string, table: (name: string) => string, query: (sql: string) => Promise<Array<Record<string, unknown>>>) => ({
  kind,
  table,
  async fingerprint(name: string) {
    const [row] = await query(
      `select count(*)::int as rows, md5(string_agg(concat_ws('|', id, "${HOSTILE.replace(/"/g, '""')}", amount, updated_at), ',' order by id)) as hash from ${table(name)}`,
    );
    return { rows: Number(row!.rows), hash: String(row!.hash) };
  },
  async names(name: string, ids: number[]) {
    return (
      await query(`select id, "${HOSTILE.replace(/"/g, '""')}" as name from ${table(name)} where id in (${ids.join(', ')}) order by id`)
    ).map((row) => ({ id: Number(row.id), name: String(row.name) }));
  },
  async uniqueKeys(name: string) {
    const rows = await query(
      `select string_agg(a.attname, ',' order by a.attnum) as columns from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = '${table(name)}'::regclass and i.indisunique group by i.indexrelid order by 1`,
    );
    return rows.map((row) => String(row.columns));
  },
});

let embeddedLake: string;
const pgSchema = randomName('tasks_merge');
const mysqlDatabase = randomName('tasks_merge');

const destinations: Array<{ skip: boolean; make: () => Destination }> = [
  {
    skip: false,
    make: () => ({
      ...pgLike(
        'the embedded database',
        (name) => `public.${name}`,
        (sql) => readEmbedded(server, embeddedLake, sql),
      ),
      run: (statements) => onEmbedded(server, embeddedLake, statements),
      async workflow() {
        const lakeId = await createConnection(server, token, {
          name: `Lake ${crypto.randomBytes(3).toString('hex')}`,
          type: 'embedded',
          settings: { database: embeddedLake },
        });
        return createWorkflow(server, {
          name: `Into the lake ${crypto.randomBytes(3).toString('hex')}`,
          pairId: await createPair(server, token, shopId, lakeId),
        });
      },
    }),
  },
  {
    skip: skipPostgres,
    make: () => ({
      ...pgLike(
        'PostgreSQL',
        (name) => `${pgSchema}.${name}`,
        (sql) => onPostgres(async (client) => (await client.query(sql)).rows),
      ),
      run: (statements) => onPostgres(async (client) => void (await client.query(statements.join('; ')))),
      async workflow() {
        const config = configFromUrl('postgresql', POSTGRES_URL);
        const warehouseId = await createConnection(server, token, {
          name: `Warehouse ${crypto.randomBytes(3).toString('hex')}`,
          type: 'postgresql',
          settings: { ...config.settings, ...config.secrets },
        });
        return createWorkflow(server, {
          name: `Into the warehouse ${crypto.randomBytes(3).toString('hex')}`,
          pairId: await createPair(server, token, shopId, warehouseId),
        });
      },
    }),
  },
  {
    skip: skipMysql,
    make: () => {
      const query = (sql: string) =>
        onMysql(async (connection) => {
          await connection.query('set session group_concat_max_len = 10000000');
          return (await connection.query(sql))[0] as Array<Record<string, unknown>>;
        });
      const table = (name: string) => `${mysqlDatabase}.${name}`;
      return {
        kind: 'MariaDB',
        table,
        async fingerprint(name) {
          const [row] = await query(
            `select count(*) as \`rows\`, md5(group_concat(concat_ws('|', id, \`${HOSTILE.replace(/`/g, '``')}\`, amount, updated_at) order by id separator ',')) as hash from ${table(name)}`,
          );
          return { rows: Number(row!.rows), hash: String(row!.hash) };
        },
        async names(name, ids) {
          return (
            await query(
              `select id, \`${HOSTILE.replace(/`/g, '``')}\` as name from ${table(name)} where id in (${ids.join(', ')}) order by id`,
            )
          ).map((row) => ({ id: Number(row.id), name: String(row.name) }));
        },
        async uniqueKeys(name) {
          const rows = await query(
            `select group_concat(column_name order by seq_in_index) as columns from information_schema.statistics
              where table_schema = '${mysqlDatabase}' and table_name = '${name}' and non_unique = 0 group by index_name order by 1`,
          );
          return rows.map((row) => String(row.columns));
        },
        run: (statements) =>
          onMysql(async (connection) => {
            for (const statement of statements) await connection.query(statement);
          }, mysqlDatabase),
        async workflow() {
          const config = configFromUrl('mysql', MYSQL_URL, { database: mysqlDatabase });
          const plantId = await createConnection(server, token, {
            name: `Plant ${crypto.randomBytes(3).toString('hex')}`,
            type: 'mysql',
            settings: { ...config.settings, ...config.secrets },
          });
          return createWorkflow(server, {
            name: `Into the plant ${crypto.randomBytes(3).toString('hex')}`,
            pairId: await createPair(server, token, shopId, plantId),
          });
        },
      };
    },
  },
];

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  shop = `shop-${crypto.randomBytes(4).toString('hex')}`;
  embeddedLake = `lake-${crypto.randomBytes(4).toString('hex')}`;
  shopId = await createConnection(server, token, { name: 'Shop', type: 'embedded', settings: { database: shop } });
  if (!skipPostgres) await onPostgres((client) => client.query(`create schema ${pgSchema}`));
  if (!skipMysql) await onMysql((connection) => connection.query(`create database ${mysqlDatabase}`));
});

afterAll(async () => {
  if (!skipPostgres) await onPostgres((client) => client.query(`drop schema if exists ${pgSchema} cascade`));
  if (!skipMysql) await onMysql((connection) => connection.query(`drop database if exists ${mysqlDatabase}`));
  await server?.close();
});

for (const { skip, make } of destinations) {
  const destination = make();
  describe.skipIf(skip)(`merging into ${destination.kind}`, () => {
    it('makes the table keyed by the key, runs again without a row more, and applies updated source rows', async () => {
      const source = `public.${randomName('customers')}`;
      await makeCustomers(source);
      const workflow = await destination.workflow();
      const task = copyTask({ from: { table: source }, to: { table: destination.table('customers'), mode: 'merge', keys: ['id'] } });

      const first = recordingContext(server, workflow);
      expect(await runTask(server, task, first)).toEqual({ rowsRead: 50, rowsWritten: 50 });
      expect(first.lines.join('\n')).toContain(`its primary key id`);
      expect(await destination.uniqueKeys('customers')).toEqual(['id']);
      const fingerprint = await destination.fingerprint('customers');
      expect(fingerprint.rows).toBe(50);

      for (let again = 0; again < 2; again += 1) {
        await runTask(server, task, recordingContext(server, workflow));
        expect(await destination.fingerprint('customers')).toEqual(fingerprint);
      }

      const quoted = `"${HOSTILE.replace(/"/g, '""')}"`;
      await onEmbedded(server, shop, [
        `update ${source} set ${quoted} = 'renamed ' || id, updated_at = updated_at + interval '1 day' where id in (3, 7)`,
        `insert into ${source} values (51, 'newcomer', 1, timestamp '2026-12-01 00:00:00')`,
      ]);
      const merged = recordingContext(server, workflow);
      expect(await runTask(server, task, merged)).toEqual({ rowsRead: 51, rowsWritten: 51 });
      expect(merged.lines.join('\n')).toContain(`Merged 51 rows into ${destination.table('customers')} by id`);
      expect((await destination.fingerprint('customers')).rows).toBe(51);
      expect(await destination.names('customers', [2, 3, 7, 51])).toEqual([
        { id: 2, name: 'customer 2' },
        { id: 3, name: 'renamed 3' },
        { id: 7, name: 'renamed 7' },
        { id: 51, name: 'newcomer' },
      ]);
      const settled = await destination.fingerprint('customers');
      await runTask(server, task, recordingContext(server, workflow));
      expect(await destination.fingerprint('customers')).toEqual(settled);
    });

    it('refuses a destination whose rows repeat the key, and leaves it untouched', async () => {
      const source = `public.${randomName('customers')}`;
      await makeCustomers(source);
      const name = randomName('repeats');
      await destination.run([
        `create table ${destination.table(name)} (id integer, ${destination.kind === 'MariaDB' ? `\`${HOSTILE.replace(/`/g, '``')}\`` : `"${HOSTILE.replace(/"/g, '""')}"`} varchar(60), amount numeric(10,2), updated_at timestamp null)`,
        `insert into ${destination.table(name)} values (4, 'one', 1, null), (4, 'two', 2, null), (9, 'three', 3, null)`,
      ]);
      const before = await destination.fingerprint(name);
      const message = await failureOf(
        runTask(
          server,
          copyTask({ from: { table: source }, to: { table: destination.table(name), mode: 'merge', keys: ['id'] } }),
          recordingContext(server, await destination.workflow()),
        ),
      );
      expect(message).toContain(`${destination.table(name)} of "`);
      expect(message).toContain(`already holds rows that repeat the key: id = '4' appears more than once`);
      expect(await destination.fingerprint(name)).toEqual(before);
      expect(await destination.uniqueKeys(name)).toEqual([]);
    });

    it('on MariaDB, refuses a table with another unique key the copy writes; elsewhere, a clash on it fails the run', async () => {
      const source = `public.${randomName('customers')}`;
      await makeCustomers(source);
      const name = randomName('twokeys');
      const hostile = destination.kind === 'MariaDB' ? `\`${HOSTILE.replace(/`/g, '``')}\`` : `"${HOSTILE.replace(/"/g, '""')}"`;
      await destination.run([
        `create table ${destination.table(name)} (id integer primary key, ${hostile} varchar(60), amount numeric(10,2), updated_at timestamp null)`,
        `create unique index ${name}_name on ${destination.table(name)} (${hostile})`,
        `insert into ${destination.table(name)} values (900, 'customer 3', 1, null)`,
      ]);
      const before = await destination.fingerprint(name);
      const task = copyTask({ from: { table: source }, to: { table: destination.table(name), mode: 'merge', keys: ['id'] } });
      if (destination.kind !== 'MariaDB') {
        // PostgreSQL's ON CONFLICT (id) names its key: a clash on the other one fails the run, the table untouched.
        await failureOf(runTask(server, task, recordingContext(server, await destination.workflow())));
        expect(await destination.fingerprint(name)).toEqual(before);
        return;
      }
      const message = await failureOf(runTask(server, task, recordingContext(server, await destination.workflow())));
      expect(message).toContain(`${destination.table(name)} of "`);
      expect(message).toContain(
        `has another unique key, on ${HOSTILE}, which the copy writes: MySQL's merge (ON DUPLICATE KEY UPDATE) would update`,
      );
      expect(message).toContain('leave that column out of the copy. Nothing was written');
      // Row 900 keeps its name: no new row took its place.
      expect(await destination.fingerprint(name)).toEqual(before);
    });

    it('gives an existing table without a unique key one on the key columns, and says so', async () => {
      const source = `public.${randomName('customers')}`;
      await makeCustomers(source);
      const name = randomName('unkeyed');
      await destination.run([
        `create table ${destination.table(name)} (id integer, ${destination.kind === 'MariaDB' ? `\`${HOSTILE.replace(/`/g, '``')}\`` : `"${HOSTILE.replace(/"/g, '""')}"`} varchar(60), amount numeric(10,2), updated_at timestamp null, kept text)`,
        `insert into ${destination.table(name)} (id, amount, kept) values (1, 0, 'stays'), (500, 0, 'stays too')`,
      ]);
      const context = recordingContext(server, await destination.workflow());
      await runTask(
        server,
        copyTask({ from: { table: source }, to: { table: destination.table(name), mode: 'merge', keys: ['id'] } }),
        context,
      );
      expect(context.lines.join('\n')).toMatch(
        new RegExp(`had no unique key on id; the merge made one so that rows match by it: (create unique index|ALTER TABLE)`),
      );
      expect(await destination.uniqueKeys(name)).toEqual(['id']);
      expect((await destination.fingerprint(name)).rows).toBe(51);
      expect(await destination.names(name, [1])).toEqual([{ id: 1, name: 'customer 1' }]);
    });
  });
}

describe('what a merge refuses before writing', () => {
  it('refuses key columns that are not columns of the source, and a source that repeats a key', async () => {
    const workflow = await destinations[0]!.make().workflow();
    const source = `public.${randomName('customers')}`;
    await makeCustomers(source);
    const missing = await failureOf(
      runTask(
        server,
        copyTask({ from: { table: source }, to: { table: 'public.nowhere', mode: 'merge', keys: ['customer_id'] } }),
        recordingContext(server, workflow),
      ),
    );
    expect(missing).toContain('The key column customer_id is not a column of the source; its columns are id, na"me`x, amount, updated_at');
    expect(await readEmbedded(server, embeddedLake, `select to_regclass('public.nowhere') is null as gone`)).toEqual([{ gone: true }]);

    const repeated = await failureOf(
      runTask(
        server,
        copyTask({
          from: { query: `select id % 3 as id, amount from ${source}` },
          to: { table: 'public.by_rest', mode: 'merge', keys: ['id'] },
        }),
        recordingContext(server, workflow),
      ),
    );
    expect(repeated).toMatch(/The source repeats the key id = '\d': a merge takes one row per key/);
    expect(repeated).toContain('No row of public.by_rest was written or changed');
    expect(await readEmbedded(server, embeddedLake, `select to_regclass('public.by_rest') is null as gone`)).toEqual([{ gone: true }]);
  });
});

describe('incremental copies by a watermark column', () => {
  const watermarkOf = async (workflowId: string, taskId: string) =>
    (
      await server.db
        .select({ value: copyWatermarks.value, columnName: copyWatermarks.columnName })
        .from(copyWatermarks)
        .where(and(eq(copyWatermarks.workflowId, workflowId), eq(copyWatermarks.taskId, taskId)))
    )[0];

  it('reads only the rows changed since the last successful run, over three runs', async () => {
    const source = `public.${randomName('customers')}`;
    await makeCustomers(source);
    const workflow = await destinations[0]!.make().workflow();
    const target = `public.${randomName('merged')}`;
    const task = copyTask({ from: { table: source }, to: { table: target, mode: 'merge', keys: ['id'] }, watermark: 'updated_at' });

    const first = recordingContext(server, workflow);
    expect(await runTask(server, task, first)).toEqual({ rowsRead: 50, rowsWritten: 50 });
    expect(first.lines).toContain('Reading all rows, first run');
    expect(await watermarkOf(workflow.id, task.id)).toEqual({ value: '2026-11-20 10:50:00', columnName: 'updated_at' });

    await onEmbedded(server, shop, [
      `update ${source} set amount = 999, updated_at = timestamp '2026-11-21 08:00:00' where id in (10, 20)`,
      `insert into ${source} select g, 'later ' || g, 0, timestamp '2026-11-21 09:00:00' from generate_series(51, 53) g`,
    ]);
    const second = recordingContext(server, workflow);
    expect(await runTask(server, task, second)).toEqual({ rowsRead: 5, rowsWritten: 5 });
    expect(second.lines).toContain('Reading rows with updated_at after 2026-11-20 10:50:00 up to 2026-11-21 09:00:00');
    expect(await readEmbedded(server, embeddedLake, `select count(*)::int as n, sum(amount)::text as total from ${target}`)).toEqual([
      // 1.5 × (1 + … + 50), with rows 10 and 20 (15 and 30) now 999 each.
      { n: 53, total: '3865.50' },
    ]);

    await onEmbedded(server, shop, [
      `insert into ${source} values (54, 'latest', 5, timestamp '2026-11-22 00:00:00')`,
      `update ${source} set amount = 1 where id = 1`,
    ]);
    const third = recordingContext(server, workflow);
    // Row 1 changed without its watermark moving: an incremental copy does not see it, as it promises.
    expect(await runTask(server, task, third)).toEqual({ rowsRead: 1, rowsWritten: 1 });
    expect(third.lines).toContain('Reading rows with updated_at after 2026-11-21 09:00:00 up to 2026-11-22 00:00:00');
    expect(await readEmbedded(server, embeddedLake, `select count(*)::int as n from ${target}`)).toEqual([{ n: 54 }]);
    expect(await watermarkOf(workflow.id, task.id)).toEqual({ value: '2026-11-22 00:00:00', columnName: 'updated_at' });

    const idle = recordingContext(server, workflow);
    expect(await runTask(server, task, idle)).toEqual({ rowsRead: 0, rowsWritten: 0 });
    expect(await watermarkOf(workflow.id, task.id)).toEqual({ value: '2026-11-22 00:00:00', columnName: 'updated_at' });
  });

  it('leaves the watermark where it was when a run fails, and the next run reads those rows again', async () => {
    const source = `public.${randomName('customers')}`;
    await makeCustomers(source);
    const workflow = await destinations[0]!.make().workflow();
    const target = `public.${randomName('appended')}`;
    const task = copyTask({ from: { table: source }, to: { table: target, mode: 'append' }, watermark: 'updated_at' });

    expect(await runTask(server, task, recordingContext(server, workflow))).toEqual({ rowsRead: 50, rowsWritten: 50 });
    await onEmbedded(server, embeddedLake, [`alter table ${target} add constraint small_amounts check (amount < 1000)`]);
    await onEmbedded(server, shop, [
      `insert into ${source} values (51, 'fine', 10, timestamp '2026-11-23 00:00:00'), (52, 'too much', 5000, timestamp '2026-11-23 00:01:00')`,
    ]);

    const failing = recordingContext(server, workflow);
    const message = await failureOf(runTask(server, task, failing));
    expect(message).toContain('small_amounts');
    expect(message).toContain(`No row of ${target} was written or changed`);
    expect(await readEmbedded(server, embeddedLake, `select count(*)::int as n from ${target}`)).toEqual([{ n: 50 }]);
    expect(await watermarkOf(workflow.id, task.id)).toEqual({ value: '2026-11-20 10:50:00', columnName: 'updated_at' });

    await onEmbedded(server, embeddedLake, [`alter table ${target} drop constraint small_amounts`]);
    const again = recordingContext(server, workflow);
    expect(await runTask(server, task, again)).toEqual({ rowsRead: 2, rowsWritten: 2 });
    expect(again.lines).toContain('Reading rows with updated_at after 2026-11-20 10:50:00 up to 2026-11-23 00:01:00');
    expect(await readEmbedded(server, embeddedLake, `select count(*)::int as n, count(distinct id)::int as ids from ${target}`)).toEqual([
      { n: 52, ids: 52 },
    ]);
  });
});

describe('through the API, with the server’s runner', () => {
  /** Reads the run until it has ended. */
  async function finished(runId: string) {
    for (let i = 0; i < 600; i++) {
      const run = (await call(server, 'GET', `/jobRunTracker/${runId}`, { token })).json().data;
      if (!['queued', 'running'].includes(run.status))
        return run as { status: string; error: string | null; steps: Array<{ name: string; log: string }> };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`run ${runId} did not end`);
  }
  const run = async (workflowId: string, body?: Record<string, unknown>) => {
    const queued = await call(server, 'POST', `/workflow/run/${workflowId}`, { token, ...(body ? { body } : {}) });
    expect(queued.statusCode, queued.body).toBe(202);
    const ended = await finished(queued.json().data.id);
    expect(ended.status, ended.error ?? '').toBe('succeeded');
    return ended;
  };

  it('lists a source table’s columns, checks the keys, counts what an append adds to, and runs a full copy once', async () => {
    const source = `public.${randomName('customers')}`;
    await makeCustomers(source);
    const columns = await call(server, 'GET', `/workflow/connection/columns/${shopId}?table=${encodeURIComponent(source)}`, { token });
    expect(columns.statusCode, columns.body).toBe(200);
    expect(columns.json().data.columns).toEqual([
      { name: 'id', dataType: 'integer' },
      { name: HOSTILE, dataType: 'character varying(60)' },
      { name: 'amount', dataType: 'numeric(10,2)' },
      { name: 'updated_at', dataType: 'timestamp without time zone' },
    ]);

    const lakeId = await createConnection(server, token, {
      name: `Lake ${crypto.randomBytes(3).toString('hex')}`,
      type: 'embedded',
      settings: { database: embeddedLake },
    });
    const merged = `public.${randomName('merged')}`;
    const appended = `public.${randomName('appended')}`;
    const made = await call(server, 'POST', '/workflow', {
      token,
      body: {
        name: `Customers ${crypto.randomBytes(3).toString('hex')}`,
        pairId: await createPair(server, token, shopId, lakeId),
        tasks: [
          {
            id: 'merge',
            name: 'Merge customers',
            type: 'copy',
            from: { table: source },
            to: { table: merged, mode: 'merge', keys: ['id'] },
            watermark: 'updated_at',
          },
          { id: 'append', name: 'Append customers', type: 'copy', from: { table: source }, to: { table: appended, mode: 'append' } },
        ],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const workflow = made.json().data as { id: string; jobId: string; tasks: unknown[] };
    expect(workflow.tasks[0]).toMatchObject({ to: { mode: 'merge', keys: ['id'] }, watermark: 'updated_at' });

    const rowsHeld = async () => (await call(server, 'GET', `/workflow/destinationRows/${workflow.id}`, { token })).json().data.tables;
    expect(await rowsHeld()).toEqual([{ task: 'Append customers', table: appended, rows: 0, more: false }]);

    const first = await run(workflow.jobId);
    expect(first.steps[0]!.log).toContain('Reading all rows, first run');
    expect(await rowsHeld()).toEqual([{ task: 'Append customers', table: appended, rows: 50, more: false }]);

    const full = await run(workflow.jobId, { fullCopy: true });
    expect(full.steps[0]!.log).toContain('Reading all rows, full copy asked');
    const after = await run(workflow.jobId);
    expect(after.steps[0]!.log).toContain('Reading rows with updated_at after 2026-11-20 10:50:00');
    expect(await readEmbedded(server, embeddedLake, `select count(*)::int as n from ${merged}`)).toEqual([{ n: 50 }]);

    // A key that is not a column of the source is found by the check, before any run.
    const edited = await call(server, 'PUT', `/workflow/${workflow.id}`, {
      token,
      body: {
        tasks: [
          {
            id: 'merge',
            name: 'Merge customers',
            type: 'copy',
            from: { table: source },
            to: { table: merged, mode: 'merge', keys: ['customer_id'] },
          },
        ],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const checked = (await call(server, 'POST', `/workflow/configure/${workflow.id}`, { token })).json().data;
    expect(checked.problems).toContainEqual({
      task: 'Merge customers',
      message: `The key column customer_id is not a column of the source; its columns are id, ${HOSTILE}, amount, updated_at`,
    });
  });
});
