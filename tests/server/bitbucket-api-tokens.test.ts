import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { connections } from '../../server/db/schema';
import { sealSecrets } from '../../server/connections/records';
import { call, signInAdmin } from './helpers';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './connectors/fixtures-remote/local-server';

/**
 * Bitbucket connections through the API since Bitbucket took API tokens only (docs/api/connections.md,
 * "Bitbucket"): a new one asks for the Atlassian account's email and an API token; one saved with
 * a username and an app password still lists, but is refused at every use without a call to
 * Bitbucket, until an edit gives it the new settings.
 */

const EMAIL = 'ana@acme.test';
const TOKEN = 'ATATT3x-api-token';
const RETIRED =
  'Bitbucket no longer accepts app passwords (they were removed on 28 July 2026): edit this connection and give the email of your Atlassian account and an API token with the scope read:repository:bitbucket';

let server: TestServer;
let adminToken: string;
let bitbucket: LocalServer;
let oldId: string;

/** `GET /2.0/repositories/acme` behind basic auth with the email and the token, as Bitbucket Cloud answers it. */
function answerBitbucket(request: ReceivedRequest, response: ServerResponse): void {
  if (request.headers.authorization !== `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`) {
    return void response.writeHead(401, { 'www-authenticate': 'Basic realm="Bitbucket.org HTTP"' }).end();
  }
  sendJson(response, 200, { pagelen: 1, size: 1, page: 1, values: [{ slug: 'analytics', name: 'analytics' }] });
}

const create = (body: Record<string, unknown>) => call(server, 'POST', '/connections', { token: adminToken, body });

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  bitbucket = await startLocalServer(answerBitbucket);
  // As saved before Bitbucket removed app passwords.
  const [row] = await server.db
    .insert(connections)
    .values({
      companyId: server.company.companyId,
      name: 'Old Bitbucket',
      type: 'bitbucket',
      isSource: false,
      isDestination: false,
      settings: { workspace: 'acme', username: 'ana', apiUrl: `${bitbucket.url}/2.0` },
      secretsEnc: sealSecrets(server.app.ctx.secrets, { appPassword: 'ATBB-app-password' }),
      createdBy: server.company.adminUserId,
    })
    .returning({ id: connections.id });
  oldId = row!.id;
});

afterAll(async () => {
  await bitbucket?.close();
  await server?.close();
});

describe('a new Bitbucket connection', () => {
  it('is refused without an email or a token, each setting named', async () => {
    const res = await create({ name: 'Code', type: 'bitbucket', settings: { workspace: 'acme', apiUrl: `${bitbucket.url}/2.0` } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('settings.email: is required; settings.apiToken: is required');
    const notEmail = await create({
      name: 'Code',
      type: 'bitbucket',
      settings: { workspace: 'acme', email: 'ana', apiToken: TOKEN, apiUrl: `${bitbucket.url}/2.0` },
    });
    expect(notEmail.statusCode).toBe(400);
    expect(notEmail.json().message).toBe('settings.email: must be an email address (the one of your Atlassian account)');
    const oldShape = await create({
      name: 'Code',
      type: 'bitbucket',
      settings: { workspace: 'acme', username: 'ana', appPassword: 'ATBB-app-password', apiUrl: `${bitbucket.url}/2.0` },
    });
    expect(oldShape.statusCode).toBe(400);
    expect(oldShape.json().message).toMatch(/^settings\.username: is not a setting of Bitbucket; settings\.appPassword: is not a setting/);
  });

  it('is made with an email and a token, the token never answered, and tested with both', async () => {
    const res = await create({
      name: `Code ${crypto.randomBytes(3).toString('hex')}`,
      type: 'bitbucket',
      settings: { workspace: 'acme', email: EMAIL, apiToken: TOKEN, apiUrl: `${bitbucket.url}/2.0` },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ settings: { workspace: 'acme', email: EMAIL }, secretsSet: ['apiToken'] });
    expect(res.body).not.toContain(TOKEN);
    const tested = await call(server, 'POST', `/connection/${res.json().data.id}/configure`, { token: adminToken });
    expect(tested.json().data).toMatchObject({ ok: true, detail: '1 repository in acme' });
  });
});

describe('a connection saved with an app password', () => {
  it('still lists and opens', async () => {
    const one = await call(server, 'GET', `/connection/${oldId}`, { token: adminToken });
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({
      name: 'Old Bitbucket',
      settings: { workspace: 'acme', username: 'ana' },
      secretsSet: ['appPassword'],
    });
    const code = await call(server, 'GET', '/connection/bitbucket/integration', { token: adminToken });
    expect(code.json().data.connections).toEqual(expect.arrayContaining([expect.objectContaining({ id: oldId, workspace: 'acme' })]));
  });

  it('fails its test, its listing and a look into its repositories at once, saying what to do, without calling Bitbucket', async () => {
    const asked = bitbucket.requests.length;
    const tested = await call(server, 'POST', `/connection/${oldId}/configure`, { token: adminToken });
    expect(tested.statusCode).toBe(400);
    expect(tested.json().message).toBe(RETIRED);
    expect((await call(server, 'GET', `/connection/${oldId}`, { token: adminToken })).json().data).toMatchObject({
      lastTestOk: false,
      lastTestMessage: RETIRED,
    });
    const endpoints = await call(server, 'GET', `/connection/${oldId}/endpoints`, { token: adminToken });
    expect([endpoints.statusCode, endpoints.json().message]).toEqual([400, RETIRED]);
    const repository = await call(server, 'GET', `/workflow/connection/gitRepo/${oldId}?path=analytics`, { token: adminToken });
    expect([repository.statusCode, repository.json().message]).toEqual([400, RETIRED]);
    expect(bitbucket.requests.length).toBe(asked);
  });

  it('fails a workflow run that reads SQL from it, with the same words', async () => {
    const tag = crypto.randomBytes(4).toString('hex');
    const made = async (body: Record<string, unknown>) => {
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const sourceId = await made({ name: `Shop ${tag}`, type: 'embedded', settings: { database: `bb-shop-${tag}` } });
    const destinationId = await made({
      name: `Warehouse ${tag}`,
      type: 'embedded',
      isSource: false,
      isDestination: true,
      settings: { database: `bb-wh-${tag}` },
    });
    const pairId = crypto.randomUUID();
    await call(server, 'PUT', `/source/destination/${pairId}`, { token: adminToken, body: { sourceId, destinationId } });
    const workflow = await call(server, 'POST', '/workflow', {
      token: adminToken,
      body: {
        name: `Models ${tag}`,
        pairId,
        repositoryConnectionId: oldId,
        tasks: [{ id: 'daily', name: 'Daily model', type: 'sql', path: 'analytics/models/daily.sql' }],
      },
    });
    expect(workflow.statusCode, workflow.body).toBe(201);
    const asked = bitbucket.requests.length;
    const queued = await call(server, 'POST', `/workflow/run/${workflow.json().data.jobId}`, { token: adminToken });
    expect(queued.statusCode, queued.body).toBe(202);
    let run = queued.json().data;
    for (let i = 0; i < 300 && ['queued', 'running'].includes(run.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await call(server, 'GET', `/jobRunTracker/${run.id}`, { token: adminToken })).json().data;
    }
    expect(run).toMatchObject({ status: 'failed', steps: [{ status: 'failed', error: RETIRED }] });
    expect(bitbucket.requests.length).toBe(asked);
  });

  it('is used again once an edit gives an email and a token: the username and app password are dropped', async () => {
    const edited = await call(server, 'PUT', `/connection/${oldId}`, {
      token: adminToken,
      body: { settings: { workspace: 'acme', email: EMAIL, apiToken: TOKEN, apiUrl: `${bitbucket.url}/2.0` } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.settings).toEqual({ workspace: 'acme', email: EMAIL, apiUrl: `${bitbucket.url}/2.0` });
    expect(edited.json().data.secretsSet).toEqual(['apiToken']);
    const [stored] = await server.db.select().from(connections).where(eq(connections.id, oldId));
    expect(JSON.parse(server.app.ctx.secrets.decrypt(stored!.secretsEnc!))).toEqual({ apiToken: TOKEN });
    const tested = await call(server, 'POST', `/connection/${oldId}/configure`, { token: adminToken });
    expect(tested.json().data).toMatchObject({ ok: true, detail: '1 repository in acme' });
  });
});
