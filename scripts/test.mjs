#!/usr/bin/env node
// Runs the whole suite — console tests, server tests, browser tests — and ends with one line
// "N passed, N failed" summed over all of them. Figures per runner go to .tmp/results/.
//   node scripts/test.mjs              every runner
//   node scripts/test.mjs web server   only the runners named (web, server, e2e)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromiumPath } from './chromium.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const results = path.join(root, '.tmp', 'results');
fs.mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const runners = {
  web: () => vitest('web'),
  server: () => vitest('server'),
  e2e: () => playwright(),
};

function vitest(project, label = project, env = {}) {
  const out = path.join(results, `${label}.json`);
  fs.rmSync(out, { force: true });
  const run = spawnSync(bin('vitest'), ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return countVitest(out, run.status, label);
}

export function countVitest(file, status, label) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    // A file that fails to load counts as one failure, so a broken suite is never green.
    const brokenFiles = (report.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
    const failed = (report.numFailedTests ?? 0) + brokenFiles;
    // An error outside every test (an unhandled rejection, say) fails the run without failing a
    // test, and the JSON report does not show it: the exit status does, and counts as one failure.
    const outside = failed === 0 && typeof status === 'number' && status !== 0 ? 1 : 0;
    const names = (report.testResults ?? []).flatMap((f) => {
      const file = path.relative(root, f.name ?? '');
      const tests = (f.assertionResults ?? [])
        .filter((t) => t.status === 'failed')
        .map((t) => ({ name: `${file} › ${t.fullName ?? t.title}`, reason: reasonOf(t.failureMessages?.[0]) }));
      return f.status === 'failed' && tests.length === 0 ? [{ name: `${file} (did not load)`, reason: reasonOf(f.message) }] : tests;
    });
    return {
      label,
      passed: report.numPassedTests ?? 0,
      failed: failed + outside,
      skipped: report.numPendingTests ?? 0,
      failures: names,
      ...(outside ? { note: `errors outside the tests (exit ${status})` } : {}),
    };
  } catch {
    return { label, passed: 0, failed: 1, skipped: 0, note: `no report (exit ${status})` };
  }
}

function playwright() {
  const browser = chromiumPath();
  if (!browser) {
    console.error('\nBrowser tests need Chromium: install it with `apt-get install -y chromium`, or set CHROMIUM_PATH.\n');
    return { label: 'e2e', passed: 0, failed: 1, skipped: 0, note: 'Chromium not found' };
  }
  const build = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return { label: 'e2e', passed: 0, failed: 1, skipped: 0, note: 'console build failed' };
  const out = path.join(results, 'e2e.json');
  fs.rmSync(out, { force: true });
  const run = spawnSync(bin('playwright'), ['test', '--reporter=list,json'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', CHROMIUM_PATH: browser },
  });
  try {
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    const { stats } = report;
    return {
      label: 'e2e',
      passed: stats.expected ?? 0,
      failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0),
      skipped: stats.skipped ?? 0,
      failures: playwrightFailures(report.suites ?? []),
    };
  } catch {
    return { label: 'e2e', passed: 0, failed: 1, skipped: 0, note: `no report (exit ${run.status})` };
  }
}

/** The titles of the browser tests that failed (or passed only on a retry), as "file › title". */
export function playwrightFailures(suites, titles = []) {
  return suites.flatMap((suite) => {
    const path_ = suite.title ? [...titles, suite.title] : titles;
    const own = (suite.specs ?? []).flatMap((spec) => {
      const failed = (spec.tests ?? []).find((t) => t.status === 'unexpected' || t.status === 'flaky');
      if (!failed) return [];
      const error = (failed.results ?? []).map((r) => r.error?.message).find(Boolean);
      return [{ name: [...path_, spec.title].join(' › '), reason: reasonOf(error) }];
    });
    return [...own, ...playwrightFailures(suite.suites ?? [], path_)];
  });
}

/** The first lines of a failure's message, without colours: enough to say why, at the log's end. */
export function reasonOf(message, lines = 6) {
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  const kept = plain
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !/^\s+at /.test(l));
  return kept
    .slice(0, lines)
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l))
    .join('\n');
}

/**
 * One line per failed test, and under it the first lines of why, so the end of a long log says
 * what failed and why without scrolling back.
 */
export function failureLines(counts) {
  return counts.flatMap((c) =>
    (c.failures ?? []).flatMap((f) => {
      const { name, reason } = typeof f === 'string' ? { name: f, reason: undefined } : f;
      return [`FAILED ${c.label}: ${name}`, ...(reason ? reason.split('\n').map((l) => `    ${l}`) : [])];
    }),
  );
}

export function summarise(counts) {
  const passed = counts.reduce((n, c) => n + c.passed, 0);
  const failed = counts.reduce((n, c) => n + c.failed, 0);
  return { passed, failed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const wanted = process.argv.slice(2);
  const names = wanted.length > 0 ? wanted : Object.keys(runners);
  const counts = [];
  for (const name of names) {
    if (!runners[name]) {
      console.error(`Unknown runner "${name}"; use ${Object.keys(runners).join(', ')}`);
      process.exit(2);
    }
    counts.push(runners[name]());
  }
  fs.writeFileSync(path.join(results, 'summary.json'), JSON.stringify(counts, null, 2));
  console.log('');
  for (const c of counts)
    console.log(`${c.label.padEnd(8)} ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped${c.note ? ` (${c.note})` : ''}`);
  for (const line of failureLines(counts)) console.log(line);
  const { passed, failed } = summarise(counts);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
