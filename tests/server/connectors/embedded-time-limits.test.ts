import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeEmbeddedDatabases, openEmbeddedConnector } from '../../../server/connectors/embedded';
import { ConnectorError } from '../../../server/connectors/types';
import { TEST_COMPANY_ID, testConnectorContext } from './test-context';

/**
 * An embedded database's statements run off the server's thread, and one that outlives its time
 * limit (or whose run is canceled) is stopped there and then, its thread with it: the server keeps
 * answering meanwhile, and the database answers the next statement as of its last commit.
 */

let dataDir: string;
const quick = { timeoutMs: 30_000 };

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-limits-'));
});

afterAll(async () => {
  await closeEmbeddedDatabases();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const connect = (database: string) =>
  openEmbeddedConnector(
    { companyId: TEST_COMPANY_ID, type: 'embedded', settings: { database }, secrets: {} },
    testConnectorContext({ dataDir }),
  );

async function failureOf(work: Promise<unknown>): Promise<ConnectorError> {
  const error = await work.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error as ConnectorError;
}

/** How late this thread's timers ran while `work` went on: the longest gap between two 10 ms ticks. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number; ms: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticking = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  const started = performance.now();
  try {
    const value = await work();
    return { value, stallMs, ms: performance.now() - started };
  } finally {
    clearInterval(ticking);
  }
}

describe('an embedded statement past its time limit', () => {
  it('is stopped when it computes (CPU-bound), and the server’s thread never waits for it', async () => {
    const source = connect('cpu');
    await source.test();
    const {
      value: error,
      stallMs,
      ms,
    } = await longestStall(() => failureOf(source.query('select count(*) from generate_series(1, 1e9)', [], { timeoutMs: 1000 })));
    expect(error).toMatchObject({ kind: 'timeout', message: 'The statement took longer than 1 s' });
    // A billion rows take minutes: it was stopped, not waited for.
    expect(ms).toBeLessThan(3000);
    expect(stallMs).toBeLessThan(500);
    expect(await source.query('select 41 + 1 as answer', [], quick)).toEqual([{ answer: 42 }]);
  }, 60_000);

  it('is stopped when it sleeps', async () => {
    const source = connect('sleepy');
    await source.test();
    const started = performance.now();
    expect(await failureOf(source.query('select pg_sleep(600)', [], { timeoutMs: 1000 }))).toMatchObject({ kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await source.query('select 1 as one', [], quick)).toEqual([{ one: 1 }]);
  }, 60_000);

  it('leaves the database as of its last commit when stopped in the middle of a long INSERT, and usable', async () => {
    const source = connect('interrupted');
    await source.query('create table facts (n bigint primary key, label text not null)', [], quick);
    await source.query("insert into facts select g, 'committed ' || g from generate_series(1, 1000) g", [], quick);
    const error = await failureOf(
      source.query("insert into facts select g, repeat('x', 100) from generate_series(1001, 100000000) g", [], { timeoutMs: 1500 }),
    );
    expect(error).toMatchObject({ kind: 'timeout', message: 'The statement took longer than 1.5 s' });
    expect(await source.query('select count(*)::int as n, max(n)::int as top from facts', [], quick)).toEqual([{ n: 1000, top: 1000 }]);
    // The primary key's index agrees with the table, and the database takes writes again.
    expect(await source.query('select count(*)::int as n from facts where n between 990 and 1010', [], quick)).toEqual([{ n: 11 }]);
    await source.query("insert into facts values (1001, 'after')", [], quick);
    // And keeps them through a close (a checkpoint) and a reopen.
    await closeEmbeddedDatabases();
    expect(await connect('interrupted').query('select count(*)::int as n from facts', [], quick)).toEqual([{ n: 1001 }]);
  }, 120_000);

  it('does not take the statements queued behind it down with it', async () => {
    const source = connect('queued');
    await source.query('create table marks (n integer)', [], quick);
    const stopped = failureOf(source.query('select pg_sleep(600)', [], { timeoutMs: 800 }));
    const next = source.query('insert into marks values (1) returning n', [], quick);
    expect((await stopped).kind).toBe('timeout');
    expect(await next).toEqual([{ n: 1 }]);
  }, 60_000);
});

describe('canceling work without a time limit of its own', () => {
  it('stops a script’s statement under way', async () => {
    const source = connect('script');
    await source.test();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('The run was canceled')), 500);
    const started = performance.now();
    const error = await failureOf(
      source.runStatements(['select pg_sleep(600)', 'create table never_made (n integer)'], { signal: controller.signal }),
    );
    expect(error.message).toBe('The run was canceled');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await source.query("select to_regclass('never_made') is null as absent", [], quick)).toEqual([{ absent: true }]);
  }, 60_000);

  it('stops a copy’s read while the query runs', async () => {
    const source = connect('copy');
    await source.test();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('The run was canceled')), 500);
    const started = performance.now();
    const sink = { start: async () => {}, write: async () => {} };
    const error = await failureOf(
      source.readRows('select g from generate_series(1, 1e9) g order by g desc', [], { batchSize: 1000, signal: controller.signal }, sink),
    );
    expect(error.message).toBe('The run was canceled');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await source.query('select 1 as one', [], quick)).toEqual([{ one: 1 }]);
  }, 60_000);
});
