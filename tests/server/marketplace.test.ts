import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connections, systemAudits } from '../../server/db/schema';
import { AZURE_ACCOUNT, startAzureBlobService, type AzureBlobService } from './connectors/fixtures-remote/azure-blob-service';
import { closedPort } from './connectors/fixtures-remote/local-server';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin, userWithPolicies } from './helpers';
import { createConnection, createPair, createWorkflow, recordingContext, runTask } from './jobs/tasks-helpers';
import { isTableSource } from '../../server/connectors/types';

/** The marketplace of integrations (docs/api/marketplace.md), with real connections tested for real. */

const DENIED = 'Resource Access not provided';

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let configurer: Awaited<ReturnType<typeof userWithPolicies>>;
let connectionsOnly: Awaited<ReturnType<typeof userWithPolicies>>;
let nobody: Awaited<ReturnType<typeof userWithPolicies>>;
let azure: AzureBlobService;
let repoDir: string;
/** The folder this server grants companies (FILES_ROOTS); the company's repository sits in its own sub-folder of it. */
let grantedRoot: string;

const configure = (body: Record<string, unknown>, token = adminToken) => call(server, 'POST', '/marketplace/configure', { token, body });
const azureSettings = (extra: Record<string, unknown> = {}) => ({
  accountName: AZURE_ACCOUNT,
  container: 'lake',
  prefix: 'exports/',
  accountKey: azure.accountKey,
  endpoint: azure.server.url,
  ...extra,
});

async function tally() {
  const [conns] = await server.db.select({ n: count() }).from(connections);
  const [audits] = await server.db.select({ n: count() }).from(systemAudits);
  return { connections: conns.n, audits: audits.n };
}

async function auditsOf(recordId: string) {
  return server.db.select().from(systemAudits).where(eq(systemAudits.recordId, recordId)).orderBy(systemAudits.createdAt);
}

function cardOf(cards: Array<{ id: string }>, id: string) {
  const found = cards.find((candidate) => candidate.id === id);
  expect(found, `a card ${id}`).toBeDefined();
  return found as Record<string, unknown>;
}

beforeAll(async () => {
  grantedRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'market-granted-'));
  server = await createTestServer({ filesRoots: [grantedRoot] });
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'market.reader@acme.test', [{ resource: 'marketplace', actions: ['read'] }]);
  configurer = await userWithPolicies(server, adminToken, 'market.maker@acme.test', [
    { resource: 'marketplace', actions: ['read', 'create'] },
  ]);
  connectionsOnly = await userWithPolicies(server, adminToken, 'conn.maker@acme.test', [
    { resource: 'connections', actions: ['read', 'create'] },
  ]);
  nobody = await userWithPolicies(server, adminToken, 'market.nobody@acme.test', []);
  azure = await startAzureBlobService();
  azure.putBlob('lake', 'exports/orders.csv', 'id,total\n1,10\n2,32\n');
  azure.putBlob('lake', 'exports/notes.txt', 'not data');
  repoDir = path.join(grantedRoot, server.company.companyId, 'sql-models');
  fs.mkdirSync(repoDir, { recursive: true });
  await git.init({ fs, dir: repoDir, defaultBranch: 'main' });
  fs.writeFileSync(path.join(repoDir, 'daily.sql'), 'select 1;\n');
  await git.add({ fs, dir: repoDir, filepath: 'daily.sql' });
  await git.commit({ fs, dir: repoDir, message: 'first', author: { name: 'Data team', email: 'data@acme.test' } });
});

afterAll(async () => {
  await azure?.close();
  await server?.close();
  if (grantedRoot) fs.rmSync(grantedRoot, { recursive: true, force: true });
});

describe('GET /marketplace', () => {
  it('answers the catalogue as cards by category, each with its declared settings and secrets marked', async () => {
    const res = await call(server, 'GET', '/marketplace', { token: reader.token });
    expect(res.statusCode, res.body).toBe(200);
    const cards = res.json().data as Array<Record<string, unknown> & { id: string }>;
    expect(cards.map((card) => [card.id, card.category])).toEqual([
      ['s3', 'cloud_storage'],
      ['gcs', 'cloud_storage'],
      ['azure_blob', 'cloud_storage'],
      ['slack', 'chat'],
      ['bitbucket', 'code'],
      ['git', 'code'],
      ['databricks', 'compute'],
      ['postgresql', 'database'],
      ['mysql', 'database'],
    ]);
    const gcs = cardOf(cards, 'gcs');
    expect(gcs).toMatchObject({
      name: 'Google Cloud Storage',
      connectionType: 'gcs',
      description: 'CSV and Parquet files in a Google Cloud Storage bucket, read with a service account.',
      docsUrl: 'https://cloud.google.com/iam/docs/keys-create-delete',
      roles: ['source'],
      active: false,
      connections: 0,
      activeConnections: 0,
    });
    const settings = gcs.settings as Array<{ key: string; secret: boolean; required?: boolean; kind: string; default?: unknown }>;
    expect(settings.map((setting) => [setting.key, setting.kind, setting.secret])).toEqual([
      ['bucket', 'text', false],
      ['prefix', 'text', false],
      ['serviceAccountKey', 'password', true],
      ['endpoint', 'url', false],
    ]);
    expect(settings.find((setting) => setting.key === 'endpoint')!.default).toBe('https://storage.googleapis.com');
    const azureCard = cardOf(cards, 'azure_blob');
    expect((azureCard.settings as Array<{ key: string; when?: unknown }>).find((setting) => setting.key === 'sasToken')!.when).toEqual({
      authMethod: ['sas'],
    });
    expect(cardOf(cards, 'mysql').name).toBe('MySQL / MariaDB');
  });

  it("counts the company's connections of each integration and says which are in use, never another company's", async () => {
    const made = await call(server, 'POST', '/connections', {
      token: adminToken,
      body: { name: 'Old lake', type: 'azure_blob', settings: azureSettings() },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(
      (await call(server, 'PUT', `/connections/activate/${made.json().data.id}`, { token: adminToken, body: { isActive: false } }))
        .statusCode,
    ).toBe(200);
    const theirs = await call(server, 'POST', '/connections', {
      token: other.adminToken,
      body: { name: 'Their alerts', type: 'slack', settings: { webhookUrl: 'https://hooks.slack.com/services/T/B/x' } },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);

    const cards = (await call(server, 'GET', '/marketplace', { token: adminToken })).json().data;
    expect(cardOf(cards, 'azure_blob')).toMatchObject({ active: false, connections: 1, activeConnections: 0 });
    expect(cardOf(cards, 'slack')).toMatchObject({ active: false, connections: 0, activeConnections: 0 });
    const theirCards = (await call(server, 'GET', '/marketplace', { token: other.adminToken })).json().data;
    expect(cardOf(theirCards, 'slack')).toMatchObject({ active: true, connections: 1, activeConnections: 1 });
    expect(cardOf(theirCards, 'azure_blob')).toMatchObject({ active: false, connections: 0 });
  });
});

describe('POST /marketplace/configure', () => {
  it('makes the connection, tests it at once against the service, records the test and audits both', async () => {
    const before = await tally();
    const res = await configure(
      { integrationId: 'azure_blob', name: 'Data lake', description: 'Exports from the shop', settings: azureSettings() },
      configurer.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    const { message, data } = res.json();
    expect(message).toMatch(/^Connection "Data lake" created and tested: connected in \d+ ms$/);
    expect(data.test).toMatchObject({
      ok: true,
      detail: 'Container "lake": the first page under "exports/" listed 1 blob',
      message: expect.stringMatching(/^Connected in \d+ ms$/),
    });
    expect(typeof data.test.latencyMs).toBe('number');
    expect(data.connection).toMatchObject({
      name: 'Data lake',
      type: 'azure_blob',
      typeLabel: 'Azure Blob Storage',
      description: 'Exports from the shop',
      isSource: true,
      isDestination: false,
      isActive: true,
      settings: { accountName: AZURE_ACCOUNT, container: 'lake', prefix: 'exports/', authMethod: 'sharedKey', endpoint: azure.server.url },
      secretsSet: ['accountKey'],
      lastTestOk: true,
      lastTestLatencyMs: data.test.latencyMs,
    });
    expect(res.body).not.toContain(azure.accountKey);
    expect(await tally()).toEqual({ connections: before.connections + 1, audits: before.audits + 2 });

    const [created, tested] = await auditsOf(data.connection.id);
    expect(created).toMatchObject({ model: 'connection', operation: 'create', userId: configurer.id });
    expect(created!.changes).toMatchObject({
      after: { name: 'Data lake', type: 'azure_blob', integrationId: 'azure_blob', accountKey: '(changed)' },
    });
    expect(JSON.stringify(created!.changes)).not.toContain(azure.accountKey);
    expect(tested).toMatchObject({ model: 'connection', operation: 'test', changes: { after: { ok: true, message: data.test.message } } });

    // It is a connection like any other: what it reaches is the container's data files.
    const endpoints = await call(server, 'GET', `/connection/${data.connection.id}/endpoints`, { token: adminToken });
    expect(endpoints.json().data).toEqual([
      {
        id: 'exports/orders.csv',
        name: 'orders.csv',
        kind: 'file',
        format: 'csv',
        size: azure.blob('lake', 'exports/orders.csv')!.body.length,
        group: 'exports',
      },
    ]);
    const card = cardOf((await call(server, 'GET', '/marketplace', { token: adminToken })).json().data, 'azure_blob');
    expect(card).toMatchObject({ active: true, connections: 2, activeConnections: 1 });
  });

  it('configures a git repository on this machine, tested green', async () => {
    const res = await configure({ integrationId: 'git', name: 'SQL models', settings: { url: repoDir } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.test).toMatchObject({ ok: true, detail: 'Default branch main, 1 branch' });
    expect(res.json().data.connection).toMatchObject({ type: 'git', isSource: false, isDestination: false, lastTestOk: true });
  });

  it("keeps a connection whose test fails, and says so with the service's own words", async () => {
    const port = await closedPort();
    const res = await configure({
      integrationId: 'azure_blob',
      name: 'Lake behind a firewall',
      settings: azureSettings({ endpoint: `http://127.0.0.1:${port}` }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const failure = `Azure Blob Storage could not reach the service at 127.0.0.1:${port}`;
    expect(res.json().message).toBe(`Connection "Lake behind a firewall" created, but its test failed: ${failure}`);
    expect(res.json().data.test).toMatchObject({ ok: false, latencyMs: null, message: failure });
    expect(res.json().data.connection).toMatchObject({ lastTestOk: false, lastTestMessage: failure, isActive: true });
  });

  it('reports a key the service refuses as a failed test', async () => {
    const res = await configure({
      integrationId: 'azure_blob',
      name: 'Lake with an old key',
      settings: azureSettings({ accountKey: Buffer.alloc(64, 7).toString('base64') }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.test.message).toBe(
      'Azure Blob Storage: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. (AuthenticationFailed) (HTTP 403)',
    );
  });

  it('refuses bad bodies with a message naming the field, and stores nothing', async () => {
    const before = await tally();
    const refused = async (body: Record<string, unknown>, status = 400) => {
      const res = await configure(body);
      expect(res.statusCode, res.body).toBe(status);
      return res.json().message as string;
    };
    expect(await refused({ integrationId: 'ftp', name: 'X', settings: {} })).toBe(
      'integrationId: must be one of s3, gcs, azure_blob, slack, bitbucket, git, databricks, postgresql, mysql',
    );
    expect(await refused({ integrationId: 'gcs', settings: {} })).toBe('name: is required');
    // The integration stands for the type; a body cannot name another.
    expect(await refused({ integrationId: 'gcs', name: 'Bucket', type: 'files', settings: {} })).toBe('body: Unrecognized key: "type"');
    expect(await refused({ integrationId: 'gcs', name: 'Bucket', settings: { bucket: 'Not A Bucket' } })).toBe(
      'settings.bucket: must be a bucket name: 3 to 222 lowercase letters, digits, -, _ and .; settings.serviceAccountKey: is required',
    );
    expect(
      await refused({ integrationId: 'gcs', name: 'Bucket', settings: { bucket: 'data', serviceAccountKey: 'AIzaSy-not-a-key' } }),
    ).toBe('settings.serviceAccountKey: must be the JSON key file of a service account (with client_email and private_key)');
    expect(await refused({ integrationId: 'azure_blob', name: 'Lake', settings: azureSettings({ region: 'westeurope' }) })).toBe(
      'settings.region: is not a setting of Azure Blob Storage',
    );
    expect(await refused({ integrationId: 'azure_blob', name: 'Lake', isDestination: true, settings: azureSettings() })).toBe(
      'isDestination: a Azure Blob Storage connection cannot be a destination',
    );
    expect(await refused({ integrationId: 'azure_blob', name: 'Lake', settings: azureSettings({ authMethod: 'sas' }) })).toBe(
      'settings.sasToken: is required',
    );
    expect(
      await refused({
        integrationId: 'azure_blob',
        name: 'Lake',
        workspaceId: '00000000-0000-4000-8000-000000000000',
        settings: azureSettings(),
      }),
    ).toMatch(/^workspaceId: /);
    expect(await refused({ integrationId: 'azure_blob', name: 'data LAKE', settings: azureSettings() }, 409)).toBe(
      'name: a connection with this name already exists',
    );
    expect(await tally()).toEqual(before);
  });

  it('needs marketplace/create, whatever the connections policy says', async () => {
    const before = await tally();
    const body = { integrationId: 'git', name: 'Not allowed', settings: { url: repoDir } };
    for (const token of [reader.token, connectionsOnly.token, nobody.token]) {
      const res = await configure(body, token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: DENIED });
    }
    expect(await tally()).toEqual(before);
  });
});

describe('GET /marketplace/{id}/integration', () => {
  it("answers one integration with its settings form and the company's connections of it, secrets never", async () => {
    const res = await call(server, 'GET', '/marketplace/azure_blob/integration', { token: reader.token });
    expect(res.statusCode, res.body).toBe(200);
    const { integration, connections: rows } = res.json().data;
    expect(integration).toMatchObject({
      id: 'azure_blob',
      name: 'Azure Blob Storage',
      category: 'cloud_storage',
      active: true,
      connections: 4,
      activeConnections: 3,
    });
    expect(integration.settings.map((setting: { key: string }) => setting.key)).toEqual([
      'accountName',
      'container',
      'prefix',
      'authMethod',
      'accountKey',
      'sasToken',
      'endpoint',
    ]);
    expect(rows.map((row: { name: string }) => row.name)).toEqual([
      'Data lake',
      'Lake behind a firewall',
      'Lake with an old key',
      'Old lake',
    ]);
    expect(rows.every((row: { secretsSet: string[] }) => row.secretsSet.join() === 'accountKey')).toBe(true);
    expect(res.body).not.toContain(azure.accountKey);

    const theirs = (await call(server, 'GET', '/marketplace/azure_blob/integration', { token: other.adminToken })).json().data;
    expect(theirs.connections).toEqual([]);
    expect(theirs.integration).toMatchObject({ active: false, connections: 0 });
  });

  it('says an unknown integration is not found', async () => {
    const res = await call(server, 'GET', '/marketplace/dropbox/integration', { token: reader.token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Integration not found' });
  });
});

describe('GET /marketplace/active/cloudStorage/{id}', () => {
  it('answers the active cloud-storage connections of one integration or of all, by name, for pickers', async () => {
    const all = await call(server, 'GET', '/marketplace/active/cloudStorage/all', { token: reader.token });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((row: { name: string; integrationId: string }) => [row.name, row.integrationId])).toEqual([
      ['Data lake', 'azure_blob'],
      ['Lake behind a firewall', 'azure_blob'],
      ['Lake with an old key', 'azure_blob'],
    ]);
    const gcs = await call(server, 'GET', '/marketplace/active/cloudStorage/gcs', { token: reader.token });
    expect(gcs.json().data).toEqual([]);
    expect((await call(server, 'GET', '/marketplace/active/cloudStorage/all', { token: other.adminToken })).json().data).toEqual([]);
  });

  it('refuses an integration that is not cloud storage, and one that does not exist', async () => {
    const slack = await call(server, 'GET', '/marketplace/active/cloudStorage/slack', { token: reader.token });
    expect(slack.statusCode).toBe(400);
    expect(slack.json().message).toBe('id: "slack" is not a cloud-storage integration (one of s3, gcs, azure_blob, all)');
    expect((await call(server, 'GET', '/marketplace/active/cloudStorage/dropbox', { token: reader.token })).statusCode).toBe(404);
  });
});

describe('a cloud-storage connection made in the marketplace, at work', () => {
  let lakeId: string;
  beforeAll(async () => {
    azure.putBlob('lake', 'exports/payments.csv', 'id,amount,paid_on\n1,12.50,2026-10-01\n2,,2026-10-02\n3,99.99,2026-10-03\n');
    const res = await configure({ integrationId: 'azure_blob', name: 'Payments lake', settings: azureSettings() });
    expect(res.json().data.test.ok, res.body).toBe(true);
    lakeId = res.json().data.connection.id;
  });

  it('holds tables whose data-quality rules run on the file', async () => {
    const table = await call(server, 'POST', '/table', {
      token: adminToken,
      body: { connectionId: lakeId, endpoint: 'exports/payments.csv', name: 'payments' },
    });
    expect(table.statusCode, table.body).toBe(201);
    const tableId = table.json().data.id;
    const rule = await call(server, 'POST', `/table/dataQuality/${tableId}`, {
      token: adminToken,
      body: { name: 'Amount given', functionName: 'not_null', columnName: 'amount', severity: 'fail' },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const run = await call(server, 'POST', `/table/${tableId}/configure`, { token: adminToken });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data.results).toEqual([
      expect.objectContaining({ ruleName: 'Amount given', status: 'failed', rowsScanned: 3, rowsFailed: 1 }),
    ]);
  });

  it('is a source a workflow copies from', async () => {
    const warehouse = `market-wh-${Date.now().toString(36)}`;
    const warehouseId = await createConnection(server, adminToken, {
      name: 'Market warehouse',
      type: 'embedded',
      settings: { database: warehouse },
    });
    const pairId = await createPair(server, adminToken, lakeId, warehouseId);
    const copy = {
      id: 'copy-payments',
      name: 'Copy payments',
      type: 'copy' as const,
      from: { table: 'exports/payments.csv' },
      to: { table: 'public.payments', mode: 'create' },
    };
    const saved = await call(server, 'POST', '/workflow', { token: adminToken, body: { name: 'Load payments', pairId, tasks: [copy] } });
    expect(saved.statusCode, saved.body).toBe(201);
    const workflow = await createWorkflow(server, { name: 'Load payments, run by hand', pairId });
    expect(await runTask(server, copy, recordingContext(server, workflow))).toEqual({ rowsRead: 3, rowsWritten: 3 });
    const destination = server.app.ctx.connectors.open({
      companyId: server.company.companyId,
      type: 'embedded',
      settings: { database: warehouse },
      secrets: {},
    });
    if (!isTableSource(destination)) throw new Error('an embedded database is a table source');
    expect(
      await destination.query('select id, amount::text, paid_on::text from public.payments order by id', [], { timeoutMs: 10_000 }),
    ).toEqual([
      { id: 1, amount: '12.50', paid_on: '2026-10-01' },
      { id: 2, amount: null, paid_on: '2026-10-02' },
      { id: 3, amount: '99.99', paid_on: '2026-10-03' },
    ]);
  });
});

describe('access', () => {
  it('needs marketplace/read to read the marketplace', async () => {
    for (const route of ['/marketplace', '/marketplace/gcs/integration', '/marketplace/active/cloudStorage/all']) {
      for (const token of [nobody.token, connectionsOnly.token]) {
        const res = await call(server, 'GET', route, { token });
        expect(res.statusCode, route).toBe(403);
        expect(res.json()).toEqual({ message: DENIED });
      }
      expect((await call(server, 'GET', route)).statusCode, route).toBe(401);
    }
  });
});
