import crypto from 'node:crypto';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { createSecrets } from '../../server/auth/secrets.ts';
import { migrateDatabase, openDatabase, openOperatorView } from '../../server/db/client.ts';
import { jobRuns, workflows } from '../../server/db/schema.ts';
import { createLocalRunner } from '../../server/jobs/local-runner.ts';
import { dropQueueSchema } from '../../server/jobs/queue.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { provisionCompany } from '../../server/tenancy/provision.ts';
import { createReach } from '../../server/reach/reach.ts';
import { percentile } from './stats.mjs';

/**
 * How soon a queued run starts: the local runner with its production settings, on the embedded
 * database (in memory) and on PostgreSQL, one run after another so that each finds the runner
 * idle, as a person pressing "Run" does. The time is the run's own `started_at − queued_at`, both
 * stamped by the database. Runs under `node --import tsx`:
 *
 *   node --import tsx tests/bench/jobs-latency.mjs    (BENCH_DATABASE_URL, default the local PostgreSQL)
 */

export const LATENCY_RUNS = 50;
const TARGET_P95_MS = 1_000;

const quickTask = async () => ({ rowsRead: 1, rowsWritten: 1 });

async function measureOn(databaseUrl) {
  const schema = databaseUrl ? `bench_jobs_${crypto.randomBytes(4).toString('hex')}` : 'public';
  const database = await openDatabase({ databaseUrl, schema });
  let operator;
  const runner = createLocalRunner({
    database,
    secrets: createSecrets(crypto.randomBytes(32).toString('base64url')),
    mailer: createMailer(database.db, { from: 'DataOps Console <no-reply@bench.local>' }),
    executors: { copy: quickTask, sql: quickTask, quality: quickTask, notify: quickTask },
    config: { publicUrl: undefined, port: 8080, dataDir: os.tmpdir() },
    // Failure notices would reach Slack through the guard; these runs never fail.
    slack: { http: { reach: createReach({ allowed: [], denied: [], manyCompanies: async () => true }) } },
  });
  try {
    await migrateDatabase(database, schema);
    // Set up and read as the tables' owner; the runner works through the server's own connections.
    operator = openOperatorView(database);
    const company = await provisionCompany(operator.db, {
      name: 'Bench',
      hostname: 'bench-jobs',
      admin: { email: 'admin@bench.local', password: 'Bench-admin-pass-1', firstName: 'Ben', lastName: 'Bench' },
    });
    const [workflow] = await operator.db
      .insert(workflows)
      .values({
        companyId: company.companyId,
        name: 'Latency',
        pairId: crypto.randomUUID(),
        tasks: [
          {
            id: 'copy-orders',
            name: 'Copy orders',
            type: 'copy',
            from: { table: 'public.orders' },
            to: { table: 'public.orders', mode: 'replace' },
          },
        ],
      })
      .returning({ id: workflows.id });
    await runner.start();
    const latencies = [];
    for (let i = 0; i < LATENCY_RUNS; i += 1) {
      const runId = await runner.enqueue({
        companyId: company.companyId,
        workflowId: workflow.id,
        trigger: 'manual',
        userId: company.adminUserId,
      });
      const run = await ended(operator.db, company.companyId, runId);
      latencies.push(run.startedAt.getTime() - run.queuedAt.getTime());
    }
    return latencies;
  } finally {
    await runner.stop();
    await operator?.close();
    await database.close();
    if (databaseUrl) {
      await dropQueueSchema({ url: databaseUrl, schema });
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    }
  }
}

async function ended(db, companyId, runId) {
  for (;;) {
    const [run] = await db
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.companyId, companyId), eq(jobRuns.id, runId)));
    if (run.status === 'succeeded') return run;
    if (run.status !== 'queued' && run.status !== 'running') throw new Error(`run ${runId} ended ${run.status}: ${run.error}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function postgresVersion(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return (await client.query(`select current_setting('server_version') as version`)).rows[0].version;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

const ms = (value) => `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ms`;

function row(label, latencies) {
  const p95 = percentile(latencies, 95);
  const verdict = p95 <= TARGET_P95_MS ? 'met' : `**missed** (${ms(TARGET_P95_MS)})`;
  return `| ${label} | ${latencies.length} | ${ms(percentile(latencies, 50))} | ${ms(p95)} | ${ms(Math.max(...latencies))} | ${verdict} |`;
}

/** Measures on the embedded database and on PostgreSQL (when it answers), and answers the section of docs/benchmarks.md. */
export async function measureRunLatency({ databaseUrl }) {
  const rows = [row('embedded (PGlite, in memory)', await measureOn(undefined))];
  const version = await postgresVersion(databaseUrl);
  rows.push(
    version
      ? row(`PostgreSQL ${version}`, await measureOn(databaseUrl))
      : `| PostgreSQL | — | not measured: ${new URL(databaseUrl).host} did not answer | | | |`,
  );
  return [
    '## Job runner: from "run" to running',
    '',
    'Command: `npm run bench` (`BENCH_ONLY=runs npm run bench` for this part alone; tests/bench/jobs-latency.mjs, on `BENCH_DATABASE_URL`, default the local PostgreSQL, ' +
      'in a schema of its own dropped afterwards with its queue schema). ' +
      `The local runner with its production settings works ${LATENCY_RUNS} runs of a one-task workflow, one after another, each queued once the previous one ended. ` +
      "The figure is the run's `started_at − queued_at`, both stamped by the database: writing the run, sending its queue job, the worker woken by NOTIFY, and taking the run. " +
      `Target: p95 ≤ ${ms(TARGET_P95_MS)}.`,
    '',
    '| database | runs | p50 | p95 | max | target |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const lines = await measureRunLatency({ databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' });
  console.log(lines.join('\n'));
}
