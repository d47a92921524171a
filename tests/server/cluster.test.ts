import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHaproxy, startCluster } from '../../scripts/cluster.mjs';
import { dropTestSchema } from './harness';
import { freePort, ROOT } from './processes';

/**
 * `npm run cluster` as an operator starts it (scripts/cluster.mjs): two servers that do not work
 * the queue, a worker, and HAProxy in front with health checks on the readiness probe, on a
 * PostgreSQL schema of their own. A session ended through the balancer is refused by every
 * server at once, a workflow queued through a server is run by the worker, and a server killed
 * with SIGKILL is taken out while the other goes on answering.
 */
const databaseUrl = process.env.DATABASE_URL;
const haproxy = findHaproxy();
if (databaseUrl && !haproxy && process.env.REQUIRE_TEST_DATABASES)
  throw new Error('HAProxy is needed for the cluster tests: apt-get install haproxy');
const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-cluster-'));
const admin = { email: 'admin@cluster.test', password: 'Cluster-admin-pass-1', companyHostname: 'cluster' };
let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
const output: string[] = [];

async function api(base: string, method: string, route: string, options: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: {
      ...(options.token ? { 'x-access-token': options.token } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function signIn(base: string): Promise<string> {
  const res = await api(base, 'POST', '/signin', { body: admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user.accessToken as string;
}

async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  if (!databaseUrl || !haproxy) return;
  const [port, first, second] = [await freePort(), await freePort(), await freePort()];
  cluster = await startCluster({
    databaseUrl,
    servers: 2,
    workers: 1,
    port,
    serverPorts: [first, second],
    dataDir,
    restart: false,
    print: (name: string, line: string) => output.push(`[${name}] ${line}`),
    env: {
      DATABASE_SCHEMA: schema,
      LOG_LEVEL: 'warn',
      BOOTSTRAP_COMPANY_HOSTNAME: admin.companyHostname,
      BOOTSTRAP_ADMIN_EMAIL: admin.email,
      BOOTSTRAP_ADMIN_PASSWORD: admin.password,
      BOOTSTRAP_SAMPLE_DATA: 'false',
      RATE_LIMIT_SESSION_PER_MINUTE: '0',
    },
  });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  if (databaseUrl) await dropTestSchema(databaseUrl, schema);
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

describe.runIf(databaseUrl && haproxy)('npm run cluster', () => {
  it('serves the console and the API through HAProxy, from either server', async () => {
    if (fs.existsSync(path.join(ROOT, 'dist', 'console', 'index.html'))) {
      const page = await fetch(`${cluster!.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
    }
    expect((await fetch(`${cluster!.url}/api/v1/health`)).status).toBe(200);
    const token = await signIn(cluster!.url);
    for (const server of cluster!.servers) expect((await api(server.url, 'GET', '/user/profile', { token })).status).toBe(200);
  });

  it('ends a session everywhere at once: a logout through the balancer is refused by both servers', async () => {
    const token = await signIn(cluster!.url);
    const [a, b] = cluster!.servers;
    expect((await api(b.url, 'GET', '/user/profile', { token })).status).toBe(200);
    expect((await api(a.url, 'PUT', '/session/logout', { token })).status).toBe(200);
    expect((await api(b.url, 'GET', '/user/profile', { token })).status).toBe(401);
    expect((await api(cluster!.url, 'GET', '/user/profile', { token })).status).toBe(401);
  });

  it('keeps answering when a server is killed, and takes it back once it is ready again', async () => {
    const token = await signIn(cluster!.url);
    const [victim] = cluster!.servers;
    await victim.kill();
    // Calls that change nothing are sent to the other server, even those under way at the kill.
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(cluster!.url, 'GET', '/user/profile', { token })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    victim.start();
    await cluster!.ready(victim);
    expect((await api(victim.url, 'GET', '/user/profile', { token })).status).toBe(200);
  });

  it("runs the workflows queued through a server on the worker's process", async () => {
    const token = await signIn(cluster!.url);
    const connection = async (body: Record<string, unknown>) => {
      const res = await api(cluster!.url, 'POST', '/connections', { token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    const sourceId = await connection({ name: 'Cluster source', type: 'embedded', settings: { database: 'cluster-source' } });
    const destinationId = await connection({
      name: 'Cluster lake',
      type: 'embedded',
      isSource: false,
      isDestination: true,
      settings: { database: 'cluster-lake' },
    });
    const pairId = crypto.randomUUID();
    const paired = await api(cluster!.url, 'PUT', `/source/destination/${pairId}`, { token, body: { sourceId, destinationId } });
    expect(paired.status, JSON.stringify(paired.body)).toBe(201);
    const tasks = [{ id: 'tell', name: 'Tell the team', type: 'notify', message: 'Done' }];
    const created = await api(cluster!.url, 'POST', '/workflow', { token, body: { name: 'Cluster check', pairId, tasks } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const queued = await api(cluster!.url, 'POST', `/workflow/run/${created.body.data.jobId}`, { token });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const runId = queued.body.data.id as string;
    const status = await until(async () => {
      const run = await api(cluster!.url, 'GET', `/jobRunTracker/${runId}`, { token });
      const value = run.body?.data?.status as string | undefined;
      return value === 'succeeded' || value === 'failed' ? value : undefined;
    }, 60_000);
    expect(status, output.slice(-30).join('\n')).toBe('succeeded');
  });
});
