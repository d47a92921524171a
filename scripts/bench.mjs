#!/usr/bin/env node
// Benchmarks: builds the console, starts the real server on a fresh data directory, measures,
// and writes the figures with the command behind them to docs/benchmarks.md.
//   npm run bench
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumPath } from './chromium.mjs';
import { measureFirstLoad } from '../tests/bench/first-load.mjs';
import { measureSignIn } from '../tests/bench/sign-in.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.BENCH_PORT || 8282);
const baseUrl = `http://127.0.0.1:${port}`;
const account = { email: 'admin@bench.local', password: 'Bench-admin-pass-1', companyHostname: 'bench' };

async function main() {
  if (!chromiumPath()) throw new Error('Benchmarks need Chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
  const build = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the console build failed');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: '',
      BOOTSTRAP_COMPANY_HOSTNAME: account.companyHostname,
      BOOTSTRAP_ADMIN_EMAIL: account.email,
      BOOTSTRAP_ADMIN_PASSWORD: account.password,
    },
  });
  try {
    await waitFor(`${baseUrl}/api/v1/health`);
    const sections = [];
    sections.push(await measureFirstLoad({ baseUrl, account }));
    sections.push(await measureSignIn({ baseUrl, account }));
    writeReport(sections);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function waitFor(url) {
  const deadline = Date.now() + 60_000;
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

function writeReport(sections) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (scripts/bench.mjs); every figure below comes from its last run.',
    `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    'The server runs on the embedded database in a fresh data directory, on loopback; the browser is Chromium, headless.',
    '',
  ];
  for (const section of sections) lines.push(...section, '');
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'docs', 'benchmarks.md'), lines.join('\n'));
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(`Benchmark failed: ${err.message}`);
  process.exit(1);
});
