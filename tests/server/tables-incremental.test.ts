import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { systemAudits } from '../../server/db/schema';
import { onEmbedded } from './embedded-source';
import { call, signInAdmin, snapshot } from './helpers';

/**
 * Incremental and sampled data-quality checks through the API (docs/api/tables.md, "Incremental
 * checks" and "Sampled rules"): a table's watermark column, where each rule's next run starts, the
 * "Full check", and a rule run on a sample, on an embedded database the test fills.
 */

let server: TestServer;
let token: string;
let database: string;
let tableId: string;

const sql = (...statements: string[]) => onEmbedded(server, database, statements);

const customer = (id: number, email: string | null) =>
  `(${id}, ${email === null ? 'null' : `'${email}'`}, now() - interval '${100 - id} minutes')`;

const runChecks = (body?: Record<string, unknown>) =>
  call(server, 'POST', `/table/${tableId}/configure`, { token, ...(body ? { body } : {}) });
type Result = {
  ruleName: string;
  rowsScanned: number;
  rowsFailed: number;
  coveredColumn: string | null;
  coveredAfter: string | null;
  coveredUpTo: string | null;
};
const resultsOf = (res: Awaited<ReturnType<typeof runChecks>>) =>
  Object.fromEntries((res.json().data.results as Result[]).map((result) => [result.ruleName, result])) as Record<string, Result>;

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  database = `ledger-${crypto.randomBytes(4).toString('hex')}`;
  const made = await call(server, 'POST', '/connections', { token, body: { name: 'Ledger', type: 'embedded', settings: { database } } });
  expect(made.statusCode, made.body).toBe(201);
  await sql(
    'create table public.customers (id int primary key, email text, signed_up_at timestamptz not null)',
    `insert into public.customers values ${[1, 2, 3, 4, 5].map((id) => customer(id, id === 3 ? null : `c${id}@example.test`)).join(', ')}`,
  );
  const registered = await call(server, 'POST', '/table', {
    token,
    body: { connectionId: made.json().data.id, endpoint: 'public.customers' },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  tableId = registered.json().data.id;
});
afterAll(async () => server?.close());

describe('a table’s watermark column', () => {
  it('is a timestamp, a date or a growing number of the table; anything else is refused and nothing changes', async () => {
    const before = await snapshot(server.db);
    for (const [watermarkColumn, message] of [
      ['loaded_at', 'watermarkColumn: "loaded_at" is not a column of this table'],
      ['email', 'watermarkColumn: "email" is text; a watermark column must be a timestamp, a date or a number that only grows'],
      ['', 'watermarkColumn: must be a column name'],
    ] as const) {
      const res = await call(server, 'PUT', `/table/${tableId}`, { token, body: { watermarkColumn } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('is kept, audited, and cleared with null', async () => {
    const set = await call(server, 'PUT', `/table/${tableId}`, { token, body: { watermarkColumn: 'signed_up_at' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.watermarkColumn).toBe('signed_up_at');
    const [audit] = await server.db
      .select({ changes: systemAudits.changes })
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, tableId), eq(systemAudits.operation, 'update')))
      .orderBy(desc(systemAudits.createdAt))
      .limit(1);
    expect(audit?.changes).toMatchObject({ before: { watermarkColumn: null }, after: { watermarkColumn: 'signed_up_at' } });
    const cleared = await call(server, 'PUT', `/table/${tableId}`, { token, body: { watermarkColumn: null } });
    expect(cleared.json().data.watermarkColumn).toBeNull();
  });
});

describe('incremental checks', () => {
  it('read only the rows past each rule’s last result, say so, and a full check reads every row again', async () => {
    expect((await call(server, 'PUT', `/table/${tableId}`, { token, body: { watermarkColumn: 'id' } })).statusCode).toBe(200);
    for (const rule of [
      { name: 'Email given', functionName: 'not_null', columnName: 'email' },
      { name: 'Email unique', functionName: 'unique', columnName: 'email' },
      { name: 'Some rows', functionName: 'row_count_between', params: { min: 1 } },
    ]) {
      const res = await call(server, 'POST', `/table/dataQuality/${tableId}`, { token, body: rule });
      expect(res.statusCode, res.body).toBe(201);
    }
    // The first run reads every row: customer 3 has no email.
    const first = resultsOf(await runChecks());
    expect(first['Email given']).toMatchObject({
      rowsScanned: 5,
      rowsFailed: 1,
      coveredColumn: 'id',
      coveredAfter: null,
      coveredUpTo: '5',
    });
    // Customer 7 repeats customer 1's email.
    await sql(`insert into public.customers values ${customer(6, 'c6@example.test')}, ${customer(7, 'c1@example.test')}`);
    const secondRun = await runChecks();
    const second = resultsOf(secondRun);
    expect(second['Email given']).toMatchObject({ rowsScanned: 2, rowsFailed: 0, coveredAfter: '5', coveredUpTo: '7' });
    expect(second['Email unique']).toMatchObject({ rowsScanned: 2, rowsFailed: 1, coveredAfter: '5', coveredUpTo: '7' });
    expect(second['Some rows']).toMatchObject({ coveredColumn: null, coveredAfter: null });
    expect(secondRun.json().data.results.find((r: Result) => r.ruleName === 'Email given').message).toBe(
      '0 of 2 rows with id after 5: email is null',
    );
    // The rule's row shows it beside its name.
    const rules = (await call(server, 'GET', `/table/dataQuality/${tableId}/0/10`, { token })).json().data.rows;
    expect(rules.find((rule: { name: string }) => rule.name === 'Email given').lastResult).toMatchObject({
      coveredColumn: 'id',
      coveredAfter: '5',
    });

    const full = await runChecks({ full: true });
    expect(full.statusCode, full.body).toBe(200);
    expect(resultsOf(full)['Email given']).toMatchObject({ rowsScanned: 7, rowsFailed: 1, coveredAfter: null, coveredUpTo: '7' });
    const [audit] = await server.db
      .select({ changes: systemAudits.changes })
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, tableId), eq(systemAudits.operation, 'run_checks')))
      .orderBy(desc(systemAudits.createdAt))
      .limit(1);
    expect(audit?.changes).toMatchObject({ after: { full: true } });
    // After the full check, nothing new: the next run reads no row.
    expect(resultsOf(await runChecks())['Email given']).toMatchObject({ rowsScanned: 0, coveredAfter: '7' });
  });

  it('start over from every row when the watermark column changes', async () => {
    expect((await call(server, 'PUT', `/table/${tableId}`, { token, body: { watermarkColumn: 'signed_up_at' } })).statusCode).toBe(200);
    const results = resultsOf(await runChecks());
    expect(results['Email given']).toMatchObject({ rowsScanned: 7, coveredColumn: 'signed_up_at', coveredAfter: null });
    expect(results['Email given'].coveredUpTo).toMatch(/^\d{4}-\d{2}-\d{2} /);
    await sql(`insert into public.customers values (8, null, now() + interval '1 minute')`);
    const next = resultsOf(await runChecks());
    expect(next['Email given']).toMatchObject({ rowsScanned: 1, rowsFailed: 1, coveredAfter: results['Email given'].coveredUpTo });
  });
});

describe('sampled rules', () => {
  it('take a share of the table’s pages from 0.01 to 100, never for unique; results are marked as estimates', async () => {
    const before = await snapshot(server.db);
    for (const [rule, message] of [
      [
        { functionName: 'unique', columnName: 'email', samplePercent: 10 },
        /^samplePercent: does not apply to unique: a sample cannot tell/,
      ],
      [{ functionName: 'row_count_between', params: { min: 1 }, samplePercent: 10 }, /^samplePercent: does not apply to row_count_between/],
      [{ functionName: 'not_null', columnName: 'email', samplePercent: 0 }, /^samplePercent: must be at least 0.01/],
      [{ functionName: 'not_null', columnName: 'email', samplePercent: 101 }, /^samplePercent: must be at most 100/],
    ] as const) {
      const res = await call(server, 'POST', `/table/dataQuality/${tableId}`, { token, body: { name: 'Sampled', ...rule } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    const made = await call(server, 'POST', `/table/dataQuality/${tableId}`, {
      token,
      body: { name: 'Email given, sampled', functionName: 'not_null', columnName: 'email', samplePercent: 100 },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.samplePercent).toBe(100);
    const run = await call(server, 'POST', `/table/${tableId}/configure`, { token, body: { ruleIds: [made.json().data.id], full: true } });
    const [result] = run.json().data.results;
    expect(result).toMatchObject({ samplePercent: 100, rowsScanned: 8, rowsFailed: 2 });
    expect(result.message).toBe("2 of 8 rows in a sample (100% of the table's pages; an estimate): email is null");
  });
});
