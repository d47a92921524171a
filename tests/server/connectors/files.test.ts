import { mkdir, mkdtemp, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetWriteFile, schemaFromColumnData } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFilesConnector, type FilesLimits } from '../../../server/connectors/files';
import type { Places } from '../../../server/connectors/company-places';
import type { FileTableSource } from '../../../server/connectors/tabular';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { connectorFailure as failure, TEST_COMPANY_ID } from './test-context';

/**
 * The folder under test is the company's own sub-folder of a folder the operator grants
 * (FILES_ROOTS): `<granted>/<companyId>/exports`.
 */

let base: string;
let granted: string;
let dataDir: string;
let folder: string;
let outside: string;
let places: Places;
let source: FileTableSource;

const filesConfig = (folderPath: string, companyId = TEST_COMPANY_ID): ConnectionConfig => ({
  companyId,
  type: 'files',
  settings: { path: folderPath },
  secrets: {},
});
const open = (folderPath: string, limits: Partial<FilesLimits> = {}, companyId = TEST_COMPANY_ID) =>
  openFilesConnector(filesConfig(folderPath, companyId), { places, limits });
const QUERY = { timeoutMs: 10_000, readOnly: true };

/** The customers CSV: a byte-order mark, \r\n line ends, quoted fields with commas, quotes and a line break, empty cells. */
const CUSTOMERS =
  '\uFEFFid,name,balance,active,signed_up,last_seen,note\r\n' +
  '1,"Smith, Anna",10.5,true,2024-01-02,2024-01-02 10:00:00,plain\r\n' +
  '2,"Bob ""the builder""",7,false,2024-02-03,2024-02-03T11:30:00,"two\r\nlines"\r\n' +
  '3,Chloé,,TRUE,2024-03-04,,\r\n';

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'files-connector-'));
  granted = path.join(base, 'granted');
  dataDir = path.join(base, 'data');
  places = { dataDir, filesRoots: [granted] };
  folder = path.join(granted, TEST_COMPANY_ID, 'exports');
  outside = path.join(base, 'elsewhere');
  await mkdir(path.join(folder, 'sales', '2024'), { recursive: true });
  await mkdir(path.join(folder, 'a', 'b', 'c', 'd', 'e', 'f'), { recursive: true });
  await mkdir(outside, { recursive: true });

  await writeFile(path.join(folder, 'customers.csv'), CUSTOMERS);
  await writeFile(path.join(folder, 'readme.txt'), 'not data');
  await writeFile(path.join(folder, 'sales', '2024', 'orders.csv'), ordersCsv(1200, { badAt: [1100, 1150] }));
  await writeFile(path.join(folder, 'a', 'b', 'c', 'd', 'e', 'five-deep.csv'), 'x\n1\n');
  await writeFile(path.join(folder, 'a', 'b', 'c', 'd', 'e', 'f', 'six-deep.csv'), 'x\n1\n');
  const productColumns = [
    { name: 'sku', data: [101, 102, 103], type: 'INT32' as const, nullable: false },
    { name: 'title', data: ['Pen', null, 'Ink'], type: 'STRING' as const },
    { name: 'price', data: [1.25, 2.5, null], type: 'DOUBLE' as const },
    { name: 'in_stock', data: [true, false, true], type: 'BOOLEAN' as const },
    { name: 'updated_at', data: [new Date('2024-05-06T07:08:09Z'), null, new Date('2024-01-01T00:00:00Z')], type: 'TIMESTAMP' as const },
    { name: 'stock_units', data: [9007199254740993n, 5n, null], type: 'INT64' as const },
    { name: 'attributes', data: [{ colour: 'blue' }, null, { sizes: [1, 2] }], type: 'JSON' as const },
    { name: 'launched', data: [new Date('2023-03-01'), new Date('2023-04-01'), null] },
  ];
  parquetWriteFile({
    filename: path.join(folder, 'sales', 'products.parquet'),
    columnData: productColumns.map(({ name, data }) => ({ name, data })),
    schema: schemaFromColumnData({
      columnData: productColumns,
      schemaOverrides: { launched: { name: 'launched', type: 'INT32', converted_type: 'DATE', repetition_type: 'OPTIONAL' } },
    }),
  });

  await writeFile(path.join(outside, 'secret.csv'), 'password\nhunter2\n');
  await symlink(path.join(outside, 'secret.csv'), path.join(folder, 'leak.csv'));
  await symlink(outside, path.join(folder, 'leak-folder'));
  await symlink(path.join(folder, 'customers.csv'), path.join(folder, 'sales', 'customers-link.csv'));

  source = open(folder);
});

afterAll(async () => {
  await source?.close();
  await rm(base, { recursive: true, force: true });
});

/** `id,amount,day` rows; the rows at `badAt` (1-based) hold values that fit no type of their column. */
function ordersCsv(rows: number, { badAt = [] as number[] } = {}): string {
  const lines = ['id,amount,day'];
  for (let i = 1; i <= rows; i += 1)
    lines.push(badAt.includes(i) ? `${i}x,lots,someday` : `${i},${(i * 1.5).toFixed(2)},2024-01-${String((i % 28) + 1).padStart(2, '0')}`);
  return lines.join('\n') + '\n';
}

describe('the folder', () => {
  it('tests by counting the CSV and Parquet files the server can reach', async () => {
    const result = await source.test();
    // customers, orders, products, five-deep, the link inside the folder; not the link leaving it, not six-deep.
    expect(result.detail).toBe('5 CSV and Parquet files');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('says a missing folder does not exist, naming it', async () => {
    const missing = path.join(granted, TEST_COMPANY_ID, 'nowhere');
    const error = await failure(open(missing).test());
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`The folder ${missing} does not exist`);
  });

  it('says a file is not a folder', async () => {
    const file = path.join(folder, 'readme.txt');
    const error = await failure(open(file).endpoints());
    expect(error.message).toBe(`${file} is not a folder`);
  });
});

describe('where the folder may be', () => {
  const OTHER_COMPANY_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const instead = () =>
    `Give a folder relative to this company's data folder, or one under ${path.join(granted, TEST_COMPANY_ID)}/ (FILES_ROOTS)`;
  /** Opening and listing: a refusal may come at either. */
  const listing = (folderPath: string, placesOf: Places = places, companyId = TEST_COMPANY_ID) =>
    failure(Promise.resolve().then(() => openFilesConnector(filesConfig(folderPath, companyId), { places: placesOf }).endpoints()));

  it("refuses the machine's own folders, climbing paths, file:// URLs and NUL before reading anything", async () => {
    const refusals: Array<[string, string]> = [
      ['/', 'this server does not let companies read /'],
      ['/etc', 'this server does not let companies read /etc'],
      [outside, `this server does not let companies read ${outside}`],
      [granted, `this server does not let companies read ${granted}`],
      [path.join(dataDir, 'pglite'), `this server does not let companies read ${path.join(dataDir, 'pglite')}`],
      ['../x', 'this server does not let companies use ".." in a path ("../x")'],
      ['exports/../../x', 'this server does not let companies use ".." in a path ("exports/../../x")'],
      [
        `${folder}/../../${OTHER_COMPANY_ID}`,
        `this server does not let companies use ".." in a path (${JSON.stringify(`${folder}/../../${OTHER_COMPANY_ID}`)})`,
      ],
      ['file:///tmp/x', 'this server does not let companies read file:// URLs ("file:///tmp/x")'],
      [`${folder}\0`, 'a path may not hold a NUL character'],
    ];
    for (const [written, why] of refusals) {
      const error = await listing(written);
      expect(error.kind).toBe('refused');
      expect(error.message).toBe(`settings.path: ${why}. ${instead()}`);
    }
  });

  it('says an operator can grant folders when none is granted', async () => {
    const error = await listing('/srv/exports', { dataDir, filesRoots: [] });
    expect(error.message).toBe(
      "settings.path: this server does not let companies read /srv/exports. Give a folder relative to this company's data folder; an operator can grant folders with FILES_ROOTS",
    );
  });

  it('refuses a folder that leads out through a link, at every listing', async () => {
    const linked = path.join(granted, TEST_COMPANY_ID, 'linked');
    await symlink(outside, linked);
    const error = await listing(linked);
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(
      `settings.path: ${linked} leads through a symbolic link out of the folders this company may read. ${instead()}`,
    );

    // A folder that was fine when the connection was opened, then replaced by a link.
    const changing = path.join(granted, TEST_COMPANY_ID, 'changing');
    await mkdir(changing, { recursive: true });
    await writeFile(path.join(changing, 'ok.csv'), 'n\n1\n');
    const connector = open(changing);
    try {
      expect((await connector.endpoints()).map((endpoint) => endpoint.id)).toEqual(['ok.csv']);
      await rm(changing, { recursive: true });
      await symlink(outside, changing);
      expect((await failure(connector.endpoints())).kind).toBe('refused');
      expect((await failure(connector.columns('secret.csv'))).kind).toBe('refused');
    } finally {
      await connector.close();
    }
  });

  it("answers another company's sub-folder as a missing folder, whether it exists or not", async () => {
    const theirs = path.join(granted, OTHER_COMPANY_ID, 'exports');
    await mkdir(theirs, { recursive: true });
    await writeFile(path.join(theirs, 'payroll.csv'), 'name,salary\nAna,1\n');
    const existing = await listing(theirs);
    expect(existing.kind).toBe('not_found');
    expect(existing.message).toBe(`settings.path: the folder ${theirs} does not exist`);
    const missing = await listing(path.join(granted, OTHER_COMPANY_ID, 'nothing'));
    expect(missing.message).toBe(`settings.path: the folder ${path.join(granted, OTHER_COMPANY_ID, 'nothing')} does not exist`);
    // Their own company reads it.
    expect(
      (await openFilesConnector(filesConfig(theirs, OTHER_COMPANY_ID), { places }).endpoints()).map((endpoint) => endpoint.id),
    ).toEqual(['payroll.csv']);
  });

  it("lists and queries a folder relative to the company's data folder, named as the company wrote it", async () => {
    const daily = path.join(dataDir, 'companies', TEST_COMPANY_ID, 'files', 'daily');
    await mkdir(daily, { recursive: true });
    await writeFile(path.join(daily, 'visits.csv'), 'day,visits\n2024-01-01,3\n2024-01-02,4\n');
    const relative = open('daily/');
    try {
      expect((await relative.endpoints()).map((endpoint) => endpoint.id)).toEqual(['visits.csv']);
      const [total] = await relative.query<{ visits: number }>('select sum(visits)::int as visits from "visits.csv"', [], QUERY);
      expect(total!.visits).toBe(7);
    } finally {
      await relative.close();
    }
    expect((await failure(open('nowhere').test())).message).toBe('The folder nowhere does not exist');
  });

  it('takes no relative folder without a data directory', async () => {
    const error = await listing('daily', { filesRoots: [granted] });
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(
      `settings.path: this server keeps no data folder, so "daily" names nothing. Give one under ${path.join(granted, TEST_COMPANY_ID)}/ (FILES_ROOTS)`,
    );
  });
});

describe('endpoints', () => {
  it('lists the data files of the folder and its sub-folders, five levels deep, by their path in the folder', async () => {
    const endpoints = await source.endpoints();
    expect(endpoints.map((endpoint) => endpoint.id)).toEqual([
      'a/b/c/d/e/five-deep.csv',
      'customers.csv',
      'sales/2024/orders.csv',
      'sales/customers-link.csv',
      'sales/products.parquet',
    ]);
    const orders = endpoints.find((endpoint) => endpoint.id === 'sales/2024/orders.csv');
    expect(orders).toEqual({
      id: 'sales/2024/orders.csv',
      name: 'orders.csv',
      kind: 'file',
      format: 'csv',
      group: 'sales/2024',
      size: (await stat(path.join(folder, 'sales', '2024', 'orders.csv'))).size,
    });
    expect(endpoints.find((endpoint) => endpoint.id === 'sales/products.parquet')?.format).toBe('parquet');
    expect(endpoints.find((endpoint) => endpoint.id === 'customers.csv')?.group).toBeUndefined();
  });

  it('stops at the most files it may list', async () => {
    const capped = open(folder, { maxFiles: 2 });
    expect((await capped.endpoints()).map((endpoint) => endpoint.id)).toEqual(['a/b/c/d/e/five-deep.csv', 'customers.csv']);
  });
});

describe('columns', () => {
  it('reads a CSV header and types its columns from the rows, through quotes, line breaks, a BOM and \\r\\n', async () => {
    expect(await source.columns('customers.csv')).toEqual([
      { name: 'id', dataType: 'integer', nullable: false, position: 1 },
      { name: 'name', dataType: 'text', nullable: false, position: 2 },
      { name: 'balance', dataType: 'numeric', nullable: true, position: 3 },
      { name: 'active', dataType: 'boolean', nullable: false, position: 4 },
      { name: 'signed_up', dataType: 'date', nullable: false, position: 5 },
      { name: 'last_seen', dataType: 'timestamp', nullable: true, position: 6 },
      { name: 'note', dataType: 'text', nullable: true, position: 7 },
    ]);
  });

  it('types from the first 1,000 rows only', async () => {
    // Rows 1100 and 1150 hold text, but the first thousand are numbers and dates.
    expect((await source.columns('sales/2024/orders.csv')).map((column) => column.dataType)).toEqual(['integer', 'numeric', 'date']);
  });

  it('reads a Parquet file from its schema', async () => {
    expect(await source.columns('sales/products.parquet')).toEqual([
      { name: 'sku', dataType: 'integer', nullable: false, position: 1 },
      { name: 'title', dataType: 'text', nullable: true, position: 2 },
      { name: 'price', dataType: 'double precision', nullable: true, position: 3 },
      { name: 'in_stock', dataType: 'boolean', nullable: true, position: 4 },
      { name: 'updated_at', dataType: 'timestamp with time zone', nullable: true, position: 5 },
      { name: 'stock_units', dataType: 'bigint', nullable: true, position: 6 },
      { name: 'attributes', dataType: 'jsonb', nullable: true, position: 7 },
      { name: 'launched', dataType: 'date', nullable: true, position: 8 },
    ]);
  });

  it('refuses a path that climbs out of the folder', async () => {
    const error = await failure(source.columns('../elsewhere/secret.csv'));
    expect(error.kind).toBe('invalid');
    expect(error.message).toBe(`"../elsewhere/secret.csv" is not a CSV or Parquet file of the folder ${folder}`);
    expect((await failure(source.columns('sales/../../elsewhere/secret.csv'))).kind).toBe('invalid');
    expect((await failure(source.columns(path.join(outside, 'secret.csv')))).kind).toBe('invalid');
  });

  it('does not follow a link that leaves the folder', async () => {
    const error = await failure(source.columns('leak.csv'));
    expect(error.message).toBe(`"leak.csv" leads outside the folder ${folder}`);
    expect((await failure(source.columns('leak-folder/secret.csv'))).message).toBe(
      `"leak-folder/secret.csv" leads outside the folder ${folder}`,
    );
  });

  it('follows a link that stays inside the folder', async () => {
    expect((await source.columns('sales/customers-link.csv')).map((column) => column.name)).toContain('signed_up');
  });

  it('says a missing file does not exist', async () => {
    const error = await failure(source.columns('sales/missing.csv'));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`"sales/missing.csv" in the folder ${folder} does not exist`);
  });

  it('says what is wrong with a malformed CSV, with its line', async () => {
    await writeFile(path.join(folder, 'ragged.csv'), 'a,b\n1,2\n3\n');
    const error = await failure(source.columns('ragged.csv'));
    expect(error.message).toMatch(/^"ragged.csv": Invalid Record Length: .*line 3/);
  });
});

describe('querying a file with SQL', () => {
  it('loads a CSV into a table typed as discovered and answers SQL about it', async () => {
    const table = source.tableName('customers.csv');
    expect(table).toBe('"customers.csv"');
    const rows = await source.query(`select id, name, balance, active, signed_up, last_seen, note from ${table} order by id`, [], QUERY);
    expect(rows).toEqual([
      {
        id: 1,
        name: 'Smith, Anna',
        balance: '10.5',
        active: true,
        signed_up: '2024-01-02',
        last_seen: '2024-01-02 10:00:00',
        note: 'plain',
      },
      {
        id: 2,
        name: 'Bob "the builder"',
        balance: '7',
        active: false,
        signed_up: '2024-02-03',
        last_seen: '2024-02-03 11:30:00',
        note: 'two\r\nlines',
      },
      { id: 3, name: 'Chloé', balance: null, active: true, signed_up: '2024-03-04', last_seen: null, note: null },
    ]);
    const [filtered] = await source.query<{ n: number }>(`select count(*)::int as n from ${table} where balance > $1`, [8], QUERY);
    expect(filtered!.n).toBe(1);
  });

  it('loads values that do not fit their column as null, and says how many', async () => {
    const report = await source.materialise('sales/2024/orders.csv');
    expect(report.rows).toBe(1200);
    expect(report.valuesReadAsNull).toEqual({ id: 2, amount: 2, day: 2 });
    const [counts] = await source.query<{ rows: number; ids: number; total: string }>(
      `select count(*)::int as rows, count(id)::int as ids, sum(amount)::text as total from ${source.tableName('sales/2024/orders.csv')}`,
      [],
      QUERY,
    );
    expect(counts).toEqual({ rows: 1200, ids: 1198, total: String(((1200 * 1201) / 2 - 1100 - 1150) * 1.5 + '.00') });
  });

  it('loads a Parquet file with its types', async () => {
    const rows = await source.query(
      `select sku, title, price, in_stock, updated_at, stock_units::text as units, attributes, launched from ${source.tableName('sales/products.parquet')} order by sku`,
      [],
      QUERY,
    );
    expect(rows).toEqual([
      {
        sku: 101,
        title: 'Pen',
        price: 1.25,
        in_stock: true,
        updated_at: '2024-05-06 07:08:09+00',
        units: '9007199254740993',
        attributes: { colour: 'blue' },
        launched: '2023-03-01',
      },
      { sku: 102, title: null, price: 2.5, in_stock: false, updated_at: null, units: '5', attributes: null, launched: '2023-04-01' },
      {
        sku: 103,
        title: 'Ink',
        price: null,
        in_stock: true,
        updated_at: '2024-01-01 00:00:00+00',
        units: null,
        attributes: { sizes: [1, 2] },
        launched: null,
      },
    ]);
  });

  it('finds the files a statement names by their path, and joins them', async () => {
    const rows = await source.query<{ name: string; orders: number }>(
      'select c.name, count(o.id)::int as orders from "customers.csv" c join "sales/2024/orders.csv" o on o.id = c.id group by c.name order by c.name',
      [],
      QUERY,
    );
    expect(rows).toEqual([
      { name: 'Bob "the builder"', orders: 1 },
      { name: 'Chloé', orders: 1 },
      { name: 'Smith, Anna', orders: 1 },
    ]);
  });

  it('names a file with a long path by a shortened name that still reaches it', async () => {
    const longFolder = 'a-folder-with-a-rather-long-name/and-another-long-sub-folder-name';
    await mkdir(path.join(folder, longFolder), { recursive: true });
    await writeFile(path.join(folder, longFolder, 'numbers.csv'), 'n\n1\n2\n3\n');
    const table = source.tableName(`${longFolder}/numbers.csv`);
    expect(Buffer.byteLength(table)).toBeLessThanOrEqual(65);
    const [sum] = await source.query<{ total: number }>(`select sum(n)::int as total from ${table}`, [], QUERY);
    expect(sum!.total).toBe(6);
  });

  it('rejects a statement that writes in a read-only query, and never changes the file otherwise', async () => {
    const table = source.tableName('customers.csv');
    const error = await failure(source.query(`delete from ${table}`, [], QUERY));
    expect(error.kind).toBe('read_only');
    expect(error.message).toBe('cannot execute DELETE in a read-only transaction');
    await source.query(`delete from ${table}`, [], { timeoutMs: 10_000 });
    const [left] = await source.query<{ n: number }>(`select count(*)::int as n from ${table}`, [], QUERY);
    expect(left!.n).toBe(3);
  });

  it('reads back at most maxRows rows', async () => {
    const rows = await source.query(`select id from ${source.tableName('sales/2024/orders.csv')}`, [], { ...QUERY, maxRows: 5 });
    expect(rows).toHaveLength(5);
  });

  it("answers in PostgreSQL's words when a statement is wrong", async () => {
    const error = await failure(source.query('select nope from "customers.csv"', [], QUERY));
    expect(error.message).toBe('column "nope" does not exist');
    expect((await failure(source.query('select * from "missing.csv"', [], QUERY))).kind).toBe('not_found');
  });

  it('answers a statement that outlasts its deadline with a timeout', async () => {
    const error = await failure(source.query('select count(*) from generate_series(1, 3000000)', [], { timeoutMs: 100, readOnly: true }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('The query did not finish within 0.1 s');
  });
});

describe('bounds and the cache', () => {
  it('refuses a file over the size limit, saying so', async () => {
    const small = open(folder, { maxBytes: 1024 });
    try {
      const size = (await stat(path.join(folder, 'sales', '2024', 'orders.csv'))).size;
      const error = await failure(small.materialise('sales/2024/orders.csv'));
      expect(error.message).toBe(`"sales/2024/orders.csv" is ${(size / 1024).toFixed(1)} KB, over the 1.0 KB limit for querying a file`);
      // The same refusal when a statement names the file.
      expect((await failure(small.query('select count(*) from "sales/2024/orders.csv"', [], QUERY))).message).toMatch(
        /over the 1.0 KB limit/,
      );
    } finally {
      await small.close();
    }
  });

  it('refuses a file with too many rows, CSV or Parquet', async () => {
    const short = open(folder, { maxRows: 2 });
    try {
      expect((await failure(short.materialise('customers.csv'))).message).toBe(
        '"customers.csv" has more than 2 rows, the most a file may have to be queried',
      );
      expect((await failure(short.materialise('sales/products.parquet'))).message).toBe(
        '"sales/products.parquet" has more than 2 rows, the most a file may have to be queried',
      );
      // A statement naming the file meets the same refusal, and the refused loads left no table behind.
      expect((await failure(short.query('select * from "customers.csv"', [], QUERY))).message).toMatch(/has more than 2 rows/);
      expect(await short.query("select tablename from pg_tables where schemaname = 'public'", [], QUERY)).toEqual([]);
    } finally {
      await short.close();
    }
  });

  it('reuses the table while the file keeps its size and time, and reloads it when the file changes', async () => {
    const file = path.join(folder, 'changing.csv');
    const noon = new Date('2024-06-01T12:00:00Z');
    await writeFile(file, 'n\n1\n2\n');
    await utimes(file, noon, noon);
    const cached = open(folder);
    const total = async () =>
      (await cached.query<{ total: number }>('select sum(n)::int as total from "changing.csv"', [], QUERY))[0]!.total;
    try {
      expect(await total()).toBe(3);
      // Same size and modification time: the table loaded before still answers.
      await writeFile(file, 'n\n7\n8\n');
      await utimes(file, noon, noon);
      expect(await total()).toBe(3);
      // A new modification time: the file is read again.
      await utimes(file, noon, new Date(noon.getTime() + 5000));
      expect(await total()).toBe(15);
      await writeFile(file, 'n\n100\n200\n300\n');
      expect(await total()).toBe(600);
    } finally {
      await cached.close();
    }
  });
});
