import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { count, eq, inArray, ne, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig, type Config } from '../../server/config';
import { selectRows, type Db } from '../../server/db/client';
import { jobRuns, mailOutbox } from '../../server/db/schema';
import { metricsAddress, METRICS_TOKEN_MESSAGE } from '../../server/http/metrics';
import { JobQueue, queueSchemaOf } from '../../server/jobs/queue';
import type { AppContext } from '../../server/platform/context';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';

/**
 * GET /api/v1/metrics (Prometheus text): off unless METRICS_TOKEN or METRICS_PORT says how it is
 * protected; requests by route pattern, refused sign-ins, the job queue and runs, the unsent mail
 * and the database pool, read at scrape time within a time limit.
 */

const TOKEN = 'metrics-token-0123456789abcdef';

let server: TestServer;
let adminToken: string;
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await server?.close();
});

/** Another app on the same database, with the metrics set as given. */
async function appWith(metrics: Partial<Config['metrics']>, ctx: Partial<AppContext> = {}, consoleDir?: string): Promise<FastifyInstance> {
  const base = server.app.ctx;
  const config: Config = { ...base.config, metrics: { token: undefined, port: undefined, host: '127.0.0.1', ...metrics } };
  const app = await buildApp(
    { ...base, ...ctx, config: consoleDir ? { ...config, consoleDir } : config },
    { poolStats: server.database.poolStats, embeddedMemoryBytes: server.database.embeddedMemoryBytes, serveConsole: Boolean(consoleDir) },
  );
  extraApps.push(app);
  await app.ready();
  return app;
}

function scrape(app: FastifyInstance, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  return app.inject({ method: 'GET', url: '/api/v1/metrics', headers });
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const labels = Object.fromEntries([...(match![2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match![1], labels, value: Number(match![3]) };
    });
}

/** The value of the one sample with this name and these labels (among others), or undefined. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

async function scrapeSamples(app: FastifyInstance): Promise<Sample[]> {
  const res = await scrape(app);
  expect(res.statusCode, res.body).toBe(200);
  return samplesOf(res.body);
}

describe('the settings', () => {
  it('leave the metrics off by default, and on a port of their own bound to this machine only when asked', () => {
    expect(readConfig({}).metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(readConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({
      token: TOKEN,
      port: 9464,
      host: '10.0.0.5',
    });
  });

  it('refuse a guessable token and a metrics port that is the server’s own', () => {
    expect(() => readConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => readConfig({ METRICS_TOKEN: 'has spaces in it, sixteen+' })).toThrow(/METRICS_TOKEN/);
    expect(() => readConfig({ METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from PORT/);
    expect(() => readConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be a port number/);
  });
});

describe('GET /api/v1/metrics', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await appWith({ token: TOKEN });
  });

  it('is not served at all while the operator has not protected it', async () => {
    const res = await call(server, 'GET', '/metrics', { token: adminToken });
    expect(res.statusCode).toBe(404);
  });

  it('asks for the token, and says how to send it', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abcdef' },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
      { 'x-access-token': adminToken },
    ];
    for (const headers of refused) {
      const res = await scrape(app, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual({ message: METRICS_TOKEN_MESSAGE });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('answers Prometheus text to the token, with the process figures', async () => {
    const res = await scrape(app, { authorization: `bearer ${TOKEN}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const samples = samplesOf(res.body);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(samples, 'dataops_metrics_database_up')).toBe(1);
  });

  it('times requests by route pattern, never by their URL', async () => {
    const missingId = crypto.randomUUID();
    const token = (await signInAdmin(server)).accessToken!;
    expect((await app.inject({ method: 'GET', url: `/api/v1/role/${missingId}`, headers: { 'x-access-token': token } })).statusCode).toBe(
      404,
    );
    await app.inject({ method: 'GET', url: '/api/v1/roles/0/10', headers: { 'x-access-token': token } });
    await app.inject({ method: 'GET', url: `/api/v1/no-such-route/${missingId}` });
    const res = await scrape(app);
    expect(res.body).not.toContain(missingId);
    const samples = samplesOf(res.body);
    const countOf = (route: string, status: string) =>
      valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route, status_code: status });
    expect(countOf('/api/v1/role/:id', '404')).toBe(1);
    expect(countOf('/api/v1/roles/:offset/:limit', '200')).toBe(1);
    expect(countOf('unmatched', '404')).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { route: '/api/v1/roles/:offset/:limit', le: '+Inf' })).toBe(1);
  });

  it('counts refused sign-ins by reason', async () => {
    const before = samplesOf((await scrape(app)).body);
    const failures = (samples: Sample[]) =>
      valueOf(samples, 'dataops_signin_failures_total', { step: 'password', reason: 'credentials' }) ?? 0;
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/signin',
        payload: { email: server.company.adminEmail, password: `wrong-${i}`, companyHostname: server.company.hostname },
        remoteAddress: `203.0.113.${i + 10}`,
      });
      expect(res.statusCode).toBe(401);
    }
    // A body that is no attempt at all, and a sign-in that works, are not failures.
    await app.inject({ method: 'POST', url: '/api/v1/signin', payload: { email: 'not an email' } });
    await app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: server.company.adminEmail, password: server.company.adminPassword, companyHostname: server.company.hostname },
    });
    const after = samplesOf((await scrape(app)).body);
    expect(failures(after) - failures(before)).toBe(2);
  });

  it('reads the runs and the unsent mail of every company, at scrape time', async () => {
    const db = server.db;
    const companyId = server.company.companyId;
    const workflowId = crypto.randomUUID();
    await db.insert(jobRuns).values([
      { companyId, workflowId, status: 'succeeded', trigger: 'manual' },
      { companyId, workflowId, status: 'succeeded', trigger: 'manual' },
      { companyId, workflowId, status: 'timed_out', trigger: 'manual' },
    ]);
    await db.insert(mailOutbox).values([
      { companyId, toAddress: 'a@acme.test', subject: 's', text: 't', kind: 'test', status: 'failed', error: 'refused' },
      { companyId, toAddress: 'b@acme.test', subject: 's', text: 't', kind: 'test', status: 'sent' },
    ]);
    const runs = async (status: string) => (await db.select({ n: count() }).from(jobRuns).where(eq(jobRuns.status, status)))[0].n;
    const mails = async (status: string) => (await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, status)))[0].n;

    const samples = await scrapeSamples(app);
    expect(valueOf(samples, 'dataops_job_runs', { status: 'succeeded' })).toBe(await runs('succeeded'));
    expect(valueOf(samples, 'dataops_job_runs', { status: 'succeeded' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, 'dataops_job_runs', { status: 'timed_out' })).toBe(await runs('timed_out'));
    expect(valueOf(samples, 'dataops_job_runs', { status: 'canceled' })).toBe(await runs('canceled'));
    expect(valueOf(samples, 'dataops_mail_outbox_unsent', { status: 'failed' })).toBe(await mails('failed'));
    expect(valueOf(samples, 'dataops_mail_outbox_unsent', { status: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'dataops_mail_outbox_unsent', { status: 'stored' })).toBe(await mails('stored'));
    const unsent = (await db.select({ n: count() }).from(mailOutbox).where(ne(mailOutbox.status, 'sent')))[0].n;
    expect(samples.filter((s) => s.name === 'dataops_mail_outbox_unsent').reduce((sum, s) => sum + s.value, 0)).toBe(unsent);

    // Read again at the next scrape, not kept from the first.
    await db.delete(jobRuns).where(inArray(jobRuns.status, ['timed_out']));
    expect(valueOf(await scrapeSamples(app), 'dataops_job_runs', { status: 'timed_out' })).toBe(0);
  });

  it('reads the queue depth from the job queue', async () => {
    const queue = await JobQueue.open(server.database, { onError: () => {} });
    const runId = crypto.randomUUID();
    try {
      // Due in an hour: it waits in the queue for the whole test.
      await queue.sendRun(
        { companyId: server.company.companyId, runId },
        { startAfter: new Date(Date.now() + 3_600_000), expireInSeconds: 60 },
      );
      const samples = await scrapeSamples(app);
      const queued = await queuedJobs(server);
      expect(queued).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'dataops_job_queue_depth', { queue: 'workflow-runs' })).toBe(queued);
    } finally {
      await queue.dropWaitingRunJobs(runId);
      await queue.close();
    }
    expect(valueOf(await scrapeSamples(app), 'dataops_job_queue_depth', { queue: 'workflow-runs' }) ?? 0).toBe(await queuedJobs(server));
  });

  it('reports the PostgreSQL pool, and no pool for the embedded database', async () => {
    const samples = await scrapeSamples(app);
    if (server.database.kind === 'postgres') {
      expect(valueOf(samples, 'dataops_database_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'dataops_database_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'dataops_database_pool_waiting_requests')).toBe(0);
    } else {
      expect(samples.some((s) => s.name.startsWith('dataops_database_pool_'))).toBe(false);
    }
  });

  it("reports the embedded database's memory, as the database itself holds it, and none on PostgreSQL", async () => {
    const samples = await scrapeSamples(app);
    const bytes = valueOf(samples, 'dataops_embedded_database_memory_bytes');
    if (server.database.kind === 'postgres') expect(bytes).toBeUndefined();
    else {
      // Whole WebAssembly pages of 64 KiB, and at least the shared buffers it was opened with.
      expect(bytes! % 65_536).toBe(0);
      expect(bytes).toBe(server.database.pglite!.Module.HEAPU8.byteLength);
      expect(bytes).toBeGreaterThan(16 * 1024 * 1024);
    }
  });
});

/** Jobs waiting in the runs queue, as pg-boss's table holds them (read as its owner: the server's roles may not). */
async function queuedJobs(test: TestServer): Promise<number> {
  const schema = queueSchemaOf(test.database.kind === 'postgres' ? test.config.databaseSchema : 'public');
  const text = `select count(*)::int as n from "${schema}".job where name = 'workflow-runs' and state in ('created', 'retry')`;
  if (test.database.kind !== 'postgres') return (await selectRows<{ n: number }>(test.db, sql.raw(text)))[0].n;
  const client = new pg.Client({ connectionString: test.config.databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(text)).rows[0].n;
  } finally {
    await client.end();
  }
}

describe('a database that does not answer', () => {
  it('costs the scrape at most the time limit: the figures it could not read are left out', async () => {
    const stuck = stuckDb();
    const app = await appWith({ token: TOKEN }, { db: stuck });
    const started = Date.now();
    const res = await scrape(app);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.statusCode, res.body).toBe(200);
    const samples = samplesOf(res.body);
    expect(valueOf(samples, 'dataops_metrics_database_up')).toBe(0);
    expect(samples.some((s) => s.name === 'dataops_job_runs' || s.name === 'dataops_mail_outbox_unsent')).toBe(false);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  }, 15_000);
});

/** A database whose every statement waits forever. */
function stuckDb(): Db {
  const never = new Promise<never>(() => {});
  const chain: unknown = new Proxy(function () {}, {
    get: (_target, property) => (property === 'then' ? never.then.bind(never) : chain),
    apply: () => chain,
  });
  return chain as Db;
}

describe('METRICS_PORT', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    app = await appWith({ port: 0, host: '127.0.0.1', token: TOKEN });
    const address = metricsAddress(app);
    expect(address).not.toBeNull();
    base = `http://127.0.0.1:${address!.port}`;
  });

  it('serves /metrics on its own port, still asking for the token when one is set', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('serves nothing else there, and no metrics on the server’s own port', async () => {
    for (const url of ['/', '/api/v1/metrics', '/api/v1/health']) {
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status, url).toBe(404);
      expect((await res.json()).message).toMatch(/serves \/metrics only/);
    }
    expect((await scrape(app)).statusCode).toBe(404);
  });

  it('closes with the server', async () => {
    const other = await appWith({ port: 0 });
    const port = metricsAddress(other)!.port;
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    await other.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('the console’s port', () => {
  let consoleDir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-console-'));
    fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
    app = await appWith({}, {}, consoleDir);
  });
  afterAll(() => fs.rmSync(consoleDir, { recursive: true, force: true }));

  it('answers a 404 with a message, not the console’s page, to metrics and probe paths', async () => {
    for (const url of ['/metrics', '/health', '/ready', '/readyz', '/api/v2/users', '/api']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.json().message, url).toMatch(/under \/api\/v1/);
    }
    // The console's own pages are still the page.
    for (const url of ['/', '/dashboard', '/api-explorer', '/auth/signin']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
    }
  });
});
