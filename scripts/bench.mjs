#!/usr/bin/env node
// Benchmarks: builds the console, starts the real server on a fresh data directory, measures,
// and writes the figures with the command behind them to docs/benchmarks.md.
//   npm run bench           (BENCH_ONLY=first-load | lists | quality | copy | memory | runs | isolation | live: one part;
//                            BENCH_ONLY=peer: beside Directus, once ../shared/bench/peer-directus/setup.sh has run)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from './chromium.mjs';
import { SERVER_PROCESS_ENV } from './server-env.mjs';
import { measureFirstLoad } from '../tests/bench/first-load.mjs';
import { measureSignIn } from '../tests/bench/sign-in.mjs';
import { listSection, measureListCalls, seedListData } from '../tests/bench/lists.mjs';
import { measurePeer, seedPeerData } from '../tests/bench/peer-directus.mjs';
import { measureQuality } from '../tests/bench/quality.mjs';
import { measureCopy } from '../tests/bench/copy.mjs';
import { measureRunLatency } from '../tests/bench/jobs-latency.mjs';
import { measureIsolation } from '../tests/bench/isolation.mjs';
import { measureLiveLatency } from '../tests/bench/live.mjs';
import { measureMemory, sampleResident } from '../tests/bench/memory.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.BENCH_PORT || 8282);
const baseUrl = `http://127.0.0.1:${port}`;
const account = { email: 'admin@bench.local', password: 'Bench-admin-pass-1', companyHostname: 'bench' };

/** PostgreSQL for the list figures; unreachable → that half is reported as not measured. */
const benchDatabaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Seconds each list call is hammered for. */
const listSeconds = Number(process.env.BENCH_LIST_SECONDS || 8);
/** `BENCH_ONLY=first-load`, `lists`, `quality`, `copy`, `memory`, `runs`, `isolation` or `live` measures that part alone and keeps the others' last figures. */
const only = process.env.BENCH_ONLY ?? '';
const measures = (part) => only === '' || only === part;

/** The server on BENCH_PORT; `compiled`: the compiled one (npm run build:server), as npm start and the image run it. */
function startServer(env, { compiled = false } = {}) {
  const server = spawn(process.execPath, compiled ? ['dist/server/index.mjs'] : ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      // As npm start and the image start it.
      ...SERVER_PROCESS_ENV,
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // The clients drive one admin session far past any person's rate; the limits would refuse them.
      RATE_LIMIT_SESSION_PER_MINUTE: '0',
      RATE_LIMIT_API_KEY_PER_MINUTE: '0',
      BOOTSTRAP_COMPANY_HOSTNAME: account.companyHostname,
      BOOTSTRAP_ADMIN_EMAIL: account.email,
      BOOTSTRAP_ADMIN_PASSWORD: account.password,
      ...env,
    },
  });
  return {
    pid: server.pid,
    async ready() {
      await waitFor(`${baseUrl}/api/v1/health`);
    },
    async stop() {
      if (server.exitCode !== null) return;
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

/** npm run build:server, for the parts that measure the server as npm start and the image run it. */
function buildCompiledServer() {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('npm run build:server failed');
}

async function adminToken() {
  const res = await fetch(`${baseUrl}/api/v1/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${body.message}`);
  return body.user.accessToken;
}

/** Ids the filter calls use: the Member role, a workspace, a user who wrote audits. */
async function filterIds(query) {
  const [company] = await query(`select id from companies where hostname = '${account.companyHostname}'`);
  const [role] = await query(`select id from roles where company_id = '${company.id}' and name = 'Member'`);
  const [workspace] = await query(`select id from workspaces where company_id = '${company.id}' order by name limit 1`);
  const [auditor] = await query(`select user_id from system_audits where company_id = '${company.id}' and user_id is not null limit 1`);
  return { memberRoleId: role.id, workspaceId: workspace.id, auditUserId: auditor.user_id };
}

/** Lets the bench read the server's metrics (server/http/metrics.ts). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** What the server's memory is made of now, from its metrics: ` (at the end: …)`, or nothing when they cannot be read. */
async function memoryParts() {
  const res = await fetch(`${baseUrl}/api/v1/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).catch(() => null);
  if (!res?.ok) return '';
  const text = await res.text();
  const mb = (name) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? `${Math.round(Number(line.split(' ')[1]) / 1048576)} MB` : '?';
  };
  return (
    ` (at the end: the embedded database's memory ${mb('dataops_embedded_database_memory_bytes')}, ` +
    `the JavaScript heap ${mb('nodejs_heap_size_total_bytes')}, buffers outside it ${mb('nodejs_external_memory_bytes')})`
  );
}

async function listsOnPglite() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-lists-'));
  try {
    // First start migrates and bootstraps; the seed then writes straight into the stopped server's directory.
    let server = startServer({ DATA_DIR: dataDir }, { compiled: true });
    await server.ready();
    await server.stop();
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pglite = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    const exec = (sql) => pglite.exec(sql);
    const query = async (sql) => (await pglite.query(sql)).rows;
    console.log('Seeding PGlite…');
    await seedListData(exec, query, account.companyHostname);
    const ids = await filterIds(query);
    await pglite.query('CHECKPOINT');
    await pglite.close();
    server = startServer({ DATA_DIR: dataDir, METRICS_TOKEN: METRICS_TOKEN }, { compiled: true });
    try {
      await server.ready();
      const memory = sampleResident(server.pid);
      const rows = await measureListCalls({ baseUrl, token: await adminToken(), ids, label: 'PGlite', target: 100, seconds: listSeconds });
      const highest = Math.round(memory.stop());
      const parts = await memoryParts();
      rows.push(
        `| PGlite | the server's memory: its highest RSS during the calls above${parts} | | | | | | ${highest} MB, ≤ 500 MB: ${highest <= 500 ? 'met' : 'missed'} |`,
      );
      return rows;
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A server on a schema of its own of BENCH_DATABASE_URL: started once to make the schema, stopped
 * while `seed(exec, query)` fills it, started again for `measure(token, seeded)`; the schema is
 * dropped after. `unreachable(error)` answers when the database cannot be reached.
 */
async function onSeededPostgres({ name, seed, measure, unreachable, compiled = false }) {
  const { default: pg } = await import('pg');
  const schema = `bench_${name}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: benchDatabaseUrl });
  try {
    await client.connect();
  } catch (err) {
    if (unreachable) return unreachable(err);
    throw err;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `dataops-bench-${name}-`));
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: benchDatabaseUrl, DATABASE_SCHEMA: schema };
    let server = startServer(env, { compiled });
    await server.ready();
    await server.stop();
    await client.query(`set search_path = "${schema}"`);
    const seeded = await seed(
      (sql) => client.query(sql),
      async (sql) => (await client.query(sql)).rows,
    );
    server = startServer(env, { compiled });
    try {
      await server.ready();
      return await measure(await adminToken(), seeded);
    } finally {
      await server.stop();
    }
  } finally {
    await client.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
    await client.query(`drop schema if exists "${schema}_jobs" cascade`).catch(() => {});
    await client.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function listsOnPostgres() {
  return onSeededPostgres({
    name: 'pg',
    compiled: true,
    unreachable: (err) => [`| PostgreSQL | not measured: ${benchDatabaseUrl} is unreachable (${err.message}) | | | | | | |`],
    seed: async (exec, query) => {
      console.log('Seeding PostgreSQL…');
      await seedListData(exec, query, account.companyHostname);
      return filterIds(query);
    },
    measure: (token, ids) => measureListCalls({ baseUrl, token, ids, label: 'PostgreSQL', target: 20, seconds: listSeconds }),
  });
}

/** This server beside the Directus peer on the same PostgreSQL (tests/bench/peer-directus.mjs); only with BENCH_ONLY=peer. */
function peerOnPostgres() {
  return onSeededPostgres({
    name: 'peer',
    seed: (exec, query) => {
      console.log('Seeding PostgreSQL for the peer comparison…');
      return seedPeerData(exec, query, account.companyHostname);
    },
    measure: (token) => measurePeer({ baseUrl, token }),
  });
}

/** Builds the console into a directory of its own, so that a console built or served from dist/ is left alone. */
function buildConsole() {
  if (!chromiumPath()) throw new Error('Benchmarks need Chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
  const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-console-'));
  const build = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn', '--outDir', consoleDir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the console build failed');
  return consoleDir;
}

async function main() {
  const sections = [];
  if (measures('first-load')) {
    const consoleDir = buildConsole();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-'));
    const server = startServer({ DATA_DIR: dataDir, CONSOLE_DIR: consoleDir });
    try {
      await server.ready();
      sections.push(await measureFirstLoad({ baseUrl, account }));
      sections.push(await measureSignIn({ baseUrl, account }));
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(consoleDir, { recursive: true, force: true });
    }
  }
  if (measures('lists')) {
    buildCompiledServer();
    const rows = [...(await listsOnPostgres()), ...(await listsOnPglite())];
    sections.push(listSection(rows, listSeconds));
  }
  // Not part of a whole run: it needs the Directus peer set up beside the server.
  if (only === 'peer') sections.push(await peerOnPostgres());
  if (measures('quality')) sections.push(await measureQuality({ databaseUrl: benchDatabaseUrl }));
  if (measures('copy')) sections.push(await measureCopy({ databaseUrl: benchDatabaseUrl }));
  if (measures('memory')) {
    buildCompiledServer();
    sections.push(await measureMemory({ startServer: (env) => startServer(env, { compiled: true }) }));
  }
  if (measures('runs')) sections.push(await measureRunLatency({ databaseUrl: benchDatabaseUrl }));
  if (measures('isolation')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-isolation-'));
    const server = startServer({ DATA_DIR: dataDir });
    try {
      await server.ready();
      sections.push(await measureIsolation({ baseUrl, account }));
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (measures('live')) {
    const consoleDir = buildConsole();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-live-'));
    try {
      sections.push(await measureLiveLatency({ baseUrl, account, databaseUrl: benchDatabaseUrl, startServer, consoleDir, dataDir }));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(consoleDir, { recursive: true, force: true });
    }
  }
  writeReport(sections);
}

async function waitFor(url) {
  // A busy machine takes its time to start the server (tsx compiles it first).
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer at ${url}`);
}

/** The line each measured section carries: figures of one part are only comparable on one machine. */
const MACHINE_PREFIX = 'Measured on: ';

function writeReport(sections) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${MACHINE_PREFIX}${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`;
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (scripts/bench.mjs); every figure below comes from the last run of its part, which can be on another machine ' +
      'than the other parts: each section says its machine (the sections without that line are older, from a machine not recorded).',
    'The server runs on the embedded database in a fresh data directory, on loopback; the browser is Chromium, headless.',
    '',
  ];
  // A partial run (BENCH_ONLY) keeps the sections it did not measure from the last report, each in
  // its place: a measured section takes the place of its last figures, a new one goes last.
  const stamped = sections.map(([heading, ...rest]) => [heading, '', machine, ...rest.filter((line) => !line.startsWith(MACHINE_PREFIX))]);
  const measured = new Map(stamped.map((section) => [section[0], section]));
  const previous = previousSections();
  const ordered = previous.map((kept) => measured.get(kept[0]) ?? kept);
  for (const section of stamped) if (!previous.some((kept) => kept[0] === section[0])) ordered.push(section);
  for (const section of ordered) lines.push(...section, '');
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'docs', 'benchmarks.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}

function previousSections() {
  const file = path.join(root, 'docs', 'benchmarks.md');
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  return text
    .split(/^(?=## )/m)
    .filter((part) => part.startsWith('## '))
    .map((part) => part.replace(/\s+$/, '').split('\n'));
}

main().catch((err) => {
  console.error(`Benchmark failed: ${err.message}`);
  process.exit(1);
});
