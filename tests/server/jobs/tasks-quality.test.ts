import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRunStatements } from '../../../server/connectors/types';
import { qualityRuns } from '../../../server/db/schema';
import { createTestServer, type TestServer } from '../harness';
import { call, signInAdmin } from '../helpers';
import { createConnection, createPair, createWorkflow, failureOf, recordingContext, runTask } from './tasks-helpers';

/**
 * The quality task on tables registered through the API from an embedded database: a failed
 * fail-severity rule fails the task and names the table; warn-severity failures do not; every
 * table's run is kept with the job run.
 */

let server: TestServer;
let token: string;
let workflow: Awaited<ReturnType<typeof createWorkflow>>;
let pairId: string;
const tables = { customers: '', orders: '', unruled: '' };

async function register(connectionId: string, endpoint: string, rules: Array<Record<string, unknown>>): Promise<string> {
  const made = await call(server, 'POST', '/table', { token, body: { connectionId, endpoint } });
  expect(made.statusCode, made.body).toBe(201);
  const tableId = made.json().data.id as string;
  for (const rule of rules) {
    const added = await call(server, 'POST', `/table/dataQuality/${tableId}`, { token, body: rule });
    expect(added.statusCode, added.body).toBe(201);
  }
  return tableId;
}

const qualityTask = (tableIds: string[]) => ({
  id: `quality-${crypto.randomBytes(3).toString('hex')}`,
  name: 'Check the shop',
  type: 'quality' as const,
  tableIds,
});

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  const database = `shop-${crypto.randomBytes(4).toString('hex')}`;
  const shopId = await createConnection(server, token, { name: 'Shop', type: 'embedded', settings: { database } });
  const connector = server.app.ctx.connectors.open({
    companyId: server.company.companyId,
    type: 'embedded',
    settings: { database },
    secrets: {},
  });
  if (!canRunStatements(connector)) throw new Error('an embedded database runs statements');
  await connector.runStatements([
    'create table public.customers (id int primary key, email text, country text)',
    "insert into public.customers values (1, 'ada@example.test', 'GB'), (2, null, 'US'), (3, 'alan@example.test', 'GB')",
    'create table public.orders (id int primary key, amount numeric)',
    'insert into public.orders values (1, 10), (2, -5), (3, 7)',
    'create table public.notes (id int primary key)',
  ]);
  tables.customers = await register(shopId, 'public.customers', [
    { name: 'Email given', functionName: 'not_null', columnName: 'email', severity: 'fail' },
    { name: 'Country known', functionName: 'in_set', columnName: 'country', params: { values: ['GB', 'US'] }, severity: 'fail' },
  ]);
  tables.orders = await register(shopId, 'public.orders', [
    { name: 'Ids given', functionName: 'not_null', columnName: 'id', severity: 'fail' },
    { name: 'Amount not negative', functionName: 'value_between', columnName: 'amount', params: { min: 0 }, severity: 'warn' },
  ]);
  tables.unruled = await register(shopId, 'public.notes', []);
  pairId = await createPair(
    server,
    token,
    shopId,
    await createConnection(server, token, { name: 'Copy of the shop', type: 'embedded', settings: { database: `${database}-copy` } }),
  );
  workflow = await createWorkflow(server, { name: 'Shop checks', pairId });
});

afterAll(async () => server?.close());

const runsOf = (runId: string) =>
  server.db
    .select({ tableId: qualityRuns.tableId, status: qualityRuns.status, trigger: qualityRuns.trigger })
    .from(qualityRuns)
    .where(eq(qualityRuns.jobRunId, runId));

describe('the quality task', () => {
  it('fails when a fail-severity rule fails, naming that table only, and keeps each table’s run with the job run', async () => {
    const context = recordingContext(server, workflow);
    const message = await failureOf(runTask(server, qualityTask([tables.customers, tables.orders]), context));

    expect(message).toBe('Data-quality checks did not pass: customers (failed)');
    expect(context.lines).toEqual([
      'customers: failed, 1 of 2 rules passed; Email given (fail: failed)',
      'orders: warned, 1 of 2 rules passed; Amount not negative (warn: warned)',
    ]);
    const runs = await runsOf(workflow.runId);
    expect(runs.sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { tableId: tables.customers, status: 'failed', trigger: 'workflow' },
      { tableId: tables.orders, status: 'warned', trigger: 'workflow' },
    ]);
  });

  it('passes when only warn-severity rules fail', async () => {
    const other = await createWorkflow(server, { name: 'Order checks', pairId });
    const context = recordingContext(server, other);
    expect(await runTask(server, qualityTask([tables.orders]), context)).toEqual({});
    expect(context.lines).toEqual(['orders: warned, 1 of 2 rules passed; Amount not negative (warn: warned)']);
    expect(await runsOf(other.runId)).toEqual([{ tableId: tables.orders, status: 'warned', trigger: 'workflow' }]);
  });

  it('counts a table that cannot be checked as not passing, and still checks the others', async () => {
    const gone = crypto.randomUUID();
    const context = recordingContext(server, workflow);
    const message = await failureOf(runTask(server, qualityTask([tables.unruled, gone, tables.orders]), context));
    expect(message).toBe(
      `Data-quality checks did not pass: The table "notes" has no active data-quality rules to run; the table ${gone} no longer exists`,
    );
    expect(context.lines.at(-1)).toBe('orders: warned, 1 of 2 rules passed; Amount not negative (warn: warned)');
  });
});
