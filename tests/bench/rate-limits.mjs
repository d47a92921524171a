#!/usr/bin/env node
// What counting calls against the per-minute limits costs an authenticated call, on PostgreSQL:
// the server with the limits off, counting with one write per call (tests/bench/rate-limit-per-call.ts),
// and counting as it does (server/auth/rate-limit.ts: in memory, added to the shared rows every
// second or every few calls). The real server on a schema of its own (dropped afterwards); one
// session calls GET /workspaces/active, first one call at a time, then from 10 clients at once.
//   node tests/bench/rate-limits.mjs     (RATE_BENCH_SECONDS: each run's length, 5 by default; RATE_BENCH_ROUNDS: 3;
//                                         RATE_BENCH_DATABASE_URL: default the local postgres://postgres@127.0.0.1:5432/test)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { percentile } from './stats.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const databaseUrl = process.env.RATE_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.RATE_BENCH_SECONDS || 5);
const rounds = Number(process.env.RATE_BENCH_ROUNDS || 3);
const port = Number(process.env.RATE_BENCH_PORT || 8292);
const baseUrl = `http://127.0.0.1:${port}`;
const account = { email: 'admin@rate.local', password: 'Rate-admin-pass-1', companyHostname: 'rate' };
const schema = `rate_${Date.now().toString(36)}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-rate-bench-'));
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
/** High enough never to refuse: what is measured is the counting. */
const COUNTING = { RATE_LIMIT_SESSION_PER_MINUTE: '100000000', RATE_LIMIT_API_KEY_PER_MINUTE: '100000000' };
const OFF = { RATE_LIMIT_SESSION_PER_MINUTE: '0', RATE_LIMIT_API_KEY_PER_MINUTE: '0' };

function startServer(env, preload = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload.flatMap((file) => ['--import', file]), 'server/index.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      BOOTSTRAP_COMPANY_HOSTNAME: account.companyHostname,
      BOOTSTRAP_ADMIN_EMAIL: account.email,
      BOOTSTRAP_ADMIN_PASSWORD: account.password,
      BOOTSTRAP_SAMPLE_DATA: 'false',
      ...env,
    },
  });
  return {
    async ready() {
      for (let i = 0; i < 600; i++) {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        const ok = await fetch(`${baseUrl}/api/v1/health`).then(
          (res) => res.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the server did not start');
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

function get(token) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/api/v1/workspaces/active`, { agent, headers: { 'x-access-token': token } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function drive(token, clients) {
  const times = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      if ((await get(token)) !== 200) failures += 1;
      times.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = (performance.now() - started) / 1000;
  return { rate: times.length / elapsed, p50: percentile(times, 50), mean: times.reduce((a, b) => a + b, 0) / times.length, failures };
}

async function measure(label, env, preload) {
  const server = startServer(env, preload);
  try {
    await server.ready();
    const res = await fetch(`${baseUrl}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    const token = (await res.json()).user.accessToken;
    await drive(token, 4); // warm-up: statements prepared, caches filled
    const one = await drive(token, 1);
    const ten = await drive(token, 10);
    return { label, one, ten };
  } finally {
    await server.stop();
  }
}

/** The statement alone: one upsert per call on one row, from one connection. */
async function statementAlone(client) {
  await client.query(`set search_path = "${schema}"`);
  const [{ id }] = (await client.query(`select id from companies where hostname = $1`, [account.companyHostname])).rows;
  const text = `insert into rate_limits (company_id, subject, window_start, calls) values ($1, 'session:bench', date_trunc('minute', now()), 1)
    on conflict (company_id, subject, window_start) do update set calls = rate_limits.calls + 1 returning calls`;
  const run = async (n) => {
    const started = performance.now();
    for (let i = 0; i < n; i++) await client.query({ name: 'rate_upsert', text, values: [id] });
    return (performance.now() - started) / n;
  };
  await run(500);
  const upsert = await run(5000);
  const select = await (async () => {
    const started = performance.now();
    for (let i = 0; i < 5000; i++) await client.query({ name: 'rate_select', text: 'select 1' });
    return (performance.now() - started) / 5000;
  })();
  return { upsert, select };
}

async function main() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const runs = [];
    // Rounds interleaved, as the machine may be shared: the medians are reported, each round beside them.
    for (let round = 0; round < rounds; round++) {
      runs.push(await measure('limits off', OFF, []));
      runs.push(await measure('one write per call', COUNTING, ['./tests/bench/rate-limit-per-call.ts']));
      runs.push(await measure('batched (the server)', COUNTING, []));
    }
    const alone = await statementAlone(client);
    const f = (n) => n.toFixed(2);
    const median = (values) => percentile(values, 50);
    console.log('| design | 1 client: calls/s | mean ms | 10 clients: calls/s | mean ms | failures |');
    console.log('|---|---|---|---|---|---|');
    for (const label of [...new Set(runs.map((run) => run.label))]) {
      const mine = runs.filter((run) => run.label === label);
      const pick = (get) => median(mine.map(get));
      console.log(
        `| ${label} (median of ${mine.length}) | ${pick((r) => r.one.rate).toFixed(0)} | ${f(pick((r) => r.one.mean))} | ` +
          `${pick((r) => r.ten.rate).toFixed(0)} | ${f(pick((r) => r.ten.mean))} | ${mine.reduce((n, r) => n + r.one.failures + r.ten.failures, 0)} |`,
      );
    }
    console.log('\nEach round:');
    for (const { label, one, ten } of runs)
      console.log(
        `| ${label} | ${one.rate.toFixed(0)} | ${f(one.mean)} | ${ten.rate.toFixed(0)} | ${f(ten.mean)} | ${one.failures + ten.failures} |`,
      );
    console.log(
      `\nThe upsert alone, one connection, one row: ${(alone.upsert * 1000).toFixed(0)} µs a call (select 1: ${(alone.select * 1000).toFixed(0)} µs).`,
    );
  } finally {
    await client.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
    await client.query(`drop schema if exists "${schema}_jobs" cascade`).catch(() => {});
    await client.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    agent.destroy();
  }
}

await main();
