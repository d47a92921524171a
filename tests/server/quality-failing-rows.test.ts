import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { qualityFailingRows, qualityResults, qualityRuns, systemAudits } from '../../server/db/schema';
import { onEmbedded } from './embedded-source';
import { purgeExpiredRecords } from '../../server/settings/retention';
import { call, createOtherCompany, signInAdmin, snapshot, userWithPolicies } from './helpers';

/**
 * The failing rows a data-quality run keeps (docs/api/tables.md, "Failing rows"): as many as the
 * company's `qualitySampleRows`, masked, paged, exported as CSV, scoped to the company, and
 * deleted with their run.
 */

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let tableId: string;
let ruleId: string;

const sql = (database: string, statements: string[]) => onEmbedded(server, database, statements);

const runChecks = async () => {
  const res = await call(server, 'POST', `/table/${tableId}/configure`, { token: adminToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; results: Array<{ ruleId: string; rowsFailed: number; sample: unknown[] }> };
};
const rowsPage = (runId: string, offset: number, limit: number, token = reader.token, rule = ruleId) =>
  call(server, 'GET', `/table/quality/run/${runId}/failingRows/${rule}/${offset}/${limit}`, { token });

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'rows.reader@acme.test', [{ resource: 'tables', actions: ['read'] }]);
  const database = `rows-${crypto.randomBytes(4).toString('hex')}`;
  const made = await call(server, 'POST', '/connections', {
    token: adminToken,
    body: { name: 'Rows', type: 'embedded', settings: { database } },
  });
  expect(made.statusCode, made.body).toBe(201);
  // 60 payments without an amount, 5 with one; the payer's email is personal data.
  await sql(database, [
    'create table public.payments (id int primary key, payer text, amount numeric)',
    "insert into public.payments select n, 'payer' || n || '@example.test', case when n > 60 then n end from generate_series(1, 65) n",
  ]);
  const table = await call(server, 'POST', '/table', {
    token: adminToken,
    body: { connectionId: made.json().data.id, endpoint: 'public.payments' },
  });
  expect(table.statusCode, table.body).toBe(201);
  tableId = table.json().data.id;
  await call(server, 'PUT', `/table/${tableId}`, { token: adminToken, body: { columns: [{ name: 'payer', sensitivity: 'pii' }] } });
  const rule = await call(server, 'POST', `/table/dataQuality/${tableId}`, {
    token: adminToken,
    body: { name: 'amount not null', functionName: 'not_null', columnName: 'amount', severity: 'fail' },
  });
  expect(rule.statusCode, rule.body).toBe(201);
  ruleId = rule.json().data.id;
});
afterAll(async () => server?.close());

describe('the failing rows of a run', () => {
  it('keeps 20 rows per rule by default, masked, beside the result', async () => {
    const run = await runChecks();
    const [result] = run.results;
    expect(result).toMatchObject({ ruleId, rowsFailed: 60 });
    expect(result.sample).toHaveLength(20);
    const page = await rowsPage(run.id, 0, 50);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.count).toBe(20);
    expect(page.json().data.rows[0]).toEqual({ id: 1, payer: 'p***', amount: null });
  });

  it('keeps as many as the company setting asks, paged past 20 and read again later', async () => {
    expect((await call(server, 'PUT', '/settings/service', { token: adminToken, body: { qualitySampleRows: 50 } })).statusCode).toBe(200);
    const run = await runChecks();
    // The result answers its first 20; the run keeps all 50.
    expect(run.results[0].sample).toHaveLength(20);
    const first = (await rowsPage(run.id, 0, 20)).json().data;
    expect(first.count).toBe(50);
    expect(first.rows.map((row: { id: number }) => row.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const last = (await rowsPage(run.id, 40, 20)).json().data;
    expect(last.rows.map((row: { id: number }) => row.id)).toEqual(Array.from({ length: 10 }, (_, i) => i + 41));
    expect(last.rows.every((row: { payer: string }) => row.payer === 'p***')).toBe(true);

    const runs = await call(server, 'GET', `/table/quality/runs/${tableId}/0/10`, { token: reader.token });
    expect(runs.statusCode, runs.body).toBe(200);
    expect(runs.json().data.count).toBe(2);
    expect(runs.json().data.rows[0]).toMatchObject({ id: run.id, tableId, trigger: 'manual', status: 'failed' });
    const one = await call(server, 'GET', `/table/quality/run/${run.id}`, { token: reader.token });
    expect(one.json().data).toMatchObject({ id: run.id, results: [expect.objectContaining({ ruleId, rowsFailed: 60 })] });
  });

  it('exports every kept row as CSV, masked', async () => {
    const [latest] = (await call(server, 'GET', `/table/quality/runs/${tableId}/0/1`, { token: reader.token })).json().data.rows;
    const res = await call(server, 'GET', `/table/quality/run/${latest.id}/failingRows/${ruleId}/csv`, { token: reader.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="amount_not_null-failing-rows.csv"');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,payer,amount');
    expect(lines).toHaveLength(51);
    expect(lines[1]).toBe('1,p***,');
    expect(res.body).not.toContain('@example.test');
  });

  it('refuses a sample size out of bounds, changing nothing', async () => {
    const before = await snapshot(server.db);
    for (const [value, message] of [
      [0, 'qualitySampleRows: must be at least 1'],
      [1001, 'qualitySampleRows: must be at most 1,000'],
      [2.5, 'qualitySampleRows: must be a whole number'],
      ['many', 'qualitySampleRows: must be a number'],
    ] as const) {
      const res = await call(server, 'PUT', '/settings/service', { token: adminToken, body: { qualitySampleRows: value } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    const settings = (await call(server, 'GET', '/settings', { token: adminToken })).json().data;
    const service = (settings.groups ?? settings).find?.((group: { id: string }) => group.id === 'service') ?? settings.service;
    expect(service.values.qualitySampleRows).toBe(50);
    expect(service.defaults.qualitySampleRows).toBe(20);
  });

  it("answers 404 for another company's run, and for a rule the run did not check", async () => {
    const [latest] = (await call(server, 'GET', `/table/quality/runs/${tableId}/0/1`, { token: reader.token })).json().data.rows;
    for (const path of [
      `/table/quality/run/${latest.id}`,
      `/table/quality/run/${latest.id}/failingRows/${ruleId}/0/20`,
      `/table/quality/run/${latest.id}/failingRows/${ruleId}/csv`,
      `/table/quality/runs/${tableId}/0/10`,
    ]) {
      const res = await call(server, 'GET', path, { token: other.adminToken });
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).not.toContain('p***');
    }
    const stranger = await rowsPage(latest.id, 0, 20, reader.token, crypto.randomUUID());
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toMatch(/Data-quality result/);
    expect((await rowsPage(latest.id, 0, 1001)).statusCode).toBe(400);
    expect((await rowsPage('not-a-run', 0, 20)).statusCode).toBe(400);
  });

  it('deletes the failing rows with their run when the company keeps runs for less time', async () => {
    const kept = async () =>
      (await server.db.select().from(qualityFailingRows).where(eq(qualityFailingRows.companyId, server.company.companyId))).length;
    expect(await kept()).toBe(70);
    const runs = await server.db.select({ id: qualityRuns.id }).from(qualityRuns).where(eq(qualityRuns.tableId, tableId));
    const [old] = runs;
    const long = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await server.db.update(qualityRuns).set({ startedAt: long, endedAt: long }).where(eq(qualityRuns.id, old.id));
    await call(server, 'PUT', '/settings/service', { token: adminToken, body: { runRetentionDays: 30 } });
    const report = await purgeExpiredRecords(server.db);
    expect(report).toMatchObject({ qualityRuns: 1, qualityResults: 1 });
    expect(report.qualityFailingRows).toBeGreaterThanOrEqual(20);
    expect(await server.db.select().from(qualityFailingRows).where(eq(qualityFailingRows.runId, old.id))).toEqual([]);
    expect(await server.db.select().from(qualityResults).where(eq(qualityResults.runId, old.id))).toEqual([]);
    expect((await call(server, 'GET', `/table/quality/run/${old.id}`, { token: reader.token })).statusCode).toBe(404);
    // The recent runs keep theirs.
    expect(await kept()).toBe(70 - report.qualityFailingRows);
    const [entry] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, server.company.companyId), eq(systemAudits.operation, 'retention_purge')));
    expect(entry.changes).toMatchObject({ qualityRuns: 1, qualityFailingRows: report.qualityFailingRows });
  });
});
