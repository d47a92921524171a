import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkEmbeddedDatabase,
  closeEmbeddedDatabases,
  openEmbeddedConnector,
  openEmbeddedDatabaseCount,
} from '../../../server/connectors/embedded';
import type { ConnectorContext } from '../../../server/connectors/registry';
import { connectorFailure as failureOf, testConnectorContext } from './test-context';

/** Each company's embedded databases are its own: by place, by number, and by the memory they hold. */

const ACME = '0a0a0a0a-1111-4111-8111-111111111111';
const GLOBEX = '0b0b0b0b-2222-4222-8222-222222222222';
/** Companies of their own for the limits, which count every database a company has. */
const INITECH = '0c0c0c0c-3333-4333-8333-333333333333';
const UMBRELLA = '0d0d0d0d-4444-4444-8444-444444444444';
const quick = { timeoutMs: 20_000 };

let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-companies-'));
});

afterEach(async () => {
  await closeEmbeddedDatabases();
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const onDisk = (overrides: Partial<ConnectorContext['embedded']> = {}) =>
  testConnectorContext({ dataDir, embedded: { maxPerCompany: 10, idleMs: 300_000, ...overrides } });
const connect = (context: ConnectorContext, companyId: string, database: string) =>
  openEmbeddedConnector({ companyId, type: 'embedded', settings: { database }, secrets: {} }, context);

describe('two companies naming the same database', () => {
  it.each([
    ['on disk', () => onDisk()],
    ['in memory', () => testConnectorContext()],
  ])(
    'see each their own data (%s)',
    async (_where, contextOf) => {
      const context = contextOf();
      const ours = connect(context, ACME, 'sample-shop');
      await ours.query('create table customers (name text)', [], quick);
      await ours.query("insert into customers values ('only acme sees me')", [], quick);

      const theirs = connect(context, GLOBEX, 'sample-shop');
      // The same name is another, empty database for the other company: nothing of ours is there.
      expect(await failureOf(theirs.query('select name from customers', [], quick))).toMatchObject({
        kind: 'not_found',
        message: 'relation "customers" does not exist',
      });
      await theirs.query('create table customers (name text)', [], quick);
      await theirs.query("insert into customers values ('globex')", [], quick);

      expect(await ours.query('select name from customers', [], quick)).toEqual([{ name: 'only acme sees me' }]);
      expect(await theirs.query('select name from customers', [], quick)).toEqual([{ name: 'globex' }]);
      if (context.dataDir) {
        expect(fs.readdirSync(path.join(dataDir, 'companies')).sort()).toEqual([ACME, GLOBEX]);
        const folders = fs.readdirSync(path.join(dataDir, 'companies', GLOBEX, 'embedded'), { withFileTypes: true });
        expect(folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name)).toEqual(['sample-shop']);
      }
    },
    120_000,
  );
});

describe('the number of databases a company may have', () => {
  const limit =
    'This company already has 2 embedded databases, the most this server allows (EMBEDDED_DATABASES_PER_COMPANY); use one of them or ask an operator to raise the limit';

  it('refuses one more than the limit, and still opens the ones it has', async () => {
    const context = onDisk({ maxPerCompany: 2 });
    await connect(context, INITECH, 'first').test();
    await connect(context, INITECH, 'second').test();
    const refused = await failureOf(connect(context, INITECH, 'third').test());
    expect(refused).toMatchObject({ kind: 'refused', message: limit });
    expect(fs.existsSync(path.join(dataDir, 'companies', INITECH, 'embedded', 'third'))).toBe(false);
    await expect(checkEmbeddedDatabase(context, INITECH, 'third')).rejects.toMatchObject({ kind: 'refused', message: limit });
    await expect(checkEmbeddedDatabase(context, INITECH, 'first')).resolves.toBeUndefined();
    expect(await connect(context, INITECH, 'first').query('select 1 as one', [], quick)).toEqual([{ one: 1 }]);

    // Counted from the directories too: the same after the server closed them (a restart).
    await closeEmbeddedDatabases();
    await expect(checkEmbeddedDatabase(context, INITECH, 'third')).rejects.toMatchObject({ kind: 'refused', message: limit });
    // Another company counts its own.
    await expect(checkEmbeddedDatabase(context, UMBRELLA, 'third')).resolves.toBeUndefined();
  }, 120_000);

  it('counts databases in memory the same way, and two opened at once cannot both take the last place', async () => {
    const context = testConnectorContext({ embedded: { maxPerCompany: 1, idleMs: 300_000 } });
    const outcomes = await Promise.allSettled([connect(context, UMBRELLA, 'left').test(), connect(context, UMBRELLA, 'right').test()]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refusal.reason).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/^This company already has 1 embedded database, the most/),
    });
    await expect(checkEmbeddedDatabase(context, UMBRELLA, 'other')).rejects.toMatchObject({ kind: 'refused' });
  }, 120_000);

  it('refuses an invalid name when asked before saving', async () => {
    await expect(checkEmbeddedDatabase(onDisk(), ACME, '../escape')).rejects.toMatchObject({ kind: 'invalid' });
  });
});

describe('memory given back', () => {
  async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (condition()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return condition();
  }

  it('closes a database unused for the idle time (its thread ends) and opens it again, data kept, on its next use', async () => {
    const context = onDisk({ idleMs: 300 });
    const source = connect(context, ACME, 'idle');
    await source.query('create table notes (body text)', [], quick);
    await source.query("insert into notes values ('kept')", [], quick);
    expect(openEmbeddedDatabaseCount()).toBe(1);
    expect(await waitFor(() => openEmbeddedDatabaseCount() === 0, 10_000)).toBe(true);
    expect(await source.query('select body from notes', [], quick)).toEqual([{ body: 'kept' }]);
    expect(openEmbeddedDatabaseCount()).toBe(1);
  }, 120_000);

  it('keeps a database open while a read holds its cursor between turns', async () => {
    const context = onDisk({ idleMs: 200 });
    const source = connect(context, ACME, 'reading');
    await source.query('create table numbers as select generate_series(1, 30) as n', [], quick);
    const seen: number[] = [];
    await source.readRows(
      'select n from numbers order by n',
      [],
      { batchSize: 10 },
      {
        async start() {},
        async write(batch) {
          if (batch.format !== 'values') throw new Error('values expected');
          seen.push(...batch.rows.map((row) => Number(row[0])));
          // Longer than the idle time between two batches.
          await new Promise((resolve) => setTimeout(resolve, 600));
        },
      },
    );
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  }, 120_000);

  it('never closes a database in memory for idleness: its data would be lost', async () => {
    const context = testConnectorContext({ embedded: { maxPerCompany: 10, idleMs: 100 } });
    const memory = connect(context, ACME, 'scratch');
    await memory.query('create table t (n integer)', [], quick);
    await memory.query('insert into t values (7)', [], quick);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(openEmbeddedDatabaseCount()).toBe(1);
    expect(await memory.query('select n from t', [], quick)).toEqual([{ n: 7 }]);
  }, 120_000);
});

describe("a new database's files", () => {
  it('are the server account’s alone, whatever PGlite writes them with', async () => {
    const database = connect(onDisk(), UMBRELLA, 'private-files');
    await database.test();
    const open: string[] = [];
    const walk = (folder: string) => {
      for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
        const full = path.join(folder, entry.name);
        if ((fs.lstatSync(full).mode & 0o077) !== 0) open.push(full);
        if (entry.isDirectory()) walk(full);
      }
    };
    walk(path.join(dataDir, 'companies', UMBRELLA, 'embedded', 'private-files'));
    expect(open).toEqual([]);
  }, 60_000);
});
