import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { findHaproxy, startCluster } from '../../scripts/cluster.mjs';
import { dropTestSchema } from './harness';
import { freePort } from './processes';

/** `npm run cluster` (scripts/cluster.mjs) started by a test, on a PostgreSQL schema of its own. */

export const clusterDatabaseUrl = process.env.DATABASE_URL;
export const haproxy = findHaproxy();
if (clusterDatabaseUrl && !haproxy && process.env.REQUIRE_TEST_DATABASES)
  throw new Error('HAProxy is needed for the cluster tests: apt-get install haproxy');
/** Whether the cluster tests can run here: PostgreSQL and HAProxy. */
export const clusterCanRun = Boolean(clusterDatabaseUrl && haproxy);

export const CLUSTER_ADMIN = { email: 'admin@cluster.test', password: 'Cluster-admin-pass-1', companyHostname: 'cluster' };

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

export interface TestCluster {
  cluster: Cluster;
  /** What its members printed, named. */
  output: string[];
  close(): Promise<void>;
}

export async function startTestCluster(options: {
  servers: number;
  workers: number;
  compiled?: boolean;
  user?: string;
}): Promise<TestCluster> {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-cluster-'));
  const output: string[] = [];
  const port = await freePort();
  const serverPorts: number[] = [];
  for (let n = 0; n < options.servers; n++) serverPorts.push(await freePort());
  const close = async () => {
    await cluster?.stop();
    await dropTestSchema(clusterDatabaseUrl!, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster({
      ...options,
      databaseUrl: clusterDatabaseUrl,
      port,
      serverPorts,
      dataDir,
      restart: false,
      print: (name: string, line: string) => output.push(`[${name}] ${line}`),
      env: {
        DATABASE_SCHEMA: schema,
        LOG_LEVEL: 'warn',
        BOOTSTRAP_COMPANY_HOSTNAME: CLUSTER_ADMIN.companyHostname,
        BOOTSTRAP_ADMIN_EMAIL: CLUSTER_ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: CLUSTER_ADMIN.password,
        BOOTSTRAP_SAMPLE_DATA: 'false',
        RATE_LIMIT_SESSION_PER_MINUTE: '0',
      },
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { cluster, output, close };
}

export async function api(base: string, method: string, route: string, options: { token?: string; body?: unknown } = {}) {
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

export async function signInTo(base: string): Promise<string> {
  const res = await api(base, 'POST', '/signin', { body: CLUSTER_ADMIN });
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

/** Queues a one-task workflow (a notice) through `base` and answers how its run ended. */
export async function runAWorkflow(base: string, token: string, tag: string): Promise<string> {
  const connection = async (body: Record<string, unknown>) => {
    const res = await api(base, 'POST', '/connections', { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const sourceId = await connection({ name: `${tag} source`, type: 'embedded', settings: { database: `${tag}-source` } });
  const destinationId = await connection({
    name: `${tag} lake`,
    type: 'embedded',
    isSource: false,
    isDestination: true,
    settings: { database: `${tag}-lake` },
  });
  const pairId = crypto.randomUUID();
  const paired = await api(base, 'PUT', `/source/destination/${pairId}`, { token, body: { sourceId, destinationId } });
  expect(paired.status, JSON.stringify(paired.body)).toBe(201);
  const tasks = [{ id: 'tell', name: 'Tell the team', type: 'notify', message: 'Done' }];
  const created = await api(base, 'POST', '/workflow', { token, body: { name: `${tag} check`, pairId, tasks } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const queued = await api(base, 'POST', `/workflow/run/${created.body.data.jobId}`, { token });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  const runId = queued.body.data.id as string;
  return until(async () => {
    const run = await api(base, 'GET', `/jobRunTracker/${runId}`, { token });
    const value = run.body?.data?.status as string | undefined;
    return value === 'succeeded' || value === 'failed' ? value : undefined;
  }, 60_000);
}
