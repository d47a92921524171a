import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeEmbeddedDatabases } from '../../server/connectors/embedded';
import { isTableSource, type TableSource } from '../../server/connectors/types';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany } from './helpers';

/**
 * One company's slow statement on its embedded database never holds the server: while it sleeps,
 * the health check and another company's lists answer as usual; and a statement past its limit is
 * answered at the limit, not when it would have ended.
 */

let server: TestServer;
let otherToken: string;
let slow: TableSource;

beforeAll(async () => {
  // On disk, by company, as a server keeps them.
  server = await createTestServer({}, { embeddedOnDisk: true });
  otherToken = (await createOtherCompany(server)).adminToken;
  const connector = server.app.ctx.connectors.open({
    companyId: server.company.companyId,
    type: 'embedded',
    settings: { database: 'slow' },
    secrets: {},
  });
  if (!isTableSource(connector)) throw new Error('an embedded database is a table source');
  slow = connector;
  // Created before the clock starts.
  await slow.test();
}, 120_000);

afterAll(async () => {
  await closeEmbeddedDatabases();
  await server?.close();
});

/** Each call's time, one call after another. */
async function timedCalls(count: number, make: () => Promise<{ statusCode: number }>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const res = await make();
    times.push(performance.now() - started);
    expect(res.statusCode).toBe(200);
  }
  return times;
}

describe('a company’s sleeping statement on its embedded database', () => {
  it('leaves /health and another company’s lists answering, each within a second', async () => {
    const startedAt = performance.now();
    const sleeping = slow.query('select pg_sleep(30) as slept', [], { timeoutMs: 60_000 });
    // The statement is under way before the calls start.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const health = await timedCalls(100, () => call(server, 'GET', '/health'));
    const users = await timedCalls(100, () => call(server, 'GET', '/users/0/10', { token: otherToken }));
    expect(Math.max(...health)).toBeLessThan(1000);
    expect(Math.max(...users)).toBeLessThan(1000);
    // Every call was made while the statement slept.
    expect(performance.now() - startedAt).toBeLessThan(30_000);
    // Within its limit, the statement ends as it would have.
    expect(await sleeping).toEqual([{ slept: '' }]);
  }, 45_000);

  it('is answered as a timeout at its limit, not when it would have ended', async () => {
    const started = performance.now();
    const error = await slow.query('select pg_sleep(30)', [], { timeoutMs: 2000 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    const ms = performance.now() - started;
    expect(error).toMatchObject({ kind: 'timeout', message: 'The statement took longer than 2 s' });
    expect(ms).toBeGreaterThanOrEqual(1900);
    expect(ms).toBeLessThan(5000);
    expect(await slow.query('select 1 as one', [], { timeoutMs: 30_000 })).toEqual([{ one: 1 }]);
  }, 45_000);
});
