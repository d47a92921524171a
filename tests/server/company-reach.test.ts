import crypto from 'node:crypto';
import fs from 'node:fs';
import net, { type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSecrets } from '../../server/connections/records';
import { isTableSource } from '../../server/connectors/types';
import { connections } from '../../server/db/schema';
import type { CheckedTarget } from '../../server/reach/reach';
import { parseIp, specialKind } from '../../server/reach/addresses';
import { parseHostRules } from '../../server/reach/host-rules';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin } from './helpers';
import { changedTables, companyTables, tenantDigester, type TenantDigest } from './hostile/digest';
import { sendJson, startLocalServer, type LocalServer } from './connectors/fixtures-remote/local-server';
import { testResolver } from './connectors/test-context';
import { createPair, createWorkflow, failureOf, recordingContext, runTask } from './jobs/tasks-helpers';

/**
 * What a company configures, attacked as a company's admin would attack it, on a server that
 * hosts another company and keeps the policy a server has out of the box (sign-up open, no
 * operator lists): every host a connection or the email settings name is refused with a 400
 * before it is dialled, in every spelling of a special address and through a name that resolves
 * to one; a stored connection that names one fails its test and its runs with the same words; a
 * folder, repository or embedded database of the other company is a missing thing of this one;
 * and remote services never have their answers echoed. After each attack, the other company's
 * rows (and its embedded database) are hashed and must be as they were.
 *
 * The attacker is the test server's own company (Acme); the victim is Globex. The server's names
 * are resolved by a resolver that knows a few test names and sends no lookup anywhere.
 */

const NAMES = {
  'evil.test': '127.0.0.1',
  'rebind.test': ['93.184.216.34', '127.0.0.1'],
  'private.test': '10.20.30.40',
  'metadata.test': '169.254.169.254',
  'v6.test': '::1',
};

const SPECIAL_HOSTS: Array<[string, string]> = [
  ['127.0.0.1', '127.0.0.1 (a loopback address)'],
  ['127.1', '127.0.0.1 (a loopback address)'],
  ['0x7f000001', '127.0.0.1 (a loopback address)'],
  ['2130706433', '127.0.0.1 (a loopback address)'],
  ['0177.0.0.1', '127.0.0.1 (a loopback address)'],
  ['[::1]', '::1 (a loopback address)'],
  ['::ffff:127.0.0.1', '::ffff:127.0.0.1 (a loopback address)'],
  ['localhost', 'localhost (it resolves to 127.0.0.1, a loopback address)'],
  ['localhost.', 'localhost. (it resolves to 127.0.0.1, a loopback address)'],
  ['evil.test', 'evil.test (it resolves to 127.0.0.1, a loopback address)'],
  ['rebind.test', 'rebind.test (it resolves to 127.0.0.1, a loopback address)'],
  ['private.test', 'private.test (it resolves to 10.20.30.40, a private address)'],
  ['metadata.test', 'metadata.test (it resolves to 169.254.169.254, a cloud metadata address)'],
  ['v6.test', 'v6.test (it resolves to ::1, a loopback address)'],
  ['10.0.0.5', '10.0.0.5 (a private address)'],
  ['172.16.3.4', '172.16.3.4 (a private address)'],
  ['192.168.1.1', '192.168.1.1 (a private address)'],
  ['169.254.169.254', '169.254.169.254 (a cloud metadata address)'],
  ['100.64.0.1', '100.64.0.1 (a carrier-grade NAT address)'],
  ['fd00::1', 'fd00::1 (a unique-local address)'],
  ['fe80::1', 'fe80::1 (a link-local address)'],
  ['0.0.0.0', '0.0.0.0 (an unspecified address)'],
];

const refusal = (field: string, what: string) =>
  `${field}: This server does not let companies connect to ${what}. An operator can allow it with CONNECTION_ALLOWED_HOSTS.`;

let server: TestServer;
let token: string;
let victim: Awaited<ReturnType<typeof createOtherCompany>>;
let victimDigest: () => Promise<TenantDigest>;
let victimBaseline: TenantDigest;
let victimShop: () => Promise<string>;
let victimShopBaseline: string;
let granted: string;
const dials: CheckedTarget[] = [];
/** Fakes the operator allowed by port (CONNECTION_ALLOWED_HOSTS), and ports it did not. */
let redirecting: LocalServer;
let chatty: LocalServer;
let inside: LocalServer;
let notHttp: net.Server;
let notHttpConnections = 0;
/** Its sockets, ended at the close even if a client keeps its side open. */
const notHttpSockets = new Set<Socket>();
/** An allowed port with nothing behind it. */
let closedAllowedPort: number;
/** The ports the operator allowed: every dial of this file must be to one of them. */
const allowedPorts: number[] = [];

function keyJson(tokenUri: string): string {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return JSON.stringify({
    type: 'service_account',
    client_email: 'reader@acme-data.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    token_uri: tokenUri,
  });
}

async function connectionsOfAttacker(): Promise<number> {
  const res = await call(server, 'GET', '/connections/0/500', { token });
  return (res.json().data.rows as unknown[]).length;
}

/** Saving this body is refused with `message`, stores nothing, dials nothing, and leaves the victim as it was. */
async function expectRefusedSave(body: Record<string, unknown>, message: string | RegExp) {
  const before = await connectionsOfAttacker();
  const dialled = dials.length;
  const res = await call(server, 'POST', '/connections', { token, body });
  expect(res.statusCode, res.body).toBe(400);
  if (typeof message === 'string') expect(res.json().message).toBe(message);
  else expect(res.json().message).toMatch(message);
  expect(await connectionsOfAttacker()).toBe(before);
  expect(dials.length, 'nothing was dialled').toBe(dialled);
}

async function expectVictimUntouched() {
  expect(changedTables(victimBaseline, await victimDigest())).toEqual([]);
  expect(await victimShop()).toBe(victimShopBaseline);
}

beforeAll(async () => {
  granted = fs.mkdtempSync(path.join(os.tmpdir(), 'reach-granted-'));
  inside = await startLocalServer((_request, response) => sendJson(response, 200, { inside: true, secret: 'internal-only' }));
  redirecting = await startLocalServer((_request, response) => {
    response.writeHead(302, { location: `${inside.url}/api/auth.test` }).end();
  });
  // An internal service's answer: 596 characters of JSON that must never come back in a message.
  const internal = JSON.stringify({
    service: 'billing-internal',
    build: 'x'.repeat(420),
    token: 'internal-token-0001',
    note: 'should never leave the network',
  });
  chatty = await startLocalServer((_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' }).end(internal);
  });
  notHttp = net.createServer((socket: Socket) => {
    notHttpConnections += 1;
    notHttpSockets.add(socket);
    socket.on('close', () => notHttpSockets.delete(socket));
    socket.end('SSH-2.0-OpenSSH_9.2\r\n');
  });
  await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
  const notHttpPort = (notHttp.address() as AddressInfo).port;
  const closing = await startLocalServer(() => undefined);
  await closing.close();
  closedAllowedPort = closing.port;
  allowedPorts.push(redirecting.port, chatty.port, notHttpPort, closedAllowedPort);
  server = await createTestServer(
    {
      // The operator allowed four ports of this machine (the fakes), nothing else of it; sign-up is open.
      reach: {
        allowedHosts: parseHostRules('CONNECTION_ALLOWED_HOSTS', allowedPorts.map((port) => `127.0.0.1:${port}`).join(',')),
        deniedHosts: [],
      },
      filesRoots: [granted],
    },
    { reach: { resolve: testResolver(NAMES), onDial: (target) => dials.push(target) } },
  );
  token = (await signInAdmin(server)).accessToken!;

  victim = await createOtherCompany(server, 'globex');
  const shop = await call(server, 'POST', '/connections', {
    token: victim.adminToken,
    body: { name: 'Sample shop', type: 'embedded', settings: { database: 'sample-shop' } },
  });
  expect(shop.statusCode, shop.body).toBe(201);
  const source = server.app.ctx.connectors.open({
    companyId: victim.companyId,
    type: 'embedded',
    settings: { database: 'sample-shop' },
    secrets: {},
  });
  if (!isTableSource(source)) throw new Error('an embedded database is a table source');
  await source.query("create table public.customers as select n as id, 'customer ' || n as name from generate_series(1, 50) n", [], {
    timeoutMs: 30_000,
  });
  victimShop = async () => {
    const [row] = await source.query<{ digest: string }>(
      "select md5(string_agg(id || ':' || name, ',' order by id)) as digest from public.customers",
      [],
      { timeoutMs: 30_000 },
    );
    return String(row?.digest);
  };
  fs.mkdirSync(path.join(granted, victim.companyId), { recursive: true });
  fs.writeFileSync(path.join(granted, victim.companyId, 'salaries.csv'), 'name,salary\nAda,100\n');
  victimDigest = tenantDigester(server.db, await companyTables(server.db), victim.companyId);
  victimBaseline = await victimDigest();
  victimShopBaseline = await victimShop();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await Promise.all([inside?.close(), redirecting?.close(), chatty?.close()]);
  for (const socket of notHttpSockets) socket.destroy();
  await new Promise((resolve) => notHttp?.close(resolve));
  if (granted) fs.rmSync(granted, { recursive: true, force: true });
});

describe('hosts a connection names', () => {
  it.each(SPECIAL_HOSTS)('refuses a PostgreSQL server at %s before dialling it', async (host, what) => {
    await expectRefusedSave(
      { name: `PG ${host}`, type: 'postgresql', settings: { host, port: 6543, database: 'test', user: 'postgres' } },
      refusal('settings.host', what),
    );
    await expectVictimUntouched();
  });

  it('refuses every host-bearing type, in the setting that names it', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { type: 'mysql', settings: { host: '127.1', port: 3306, database: 'test', user: 'root' } },
        'settings.host',
        '127.0.0.1 (a loopback address)',
      ],
      [
        {
          type: 's3',
          settings: { endpoint: 'http://127.1:9000', bucket: 'data', accessKeyId: 'AKID', secretAccessKey: 'secret', pathStyle: true },
        },
        'settings.endpoint',
        '127.0.0.1 (a loopback address)',
      ],
      [
        {
          type: 's3',
          settings: { endpoint: 'http://evil.test:9000', bucket: 'data', accessKeyId: 'AKID', secretAccessKey: 'secret', pathStyle: true },
        },
        'settings.endpoint',
        'evil.test (it resolves to 127.0.0.1, a loopback address)',
      ],
      [
        {
          type: 'gcs',
          settings: { bucket: 'data', endpoint: 'http://[::1]:4443', serviceAccountKey: keyJson('https://oauth2.googleapis.com/token') },
        },
        'settings.endpoint',
        '::1 (a loopback address)',
      ],
      [
        { type: 'gcs', settings: { bucket: 'data', serviceAccountKey: keyJson('http://127.0.0.1:8080/token') } },
        'settings.serviceAccountKey',
        '127.0.0.1 (a loopback address)',
      ],
      [
        {
          type: 'azure_blob',
          settings: {
            accountName: 'lake',
            container: 'data',
            authMethod: 'sas',
            sasToken: 'sv=1&sig=x',
            endpoint: 'http://localhost:10000',
          },
        },
        'settings.endpoint',
        'localhost (it resolves to 127.0.0.1, a loopback address)',
      ],
      [
        { type: 'databricks', settings: { host: 'http://0x7f000001:8080', token: 'dapi-1' } },
        'settings.host',
        '127.0.0.1 (a loopback address)',
      ],
      [
        { type: 'slack', settings: { mode: 'webhook', webhookUrl: 'http://127.0.0.1:9/hooks/x' } },
        'settings.webhookUrl',
        '127.0.0.1 (a loopback address)',
      ],
      [
        { type: 'slack', settings: { mode: 'bot', botToken: 'xoxb-1', apiUrl: 'https://metadata.test/api' } },
        'settings.apiUrl',
        'metadata.test (it resolves to 169.254.169.254, a cloud metadata address)',
      ],
      [
        { type: 'bitbucket', settings: { workspace: 'acme', email: 'ci@acme.test', apiToken: 'pw', apiUrl: 'https://private.test/2.0' } },
        'settings.apiUrl',
        'private.test (it resolves to 10.20.30.40, a private address)',
      ],
      [
        { type: 'git', settings: { url: 'http://[::ffff:127.0.0.1]:3000/team/sql.git' } },
        'settings.url',
        '::ffff:127.0.0.1 (a loopback address)',
      ],
    ];
    for (const [body, field, what] of cases) {
      await expectRefusedSave({ name: `Attack ${crypto.randomBytes(3).toString('hex')}`, ...body }, refusal(field, what));
    }
    await expectVictimUntouched();
  });

  it('refuses the same when the settings are edited or only tested, and keeps the stored ones', async () => {
    const made = await call(server, 'POST', '/connections', {
      token,
      body: { name: 'Warehouse', type: 'postgresql', settings: { host: 'db.example.test', port: 5432, database: 'dw', user: 'etl' } },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json().data;
    const edited = await call(server, 'PUT', `/connection/${id}`, {
      token,
      body: { settings: { host: '127.1', port: 6543, database: 'dw', user: 'etl' } },
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(refusal('settings.host', '127.0.0.1 (a loopback address)'));
    expect((await call(server, 'GET', `/connection/${id}`, { token })).json().data.settings.host).toBe('db.example.test');
    const tested = await call(server, 'POST', `/connection/${id}/configure`, {
      token,
      body: { settings: { host: 'evil.test', port: 6543, database: 'dw', user: 'etl' } },
    });
    expect(tested.statusCode).toBe(400);
    expect(tested.json().message).toBe(refusal('settings.host', 'evil.test (it resolves to 127.0.0.1, a loopback address)'));
    expect(dials.filter((target) => target.host !== 'db.example.test')).toEqual([]);
  });

  it('refuses the email settings and a test mail through a mail server it may not reach', async () => {
    const saved = await call(server, 'PUT', '/settings/email', { token, body: { host: '127.1', port: 25, fromAddress: 'ops@acme.test' } });
    expect(saved.statusCode, saved.body).toBe(400);
    expect(saved.json().message).toBe(
      'host: This server does not let companies connect to 127.0.0.1 (a loopback address). An operator can allow it with CONNECTION_ALLOWED_HOSTS.',
    );
    const tested = await call(server, 'POST', '/settings/email/test', {
      token,
      body: { settings: { host: 'metadata.test', port: 587, fromAddress: 'ops@acme.test' } },
    });
    expect(tested.statusCode, tested.body).toBe(400);
    expect(tested.json().message).toContain('metadata.test (it resolves to 169.254.169.254, a cloud metadata address)');
    expect(dials).toEqual([]);
  });
});

describe('a connection stored before the policy refused it', () => {
  let pgId: string;
  /** 127.0.0.1:5432 is loopback; on PostgreSQL it is the console's own database too, which the refusal names first. */
  const STORED_REFUSAL = process.env.DATABASE_URL ? "127.0.0.1:5432 (the console's own database)" : '127.0.0.1 (a loopback address)';

  beforeAll(async () => {
    // As if saved while the operator allowed it: this server's own PostgreSQL, with its ambient credentials.
    const [row] = await server.db
      .insert(connections)
      .values({
        companyId: server.company.companyId,
        name: 'The server next door',
        type: 'postgresql',
        isSource: true,
        isDestination: true,
        settings: { host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres', ssl: 'disable' },
        secretsEnc: sealSecrets(server.app.ctx.secrets, {}),
        createdBy: server.company.adminUserId,
      })
      .returning({ id: connections.id });
    pgId = row!.id;
  });

  it('fails its test with the refusal, recorded, and lists nothing', async () => {
    const tested = await call(server, 'POST', `/connection/${pgId}/configure`, { token });
    expect(tested.statusCode).toBe(400);
    expect(tested.json().message).toBe(refusal('settings.host', STORED_REFUSAL));
    expect((await call(server, 'GET', `/connection/${pgId}`, { token })).json().data).toMatchObject({
      lastTestOk: false,
      lastTestMessage: tested.json().message,
    });
    const endpoints = await call(server, 'GET', `/connection/${pgId}/endpoints`, { token });
    expect(endpoints.statusCode).toBe(400);
    expect(endpoints.json().message).toBe(
      `This server does not let companies connect to ${STORED_REFUSAL}. An operator can allow it with CONNECTION_ALLOWED_HOSTS.`,
    );
    expect(dials).toEqual([]);
  });

  it('fails a copy that would read or write it, with the same words, and touches no other company', async () => {
    const lake = await call(server, 'POST', '/connections', {
      token,
      body: { name: 'Lake', type: 'embedded', isSource: true, isDestination: true, settings: { database: 'lake' } },
    });
    expect(lake.statusCode, lake.body).toBe(201);
    const pairId = await createPair(server, token, lake.json().data.id, pgId);
    const workflow = await createWorkflow(server, { name: 'Plant an admin', pairId });
    const message = await failureOf(
      runTask(
        server,
        {
          id: 'copy',
          name: 'Copy',
          type: 'copy',
          from: { query: 'select 1 as id' },
          to: { table: 'public.users', mode: 'append' },
        } as never,
        recordingContext(server, workflow),
      ),
    );
    expect(message).toContain(`This server does not let companies connect to ${STORED_REFUSAL}`);
    expect(dials).toEqual([]);
    await expectVictimUntouched();
  });
});

describe("another company's local things", () => {
  it("opens another company's embedded database name as a new, empty one of this company", async () => {
    const mine = await call(server, 'POST', '/connections', {
      token,
      body: { name: 'Their shop?', type: 'embedded', settings: { database: 'sample-shop' } },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const endpoints = await call(server, 'GET', `/connection/${mine.json().data.id}/endpoints`, { token });
    expect(endpoints.statusCode, endpoints.body).toBe(200);
    expect(endpoints.json().data).toEqual([]);
    await expectVictimUntouched();
  });

  it.each([
    ['/', '/'],
    ['/etc', '/etc'],
    ['file:///etc', 'file:///etc'],
    ['../../', '../../'],
    ['exports/../../..', 'exports/../../..'],
  ])('refuses a files connection at %s', async (folder) => {
    const res = await call(server, 'POST', '/connections', {
      token,
      body: { name: `Files ${crypto.randomBytes(3).toString('hex')}`, type: 'files', settings: { path: folder } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^settings\.path: this server does not let companies (read|use) /);
    await expectVictimUntouched();
  });

  it("refuses the other company's folder of a granted root, and a link out of this company's own", async () => {
    const theirs = await call(server, 'POST', '/connections', {
      token,
      body: { name: 'Their salaries', type: 'files', settings: { path: path.join(granted, victim.companyId) } },
    });
    expect(theirs.statusCode, theirs.body).toBe(400);
    // Whether it exists or not, it reads as a folder of this company that does not exist.
    expect(theirs.json().message).toBe(`settings.path: the folder ${path.join(granted, victim.companyId)} does not exist`);
    const own = path.join(granted, server.company.companyId);
    fs.mkdirSync(own, { recursive: true });
    fs.symlinkSync(path.join(granted, victim.companyId), path.join(own, 'shortcut'));
    const linked = await call(server, 'POST', '/connections', {
      token,
      body: { name: 'Shortcut', type: 'files', settings: { path: path.join(own, 'shortcut') } },
    });
    expect(linked.statusCode, linked.body).toBe(400);
    await expectVictimUntouched();
  });

  it.each([['/work'], ['file:///tmp'], ['../git-cache']])('refuses a git repository at %s on this machine', async (url) => {
    const res = await call(server, 'POST', '/connections', {
      token,
      body: { name: `Repo ${crypto.randomBytes(3).toString('hex')}`, type: 'git', settings: { url } },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^settings\.url: /);
  });
});

describe('what remote services answer', () => {
  const testOf = async (body: Record<string, unknown>) => {
    const made = await call(server, 'POST', '/connections', {
      token,
      body: { name: `Remote ${crypto.randomBytes(3).toString('hex')}`, ...body },
    });
    expect(made.statusCode, made.body).toBe(201);
    const tested = await call(server, 'POST', `/connection/${made.json().data.id}/configure`, { token });
    expect(tested.statusCode, tested.body).toBe(200);
    return tested.json().data as { ok: boolean; message: string };
  };

  it('never echoes an answer that is not the service’s own error field', async () => {
    const outcome = await testOf({ type: 'slack', settings: { mode: 'bot', botToken: 'xoxb-1', apiUrl: `${chatty.url}/api` } });
    expect(outcome).toMatchObject({ ok: false, message: 'Slack: internal error (HTTP 500)' });
    expect(outcome.message).not.toContain('internal-token');
    const webhook = await testOf({ type: 'slack', settings: { mode: 'webhook', webhookUrl: `${chatty.url}/hooks/x` } });
    // A webhook's test posts a message: a 5xx may have posted it, so it is not sent again, and the message says so.
    expect(webhook.message).toBe('Slack: internal error (HTTP 500); not sent again, as Slack may have acted on it');
  });

  it('does not follow a redirect to a host it may not reach, and that host sees nothing', async () => {
    const before = inside.requests.length;
    const outcome = await testOf({ type: 'slack', settings: { mode: 'bot', botToken: 'xoxb-1', apiUrl: `${redirecting.url}/api` } });
    expect(outcome.ok).toBe(false);
    const git = await testOf({ type: 'git', settings: { url: `${redirecting.url}/team/sql.git` } });
    expect(git.ok).toBe(false);
    expect(git.message).toContain('This server does not let companies connect to 127.0.0.1 (a loopback address)');
    expect(inside.requests.length).toBe(before);
  });

  it('reads a refused port, a closed one and one that does not speak HTTP alike', async () => {
    const notHttpPort = (notHttp.address() as AddressInfo).port;
    const spoken = await testOf({ type: 'databricks', settings: { host: `http://127.0.0.1:${notHttpPort}`, token: 'dapi-1' } });
    expect(notHttpConnections).toBeGreaterThan(0);
    expect(spoken).toMatchObject({ ok: false, message: `Databricks could not reach the service at 127.0.0.1:${notHttpPort}` });
    const refused = await testOf({ type: 'databricks', settings: { host: `http://127.0.0.1:${closedAllowedPort}`, token: 'dapi-1' } });
    expect(refused.message).toBe(`Databricks could not reach the service at 127.0.0.1:${closedAllowedPort}`);
  });
});

describe('every dial of this file', () => {
  it('went to a port the operator allowed, and nowhere else', () => {
    expect(dials.length).toBeGreaterThan(0);
    for (const target of dials) {
      expect(allowedPorts, `${target.host}:${target.port}`).toContain(target.port);
      expect(target.addresses.map((entry) => specialKind(parseIp(entry.address)!))).toEqual(target.addresses.map(() => 'loopback'));
    }
  });
});

describe('embedded databases a company may have', () => {
  it('refuses, when it is saved, one database more than the company may have, naming the setting an operator changes', async () => {
    const small = await createTestServer({ embedded: { maxPerCompany: 1, idleSeconds: 300, buffersMb: 16 } }, { embeddedOnDisk: true });
    try {
      const admin = (await signInAdmin(small)).accessToken!;
      const first = await call(small, 'POST', '/connections', {
        token: admin,
        body: { name: 'First', type: 'embedded', settings: { database: 'first' } },
      });
      expect(first.statusCode, first.body).toBe(201);
      expect((await call(small, 'POST', `/connection/${first.json().data.id}/configure`, { token: admin })).json().data.ok).toBe(true);
      // The same database again is no new one.
      expect(
        (
          await call(small, 'POST', '/connections', {
            token: admin,
            body: { name: 'First again', type: 'embedded', settings: { database: 'first' } },
          })
        ).statusCode,
      ).toBe(201);
      const second = await call(small, 'POST', '/connections', {
        token: admin,
        body: { name: 'Second', type: 'embedded', settings: { database: 'second' } },
      });
      expect(second.statusCode, second.body).toBe(400);
      expect(second.json().message).toMatch(/EMBEDDED_DATABASES_PER_COMPANY/);
      expect(
        ((await call(small, 'GET', '/connections/0/50', { token: admin })).json().data.rows as Array<{ name: string }>).map(
          (row) => row.name,
        ),
      ).not.toContain('Second');
    } finally {
      await small.close();
    }
  });
});

describe("the console's own database", () => {
  it('is refused even where the operator allows its network, unless an entry names its port', async () => {
    // The server's own PostgreSQL (on the embedded database, the same address stands for it): the attack read password hashes through it.
    const own = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
    const host = own.hostname;
    const port = Number(own.port || 5432);
    const network = await createTestServer({
      databaseUrl: own.href,
      reach: { allowedHosts: parseHostRules('CONNECTION_ALLOWED_HOSTS', '127.0.0.0/8,[::1]'), deniedHosts: [] },
    });
    try {
      const admin = (await signInAdmin(network)).accessToken!;
      const next = await createOtherCompany(network, 'neighbour');
      const before = await tenantDigester(network.db, await companyTables(network.db), next.companyId)();
      const attack = await call(network, 'POST', '/connections', {
        token: admin,
        body: {
          name: 'Next door',
          type: 'postgresql',
          settings: { host, port, database: own.pathname.slice(1) || 'test', user: 'postgres' },
        },
      });
      expect(attack.statusCode, attack.body).toBe(400);
      expect(attack.json().message).toBe(
        host === '127.0.0.1'
          ? "settings.host: This server does not let companies connect to 127.0.0.1:5432 (the console's own database). An operator can allow it with CONNECTION_ALLOWED_HOSTS.".replace(
              '5432',
              String(port),
            )
          : expect.stringContaining("(the console's own database)"),
      );
      // Another port of the same allowed network is the operator's choice to give.
      const beside = await call(network, 'POST', '/connections', {
        token: admin,
        body: { name: 'Beside it', type: 'postgresql', settings: { host, port: port + 1, database: 'test', user: 'postgres' } },
      });
      expect(beside.statusCode, beside.body).toBe(201);
      expect(changedTables(before, await tenantDigester(network.db, await companyTables(network.db), next.companyId)())).toEqual([]);
    } finally {
      await network.close();
    }
  });
});
