import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findHaproxy, startCluster } from '../../scripts/cluster.mjs';
import { loadIds, runLoad } from './load.mjs';
import { buildServer } from '../../scripts/build-server.mjs';
import { createPrivatePostgres, privatePostgresUnavailable } from './private-postgres.mjs';
import { seedSoakData } from './seed.mjs';
import { ADMIN, apiClient, signIn, sleep, slowCopyWorkflow, startServer, waitUntil } from './server.mjs';

/**
 * The cluster under load and faults: `npm run cluster`'s topology (scripts/cluster.mjs) on a
 * private PostgreSQL (tests/soak/private-postgres.mjs, which can be restarted without touching
 * the machine's shared one), seeded as the one-server load is, browsed by simulated people through
 * HAProxy while workflows run throughout (a quick one every 3 s, a ~10 s copy one after another) and a
 * writer creates workspaces. During the browsing:
 *
 *  - at 20% of the time one server is killed with SIGKILL, and started again 5 s later;
 *  - at 45% the worker holding a running copy is killed with SIGKILL, and started again 5 s later;
 *  - at 70% PostgreSQL is restarted (a fast stop, then a start).
 *
 * Then: every failed call is set against the faults (a call in flight during a fault's window:
 * sent before the cluster answered again, and ended after the fault, or up to 1 s before it);
 * every workspace the API acknowledged is counted in the database; every run has ended, succeeded
 * or failed with a reason; each company has at most one weekly report per week, and each retention
 * pass of a company left one audit entry.
 */

const WINDOW_BEFORE_MS = 1_000;

export async function soakCluster({ users, seconds, port, log, servers = 3, workers = 2 }) {
  const unavailable = privatePostgresUnavailable() ?? (findHaproxy() ? undefined : 'HAProxy is not installed (apt-get install haproxy)');
  if (unavailable) return { notRun: unavailable };
  const { default: Pg } = await import('pg');
  const pg = createPrivatePostgres();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-cluster-'));
  const appSecret = crypto.randomBytes(32).toString('base64url');
  let cluster;
  const output = [];
  /** One statement on a connection of its own: PostgreSQL is restarted under these. */
  const sql = async (text, database = 'soak') => {
    const client = new Pg.Client({ connectionString: pg.url(database) });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end().catch(() => {});
    }
  };
  try {
    pg.init();
    const databaseUrl = pg.url('soak');
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      APP_SECRET: appSecret,
      LOG_LEVEL: 'warn',
      // The copies read and write the private PostgreSQL on this machine's loopback.
      CONNECTION_ALLOWED_HOSTS: `127.0.0.1:${pg.port}`,
    };
    // One server start makes and migrates the database that the seeding then fills.
    const first = startServer({ port, env });
    try {
      await first.ready();
    } finally {
      await first.stop();
    }
    log('Cluster: seeding the private PostgreSQL…');
    const seedStarted = performance.now();
    const seeder = new Pg.Client({ connectionString: databaseUrl });
    await seeder.connect();
    try {
      const query = async (text) => (await seeder.query(text)).rows;
      await seedSoakData((text) => seeder.query(text), query, ADMIN.companyHostname, { simulatedUsers: users });
    } finally {
      await seeder.end();
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const ids = await loadIds((text) => sql(text), ADMIN.companyHostname);
    // The other company keeps its audits 60 days: each server's first retention pass finds rows to delete.
    const [other] = await sql(`select id from companies where hostname <> '${ADMIN.companyHostname}' limit 1`);
    await sql(
      `insert into company_settings (company_id, key, values) values ('${other.id}', 'service', '{"auditRetentionDays": 60}'::jsonb)
       on conflict (company_id, key) do update set values = excluded.values`,
    );
    // 300 audit entries a year old, so that a pass always has rows to delete, whatever the seed's scale.
    await sql(
      `insert into system_audits (company_id, model, operation, record_id, created_at)
       select '${other.id}', 'user', 'update', g::text, now() - interval '400 days' from generate_series(1, 300) g`,
    );
    // Companies a month old: each server's first sweep finds last week's report due, and the servers race to make it.
    await sql(`update companies set created_at = now() - interval '30 days'`);
    await sql('create database soak_src');
    await sql('create table public.soak_target (n int, label text)', 'soak_src');

    // The image's commands: the compiled server and worker, as npm start runs them.
    log('Cluster: compiling the server (npm run build:server)…');
    await buildServer({ quiet: true });
    log(`Cluster: starting ${servers} servers, ${workers} workers and HAProxy…`);
    cluster = await startCluster({
      compiled: true,
      databaseUrl,
      servers,
      workers,
      port,
      dataDir,
      restart: false,
      print: (name, line) => output.push(`[${name}] ${line}`),
      env: {
        ...env,
        RATE_LIMIT_SESSION_PER_MINUTE: '0',
        RATE_LIMIT_API_KEY_PER_MINUTE: '0',
        BOOTSTRAP_COMPANY_HOSTNAME: ADMIN.companyHostname,
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      },
    });
    const base = cluster.url;
    const admin = apiClient(base, await signIn(base, ADMIN), { timeoutMs: 30_000 });
    const made = async (what, method, route, body) => {
      const res = await admin(method, route, body);
      if (res.status < 200 || res.status > 299) throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
      return res.body.data;
    };
    const settings = { host: '127.0.0.1', port: pg.port, database: 'soak_src', user: 'postgres', ssl: 'disable' };
    const from = await made('a source', 'POST', '/connections', {
      name: 'Cluster source',
      type: 'postgresql',
      isSource: true,
      isDestination: false,
      settings,
    });
    const to = await made('a destination', 'POST', '/connections', {
      name: 'Cluster destination',
      type: 'postgresql',
      isSource: false,
      isDestination: true,
      settings,
    });
    const pair = await made('a pair', 'PUT', `/source/destination/${crypto.randomUUID()}`, { sourceId: from.id, destinationId: to.id });
    const quick = await made('a quick workflow', 'POST', '/workflow', {
      name: 'Cluster quick',
      pairId: pair.id,
      tasks: [{ id: 'tell', name: 'Tell', type: 'notify', message: 'Done' }],
    });
    // Some 10 s of copying a run: one is under way most of the time, for the worker's kill to land in.
    const slow = await made('a slow workflow', 'POST', '/workflow', slowCopyWorkflow('Cluster slow copy', pair.id, 50_000));

    // Beside the people: runs queued throughout, and a writer whose acknowledged writes are counted at the end.
    let browsing = false;
    let done = false;
    const queued = { asked: 0, accepted: 0 };
    const writes = { asked: 0, acknowledged: new Set(), failed: 0 };
    let slowRun;
    const runQueued = async (workflow) => {
      queued.asked += 1;
      const res = await admin('POST', `/workflow/run/${workflow.jobId}`, {}).catch(() => undefined);
      if (res?.status !== 202) return undefined;
      queued.accepted += 1;
      return res.body.data.id;
    };
    const runsDriver = (async () => {
      while (!done) {
        if (browsing) {
          await runQueued(quick);
          // One copy at a time (a workflow runs one run at a time): the next once the last has ended.
          const last = slowRun ? await admin('GET', `/jobRunTracker/${slowRun}`).catch(() => undefined) : undefined;
          if (!slowRun || (last?.status === 200 && !['queued', 'running'].includes(last.body?.data?.status))) {
            slowRun = (await runQueued(slow)) ?? slowRun;
          }
        }
        await sleep(3_000);
      }
    })();
    const writer = (async () => {
      while (!done) {
        if (browsing) {
          const name = `Cluster write ${++writes.asked}`;
          const res = await admin('POST', '/workspaces', { name }).catch(() => undefined);
          if (res && res.status >= 200 && res.status < 300) writes.acknowledged.add(name);
          else writes.failed += 1;
        }
        await sleep(200);
      }
    })();

    const faults = [];
    const faultsDone = new Promise((resolve) => {
      const schedule = async () => {
        const started = Date.now();
        const until = (fraction) => sleep(Math.max(0, started + seconds * 1000 * fraction - Date.now()));
        await until(0.2);
        const victim = cluster.servers[1];
        const killAt = Date.now();
        await victim.kill();
        log(`Cluster: ${victim.name} killed (SIGKILL)`);
        await sleep(5_000);
        victim.start();
        await cluster.ready(victim);
        faults.push({ name: `${victim.name} killed with SIGKILL, started again 5 s later`, from: killAt, to: Date.now() });

        await until(0.45);
        const running = await waitUntil(
          async () => (await sql(`select worker from job_runs where status = 'running' and worker is not null limit 1`))[0],
          { timeoutMs: 20_000, everyMs: 250 },
        );
        const holder =
          cluster.workers.find((worker) => running && String(running.worker).includes(`/${worker.pid}/`)) ?? cluster.workers[0];
        const workerKillAt = Date.now();
        await holder.kill();
        log(`Cluster: ${holder.name} killed (SIGKILL)${running ? ' while running a copy' : ''}`);
        await sleep(5_000);
        holder.start();
        faults.push({
          name: `${holder.name} killed with SIGKILL${running ? ' mid-run' : ''}, started again 5 s later`,
          from: workerKillAt,
          to: Date.now(),
          midRun: Boolean(running),
        });

        await until(0.7);
        const restartAt = Date.now();
        await pg.stop();
        await pg.start();
        log('Cluster: PostgreSQL restarted');
        await waitUntil(async () => (await admin('GET', '/user/profile').catch(() => undefined))?.status === 200, {
          timeoutMs: 60_000,
          everyMs: 200,
        });
        faults.push({ name: 'PostgreSQL restarted (fast stop, then start)', from: restartAt, to: Date.now() });
        resolve();
      };
      schedule().catch((error) => {
        faults.push({ name: `the fault schedule failed: ${error.message}`, from: Date.now(), to: Date.now() });
        resolve();
      });
    });

    log(`Cluster: ${users} people browsing through HAProxy for ${seconds} s, with faults…`);
    const result = await runLoad({
      baseUrl: base,
      users,
      seconds,
      ids,
      onBrowsing: () => {
        browsing = true;
      },
    });
    done = true;
    await Promise.all([runsDriver, writer, faultsDone]);

    // Failed calls against the faults' windows.
    // In flight during the window: a call sent well before a kill still fails with it when its answer was late.
    const inWindow = (failure) => faults.some((fault) => failure.at <= fault.to && failure.endedAt >= fault.from - WINDOW_BEFORE_MS);
    const byKind = new Map();
    for (const failure of result.failures) {
      const key = `${failure.method} ${failure.kind}${inWindow(failure) ? '' : ' (outside the faults)'}`;
      byKind.set(key, (byKind.get(key) ?? 0) + 1);
    }
    const outside = result.failures.filter((failure) => !inWindow(failure)).length;

    // Every run ends: the recovery sweep ends the one the killed worker held.
    const settled = await waitUntil(
      async () => {
        const [left] = await sql(`select count(*)::int as n from job_runs where status in ('queued', 'running') `);
        return left.n === 0 ? true : undefined;
      },
      { timeoutMs: 180_000, everyMs: 1_000 },
    );
    const runs = await sql(
      `select status, count(*)::int as n, count(*) filter (where status = 'failed' and coalesce(error, '') = '')::int as unexplained
         from job_runs where workflow_id in ('${quick.id}', '${slow.id}') group by status order by status`,
    );
    const running = await sql(`select count(*)::int as n from job_runs where status in ('queued', 'running')`);

    // Writes: every acknowledged workspace is there.
    const stored = new Set((await sql(`select name from workspaces where name like 'Cluster write %'`)).map((row) => row.name));
    const lost = [...writes.acknowledged].filter((name) => !stored.has(name));

    // Once per company and week, however many servers swept.
    const reports = await sql(
      `select company_id, period_start, count(*)::int as n from reports where kind = 'weekly' group by 1, 2 having count(*) > 1`,
    );
    const reportsMade = await sql(`select count(*)::int as n from reports where kind = 'weekly'`);
    const reportMails = await sql(
      `select count(*)::int as n from (select company_id, to_address, subject from mail_outbox where kind = 'report' group by 1, 2, 3 having count(*) > 1) twice`,
    );
    // The servers' first passes, all before the first fault (a pass at a later start finds the rows aged past 60 days since).
    const firstFault = new Date(faults[0]?.from ?? Date.now()).toISOString();
    const purges = await sql(
      `select count(*)::int as n from system_audits where company_id = '${other.id}' and model = 'settings' and operation = 'retention_purge'
          and created_at < '${firstFault}'`,
    );
    const processStarts = servers; // each server runs a retention pass at its start
    return {
      ...result,
      seedSeconds,
      servers,
      workers,
      faults,
      failuresByKind: [...byKind.entries()].sort((a, b) => b[1] - a[1]),
      failuresOutside: outside,
      queued,
      writes: {
        asked: writes.asked,
        acknowledged: writes.acknowledged.size,
        failed: writes.failed,
        stored: stored.size,
        lost: lost.length,
      },
      runs,
      runsLeft: settled ? running[0].n : running[0].n,
      duplicateReports: reports.length,
      duplicateReportMails: reportMails[0].n,
      reportsMade: reportsMade[0].n,
      retentionAudits: purges[0].n,
      processStarts,
      output: output.slice(-40),
    };
  } finally {
    await cluster?.stop().catch(() => {});
    pg.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
