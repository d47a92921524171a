// The server's memory, as an operator sizing a machine sees it: the resident set (RSS) of the
// compiled server (what `npm start` and the image run) on the embedded database, idle after its
// first start (the demo company and its sample databases made) and idle after a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Targets (MB): idle after the first start, idle after a restart. */
const TARGETS = { first: 300, restart: 250 };
/** Starts measured, each a first start then a restart: a process's RSS varies by some 25 MB from one start to the next. */
const RUNS = 3;
/** How long the server is left idle before its memory is read. */
const IDLE_MS = 30_000;

/** The resident set of a process, in MB, and its peak so far (VmHWM). */
export function residentMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** Reads a process's RSS every 250 ms until stopped: the highest seen. */
export function sampleResident(pid) {
  let highest = 0;
  const timer = setInterval(() => {
    const read = residentMb(pid);
    if (read) highest = Math.max(highest, read.rss);
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return highest;
    },
  };
}

/** Starts the server, lets it idle, and reads its RSS (and its peak so far). */
async function idleResident(startServer, dataDir) {
  const server = startServer({ DATA_DIR: dataDir, CONSOLE_DIR: path.join(dataDir, 'no-console') });
  try {
    await server.ready();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const read = residentMb(server.pid);
    if (!read) throw new Error('the server process could not be read');
    return read;
  } finally {
    await server.stop();
  }
}

/** `startServer(env)` starts the compiled server (scripts/bench.mjs builds it first): `{ pid, ready(), stop() }`. */
export async function measureMemory({ startServer }) {
  const first = [];
  const restart = [];
  for (let run = 0; run < RUNS; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-bench-memory-'));
    try {
      first.push(await idleResident(startServer, dataDir));
      restart.push(await idleResident(startServer, dataDir));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const row = (label, reads, target) => {
    const rss = reads.map((read) => Math.round(read.rss)).sort((a, b) => a - b);
    const median = rss[Math.floor(rss.length / 2)];
    const peak = Math.round(Math.max(...reads.map((read) => read.peak)));
    return `| ${label} | ${median} MB (${rss[0]}–${rss[rss.length - 1]}) | ${peak} MB | ≤ ${target} MB | ${median <= target ? 'met' : 'missed'} |`;
  };
  return [
    '## Memory',
    '',
    'Command: `BENCH_ONLY=memory npm run bench` (tests/bench/memory.mjs). The compiled server (`npm run build:server`, what ' +
      '`npm start` and the image run) on the embedded database with its defaults, each time in a fresh data directory: ' +
      `started ${RUNS} times, and restarted once after each. Its resident set (VmRSS) is read after ${IDLE_MS / 1000} s idle: ` +
      'the median, with the range; the peak is the highest VmHWM, the most a process held since it started. The first start ' +
      'makes the database, the demo company and its sample databases in a process of its own (server/first-start.ts), which ' +
      'exits and gives that memory back.',
    '',
    '| server | idle RSS | peak | target | |',
    '|---|---|---|---|---|',
    row('after its first start', first, TARGETS.first),
    row('after a restart', restart, TARGETS.restart),
    '',
    'Where it goes, after a restart: Node.js itself some 45 MB; the embedded database (PGlite, PostgreSQL compiled to ' +
      'WebAssembly) some 110 MB with `PGLITE_BUFFERS_MB=32` (its memory holds its shared buffers, catalogues and code); the ' +
      "server's modules and JavaScript heap some 100 MB. Each embedded database of a connection, while open, adds some 140 MB " +
      '(`EMBEDDED_BUFFERS_MB=16`).',
  ];
}
