import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTableSource, type FileStorage, type FileTableSource, type TabularFile } from '../../../server/connectors/tabular';
import { ConnectorError } from '../../../server/connectors/types';

/**
 * Files queried with SQL are loaded into a PGlite of the connection's own, in a worker thread: a
 * statement past its limit is stopped there (the server's thread never waits for it), and the
 * files are simply loaded again by the next statement.
 */

/** Files held in memory, each load of one counted. */
function memoryStorage(files: Record<string, string>) {
  const opened: string[] = [];
  const storage: FileStorage = {
    async test() {
      return { latencyMs: 0, detail: 'memory' };
    },
    async endpoints() {
      return Object.keys(files).map((id) => ({ id, name: id, kind: 'file' as const, format: 'csv' }));
    },
    async close() {},
    async locate(endpoint): Promise<TabularFile> {
      const content = files[endpoint];
      if (content === undefined) throw new ConnectorError(`"${endpoint}" does not exist`, 'not_found');
      return {
        endpoint,
        format: 'csv',
        size: Buffer.byteLength(content),
        version: 'v1',
        async openStream() {
          opened.push(endpoint);
          return Readable.from([content]);
        },
        async openRandomAccess() {
          throw new Error('CSV files are read as a stream');
        },
      };
    },
  };
  return { storage, opened };
}

const ORDERS = 'id,amount\n' + Array.from({ length: 500 }, (_, i) => `${i + 1},${(i % 7) + 0.5}`).join('\n') + '\n';

let source: FileTableSource | undefined;

afterEach(async () => {
  await source?.close();
  source = undefined;
});

describe('a statement on files past its limit', () => {
  it('is stopped without holding the server’s thread, and the next statement loads the file again', async () => {
    const { storage, opened } = memoryStorage({ 'orders.csv': ORDERS });
    source = fileTableSource(storage);
    const table = source.tableName('orders.csv');
    expect(await source.query(`select count(*)::int as n from ${table}`, [], { timeoutMs: 30_000, readOnly: true })).toEqual([{ n: 500 }]);
    expect(opened).toEqual(['orders.csv']);

    let last = performance.now();
    let stallMs = 0;
    const ticking = setInterval(() => {
      stallMs = Math.max(stallMs, performance.now() - last);
      last = performance.now();
    }, 10);
    const started = performance.now();
    const error = await source
      .query(`select count(*) from ${table} cross join generate_series(1, 1e9)`, [], { timeoutMs: 1000, readOnly: true })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    const ms = performance.now() - started;
    clearInterval(ticking);
    expect(error).toMatchObject({ kind: 'timeout', message: 'The query did not finish within 1 s' });
    // Five hundred billion rows: stopped, not waited for.
    expect(ms).toBeLessThan(3000);
    expect(stallMs).toBeLessThan(500);

    // The loaded table went with the stopped thread: loaded again, and answered.
    expect(await source.query(`select sum(amount)::text as total from ${table}`, [], { timeoutMs: 30_000, readOnly: true })).toEqual([
      { total: '1744.0' },
    ]);
    expect(opened).toEqual(['orders.csv', 'orders.csv']);
  }, 60_000);

  it('still refuses writes and keeps nothing a statement changed', async () => {
    const { storage } = memoryStorage({ 'orders.csv': ORDERS });
    source = fileTableSource(storage);
    const table = source.tableName('orders.csv');
    const error = await source.query(`delete from ${table}`, [], { timeoutMs: 30_000, readOnly: true }).catch((err: unknown) => err);
    expect(error).toMatchObject({ kind: 'read_only', message: 'cannot execute DELETE in a read-only transaction' });
    await source.query(`delete from ${table}`, [], { timeoutMs: 30_000 });
    expect(await source.query(`select count(*)::int as n from ${table}`, [], { timeoutMs: 30_000, readOnly: true })).toEqual([{ n: 500 }]);
  }, 60_000);

  it('reads a statement’s rows in batches, and a canceled read stops its statement', async () => {
    const { storage } = memoryStorage({ 'orders.csv': ORDERS });
    source = fileTableSource(storage);
    const table = source.tableName('orders.csv');
    const batches: number[] = [];
    await source.readRows(
      `select id from ${table} order by id`,
      [],
      { batchSize: 200 },
      {
        async start() {},
        async write(batch) {
          batches.push(batch.format === 'values' ? batch.rows.length : batch.rowCount);
        },
      },
    );
    expect(batches).toEqual([200, 200, 100]);

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('The run was canceled')), 500);
    const started = performance.now();
    const sink = { start: async () => {}, write: async () => {} };
    const error = await source
      .readRows(`select count(*) from ${table} cross join generate_series(1, 1e9)`, [], { batchSize: 10, signal: controller.signal }, sink)
      .catch((err: unknown) => err);
    expect((error as Error).message).toBe('The run was canceled');
    expect(performance.now() - started).toBeLessThan(3000);
  }, 60_000);
});
