import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin, userWithPolicies } from './helpers';
import { notify } from '../../server/notify';
import { openStream, streamHeaders, type OpenedStream, type ReadEvent } from './live/stream-client';

/**
 * What the live stream carries: a run's status and steps as the runner writes them, new
 * notifications to their recipients only, each with the lists to read again; and never anything
 * of another company, nor runs to a user who may not read workflows.
 */

let server: TestServer;
let acmeToken: string;
let globex: Awaited<ReturnType<typeof createOtherCompany>>;
const opened: OpenedStream[] = [];

async function open(token: string) {
  const stream = await openStream(server, streamHeaders(token));
  expect(stream.status, stream.message).toBe(200);
  opened.push(stream);
  await stream.next((event) => event.event === 'ready');
  return stream;
}

const TELL = [{ id: 'tell', name: 'Tell the team', type: 'notify', message: 'Done' }];

/** A workflow in the caller's company: by default one notify task (which reaches nothing outside the server). */
async function workflowOf(token: string, tasks: unknown[] = TELL): Promise<{ id: string; jobId: string }> {
  const made = async (body: Record<string, unknown>) => {
    const res = await call(server, 'POST', '/connections', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const tag = crypto.randomBytes(3).toString('hex');
  const sourceId = await made({ name: `Source ${tag}`, type: 'embedded', settings: { database: `live-source-${tag}` } });
  const destinationId = await made({
    name: `Lake ${tag}`,
    type: 'embedded',
    isSource: false,
    isDestination: true,
    settings: { database: `live-lake-${tag}` },
  });
  const pairId = crypto.randomUUID();
  await call(server, 'PUT', `/source/destination/${pairId}`, { token, body: { sourceId, destinationId } });
  const res = await call(server, 'POST', '/workflow', {
    token,
    body: { name: `Tell ${tag}`, pairId, tasks },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const ofRun = (runId: string, status?: string) => (event: ReadEvent) =>
  event.event === 'run' && event.data.id === runId && (status === undefined || event.data.status === status);

beforeAll(async () => {
  server = await createTestServer();
  acmeToken = (await signInAdmin(server)).accessToken!;
  globex = await createOtherCompany(server);
});
afterEach(() => {
  opened.splice(0).forEach((stream) => stream.close());
});
afterAll(async () => server?.close());

describe('run events', () => {
  it('follows a run from queued to succeeded, with its step, naming the lists to read again', async () => {
    const stream = await open(acmeToken);
    const workflow = await workflowOf(acmeToken);
    const queued = await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: acmeToken });
    expect(queued.statusCode, queued.body).toBe(202);
    const runId = queued.json().data.id as string;

    const first = await stream.next(ofRun(runId, 'queued'));
    expect(first.data).toMatchObject({ workflowId: workflow.id, resources: ['job-runs', 'workflows'] });
    await stream.next(ofRun(runId, 'running'));
    const stepRunning = await stream.next((event) => ofRun(runId)(event) && (event.data.step as { status?: string })?.status === 'running');
    expect(stepRunning.data.step).toMatchObject({ id: expect.any(String) });
    await stream.next(ofRun(runId, 'succeeded'));

    // The order is the order of the writes.
    const statuses = stream.events.filter(ofRun(runId)).flatMap((event) => (event.data.status ? [event.data.status] : []));
    expect(statuses).toEqual(['queued', 'running', 'succeeded']);
    const run = (await call(server, 'GET', `/jobRunTracker/${runId}`, { token: acmeToken })).json().data;
    expect(run.status).toBe('succeeded');
  });

  it("tells how a run asked to stop ended, as the run's page then reads it", async () => {
    const stream = await open(acmeToken);
    const workflow = await workflowOf(acmeToken);
    // The runner may take the run before the cancel arrives (then it ends as it would): the stream says which.
    const runId = (await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: acmeToken })).json().data.id as string;
    await call(server, 'PUT', `/jobRunTracker/${runId}/cancel`, { token: acmeToken });
    const ended = await stream.next((event) => ofRun(runId)(event) && ['canceled', 'succeeded'].includes(String(event.data.status)));
    const run = (await call(server, 'GET', `/jobRunTracker/${runId}`, { token: acmeToken })).json().data;
    expect(ended.data.status).toBe(run.status);
  });

  it("never sends one company's runs to another company's streams", async () => {
    const acme = await open(acmeToken);
    const other = await open(globex.adminToken);
    const acmeWorkflow = await workflowOf(acmeToken);
    const globexWorkflow = await workflowOf(globex.adminToken);
    const acmeRun = (await call(server, 'POST', `/workflow/run/${acmeWorkflow.jobId}`, { token: acmeToken })).json().data.id as string;
    const globexRun = (await call(server, 'POST', `/workflow/run/${globexWorkflow.jobId}`, { token: globex.adminToken })).json().data
      .id as string;
    await acme.next(ofRun(acmeRun, 'succeeded'));
    await other.next(ofRun(globexRun, 'succeeded'));
    expect(acme.events.filter(ofRun(globexRun))).toEqual([]);
    expect(other.events.filter(ofRun(acmeRun))).toEqual([]);
    expect(JSON.stringify(other.events)).not.toContain(acmeWorkflow.id);
    expect(JSON.stringify(acme.events)).not.toContain(globexWorkflow.id);
  });

  it('sends no run events to a user who may not read workflows', async () => {
    const reader = await userWithPolicies(server, acmeToken, 'no-workflows@acme.test', [{ resource: 'notifications', actions: ['read'] }]);
    const theirs = await open(reader.token);
    const mine = await open(acmeToken);
    const workflow = await workflowOf(acmeToken);
    const runId = (await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: acmeToken })).json().data.id as string;
    await mine.next(ofRun(runId, 'succeeded'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(theirs.events.filter((event) => event.event === 'run')).toEqual([]);
  });
});

describe('notification events', () => {
  it("rings the recipient's bell only, in their company only", async () => {
    const member = await userWithPolicies(server, acmeToken, 'bell@acme.test', [{ resource: 'workflows', actions: ['read'] }]);
    const recipient = await open(member.token);
    const bystander = await open(acmeToken);
    const other = await open(globex.adminToken);
    await notify(server.db, { companyId: server.company.companyId, to: [member.id], type: 'test', title: 'For you' });
    const rung = await recipient.next((event) => event.event === 'notification');
    expect(rung.data).toEqual({ resources: ['notifications'] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(bystander.events.filter((event) => event.event === 'notification')).toEqual([]);
    expect(other.events.filter((event) => event.event === 'notification')).toEqual([]);
  });

  it('announces a notification written inside a transaction at its commit, and none when it rolls back', async () => {
    const member = await userWithPolicies(server, acmeToken, 'tx-bell@acme.test', []);
    const stream = await open(member.token);
    await server.db
      .transaction(async (tx) => {
        await notify(tx, { companyId: server.company.companyId, to: [member.id], type: 'test', title: 'Rolled back' });
        throw new Error('undo');
      })
      .catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.events.filter((event) => event.event === 'notification')).toEqual([]);
    await server.db.transaction(async (tx) => {
      await notify(tx, { companyId: server.company.companyId, to: [member.id], type: 'test', title: 'Kept' });
    });
    await stream.next((event) => event.event === 'notification', 3_000);
  });

  it("rings the bells of a failed run's notice", async () => {
    const stream = await open(acmeToken);
    // A copy of a table the source does not have fails, and the failure notice goes to who started it.
    const workflow = await workflowOf(acmeToken, [
      {
        id: 'copy',
        name: 'Copy a missing table',
        type: 'copy',
        from: { table: 'public.missing' },
        to: { table: 'public.missing', mode: 'append' },
      },
    ]);
    const runId = (await call(server, 'POST', `/workflow/run/${workflow.jobId}`, { token: acmeToken })).json().data.id as string;
    // Opening the embedded source takes a few seconds (far more on a busy machine).
    await stream.next(ofRun(runId, 'failed'), 150_000);
    await stream.next((event) => event.event === 'notification');
  }, 180_000);
});
