import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { notifications } from '../../server/db/schema';
import { isTableSource, type TableSource } from '../../server/connectors/types';
import { call, signInAdmin, userWithPolicies } from './helpers';

/** A workflow run end to end through the API: queued, worked by the server's runner, tracked, its results read back. */

let server: TestServer;
let adminToken: string;
let pairId: string;
let source: string;
let destination: string;

function database(name: string): TableSource {
  const connector = server.app.ctx.connectors.open({
    companyId: server.company.companyId,
    type: 'embedded',
    settings: { database: name },
    secrets: {},
  });
  if (!isTableSource(connector)) throw new Error('an embedded database is a table source');
  return connector;
}

async function sql(name: string, statement: string) {
  const db = database(name);
  try {
    return await db.query<Record<string, unknown>>(statement, [], { timeoutMs: 30_000 });
  } finally {
    await db.close();
  }
}

/** Reads the run until it has ended (the runner works it in the background). */
async function finished(runId: string, token = adminToken) {
  for (let i = 0; i < 300; i++) {
    const run = (await call(server, 'GET', `/jobRunTracker/${runId}`, { token })).json().data;
    if (!['queued', 'running'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not end`);
}

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  const tag = crypto.randomBytes(4).toString('hex');
  source = `runs-source-${tag}`;
  destination = `runs-destination-${tag}`;
  await sql(source, 'create table public.events (id int primary key, kind text not null, at timestamptz not null)');
  await sql(
    source,
    "insert into public.events select g, case when g % 3 = 0 then 'click' else 'view' end, now() - g * interval '1 minute' from generate_series(1, 25000) g",
  );
  const made = async (body: Record<string, unknown>) =>
    (await call(server, 'POST', '/connections', { token: adminToken, body })).json().data.id as string;
  const sourceId = await made({ name: 'Events', type: 'embedded', settings: { database: source } });
  const destinationId = await made({
    name: 'Lake',
    type: 'embedded',
    isSource: false,
    isDestination: true,
    settings: { database: destination },
  });
  pairId = crypto.randomUUID();
  await call(server, 'PUT', `/source/destination/${pairId}`, { token: adminToken, body: { sourceId, destinationId } });
});
afterAll(async () => server?.close());

describe('running a workflow', () => {
  it('queues a run, works it in the background, and tracks its steps and rows', async () => {
    const workflow = (
      await call(server, 'POST', '/workflow', {
        token: adminToken,
        body: {
          name: 'Copy events',
          pairId,
          tasks: [
            {
              id: 'copy',
              name: 'Copy events',
              type: 'copy',
              from: { table: 'public.events' },
              to: { table: 'public.events', mode: 'replace' },
              batchSize: 5000,
            },
          ],
        },
      })
    ).json().data;
    const queued = await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: adminToken });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json().data).toMatchObject({
      workflowId: workflow.id,
      trigger: 'manual',
      attempt: 1,
      steps: [{ name: 'Copy events', status: expect.stringMatching(/pending|running|succeeded/) }],
    });
    const run = await finished(queued.json().data.id);
    expect(run).toMatchObject({ status: 'succeeded', error: null, steps: [{ status: 'succeeded', rowsRead: 25000, rowsWritten: 25000 }] });
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    const [{ n }] = await sql(destination, 'select count(*)::int as n from public.events');
    expect(n).toBe(25000);
    expect((await call(server, 'GET', `/workflow/${workflow.id}`, { token: adminToken })).json().data.lastRun).toMatchObject({
      id: run.id,
      status: 'succeeded',
    });
    const ended = await call(server, 'PUT', `/jobRunTracker/${run.id}/cancel`, { token: adminToken });
    expect(ended.statusCode).toBe(400);
    expect(ended.json().message).toBe('This run has already ended (succeeded)');
  });

  it('fails a run whose task fails, with the source’s words, and tells who started it', async () => {
    const workflow = (
      await call(server, 'POST', '/workflow', {
        token: adminToken,
        body: {
          name: 'Copy nothing',
          pairId,
          tasks: [
            {
              id: 'copy',
              name: 'Copy a missing table',
              type: 'copy',
              from: { table: 'public.missing' },
              to: { table: 'public.missing', mode: 'append' },
            },
          ],
        },
      })
    ).json().data;
    const run = await finished((await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: adminToken })).json().data.id);
    expect(run).toMatchObject({ status: 'failed', steps: [{ status: 'failed', error: expect.stringMatching(/missing/) }] });
    const [notice] = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.companyId, server.company.companyId), eq(notifications.type, 'job_failed')));
    expect(notice).toMatchObject({ userId: server.company.adminUserId, link: `/job-runs/${run.id}/show` });
  });

  it('runs when an API key granted the run call asks, as its access user, with the trigger said', async () => {
    const workflow = (
      await call(server, 'POST', '/workflow', {
        token: adminToken,
        body: {
          name: 'Copy by key',
          pairId,
          tasks: [
            {
              id: 'copy',
              name: 'Copy clicks',
              type: 'copy',
              from: { query: "select id, at from public.events where kind = 'click'" },
              to: { table: 'public.clicks', mode: 'replace' },
            },
          ],
        },
      })
    ).json().data;
    const made = await call(server, 'POST', '/apikey', {
      token: adminToken,
      body: { name: 'Scheduler', operations: ['post_workflow_run_jobId'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const key = made.json().data.key as string;
    const queued = await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { headers: { 'x-api-key': key } });
    expect(queued.statusCode, queued.body).toBe(202);
    const run = await finished(queued.json().data.id);
    expect(run).toMatchObject({ status: 'succeeded', trigger: 'api_key', triggeredBy: server.company.adminUserId });
    const [{ n }] = await sql(destination, 'select count(*)::int as n from public.clicks');
    expect(n).toBe(8333);
  });

  it('needs workflows/update to run or cancel', async () => {
    const reader = await userWithPolicies(server, adminToken, 'runs.reader@acme.test', [{ resource: 'workflows', actions: ['read'] }]);
    const [workflow] = (await call(server, 'GET', '/workflow/0/1', { token: adminToken })).json().data.rows;
    expect((await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: reader.token })).statusCode).toBe(403);
    expect((await call(server, 'PUT', `/jobRunTracker/${workflow.lastRun.id}/cancel`, { token: reader.token })).statusCode).toBe(403);
  });
});
