#!/usr/bin/env node
// Soak: long load and fault runs against the real server, figures written to docs/soak.md.
//   npm run test:soak        (SOAK_ONLY=load-pg | load-pglite | cluster | faults: one part; SOAK_SECONDS: load length, 300 by default)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applySeedScale, loadOnPglite, loadOnPostgres, seedDescription } from '../tests/soak/load-parts.mjs';
import { THINK_MS } from '../tests/soak/load.mjs';
import { runFaults } from '../tests/soak/faults.mjs';
import { soakCluster } from '../tests/soak/cluster.mjs';
import { root } from '../tests/soak/server.mjs';

const only = process.env.SOAK_ONLY ?? '';
const parts = ['load-pg', 'load-pglite', 'cluster', 'faults'];
if (only && !parts.includes(only)) {
  console.error(`SOAK_ONLY must be one of ${parts.join(', ')}`);
  process.exit(2);
}
const runs = (part) => only === '' || only === part;
const seconds = Number(process.env.SOAK_SECONDS || 300);
const databaseUrl = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgUsers = Number(process.env.SOAK_PG_USERS || 200);
const pgliteUsers = Number(process.env.SOAK_PGLITE_USERS || 20);
const clusterServers = Number(process.env.SOAK_CLUSTER_SERVERS || 3);
const clusterWorkers = Number(process.env.SOAK_CLUSTER_WORKERS || 2);
const seedScale = Number(process.env.SOAK_SEED_SCALE || 1);
const port = Number(process.env.SOAK_PORT || 8383);
applySeedScale(seedScale);

const log = (message) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);
const loadNow = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const command = () => {
  const env = Object.entries(process.env)
    .filter(([key]) => key.startsWith('SOAK_'))
    .map(([key, value]) => `${key}=${value} `)
    .join('');
  return `${env}npm run test:soak`;
};

const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : n.toFixed(0)} ms` : '—');

/** The one-server PostgreSQL load's p95 (docs/soak.md): a person waits at most this long for 19 calls in 20. */
const PG_P95_TARGET_MS = 500;

/** Met when the load had no errors and, where a p95 target is set, its p95 is within it. */
const loadMet = (result, p95Target) => result.errors === 0 && (p95Target === undefined || result.overall.p95 <= p95Target);

function loadSection(title, result, { users, loadBefore, loadAfter, note, p95Target }) {
  const rate = (result.calls / result.elapsed).toFixed(0);
  return [
    `## ${title}`,
    '',
    `Command: \`${command()}\` (tests/soak/load.mjs). ${note} Seeded: ${seedDescription()}` +
      `${seedScale !== 1 ? ` — **at seed scale ${seedScale}, not the full size**` : ''}; seeding took ${result.seedSeconds.toFixed(0)} s.`,
    '',
    `${users} simulated people, each signed in once as a user of their own (argon2, 4 sign-ins at a time: ${result.rampSeconds.toFixed(1)} s for all, ` +
      `sign-in p50 ${ms(result.signIn.p50)}, p95 ${ms(result.signIn.p95)}), then browsing for ${result.seconds} s: pick a list, open it (its page and cards at once), ` +
      `open the filter choices, filter, search, page forward, open a record, with ${THINK_MS.min / 1000}–${THINK_MS.max / 1000} s of think time before each step. ` +
      'An error is any answer but 2xx, a list answer without rows, a network error or no answer within 30 s. The people run in one ' +
      `Node process on the same machine as the server and the database, over loopback, through node:http with one kept-alive agent of ${users + 16} sockets ` +
      "(Node's fetch costs several times the CPU per call, which would be taken from the server on this machine; see tests/bench/lists.mjs). " +
      `Machine load (1, 5, 15 min) before: ${loadBefore}; after: ${loadAfter}.`,
    '',
    '| database | people | calls | rate | errors | p50 | p95 | p99 | max | expectation |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| ${result.database} | ${users} | ${result.calls} | ${rate}/s | ${result.errors} | ${ms(result.overall.p50)} | ${ms(result.overall.p95)} | ${ms(result.overall.p99)} | ${ms(result.overall.max)} | ${p95Target === undefined ? 'no errors' : `no errors, p95 ≤ ${p95Target} ms`}: ${loadMet(result, p95Target) ? 'met' : '**missed**'} |`,
    '',
    'Per call family, under the load, and alone: the median of 3 calls made one after another by the admin before the people sign in ' +
      '(what the call costs with nobody else calling; far below the loaded figures means the load queued behind other calls).',
    '',
    '| call family | alone | calls | errors | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|---|---|',
    ...result.families.map(
      (f) => `| ${f.name} | ${ms(f.alone)} | ${f.calls} | ${f.errors} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.p99)} | ${ms(f.max)} |`,
    ),
    ...(result.samples.length > 0 ? ['', 'First errors:', '', ...result.samples.map((s) => `- \`${s.replace(/`/g, "'")}\``)] : []),
  ];
}

/** What the cluster part expects: errors only around the faults, nothing lost or left running, sweeps done once. */
function clusterVerdicts(result) {
  const unexplained = result.runs.reduce((n, row) => n + row.unexplained, 0);
  const midRun = result.faults.some((fault) => fault.midRun);
  return [
    [
      'cluster: errors only around the faults',
      result.failuresOutside === 0,
      `${result.errors} errors, ${result.failuresOutside} outside the faults' windows`,
    ],
    [
      'cluster: no lost writes',
      result.writes.lost === 0,
      `${result.writes.acknowledged} workspaces acknowledged, ${result.writes.lost} missing`,
    ],
    [
      'cluster: every run ended, failures with their reason',
      result.runsLeft === 0 && unexplained === 0,
      `${result.runsLeft} left queued or running, ${unexplained} failed without a reason`,
    ],
    [
      'cluster: a worker killed mid-run',
      midRun,
      midRun ? 'the worker holding a running copy was killed' : 'no run was under way when the worker was killed',
    ],
    [
      'cluster: weekly reports once per company and week',
      result.reportsMade > 0 && result.duplicateReports === 0 && result.duplicateReportMails === 0,
      `${result.reportsMade} made, ${result.duplicateReports} weeks made twice, ${result.duplicateReportMails} mailed twice`,
    ],
    [
      'cluster: the retention pass once, not once per server',
      result.retentionAudits === 1,
      `${result.retentionAudits} retention audit entries for the company with a retention, from the passes of ${result.processStarts} servers starting together`,
    ],
  ];
}

function clusterSection(result, { loadBefore, loadAfter }) {
  const rate = (result.calls / result.elapsed).toFixed(0);
  const runs = result.runs.map((row) => `${row.n} ${row.status}`).join(', ');
  return [
    '## Cluster under load and faults',
    '',
    `Command: \`SOAK_ONLY=cluster npm run test:soak\` (tests/soak/cluster.mjs). \`npm run cluster\`'s topology (scripts/cluster.mjs): ` +
      `${result.servers} servers with \`RUN_WORKER=false\`, ${result.workers} workers and HAProxy, compiled (\`npm run build:server\`) as \`npm start\` and the image run them, on a private PostgreSQL (restartable without touching the machine's), ` +
      `seeded as the one-server load (${seedDescription()}; seeding took ${result.seedSeconds.toFixed(0)} s). ${result.users} simulated people browse through HAProxy ` +
      `for ${result.seconds} s as in the load above, while the admin queues a quick workflow every 3 s and a ~10 s copy whenever the last one ended ` +
      `(${result.queued.accepted} of ${result.queued.asked} accepted) and creates a workspace every 0.2 s. ` +
      `Machine load (1, 5, 15 min) before: ${loadBefore}; after: ${loadAfter}.`,
    '',
    '| people | calls | rate | errors | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|---|---|',
    `| ${result.users} | ${result.calls} | ${rate}/s | ${result.errors} | ${ms(result.overall.p50)} | ${ms(result.overall.p95)} | ${ms(result.overall.p99)} | ${ms(result.overall.max)} |`,
    '',
    'Per call family, faults included:',
    '',
    '| call family | calls | errors | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|---|',
    ...result.families.map((f) => `| ${f.name} | ${f.calls} | ${f.errors} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.p99)} | ${ms(f.max)} |`),
    '',
    'Faults, with the time from the fault until the cluster answered again:',
    '',
    ...result.faults.map((fault) => `- ${fault.name}: ${((fault.to - fault.from) / 1000).toFixed(1)} s`),
    '',
    'Errors by kind (a call counts against a fault when it was in flight during the fault: sent before the cluster answered again, and ended after the fault began, or up to 1 s before it; HAProxy sends GETs again to another server, not POSTs, which may have written):',
    '',
    ...(result.failuresByKind.length > 0 ? result.failuresByKind.map(([kind, n]) => `- ${kind}: ${n}`) : ['- none']),
    '',
    `Writes: ${result.writes.asked} workspaces asked, ${result.writes.acknowledged} acknowledged, ${result.writes.failed} refused or unanswered; ` +
      `${result.writes.stored} stored, **${result.writes.lost} acknowledged and missing**.`,
    '',
    `Runs of the two workflows at the end: ${runs}; ${result.runsLeft} left queued or running.`,
    '',
    `Weekly reports (the companies were made a month before, so each server's first sweep finds last week's due): ${result.reportsMade} made, ` +
      `${result.duplicateReports} company-weeks made more than once, ${result.duplicateReportMails} mailed more than once. ` +
      `Retention: ${result.retentionAudits} purge audit entries for the company that keeps its audits 60 days (with 300 entries a year old) from the passes of the ${result.processStarts} servers started together (each runs a pass at its start).`,
    ...(result.samples.length > 0 ? ['', 'First errors:', '', ...result.samples.map((s) => `- \`${s.replace(/`/g, "'")}\``)] : []),
  ];
}

async function main() {
  const sections = [];
  const verdicts = [];
  if (runs('load-pg')) {
    const loadBefore = loadNow();
    try {
      const result = await loadOnPostgres({ databaseUrl, users: pgUsers, seconds, port, log });
      sections.push(
        loadSection('Load on PostgreSQL', result, {
          users: pgUsers,
          loadBefore,
          loadAfter: loadNow(),
          note: `The server on PostgreSQL (\`SOAK_DATABASE_URL\`, default the local \`postgres://postgres@127.0.0.1:5432/test\`, in a schema of its own dropped afterwards).`,
          p95Target: pgUsers === 200 ? PG_P95_TARGET_MS : undefined,
        }),
      );
      verdicts.push([
        'load on PostgreSQL',
        loadMet(result, pgUsers === 200 ? PG_P95_TARGET_MS : undefined),
        `${result.calls} calls, ${result.errors} errors, p95 ${ms(result.overall.p95)}`,
      ]);
    } catch (error) {
      verdicts.push(['load on PostgreSQL', false, error.message]);
    }
  }
  if (runs('load-pglite')) {
    const loadBefore = loadNow();
    try {
      const result = await loadOnPglite({ users: pgliteUsers, seconds, port, log });
      sections.push(
        loadSection('Load on the embedded database', result, {
          users: pgliteUsers,
          loadBefore,
          loadAfter: loadNow(),
          note: 'The server on PGlite in a fresh data directory.',
        }),
      );
      verdicts.push(['load on PGlite', loadMet(result), `${result.calls} calls, ${result.errors} errors, p95 ${ms(result.overall.p95)}`]);
    } catch (error) {
      verdicts.push(['load on PGlite', false, error.message]);
    }
  }
  if (runs('cluster')) {
    const loadBefore = loadNow();
    try {
      const result = await soakCluster({ users: pgUsers, seconds, port, log, servers: clusterServers, workers: clusterWorkers });
      if (result.notRun) verdicts.push(['cluster under load and faults', null, `not run: ${result.notRun}`]);
      else {
        sections.push(clusterSection(result, { loadBefore, loadAfter: loadNow() }));
        verdicts.push(...clusterVerdicts(result));
      }
    } catch (error) {
      verdicts.push(['cluster under load and faults', false, error.message]);
    }
  }
  if (runs('faults')) {
    const faults = await runFaults({ port, log, command: command() });
    sections.push(faults.section);
    verdicts.push(...faults.verdicts);
  }
  writeReport(sections, verdicts);
  const failed = verdicts.filter(([, ok]) => ok === false);
  const skipped = verdicts.filter(([, ok]) => ok === null);
  for (const [name, ok, detail] of verdicts) console.log(`${ok === null ? 'SKIP' : ok ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
  console.log(
    `soak: ${verdicts.length - failed.length - skipped.length} passed, ${failed.length} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`,
  );
  process.exit(failed.length > 0 ? 1 : 0);
}

function writeReport(sections, verdicts) {
  const file = path.join(root, 'docs', 'soak.md');
  const previous = previousSections(file);
  const measured = new Set(sections.map((section) => section[0]));
  const kept = previous.filter((section) => !measured.has(section[0]) && section[0] !== '## Last run');
  const order = [
    '## Load on PostgreSQL',
    '## Load on the embedded database',
    '## Cluster under load and faults',
    '## Faults',
    '## Why these are not in `npm test`',
  ];
  const all = [...sections, ...kept, whyNotInNpmTest()].filter((section, i, list) => list.findIndex((s) => s[0] === section[0]) === i);
  all.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    '# Soak runs',
    '',
    'Written by `npm run test:soak` (scripts/soak.mjs); each section comes from the last run of its part, with its own command.',
    `\`SOAK_ONLY=load-pg\`, \`load-pglite\`, \`cluster\` or \`faults\` runs one part and keeps the others' last figures; \`SOAK_SECONDS\` sets the length of each load (300 s by default).`,
    '',
    '## Last run',
    '',
    `${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC, \`${command()}\`. Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ` +
      `Node ${process.version}, shared with other test runs; load average (1, 5, 15 min) at the end: ${loadNow()}.`,
    '',
    ...verdicts.map(([name, ok, detail]) => `- ${ok === null ? 'skipped' : ok ? 'passed' : '**failed**'}: ${name} — ${detail}`),
    '',
  ];
  for (const section of all) lines.push(...section, '');
  fs.writeFileSync(file, lines.join('\n'));
  log(`wrote ${path.relative(root, file)}`);
}

function previousSections(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split(/^(?=## )/m)
    .filter((part) => part.startsWith('## '))
    .map((part) => part.replace(/\s+$/, '').split('\n'));
}

function whyNotInNpmTest() {
  return [
    '## Why these are not in `npm test`',
    '',
    'Every part starts the real server as a child process (`node --import tsx server/index.ts`) and kills it, several times for the ' +
      'fault runs; the PostgreSQL faults also need a PostgreSQL of their own, made with `initdb` and run as the `postgres` OS user, ' +
      "because restarting the machine's shared PostgreSQL would break other test runs. The shortest fault check still waits for the " +
      "runner's recovery (a run's heartbeat is stale after 30 s, swept every 15 s), so none fits the suite's budget of seconds per " +
      "file, and none can run where PostgreSQL's programs are missing. They stay in `npm run test:soak`, which ends with a " +
      '`soak: N passed, N failed` line and a non-zero exit when an expectation fails. What each fault proves at the level of one ' +
      "function (recovery of stale runs, the copy's staging table, the upload's single transaction, the data-directory lock) " +
      'is covered by the server suite (tests/server/jobs/runner-recovery.test.ts, tasks-copy.test.ts, tables.test.ts, startup.test.ts).',
  ];
}

main().catch((error) => {
  console.error(`soak failed: ${error.stack ?? error.message}`);
  console.log('soak: 0 passed, 1 failed');
  process.exit(1);
});
