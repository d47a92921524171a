import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromUrl, MYSQL_URL, onMysql, randomName, skipMysql } from '../connectors/db-helpers';
import { embeddedSource, onEmbedded, readEmbedded } from '../embedded-source';
import { createTestServer, type TestServer } from '../harness';
import { signInAdmin } from '../helpers';
import { createConnection, createPair, createWorkflow, failureOf, recordingContext, runTask } from './tasks-helpers';

/**
 * A copy from a query reads the query as the company SQL check re-printed it: a query it refuses
 * fails the copy with its words before anything is read or made, and what the server would run
 * hidden in a MySQL executable comment is not run.
 */

let server: TestServer;
let token: string;
let lake: string;

const copyTask = (fields: Record<string, unknown>) => ({
  id: `copy-${crypto.randomBytes(3).toString('hex')}`,
  name: 'Copy from a query',
  type: 'copy' as const,
  ...fields,
});

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  lake = `lake-${crypto.randomBytes(4).toString('hex')}`;
});
afterAll(async () => server?.close());

describe('copying from a query of the embedded database', () => {
  let workflow: Awaited<ReturnType<typeof createWorkflow>>;
  let shop: string;

  beforeAll(async () => {
    shop = `shop-${crypto.randomBytes(4).toString('hex')}`;
    const shopId = await createConnection(server, token, { name: 'Shop', type: 'embedded', settings: { database: shop } });
    await onEmbedded(server, shop, [
      'create table public.items (id int primary key, note text)',
      "insert into public.items values (1, 'plain'), (2, E'back\\\\slash'), (3, 'it''s')",
    ]);
    const lakeId = await createConnection(server, token, { name: 'Lake', type: 'embedded', settings: { database: lake } });
    workflow = await createWorkflow(server, { name: 'Items', pairId: await createPair(server, token, shopId, lakeId) });
  });

  it('fails a copy whose query the check refuses, in its words, before reading or making anything', async () => {
    const cases: Array<[string, string]> = [
      ["select pg_read_file('/etc/passwd') as secret", 'from.query: pg_read_file is not allowed: it reads files of the database server'],
      ['select * from public.items; drop table public.items', 'from.query: Only one statement may run here; this text holds 2'],
      [
        'with gone as (delete from public.items returning *) select * from gone',
        'from.query: A WITH query here may not change data (DELETE in "gone")',
      ],
      [
        'select id from public.items where lo_unlink(1) = 1',
        'from.query: lo_unlink is not allowed: large objects read and write files of the database server and outlast the query',
      ],
    ];
    for (const [query, message] of cases) {
      const context = recordingContext(server, workflow);
      expect(
        await failureOf(runTask(server, copyTask({ from: { query }, to: { table: 'public.refused', mode: 'create' } }), context)),
        query,
      ).toBe(message);
      expect(context.progressed, query).toEqual([]);
    }
    expect(await readEmbedded(server, lake, 'select count(*)::int as n from public.refused').catch((err: Error) => err.message)).toMatch(
      /does not exist/,
    );
    expect(await readEmbedded<{ n: number }>(server, shop, 'select count(*)::int as n from public.items')).toEqual([{ n: 3 }]);
  });

  it('copies the rows of an accepted query, comments, backslashes and a final semicolon and all', async () => {
    const query = "select id, note -- what the row says\nfrom public.items /* every one */ where note <> 'x\\y' order by id;";
    const outcome = await runTask(
      server,
      copyTask({ from: { query }, to: { table: 'public.copied', mode: 'create' } }),
      recordingContext(server, workflow),
    );
    expect(outcome).toEqual({ rowsRead: 3, rowsWritten: 3 });
    expect(await readEmbedded(server, lake, 'select id, note from public.copied order by id')).toEqual([
      { id: 1, note: 'plain' },
      { id: 2, note: 'back\\slash' },
      { id: 3, note: "it's" },
    ]);
  });
});

describe.skipIf(skipMysql)('copying from a query of MariaDB', () => {
  const database = randomName('copy_query');
  let workflow: Awaited<ReturnType<typeof createWorkflow>>;

  beforeAll(async () => {
    await onMysql(async (connection) => {
      await connection.query(`create database ${database}`);
      await connection.query(`create table ${database}.items (id int primary key, note varchar(20))`);
      await connection.query(`insert into ${database}.items values (1, 'one'), (2, 'two')`);
    });
    const plant = configFromUrl('mysql', MYSQL_URL, { database });
    const plantId = await createConnection(server, token, {
      name: 'Plant',
      type: 'mysql',
      settings: { ...plant.settings, ...plant.secrets },
    });
    const lakeId = await createConnection(server, token, { name: 'Lake from the plant', type: 'embedded', settings: { database: lake } });
    workflow = await createWorkflow(server, { name: 'Plant items', pairId: await createPair(server, token, plantId, lakeId) });
  });
  afterAll(async () => {
    await onMysql((connection) => connection.query(`drop database if exists ${database}`));
  });

  it('does not run what an executable comment hides: the copy reads the re-printed query', async () => {
    const query = `select id /*! , @@datadir as dir, load_file('/etc/passwd') as secret */ from ${database}.items order by id`;
    const outcome = await runTask(
      server,
      copyTask({ from: { query }, to: { table: 'public.plant_items', mode: 'create' } }),
      recordingContext(server, workflow),
    );
    expect(outcome).toEqual({ rowsRead: 2, rowsWritten: 2 });
    expect((await embeddedSource(server, lake).columns('public.plant_items')).map((column) => column.name)).toEqual(['id']);
  });

  it('fails a copy whose query the check refuses', async () => {
    const message = await failureOf(
      runTask(
        server,
        copyTask({
          from: { query: `select * from ${database}.items) q0 union select load_file('/etc/passwd') from (select 1` },
          to: { table: 'public.escaped', mode: 'create' },
        }),
        recordingContext(server, workflow),
      ),
    );
    expect(message).toMatch(/^from\.query: The query cannot be read: unexpected "\)" \(line 1, position \d+\)$/);
  });
});
