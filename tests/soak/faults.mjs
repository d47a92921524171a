import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../bench/stats.mjs';
import { createPrivatePostgres, privatePostgresUnavailable } from './private-postgres.mjs';
import {
  ADMIN,
  apiClient,
  keepAliveAgent,
  request,
  signIn,
  sleep,
  slowCopyWorkflow,
  startServer,
  StartFailure,
  waitUntil,
} from './server.mjs';

/**
 * Faults, each against the real server as a child process:
 *
 *  a. its PostgreSQL restarted under load — a private PostgreSQL (tests/soak/private-postgres.mjs),
 *     never the machine's shared one;
 *  b. the server killed (SIGKILL) while a workflow run copies rows;
 *  c. the server killed while a data dictionary is uploaded;
 *  d. the server killed while writing to the embedded database, again and again.
 *
 * Each answers `{ name, ok, detail, lines }`: `ok` false when an expectation failed.
 */

const RECOVERY_SECTION = 'Recovering the embedded database';
/** PostgreSQL restarts under load in fault a (SOAK_PG_RESTARTS). */
const RESTARTS = Number(process.env.SOAK_PG_RESTARTS || 3);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const rand = (n) => Math.floor(Math.random() * n);

/** SOAK_FAULTS=a,c (say) runs only those faults; all four by default. */
const chosen = new Set((process.env.SOAK_FAULTS || 'a,b,c,d').split(',').map((s) => s.trim()));

export async function runFaults({ port, log, command }) {
  const results = [];
  const unavailable = privatePostgresUnavailable();
  if (!['a', 'b', 'c'].some((fault) => chosen.has(fault))) {
    /* only d */
  } else if (unavailable) {
    for (const name of ['PostgreSQL restarted under load', 'server killed during a run', 'server killed during a dictionary upload']) {
      results.push({ name, ok: null, detail: `not run: ${unavailable}`, lines: [`### ${name}`, '', `Not run: ${unavailable}.`] });
    }
  } else {
    const pg = createPrivatePostgres();
    let world;
    try {
      pg.init();
      world = await openWorld(pg, port, log);
      if (chosen.has('a')) results.push(await guarded('PostgreSQL restarted under load', () => postgresRestart(world, log)));
      // A fault that left the server down does not stop the next one from being tried.
      const revived = async () => world.server.running || (await world.restart());
      if (chosen.has('b'))
        results.push(await guarded('server killed during a run', async () => (await revived(), killDuringRun(world, log))));
      if (chosen.has('c'))
        results.push(
          await guarded('server killed during a dictionary upload', async () => (await revived(), killDuringUpload(world, log))),
        );
    } catch (error) {
      results.push({
        name: 'PostgreSQL fault set-up',
        ok: false,
        detail: error.message,
        lines: ['### PostgreSQL fault set-up', '', `Failed: ${error.message}`],
      });
    } finally {
      await world?.close().catch(() => {});
      pg.destroy();
    }
  }
  const kills = Number(process.env.SOAK_PGLITE_KILLS || 5);
  if (chosen.has('d')) results.push(await guarded('embedded database killed during writes', () => pgliteKills({ port, log, kills })));

  const section = [
    '## Faults',
    '',
    `Command: \`${command}\` (tests/soak/faults.mjs; \`SOAK_ONLY=faults\` for this part alone). Faults a–c run the server on a PostgreSQL ` +
      'of their own (initdb into a temporary directory, port 55432 or `SOAK_PG_PORT`, run as the `postgres` OS user), never on the ' +
      "machine's shared one, which other test runs use; d runs it on the embedded database in a temporary data directory. " +
      `Machine load at the end of the faults: ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')}.`,
    '',
    ...results.flatMap((result) => [...result.lines, '']),
  ];
  return { section, verdicts: results.map((result) => [result.name, result.ok, result.detail]) };
}

async function guarded(name, fault) {
  try {
    return await fault();
  } catch (error) {
    return {
      name,
      ok: false,
      detail: error.message,
      lines: [`### ${name}`, '', `**Failed**: ${error.message}`, ...(error.output ? ['', '```', error.output.slice(-2000), '```'] : [])],
    };
  }
}

// ---- The PostgreSQL world: the server, a source database, connections, workflows, a wide table ------

async function openWorld(pg, port, log) {
  const { default: Pg } = await import('pg');
  /** One statement on a database of the private PostgreSQL, on a connection of its own (PostgreSQL is restarted under these tests). */
  const sqlOn = (database) => async (text, params) => {
    const client = new Pg.Client({ connectionString: pg.url(database) });
    client.on('error', () => {});
    await client.connect();
    try {
      return await client.query(text, params);
    } finally {
      await client.end().catch(() => {});
    }
  };
  const admin = { query: sqlOn('soak') };
  await admin.query('create database soak_src');
  const source = { query: sqlOn('soak_src') };
  await source.query(`create table public.soak_target (n int, label text)`);
  await source.query(`insert into public.soak_target select g, 'old' from generate_series(1, 10) g`);
  const wide = Array.from({ length: 1500 }, (_, i) => `c${String(i + 1).padStart(4, '0')} text`).join(', ');
  await source.query(`create table public.wide_dictionary (${wide})`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-faults-pg-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: pg.url('soak') };
  const world = {
    pg,
    env,
    admin,
    source,
    server: startServer({ port, env }),
    async restart() {
      this.server = startServer({ port, env });
      await this.server.ready();
      this.token = await signIn(this.server.baseUrl, ADMIN);
      this.call = apiClient(this.server.baseUrl, this.token);
    },
    async close() {
      await this.server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await prepareWorld(world, pg);
  } catch (error) {
    await world.close().catch(() => {});
    throw error;
  }
  log('Faults: private PostgreSQL and its server are ready');
  return world;
}

async function prepareWorld(world, pg) {
  await world.server.ready();
  world.token = await signIn(world.server.baseUrl, ADMIN);
  world.call = apiClient(world.server.baseUrl, world.token);
  const ok = (res, what) => {
    if (res.status < 200 || res.status > 299) throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
    return res.body.data;
  };
  const settings = { host: '127.0.0.1', port: pg.port, database: 'soak_src', user: 'postgres', ssl: 'disable' };
  const from = ok(
    await world.call('POST', '/connections', { name: 'Soak source', type: 'postgresql', isSource: true, isDestination: false, settings }),
    'a source connection',
  );
  const to = ok(
    await world.call('POST', '/connections', {
      name: 'Soak destination',
      type: 'postgresql',
      isSource: false,
      isDestination: true,
      settings,
    }),
    'a destination connection',
  );
  const pair = ok(
    await world.call('PUT', `/source/destination/${crypto.randomUUID()}`, { sourceId: from.id, destinationId: to.id }),
    'a pair',
  );
  world.quickWorkflow = ok(
    await world.call('POST', '/workflow', {
      name: 'Quick',
      pairId: pair.id,
      tasks: [{ id: 'tell', name: 'Tell', type: 'notify', message: 'Done' }],
    }),
    'a quick workflow',
  );
  // Rows come slowly (a short sleep each), so the run is still copying when the server is killed.
  world.slowWorkflow = ok(await world.call('POST', '/workflow', slowCopyWorkflow('Slow copy', pair.id, 200_000)), 'a slow copy workflow');
  world.wideTable = ok(await world.call('POST', '/table', { connectionId: from.id, endpoint: 'public.wide_dictionary' }), 'a wide table');
}

/** Queues a run of the workflow and waits for its end; answers the run and how long it took from "run". */
async function runToEnd(world, workflow, timeoutMs = 60_000) {
  const started = performance.now();
  const queued = await world.call('POST', `/workflow/run/${workflow.jobId ?? workflow.id}`, {});
  if (queued.status !== 202) throw new Error(`running "${workflow.name}" answered ${queued.status}: ${queued.text.slice(0, 200)}`);
  const run = await waitUntil(
    async () => {
      const res = await world.call('GET', `/jobRunTracker/${queued.body.data.id}`);
      return ['queued', 'running'].includes(res.body?.data?.status) ? undefined : res.body?.data;
    },
    { timeoutMs, everyMs: 250 },
  );
  return { run, ms: performance.now() - started, id: queued.body.data.id };
}

// ---- a. PostgreSQL restarted under load ---------------------------------------------------------------

async function postgresRestart(world, log) {
  const name = 'PostgreSQL restarted under load';
  const before = await runToEnd(world, world.quickWorkflow);
  if (before.run?.status !== 'succeeded')
    throw new Error(`a run before the restart did not succeed: ${JSON.stringify(before.run)?.slice(0, 300)}`);

  const clients = 40;
  const agent = keepAliveAgent(clients);
  const token = await signIn(world.server.baseUrl, ADMIN);
  const base = world.server.baseUrl;
  const records = [];
  let sent = 0;
  let writes = 0;
  const calls = [
    () => ['GET', '/users/0/10'],
    () => ['GET', '/system/audits/0/10'],
    () => ['POST', '/users/filter/10/0/DESC/createdAt', { search: `admin${rand(9)}` }],
    () => ['GET', '/workflow/0/10'],
    () => ['GET', '/connections/0/10'],
    () => ['GET', '/health'],
    () => ['POST', '/workspaces', { name: `Restart ${++writes}` }],
  ];
  let stopAt = Infinity;
  const t0 = performance.now();
  const at = () => performance.now() - t0;
  const client = async () => {
    while (at() < stopAt) {
      const [method, route, body] = calls[rand(calls.length)]();
      const record = { method, route, name: body?.name, sent: at() };
      sent += 1;
      try {
        const res = await request(`${base}/api/v1${route}`, {
          method,
          body,
          agent,
          headers: { 'x-access-token': token },
          timeoutMs: 30_000,
        });
        Object.assign(record, { ended: at(), status: res.status, message: res.body?.message });
      } catch (error) {
        Object.assign(record, { ended: at(), error: error.code ?? error.message });
      }
      records.push(record);
      await sleep(50 + rand(100));
    }
  };
  const running = Array.from({ length: clients }, client);
  const restarts = [];
  for (let i = 0; i < RESTARTS; i++) {
    await sleep(5_000);
    const stopStarted = at();
    await world.pg.stop();
    const stopped = at();
    await sleep(3_000);
    await world.pg.start();
    const back = at();
    restarts.push({ stopStarted, stopped, back });
    log(`Faults a: PostgreSQL stopping at ${seconds(stopStarted)}, down from ${seconds(stopped)}, back at ${seconds(back)}`);
  }
  stopAt = restarts.at(-1).back + 15_000;
  await Promise.all(running);
  agent.destroy();

  const ok2xx = (r) => r.status >= 200 && r.status <= 299;
  const answered = records.filter((r) => r.status !== undefined);
  const networkErrors = records.filter((r) => r.error && r.error !== 'SOAK_TIMEOUT');
  const timeouts = records.filter((r) => r.error === 'SOAK_TIMEOUT');
  const unavailable = answered.filter((r) => r.status === 503);
  const withoutMessage = unavailable.filter((r) => typeof r.message !== 'string' || r.message.length === 0);
  const other = answered.filter((r) => !ok2xx(r) && r.status !== 503);
  const outageLatencies = unavailable.map((r) => r.ended - r.sent);
  // Per restart: the failures between its stop and the next restart's, and how soon after PostgreSQL was back every call answered 2xx again.
  const perRestart = restarts.map((restart, i) => {
    const until = restarts[i + 1]?.stopStarted ?? Infinity;
    // A call answered once the next restart had begun belongs to that one.
    const mine = records.filter((r) => r.ended >= restart.stopStarted && r.ended < until);
    const failures = mine.filter((r) => !ok2xx(r));
    const afterBack = mine.filter((r) => r.sent >= restart.back).sort((a, b) => a.sent - b.sent);
    const firstOk = afterBack.find((r) => ok2xx(r) && r.route !== '/health');
    const lastFailure = afterBack.filter((r) => !ok2xx(r)).at(-1);
    const lateFailures = afterBack.filter((r) => !ok2xx(r));
    return {
      ...restart,
      late: [
        ...new Set(lateFailures.map((r) => `${r.method} ${r.route.split('?')[0]} → ${r.status ?? r.error}: ${r.message ?? ''}`)),
      ].slice(0, 4),
      failures: failures.length,
      failedFrom: failures.length ? Math.min(...failures.map((r) => r.sent)) : NaN,
      failedTo: failures.length ? Math.max(...failures.map((r) => r.ended)) : NaN,
      firstOk: firstOk ? firstOk.ended - restart.back : NaN,
      steadyAfter: lastFailure ? lastFailure.ended - restart.back : 0,
    };
  });
  const steadyAfter = Math.max(...perRestart.map((r) => r.steadyAfter));

  // Writes answered 201 are there; writes answered 503 are counted (one whose commit came just before the connection went is possible).
  const names = new Set();
  const listed = await world.call('GET', '/workspaces');
  for (const row of listed.body?.data?.rows ?? []) names.add(row.name);
  const writesOk = records.filter((r) => r.route === '/workspaces' && r.status === 201);
  const writesLost = writesOk.filter((r) => !names.has(r.name));
  const writes503Applied = records.filter((r) => r.route === '/workspaces' && r.status === 503 && names.has(r.name));

  const problems = [];
  const after = await runToEnd(world, world.quickWorkflow);
  if (sent !== records.length) problems.push(`${sent} calls sent but ${records.length} settled`);
  if (timeouts.length > 0) problems.push(`${timeouts.length} calls had no answer within 30 s`);
  if (networkErrors.length > 0)
    problems.push(`${networkErrors.length} network errors (${[...new Set(networkErrors.map((r) => r.error))].join(', ')})`);
  if (other.length > 0)
    problems.push(
      `${other.length} answers neither 2xx nor 503: ${other
        .slice(0, 3)
        .map((r) => `${r.method} ${r.route} → ${r.status} ${r.message}`)
        .join('; ')}`,
    );
  if (withoutMessage.length > 0) problems.push(`${withoutMessage.length} 503 answers without a message`);
  if (unavailable.length === 0) problems.push('no call met the outage (no 503): the restart was not under load');
  if (perRestart.some((r) => Number.isNaN(r.firstOk))) problems.push('no call answered 2xx after PostgreSQL came back');
  if (steadyAfter > 10_000) problems.push(`calls still failed ${seconds(steadyAfter)} after PostgreSQL came back`);
  if (writesLost.length > 0) problems.push(`${writesLost.length} writes answered 201 are missing`);
  if (after.run?.status !== 'succeeded')
    problems.push(`a run queued after the restart did not succeed within 60 s: ${after.run?.status ?? 'still queued or running'}`);

  const detail =
    `${sent} calls sent, ${answered.length} answered (${answered.length - unavailable.length - other.length} 2xx, ${unavailable.length} 503, ${other.length} other), ` +
    `${networkErrors.length} network errors, ${timeouts.length} without an answer; steady again ${seconds(steadyAfter)} after PostgreSQL was back; ` +
    `a run after the restarts ${after.run?.status ?? 'did not end'} in ${seconds(after.ms)}`;
  return {
    name,
    ok: problems.length === 0,
    detail: problems.length === 0 ? detail : problems.join('; '),
    lines: [
      `### a. ${name}`,
      '',
      `${clients} clients, signed in as the admin, call lists, a search, \`/health\` and a write (\`POST /workspaces\`) with 50–150 ms between calls, ` +
        'for 5 s; then the private PostgreSQL is stopped (`pg_ctl stop -m fast`: every session ended), kept down 3 s and started again, ' +
        `${RESTARTS} times, 5 s apart, while the clients go on until 15 s after the last start. Every call is recorded (sent, answered or the network error, status, message); a call ` +
        'without an answer after 30 s counts as lost. The server is not restarted. (Its first runs found the server exiting on an ' +
        "unhandled 'error' event: a pooled connection checked out between two statements of a transaction got PostgreSQL's termination " +
        'notice, and pg-pool listens only to idle ones; server/db/client.ts now gives every pooled connection a listener, so the ' +
        'next statement fails with a 503 and the pool drops the connection.)',
      '',
      '| figure | value |',
      '|---|---|',
      `| calls sent / settled | ${sent} / ${records.length} |`,
      `| answered 2xx | ${answered.length - unavailable.length - other.length} |`,
      `| answered 503 with a message | ${unavailable.length - withoutMessage.length} (e.g. "${unavailable[0]?.message ?? '—'}") |`,
      `| answered otherwise (500, …) | ${other.length} |`,
      `| network errors / no answer in 30 s | ${networkErrors.length} / ${timeouts.length} |`,
      `| 503 latency p50 / max | ${outageLatencies.length ? `${percentile(outageLatencies, 50).toFixed(0)} ms / ${Math.max(...outageLatencies).toFixed(0)} ms` : '—'} |`,
      `| writes answered 201 / found afterwards | ${writesOk.length} / ${writesOk.length - writesLost.length} |`,
      `| writes answered 503 that were applied anyway | ${writes503Applied.length} |`,
      `| job runner: a run before / after the restarts | ${before.run.status} in ${seconds(before.ms)} / ${after.run?.status ?? 'not ended'} in ${seconds(after.ms)} |`,
      '',
      'Each restart, in seconds from the start of the load:',
      '',
      '| restart | PostgreSQL stopping → down → started | calls failed | failed calls sent from … answered until | first 2xx list call after it was back | every call 2xx again after it was back |',
      '|---|---|---|---|---|---|',
      ...perRestart.map(
        (r, i) =>
          `| ${i + 1} | ${seconds(r.stopStarted)} → ${seconds(r.stopped)} → ${seconds(r.back)} | ${r.failures} | ${Number.isNaN(r.failedFrom) ? '—' : `${seconds(r.failedFrom)} … ${seconds(r.failedTo)}`} | ${Number.isNaN(r.firstOk) ? 'none' : `${seconds(r.firstOk)}`} | ${seconds(r.steadyAfter)} |`,
      ),
      '',
      ...(perRestart.some((r) => r.late.length > 0)
        ? [
            'Calls that failed after PostgreSQL was back:',
            '',
            ...perRestart.flatMap((r, i) => r.late.map((late) => `- restart ${i + 1}: ${late}`)),
            '',
          ]
        : []),
      problems.length === 0
        ? 'Expectations met: every call answered, failures are 503 with a message, the pool reconnects without a server restart, and the job runner works runs again.'
        : `**Failed**: ${problems.join('; ')}.`,
    ],
  };
}

// ---- b. The server killed during a workflow run ------------------------------------------------------

async function killDuringRun(world, log) {
  const name = 'server killed during a run';
  const queued = await world.call('POST', `/workflow/run/${world.slowWorkflow.jobId ?? world.slowWorkflow.id}`, {});
  if (queued.status !== 202) throw new Error(`running the slow copy answered ${queued.status}: ${queued.text.slice(0, 200)}`);
  const runId = queued.body.data.id;
  const copying = await waitUntil(
    async () => {
      const run = (await world.call('GET', `/jobRunTracker/${runId}`)).body?.data;
      return run?.status === 'running' && (run.steps?.[0]?.rowsWritten ?? 0) >= 3000 ? run : undefined;
    },
    { timeoutMs: 60_000, everyMs: 200 },
  );
  if (!copying) throw new Error('the slow copy never reached 3,000 rows written');
  const written = copying.steps[0].rowsWritten;
  await world.server.kill();
  const killedAt = performance.now();
  log(`Faults b: server killed with the run at ${written} rows written`);
  const staging = await world.source.query(`select count(*)::int as n from pg_tables where tablename like 'soak_target_copy_%'`);
  await world.restart();
  const ended = await waitUntil(
    async () => {
      const run = (await world.call('GET', `/jobRunTracker/${runId}`)).body?.data;
      return run && run.status !== 'running' && run.status !== 'queued' ? run : undefined;
    },
    { timeoutMs: 120_000, everyMs: 500 },
  );
  const endedAfter = performance.now() - killedAt;
  const target = (
    await world.source.query(`select count(*)::int as n, count(*) filter (where label = 'old')::int as old from public.soak_target`)
  ).rows[0];
  const leftovers = (await world.source.query(`select count(*)::int as n from pg_tables where tablename like 'soak_target_copy_%'`)).rows[0]
    .n;
  const stillRunning = (await world.admin.query(`select count(*)::int as n from job_runs where status = 'running'`)).rows[0].n;
  const next = await runToEnd(world, world.quickWorkflow);

  const problems = [];
  if (!ended) problems.push('the run was still running 120 s after the kill');
  else if (ended.status !== 'failed') problems.push(`the run ended ${ended.status}, not failed`);
  else if (!/stopped during the run/i.test(ended.error ?? '')) problems.push(`the run's reason does not say what happened: ${ended.error}`);
  if (target.n !== 10 || target.old !== 10)
    problems.push(`the destination table changed: ${target.n} rows, ${target.old} of them the old ones`);
  if (leftovers > 0) problems.push(`${leftovers} staging tables were left behind`);
  if (stillRunning > 0) problems.push(`${stillRunning} runs still marked running`);
  if (next.run?.status !== 'succeeded') problems.push(`a run after the restart did not succeed: ${next.run?.status}`);
  const detail = `run killed at ${written} rows written; ended ${ended?.status ?? 'never'} ${seconds(endedAfter)} after the kill ("${ended?.error ?? ''}"); destination ${target.n} rows, all old: ${target.old === target.n}; staging tables left: ${leftovers}`;
  return {
    name,
    ok: problems.length === 0,
    detail: problems.length === 0 ? detail : problems.join('; '),
    lines: [
      `### b. ${name}`,
      '',
      "A workflow copies a query's rows (200,000 of them, each with a 0.2 ms sleep, so it lasts about a minute) into `soak_target` in replace mode, " +
        'in batches of 1,000; `soak_target` holds 10 old rows. Once the run is `running` with 3,000 rows or more written, the server gets SIGKILL, ' +
        'and is started again at once. The run must end `failed` with its reason (the workflow has no retries; with retries it is queued again ' +
        'as its next attempt, see server/jobs/recovery.ts), and the destination must be the old table: a copy in replace mode fills a staging ' +
        'table in one transaction and puts it in place at the end.',
      '',
      '| figure | value |',
      '|---|---|',
      `| rows written when killed | ${written} |`,
      `| staging tables visible just after the kill | ${staging.rows[0].n} (its transaction died with the server's connection) |`,
      `| the run after the restart | ${ended?.status ?? 'still running'}, ${seconds(endedAfter)} after the kill: "${ended?.error ?? ''}" |`,
      `| destination rows / of them the old ones | ${target.n} / ${target.old} |`,
      `| staging tables left | ${leftovers} |`,
      `| runs still marked running | ${stillRunning} |`,
      `| a run after the restart | ${next.run?.status} in ${seconds(next.ms)} |`,
      '',
      'The run is failed by the recovery sweep, not at once: a run is taken as abandoned when its heartbeat is 30 s old, and the restarted ' +
        'server sweeps every 15 s, so it ends 30–45 s after the kill.',
      '',
      problems.length === 0 ? 'Expectations met.' : `**Failed**: ${problems.join('; ')}.`,
    ],
  };
}

// ---- c. The server killed during a dictionary upload -------------------------------------------------

const UPLOAD_COLUMNS = Array.from({ length: 1500 }, (_, i) => `c${String(i + 1).padStart(4, '0')}`);

function dictionaryCsv(version) {
  const filler = 'x'.repeat(540);
  return ['column,description', ...UPLOAD_COLUMNS.map((column) => `${column},"${version} ${column} ${filler}"`)].join('\n') + '\n';
}

function multipart(text) {
  const boundary = `----soak${crypto.randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="dictionary.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Sends the upload in 32 KB pieces with `pauseMs` between them; `onProgress(sentBytes, done)` after
 * each piece and at the end. Resolves with the answer, or the network error.
 */
function slowUpload(url, token, { body, contentType }, { pauseMs, onProgress }) {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'x-access-token': token, 'content-type': contentType, 'content-length': body.length } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => resolve({ error: error.code ?? error.message }));
      },
    );
    req.on('error', (error) => resolve({ error: error.code ?? error.message }));
    (async () => {
      for (let offset = 0; offset < body.length; offset += 32 * 1024) {
        if (req.destroyed) return;
        req.write(body.subarray(offset, offset + 32 * 1024));
        const sentBytes = Math.min(body.length, offset + 32 * 1024);
        onProgress(sentBytes, sentBytes === body.length);
        if (sentBytes < body.length) await sleep(pauseMs);
      }
      req.end();
    })();
  });
}

async function dictionaryVersions(world) {
  const rows = (
    await world.admin.query(
      `select split_part(description, ' ', 1) as version, count(*)::int as n from table_columns where table_id = $1 group by 1 order by 1`,
      [world.wideTable.id],
    )
  ).rows;
  return rows;
}

async function killDuringUpload(world, log) {
  const name = 'server killed during a dictionary upload';
  const url = () => `${world.server.baseUrl}/api/v1/tables/dictionary/upload/${world.wideTable.id}`;
  const token = () => world.token;
  // The whole upload once, unhurried, to know how long the server takes once the body is in.
  const baseline = multipart(dictionaryCsv('v0'));
  let bodyDone = 0;
  const baselineAnswer = await slowUpload(url(), token(), baseline, {
    pauseMs: 0,
    onProgress: (_, done) => done && (bodyDone = performance.now()),
  });
  const serverMs = performance.now() - bodyDone;
  if (baselineAnswer.status !== 200)
    throw new Error(`the first upload answered ${baselineAnswer.status ?? baselineAnswer.error}: ${baselineAnswer.text?.slice(0, 200)}`);
  let committed = 'v0';
  const trials = [
    { when: 'halfway through the body', fraction: 0.5 },
    { when: 'as the last byte is sent', afterMs: 0 },
    { when: `${Math.round(serverMs / 3)} ms after the last byte`, afterMs: serverMs / 3 },
    { when: `${Math.round((2 * serverMs) / 3)} ms after the last byte`, afterMs: (2 * serverMs) / 3 },
    { when: `${Math.round(serverMs * 0.9)} ms after the last byte`, afterMs: serverMs * 0.9 },
  ];
  const rows = [];
  const problems = [];
  for (const [index, trial] of trials.entries()) {
    const version = `v${index + 1}`;
    const upload = multipart(dictionaryCsv(version));
    const server = world.server;
    let killing;
    const answer = await slowUpload(url(), token(), upload, {
      pauseMs: 15,
      onProgress: (sentBytes, done) => {
        if (killing) return;
        if (trial.fraction !== undefined && sentBytes >= upload.body.length * trial.fraction) killing = server.kill();
        else if (done && trial.afterMs !== undefined) killing = sleep(trial.afterMs).then(() => server.kill());
      },
    });
    await killing;
    await world.restart();
    const versions = await dictionaryVersions(world);
    const whole = versions.length === 1 && versions[0].n === UPLOAD_COLUMNS.length;
    const now = whole ? versions[0].version : undefined;
    const outcome = !whole ? 'mixed' : now === committed ? 'old, whole' : now === version ? 'new, whole' : `unexpected (${now})`;
    if (!whole || (now !== committed && now !== version))
      problems.push(`kill ${trial.when}: the dictionary is ${versions.map((v) => `${v.n} × ${v.version}`).join(' + ')}`);
    if (answer.status === 200 && now !== version) problems.push(`kill ${trial.when}: the upload was answered 200 but is not there`);
    rows.push(
      `| ${trial.when} | ${answer.status ?? answer.error} | ${outcome} | ${versions.map((v) => `${v.n} × ${v.version}`).join(' + ')} |`,
    );
    if (whole) committed = now;
    log(`Faults c: kill ${trial.when}: ${outcome}`);
  }
  const detail = `${trials.length} kills: ${rows.length - problems.length} left the dictionary whole (old or new), ${problems.length} did not`;
  return {
    name,
    ok: problems.length === 0,
    detail: problems.length === 0 ? detail : problems.join('; '),
    lines: [
      `### c. ${name}`,
      '',
      `A table of 1,500 columns gets its dictionary from a CSV file of ${(baseline.body.length / 1024).toFixed(0)} KB (a description for every column, ` +
        'each naming the upload it came from). The first upload is sent whole; the server took ' +
        `${serverMs.toFixed(0)} ms from the last byte to its answer. Each next upload is sent in 32 KB pieces 15 ms apart, and the server gets SIGKILL ` +
        'at the moment given below, then is started again; the dictionary is then read from the database: every column must hold the ' +
        'descriptions of one upload, the last whole one or this one.',
      '',
      '| killed | the client saw | dictionary after the restart | descriptions by upload |',
      '|---|---|---|---|',
      ...rows,
      '',
      'The route reads the whole file and checks it before it writes, then writes every entry and its audit entry in one transaction, ' +
        'so a kill before the commit leaves the old dictionary and one after it the new one.',
      '',
      problems.length === 0 ? 'Expectations met: never a partial dictionary.' : `**Failed**: ${problems.join('; ')}.`,
    ],
  };
}

// ---- d. The embedded database killed during writes ----------------------------------------------------

async function pgliteKills({ port, log, kills }) {
  const name = 'embedded database killed during writes';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-faults-pglite-'));
  const env = { DATA_DIR: dataDir };
  let server = startServer({ port, env });
  const rows = [];
  const problems = [];
  let intact = 0;
  let refused = 0;
  const acknowledged = { users: [], workspaces: [] };
  try {
    await server.ready();
    let call = apiClient(server.baseUrl, await signIn(server.baseUrl, ADMIN));
    const props = await call('GET', '/users/filter/props');
    const roleId = props.body?.data?.role?.find((role) => role.name === 'Member')?.id ?? props.body?.data?.role?.[0]?.id;
    if (!roleId) throw new Error(`no role to invite users with: ${props.text.slice(0, 200)}`);

    for (let round = 1; round <= kills; round++) {
      const acked = { users: [], workspaces: [] };
      let writing = true;
      let attempted = 0;
      const writer = async (kind) => {
        for (let i = 1; writing; i++) {
          attempted += 1;
          try {
            if (kind === 'users') {
              const email = `kill${round}-${i}@soak.test`;
              const res = await call('POST', '/user', { email, firstName: 'Kill', lastName: 'Round', roleId });
              if (res.status === 201) acked.users.push(res.body.data.id);
            } else if (kind === 'workspaces') {
              const workspace = `Kill ${round}-${i}`;
              const res = await call('POST', '/workspaces', { name: workspace, description: 'written while the server may be killed' });
              if (res.status === 201) acked.workspaces.push(res.body.data.id);
            } else {
              await call('GET', '/users/0/10');
            }
          } catch {
            return; // the server is gone
          }
        }
      };
      const writers = [writer('users'), writer('workspaces'), writer('workspaces'), writer('reads')];
      const killAfter = 1_500 + rand(4_500);
      await sleep(killAfter);
      const killedPid = server.pid;
      await server.kill();
      writing = false;
      await Promise.all(writers);
      const lockPath = path.join(dataDir, 'server.lock');
      const staleLock = fs.existsSync(lockPath) && fs.readFileSync(lockPath, 'utf8').trim() === String(killedPid);

      server = startServer({ port, env });
      let outcome;
      try {
        await server.ready();
        call = apiClient(server.baseUrl, await signIn(server.baseUrl, ADMIN));
        acknowledged.users.push(...acked.users);
        acknowledged.workspaces.push(...acked.workspaces);
        const missingUsers = [];
        for (const id of acknowledged.users) if ((await call('GET', `/users/${id}`)).status !== 200) missingUsers.push(id);
        const listed = new Set(((await call('GET', '/workspaces')).body?.data?.rows ?? []).map((row) => row.id));
        const missingWorkspaces = acknowledged.workspaces.filter((id) => !listed.has(id));
        const write = await call('POST', '/workspaces', { name: `After kill ${round}` });
        const whole = missingUsers.length === 0 && missingWorkspaces.length === 0 && write.status === 201;
        if (whole) intact += 1;
        else
          problems.push(
            `kill ${round}: ${missingUsers.length} users and ${missingWorkspaces.length} workspaces answered 201 are missing; a write after the restart answered ${write.status}`,
          );
        outcome = whole
          ? 'opened intact'
          : `**opened, not intact**: ${missingUsers.length + missingWorkspaces.length} acknowledged rows missing, write ${write.status}`;
      } catch (error) {
        if (!(error instanceof StartFailure)) throw error;
        refused += 1;
        const output = error.output ?? '';
        const named = output.includes(RECOVERY_SECTION);
        if (!named) problems.push(`kill ${round}: the server did not start and did not name the recovery: ${output.slice(-400)}`);
        outcome = named ? `refused to start, naming "${RECOVERY_SECTION}"` : '**refused to start without naming the recovery**';
        // The documented recovery: keep the broken directory aside and start on a fresh one.
        await server.kill();
        fs.renameSync(dataDir, `${dataDir}.broken-${round}`);
        acknowledged.users.length = 0;
        acknowledged.workspaces.length = 0;
        server = startServer({ port, env });
        await server.ready();
        call = apiClient(server.baseUrl, await signIn(server.baseUrl, ADMIN));
      }
      rows.push(
        `| ${round} | ${(killAfter / 1000).toFixed(1)} s | ${attempted} | ${acked.users.length + acked.workspaces.length} | ${staleLock ? 'yes' : 'no'} | ${outcome} |`,
      );
      log(`Faults d: kill ${round}: ${outcome}`);
    }

    // Rows written together stay together: every user and workspace made has its audit entry.
    await server.stop();
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pglite = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    const orphan = async (table, where) =>
      (
        await pglite.query(
          `select count(*)::int as n from ${table} t where ${where} and not exists (select 1 from system_audits a where a.record_id = t.id::text)`,
        )
      ).rows[0].n;
    const orphanUsers = await orphan('users', `t.email like 'kill%@soak.test'`);
    const orphanWorkspaces = await orphan('workspaces', `t.name like 'Kill %'`);
    const made = (
      await pglite.query(
        `select (select count(*) from users where email like 'kill%@soak.test')::int as users, (select count(*) from workspaces where name like 'Kill %')::int as workspaces`,
      )
    ).rows[0];
    await pglite.close();
    if (made.users === 0 || made.workspaces === 0)
      problems.push(`the writers made ${made.users} users and ${made.workspaces} workspaces: they do not work`);
    if (orphanUsers + orphanWorkspaces > 0)
      problems.push(`${orphanUsers} users and ${orphanWorkspaces} workspaces without their audit entry`);
    const detail = `${kills} kills: ${intact} opened intact, ${refused} refused to start naming the recovery; ${made.users} users and ${made.workspaces} workspaces kept, each with its audit entry: ${orphanUsers + orphanWorkspaces === 0}`;
    return {
      name,
      ok: problems.length === 0,
      detail: problems.length === 0 ? detail : problems.join('; '),
      lines: [
        `### d. ${name}`,
        '',
        `The server runs on the embedded database in a fresh data directory. Each round, four clients write and read at once (invite users with ` +
          '`POST /user`, two clients creating workspaces, one reading the users list), the server gets SIGKILL at a random moment 1.5–6 s in, ' +
          'and is started again on the same directory. It must either open intact — the admin signs in, every user and workspace whose ' +
          'creation was answered 201 in any round so far is there, and a new write works — or refuse to start with a message naming ' +
          `"${RECOVERY_SECTION}" in docs/operations.md (then the round follows that recovery: the directory is moved aside and the server starts afresh). ` +
          'The lock file the killed server left (`server.lock`, holding its pid) must not stop the restart.',
        '',
        '| kill | after | calls made | answered 201 | its lock left behind | on restart |',
        '|---|---|---|---|---|---|',
        ...rows,
        '',
        `After the last round the server is stopped and the directory opened directly: ${made.users} users and ${made.workspaces} workspaces made ` +
          `by the rounds, ${orphanUsers + orphanWorkspaces} of them without the audit entry written in the same transaction.`,
        '',
        problems.length === 0
          ? `Expectations met: ${intact} of ${kills} restarts opened intact, ${refused} refused with the recovery named.`
          : `**Failed**: ${problems.join('; ')}.`,
      ],
    };
  } finally {
    await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
    for (let round = 1; round <= kills; round++) fs.rmSync(`${dataDir}.broken-${round}`, { recursive: true, force: true });
  }
}
