import crypto from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromUrl, MYSQL_URL, onMysql, onPostgres, POSTGRES_URL, randomName, skipMysql, skipPostgres } from '../connectors/db-helpers';
import { embeddedSource, onEmbedded, readEmbedded } from '../embedded-source';
import { createTestServer, type TestServer } from '../harness';
import { signInAdmin } from '../helpers';
import { createConnection, createPair, createWorkflow, failureOf, recordingContext, runTask, type RecordingContext } from './tasks-helpers';

/**
 * The copy task, run as a runner runs it: from an embedded database to PostgreSQL in each mode,
 * between PostgreSQL databases (COPY text end to end), from MariaDB to an embedded database and
 * from a query, canceled between batches and failing mid-way.
 */

const ROWS = 100_000;

let server: TestServer;
let token: string;
let shop: string;
let shopId: string;

/** Every value of an orders table in one hash, computed the same way on both sides of a copy. */
const ORDERS_FINGERPRINT = (table: string) => `
  select count(*)::int as rows,
         md5(string_agg(concat_ws('|', id, customer, amount, extract(epoch from placed_at), coalesce(note, '(null)'), paid, payload::text, encode(receipt, 'hex')), ',' order by id)) as hash
  from ${table}`;

const copyTask = (fields: Record<string, unknown>) => ({
  id: `copy-${crypto.randomBytes(3).toString('hex')}`,
  name: 'Copy orders',
  type: 'copy' as const,
  ...fields,
});

const postgresSettings = () => {
  const config = configFromUrl('postgresql', POSTGRES_URL);
  return { ...config.settings, ...config.secrets };
};

/** The folder the operator grants (FILES_ROOTS): the company reads its own sub-folder of it. */
let filesRoot: string;

beforeAll(async () => {
  filesRoot = await mkdtemp(path.join(tmpdir(), 'tasks-copy-files-'));
  server = await createTestServer({ filesRoots: [filesRoot] });
  token = (await signInAdmin(server)).accessToken!;
  shop = `shop-${crypto.randomBytes(4).toString('hex')}`;
  shopId = await createConnection(server, token, { name: 'Shop', type: 'embedded', settings: { database: shop } });
  await onEmbedded(server, shop, [
    `create table public.orders (
       id integer primary key, customer varchar(40) not null, amount numeric(10,2), placed_at timestamptz not null,
       note text, paid boolean, payload jsonb, receipt bytea)`,
    `insert into public.orders
       select g, 'customer ' || (g % 977), (g % 10000) / 100.0, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute',
              case when g % 10 = 0 then null when g % 10 = 1 then E'tab\\there, line\\nbreak, back\\\\slash' else 'note ' || g end,
              g % 3 = 0, jsonb_build_object('n', g, 'tag', 'é'), case when g % 7 = 0 then null else decode(lpad(to_hex(g), 8, '0'), 'hex') end
       from generate_series(1, ${ROWS}) g`,
    'create sequence public.tickets',
  ]);
});

afterAll(async () => {
  await server?.close();
  if (filesRoot) await rm(filesRoot, { recursive: true, force: true });
});

describe.skipIf(skipPostgres)('copying into PostgreSQL', () => {
  const schema = randomName('tasks_copy');
  let workflow: Awaited<ReturnType<typeof createWorkflow>>;
  let shopFingerprint: { rows: number; hash: string };

  const pgCount = (table: string) =>
    onPostgres(async (client) => Number((await client.query(`select count(*) as n from ${schema}.${table}`)).rows[0].n));
  const pgFingerprint = (table: string) =>
    onPostgres(async (client) => (await client.query(ORDERS_FINGERPRINT(`${schema}.${table}`))).rows[0] as { rows: number; hash: string });
  const pgTables = () =>
    onPostgres(async (client) =>
      (await client.query('select table_name from information_schema.tables where table_schema = $1 order by 1', [schema])).rows.map(
        (row) => row.table_name as string,
      ),
    );
  const copy = (fields: Record<string, unknown>, context: RecordingContext = recordingContext(server, workflow)) =>
    runTask(server, copyTask(fields), context);

  beforeAll(async () => {
    await onPostgres((client) => client.query(`create schema ${schema}`));
    const warehouseId = await createConnection(server, token, { name: 'Warehouse', type: 'postgresql', settings: postgresSettings() });
    workflow = await createWorkflow(server, { name: 'Nightly orders', pairId: await createPair(server, token, shopId, warehouseId) });
    [shopFingerprint] = await readEmbedded<{ rows: number; hash: string }>(server, shop, ORDERS_FINGERPRINT('public.orders'));
  });

  afterAll(async () => {
    await onPostgres((client) => client.query(`drop schema if exists ${schema} cascade`));
  });

  it('creates the table from the source’s columns and copies every row and value, reporting each batch', async () => {
    const context = recordingContext(server, workflow);
    const outcome = await copy({ from: { table: 'public.orders' }, to: { table: `${schema}.orders`, mode: 'create' } }, context);

    expect(outcome).toEqual({ rowsRead: ROWS, rowsWritten: ROWS });
    expect(await pgFingerprint('orders')).toEqual(shopFingerprint);
    const columns = await onPostgres(
      async (client) =>
        (
          await client.query(
            `select column_name, data_type, character_maximum_length as length, numeric_precision as precision, is_nullable from information_schema.columns where table_schema = $1 and table_name = 'orders' order by ordinal_position`,
            [schema],
          )
        ).rows,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'integer', length: null, precision: 32, is_nullable: 'NO' },
      { column_name: 'customer', data_type: 'character varying', length: 40, precision: null, is_nullable: 'NO' },
      { column_name: 'amount', data_type: 'numeric', length: null, precision: 10, is_nullable: 'YES' },
      { column_name: 'placed_at', data_type: 'timestamp with time zone', length: null, precision: null, is_nullable: 'NO' },
      { column_name: 'note', data_type: 'text', length: null, precision: null, is_nullable: 'YES' },
      { column_name: 'paid', data_type: 'boolean', length: null, precision: null, is_nullable: 'YES' },
      { column_name: 'payload', data_type: 'jsonb', length: null, precision: null, is_nullable: 'YES' },
      { column_name: 'receipt', data_type: 'bytea', length: null, precision: null, is_nullable: 'YES' },
    ]);
    // Ten batches of 10,000, each counted as it was written; no table of the copy's own is left behind.
    expect(context.progressed).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ rowsRead: (i + 1) * 10_000, rowsWritten: (i + 1) * 10_000 })),
    );
    expect(context.lines.at(-1)).toMatch(/^Copied 100,000 rows into .*orders in [\d.]+ s/);
    expect(await pgTables()).toEqual(['orders']);
  });

  it('refuses to create a table that exists, and leaves it as it was', async () => {
    await onPostgres((client) => client.query(`delete from ${schema}.orders where id > 10`));
    const message = await failureOf(copy({ from: { table: 'public.orders' }, to: { table: `${schema}.orders`, mode: 'create' } }));
    expect(message).toBe(
      `The table ${schema}.orders already exists in "Warehouse": a copy in create mode makes a new table (choose replace, append or merge to write to it)`,
    );
    expect(await pgCount('orders')).toBe(10);
  });

  it('replaces an existing table with a fresh copy, its old columns gone', async () => {
    await onPostgres((client) => client.query(`alter table ${schema}.orders add column obsolete text`));
    const outcome = await copy({ from: { table: 'public.orders' }, to: { table: `${schema}.orders`, mode: 'replace' }, batchSize: 25_000 });
    expect(outcome).toEqual({ rowsRead: ROWS, rowsWritten: ROWS });
    expect(await pgFingerprint('orders')).toEqual(shopFingerprint);
    const hasObsolete = await onPostgres(
      async (client) =>
        (
          await client.query(
            `select count(*)::int as n from information_schema.columns where table_schema = $1 and column_name = 'obsolete'`,
            [schema],
          )
        ).rows[0].n,
    );
    expect(hasObsolete).toBe(0);
    expect(await pgTables()).toEqual(['orders']);
  });

  it('appends to an existing table, and makes a missing one first', async () => {
    await copy({ from: { table: 'public.orders' }, to: { table: `${schema}.orders`, mode: 'append' } });
    expect(await pgCount('orders')).toBe(2 * ROWS);

    const outcome = await copy({ from: { table: 'public.orders' }, to: { table: `${schema}.orders_log`, mode: 'append' } });
    expect(outcome.rowsWritten).toBe(ROWS);
    expect(await pgFingerprint('orders_log')).toEqual(shopFingerprint);
  });

  it('copies the rows of a query, typed as the query answers them', async () => {
    const outcome = await copy({
      from: { query: 'select id, amount * 2 as doubled, paid, note from public.orders where id % 10 = 1 order by id;' },
      to: { table: `${schema}.selected`, mode: 'create' },
    });
    expect(outcome).toEqual({ rowsRead: 10_000, rowsWritten: 10_000 });
    const rows = await onPostgres(
      async (client) =>
        (await client.query(`select id, doubled::text, paid, note from ${schema}.selected where id in (1, 11) order by id`)).rows,
    );
    expect(rows).toEqual([
      { id: 1, doubled: '0.02', paid: false, note: 'tab\there, line\nbreak, back\\slash' },
      { id: 11, doubled: '0.22', paid: false, note: 'tab\there, line\nbreak, back\\slash' },
    ]);
  });

  it('refuses a query that writes: the source is read in a read-only transaction', async () => {
    const message = await failureOf(
      copy({
        from: { query: "select nextval('public.tickets') as ticket from public.orders" },
        to: { table: `${schema}.tickets`, mode: 'create' },
      }),
    );
    expect(message).toMatch(/^The copy failed after 0 rows were read: cannot execute nextval\(\) in a read-only transaction\./);
    expect(await readEmbedded(server, shop, 'select is_called from public.tickets')).toEqual([{ is_called: false }]);
    expect(await pgTables()).not.toContain('tickets');
  });

  it('stops at the next batch when canceled: a new table is dropped, appended rows stay and are counted', async () => {
    const cancelAfter = (batches: number) =>
      recordingContext(server, workflow, (counts, context) => {
        if ((counts.rowsWritten ?? 0) >= batches * 10_000) context.controller.abort(new Error('The run was canceled'));
      });
    const created = cancelAfter(3);
    const message = await failureOf(
      copy({ from: { table: 'public.orders' }, to: { table: `${schema}.canceled`, mode: 'create' } }, created),
    );
    expect(message).toBe(
      `The copy was canceled after 30,000 rows were read. ${schema}.canceled is as it was before the copy: the rows copied so far were dropped with the table they went into.`,
    );
    expect(created.progressed.length).toBe(3);
    expect(await pgTables()).not.toContain('canceled');

    const appended = cancelAfter(2);
    const kept = await failureOf(
      copy({ from: { table: 'public.orders' }, to: { table: `${schema}.orders_log`, mode: 'append' } }, appended),
    );
    expect(kept).toBe(
      `The copy was canceled after 20,000 rows were read. 20,000 rows were written to ${schema}.orders_log before it stopped, and stay there.`,
    );
    expect(await pgCount('orders_log')).toBe(ROWS + 20_000);
  });

  it('names the columns an existing table lacks before appending anything', async () => {
    const message = await failureOf(copy({ from: { table: 'public.orders' }, to: { table: `${schema}.selected`, mode: 'append' } }));
    expect(message).toBe(
      `The copy failed after 0 rows were read: The table ${schema}.selected of "Warehouse" has no column customer, amount, placed_at, payload, receipt; the rows copied have the columns id, customer, amount, placed_at, note, paid, payload, receipt. 0 rows were written to ${schema}.selected before it stopped, and stay there.`,
    );
    expect(await pgCount('selected')).toBe(10_000);
  });

  it('keeps the batches an append wrote before a batch failed, and says how many', async () => {
    await onPostgres((client) =>
      client.query(`create table ${schema}.capped (like ${schema}.orders); alter table ${schema}.capped add check (id <= 45000)`),
    );
    const message = await failureOf(
      copy({ from: { query: 'select * from public.orders order by id' }, to: { table: `${schema}.capped`, mode: 'append' } }),
    );
    expect(message).toMatch(
      /^The copy failed after 50,000 rows were read: new row for relation "capped" violates check constraint .*\. 40,000 rows were written to .*capped before it stopped, and stay there\.$/,
    );
    expect(await pgCount('capped')).toBe(40_000);
  });

  describe('between PostgreSQL databases', () => {
    const source = randomName('tasks_copy_src');
    let pgToPg: Awaited<ReturnType<typeof createWorkflow>>;

    beforeAll(async () => {
      await onPostgres(async (client) => {
        await client.query(`create schema ${source}`);
        await client.query(`create type ${source}.mood as enum ('sad', 'ok', 'happy')`);
        await client.query(`
          create table ${source}.events (id bigint primary key, mood ${source}.mood, tags text[], span interval, at timestamp(3), note text, raw bytea)`);
        await client.query(`
          insert into ${source}.events
          select g, (array['sad','ok','happy'])[1 + g % 3]::${source}.mood, array['a' || g, E'b\\\\c'], g * interval '1 second', timestamp '2024-05-01' + g * interval '1 ms',
                 case when g % 5 = 0 then null else E'x\\ty\\nz ' || g end, decode(md5(g::text), 'hex')
          from generate_series(1, 30000) g`);
      });
      const sourceId = await createConnection(server, token, { name: 'Operational', type: 'postgresql', settings: postgresSettings() });
      const destinationId = await createConnection(server, token, { name: 'Reporting', type: 'postgresql', settings: postgresSettings() });
      pgToPg = await createWorkflow(server, {
        name: 'PostgreSQL to PostgreSQL',
        pairId: await createPair(server, token, sourceId, destinationId),
      });
    });

    afterAll(async () => {
      await onPostgres((client) => client.query(`drop schema if exists ${source} cascade`));
    });

    it('copies every value as COPY text; a type of the source’s own becomes text', async () => {
      const context = recordingContext(server, pgToPg);
      const outcome = await runTask(
        server,
        copyTask({ from: { table: `${source}.events` }, to: { table: `${schema}.events`, mode: 'create' }, batchSize: 7000 }),
        context,
      );
      expect(outcome).toEqual({ rowsRead: 30_000, rowsWritten: 30_000 });
      expect(context.progressed.map((counts) => counts.rowsWritten)).toEqual([7000, 14000, 21000, 28000, 30000]);
      const differences = await onPostgres(
        async (client) =>
          (
            await client.query(`
              select count(*)::int as n from (
                (select id, mood::text, tags, span, at, note, raw from ${source}.events except all select id, mood, tags, span, at, note, raw from ${schema}.events)
                union all
                (select id, mood, tags, span, at, note, raw from ${schema}.events except all select id, mood::text, tags, span, at, note, raw from ${source}.events)
              ) d`)
          ).rows[0].n,
      );
      expect(differences).toBe(0);
      const types = await onPostgres(
        async (client) =>
          (
            await client.query(
              `select column_name, udt_name from information_schema.columns where table_schema = $1 and table_name = 'events' order by ordinal_position`,
              [schema],
            )
          ).rows,
      );
      expect(types.map((row) => `${row.column_name} ${row.udt_name}`)).toEqual([
        'id int8',
        'mood text',
        'tags _text',
        'span interval',
        'at timestamp',
        'note text',
        'raw bytea',
      ]);
    });

    it('leaves a replaced table as it was when the source fails mid-way', async () => {
      await onPostgres((client) =>
        client.query(`create table ${schema}.ratios (id bigint, ratio integer); insert into ${schema}.ratios values (0, 0)`),
      );
      const message = await failureOf(
        runTask(
          server,
          copyTask({
            from: { query: `select id, (100 / (15001 - id))::integer as ratio from ${source}.events order by id` },
            to: { table: `${schema}.ratios`, mode: 'replace' },
            batchSize: 5000,
          }),
          recordingContext(server, pgToPg),
        ),
      );
      expect(message).toMatch(
        new RegExp(`^The copy failed after [\\d,]+ rows were read: division by zero\\. ${schema}\\.ratios is as it was before the copy`),
      );
      expect(await onPostgres(async (client) => (await client.query(`select * from ${schema}.ratios`)).rows)).toEqual([
        { id: '0', ratio: 0 },
      ]);
      expect((await pgTables()).filter((table) => table.includes('_copy_'))).toEqual([]);
    });

    it('stops the stream at a batch when canceled, and the connection serves the next copy', async () => {
      const context = recordingContext(server, pgToPg, (counts, ctx) => {
        if ((counts.rowsWritten ?? 0) >= 10_000) ctx.controller.abort(new Error('The run was canceled'));
      });
      const message = await failureOf(
        runTask(
          server,
          copyTask({ from: { table: `${source}.events` }, to: { table: `${schema}.events_canceled`, mode: 'create' }, batchSize: 5000 }),
          context,
        ),
      );
      expect(message).toMatch(/^The copy was canceled after 10,000 rows were read\./);
      expect(await pgTables()).not.toContain('events_canceled');

      const again = await runTask(
        server,
        copyTask({ from: { table: `${source}.events` }, to: { table: `${schema}.events_again`, mode: 'create' } }),
        recordingContext(server, pgToPg),
      );
      expect(again.rowsWritten).toBe(30_000);
    });
  });
});

describe.skipIf(skipMysql)('copying from MariaDB', () => {
  const database = randomName('tasks_copy');
  const lake = `lake-${crypto.randomBytes(4).toString('hex')}`;
  let workflow: Awaited<ReturnType<typeof createWorkflow>>;

  beforeAll(async () => {
    await onMysql(async (connection) => {
      await connection.query(`set time_zone = '+00:00'`);
      await connection.query(`create database ${database}`);
      await connection.query(`
        create table ${database}.readings (
          id int unsigned not null primary key, sensor varchar(30) not null, value decimal(8,3), taken_at datetime(3), stamped timestamp null,
          ok tinyint(1), blob_data varbinary(16), detail json, flags bit(4), note text)`);
      await connection.query(`
        insert into ${database}.readings
        select seq, concat('sensor-', seq % 17), seq / 7, timestamp'2024-03-01 00:00:00' + interval seq second, timestamp'2024-03-01 00:00:00' + interval seq minute,
               seq % 2, unhex(lpad(hex(seq), 8, '0')), json_object('seq', seq), seq % 16, if(seq % 4 = 0, null, concat('tab\there ', seq))
        from seq_1_to_25000`);
    });
    const mysqlConfig = configFromUrl('mysql', MYSQL_URL, { database });
    const plantId = await createConnection(server, token, {
      name: 'Plant',
      type: 'mysql',
      settings: { ...mysqlConfig.settings, ...mysqlConfig.secrets },
    });
    const lakeId = await createConnection(server, token, { name: 'Lake', type: 'embedded', settings: { database: lake } });
    workflow = await createWorkflow(server, { name: 'Plant readings', pairId: await createPair(server, token, plantId, lakeId) });
  });

  afterAll(async () => {
    await onMysql((connection) => connection.query(`drop database if exists ${database}`));
  });

  it('copies a MariaDB table into the embedded database, types mapped and values kept', async () => {
    const outcome = await runTask(
      server,
      copyTask({ from: { table: `${database}.readings` }, to: { table: 'public.readings', mode: 'create' } }),
      recordingContext(server, workflow),
    );
    expect(outcome).toEqual({ rowsRead: 25_000, rowsWritten: 25_000 });

    const columns = await embeddedSource(server, lake).columns('public.readings');
    expect(columns.map((column) => `${column.name} ${column.dataType}${column.nullable ? '' : ' not null'}`)).toEqual([
      'id bigint not null',
      'sensor character varying(30) not null',
      'value numeric(8,3)',
      'taken_at timestamp(3) without time zone',
      'stamped timestamp(0) with time zone',
      'ok smallint',
      'blob_data bytea',
      'detail text',
      'flags bigint',
      'note text',
    ]);
    const rows = await readEmbedded(
      server,
      lake,
      `
      select id, sensor, value::text, taken_at::text, stamped at time zone 'UTC' as stamped_utc, ok, encode(blob_data, 'hex') as hex, detail::text, flags, note
      from public.readings where id in (1, 4, 25000) order by id`,
    );
    expect(rows).toEqual([
      {
        id: 1,
        sensor: 'sensor-1',
        value: '0.143',
        taken_at: '2024-03-01 00:00:01',
        stamped_utc: '2024-03-01 00:01:00',
        ok: 1,
        hex: '00000001',
        detail: '{"seq": 1}',
        flags: 1,
        note: 'tab\there 1',
      },
      {
        id: 4,
        sensor: 'sensor-4',
        value: '0.571',
        taken_at: '2024-03-01 00:00:04',
        stamped_utc: '2024-03-01 00:04:00',
        ok: 0,
        hex: '00000004',
        detail: '{"seq": 4}',
        flags: 4,
        note: null,
      },
      {
        id: 25000,
        sensor: 'sensor-10',
        value: '3571.429',
        taken_at: '2024-03-01 06:56:40',
        stamped_utc: '2024-03-18 08:40:00',
        ok: 0,
        hex: '000061a8',
        detail: '{"seq": 25000}',
        flags: 8,
        note: null,
      },
    ]);
  });

  it('copies the embedded rows back into MariaDB with MariaDB’s types', async () => {
    const back = await createWorkflow(server, {
      name: 'Lake to plant',
      pairId: await createPair(
        server,
        token,
        await createConnection(server, token, { name: 'Lake again', type: 'embedded', settings: { database: lake } }),
        await createConnection(server, token, {
          name: 'Plant again',
          type: 'mysql',
          settings: { ...configFromUrl('mysql', MYSQL_URL, { database }).settings },
        }),
      ),
    });
    await onEmbedded(server, lake, [
      `create table public.flags (id int primary key, on_time boolean, seen timestamptz, price numeric, label varchar(300), raw bytea)`,
      `insert into public.flags select g, g % 2 = 0, timestamptz '2024-01-01 10:00:00+02' + g * interval '1 hour', g / 4.0, repeat('x', g % 5), decode('ff00', 'hex') from generate_series(1, 100) g`,
    ]);
    const outcome = await runTask(
      server,
      copyTask({ from: { table: 'public.flags' }, to: { table: `${database}.flags`, mode: 'create' } }),
      recordingContext(server, back),
    );
    expect(outcome.rowsWritten).toBe(100);
    const [rows, columns] = await onMysql(async (connection) => [
      (
        await connection.query(
          `select id, on_time, cast(seen as char) as seen, cast(price as char) as price, label, hex(raw) as raw from ${database}.flags where id in (1, 2) order by id`,
        )
      )[0],
      (await connection.query(`show columns from ${database}.flags`))[0],
    ]);
    expect(rows).toEqual([
      { id: 1, on_time: 0, seen: '2024-01-01 09:00:00.000000', price: '0.250000000000000000000000000000', label: 'x', raw: 'FF00' },
      { id: 2, on_time: 1, seen: '2024-01-01 10:00:00.000000', price: '0.500000000000000000000000000000', label: 'xx', raw: 'FF00' },
    ]);
    expect((columns as Array<{ Field: string; Type: string }>).map((column) => `${column.Field} ${column.Type}`)).toEqual([
      'id int(11)',
      'on_time tinyint(1)',
      'seen datetime(6)',
      'price decimal(65,30)',
      'label longtext',
      'raw longblob',
    ]);
  });
});

describe('copying a file', () => {
  let folder: string;
  const store = `store-${crypto.randomBytes(4).toString('hex')}`;
  let workflow: Awaited<ReturnType<typeof createWorkflow>>;

  beforeAll(async () => {
    // The folder sits in the company's own sub-folder of the folder the operator grants (FILES_ROOTS).
    folder = path.join(filesRoot, server.company.companyId, 'exports');
    await mkdir(folder, { recursive: true });
    const lines = ['id,region,amount,sold_on,comment'];
    for (let i = 1; i <= 2500; i += 1)
      lines.push(
        `${i},${['north', 'south'][i % 2]},${(i / 4).toFixed(2)},2024-02-${String(1 + (i % 28)).padStart(2, '0')},${i % 100 === 0 ? '"says ""hi"", twice"' : ''}`,
      );
    await writeFile(path.join(folder, 'sales.csv'), lines.join('\n') + '\n');
    const filesId = await createConnection(server, token, {
      name: 'Exports',
      type: 'files',
      settings: { path: folder },
      isDestination: false,
    });
    const storeId = await createConnection(server, token, { name: 'Store', type: 'embedded', settings: { database: store } });
    workflow = await createWorkflow(server, { name: 'Load sales', pairId: await createPair(server, token, filesId, storeId) });
  });

  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('copies a CSV file into a table typed as its rows show', async () => {
    const outcome = await runTask(
      server,
      copyTask({ from: { table: 'sales.csv' }, to: { table: 'public.sales', mode: 'create' }, batchSize: 1000 }),
      recordingContext(server, workflow),
    );
    expect(outcome).toEqual({ rowsRead: 2500, rowsWritten: 2500 });
    const columns = await embeddedSource(server, store).columns('public.sales');
    expect(columns.map((column) => `${column.name} ${column.dataType}`)).toEqual([
      'id integer',
      'region text',
      'amount numeric',
      'sold_on date',
      'comment text',
    ]);
    expect(
      await readEmbedded(
        server,
        store,
        'select id, region, amount::text, sold_on::text, comment from public.sales where id in (1, 100) order by id',
      ),
    ).toEqual([
      { id: 1, region: 'south', amount: '0.25', sold_on: '2024-02-02', comment: null },
      { id: 100, region: 'north', amount: '25.00', sold_on: '2024-02-17', comment: 'says "hi", twice' },
    ]);
  });
});
