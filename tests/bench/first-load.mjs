import os from 'node:os';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium.mjs';
import { kb, ms, percentile } from './stats.mjs';

const RUNS = Number(process.env.BENCH_FIRST_LOAD_RUNS || 7);
/** Issue budget: gzipped JavaScript before the sign-in form is usable. */
export const SIGN_IN_JS_BUDGET_BYTES = 150 * 1024;
/** Targets, in milliseconds. */
const TARGETS = { signInForm: 300, dashboard: 500, listRow: 150 };
/** The lists opened from the menu after the dashboard, by their menu entries. */
const LISTS = ['Users', 'Workflows', 'System audits'];
/** Time a person takes between seeing the dashboard (or a list) and clicking the next menu entry. */
const THINK_MS = 1000;
/**
 * The admin's dashboard, complete: the company's cards, five charts (runs by day, runs by status,
 * checks by result, connections by type, sign-ins), the admin cards and the people panel.
 */
const DASHBOARD_SECTIONS = 8;

/**
 * Runs in every page before its own scripts: records, on the page's clock, when what a person
 * waits for is on screen. A condition is checked after each DOM change; the moment is the next
 * animation frame after it first holds (the frame that paints it), so the figures carry no
 * polling or round-trip delay of the driving process.
 */
function installProbes() {
  const seen = {};
  const probes = [];
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const check = () => {
    for (const probe of probes) {
      if (probe.pending || seen[probe.name] !== undefined || !probe.holds()) continue;
      probe.pending = true;
      requestAnimationFrame(() => {
        seen[probe.name] = performance.now();
      });
    }
  };
  window.__bench = {
    seen,
    clicks: [],
    watch(name, holds) {
      delete seen[name];
      probes.push({ name, holds, pending: false });
      check();
    },
    signInFormUsable() {
      const input = document.querySelector('input[name="email"]');
      return Boolean(input && !input.disabled && visible(input));
    },
    dashboardComplete(expectedSections) {
      const main = document.getElementById('main-content');
      if (!main || main.querySelectorAll('section[aria-label]').length < expectedSections) return false;
      if (main.querySelector('[aria-busy="true"], .MuiSkeleton-root')) return false;
      const cards = main.querySelectorAll('[data-card]');
      return cards.length > 0 && [...cards].every(visible);
    },
    listRowShown(path) {
      if (window.location.pathname !== path) return false;
      const row = document.querySelector('tbody tr.RaDataTable-row:not([data-bench-earlier])');
      return Boolean(row && visible(row));
    },
    markRows() {
      document.querySelectorAll('tbody tr').forEach((row) => row.setAttribute('data-bench-earlier', ''));
    },
  };
  // The moment of a click as the page received it.
  window.addEventListener('click', (event) => window.__bench.clicks.push(event.timeStamp), true);
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  if (window.location.pathname === '/auth/signin') window.__bench.watch('signInForm', () => window.__bench.signInFormUsable());
}

/** A few workflows with runs, so the Workflows list has rows and the run charts have bars. */
export async function seed({ baseUrl, account }) {
  const call = async (method, path, token, body) => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${answer.message}`);
    return answer;
  };
  const token = (await call('POST', '/signin', null, account)).user.accessToken;
  const pairs = (await call('GET', '/active/source/destination', token)).data ?? [];
  if (pairs.length === 0) return;
  for (let i = 1; i <= 3; i++) {
    const { data: workflow } = await call('POST', '/workflow', token, {
      name: `Nightly notice ${i}`,
      pairId: pairs[0].id,
      tasks: [{ id: 'notice', name: 'Notice', type: 'notify', message: 'Done' }],
    });
    await call('POST', `/workflow/run/${workflow.jobId}`, token, {});
  }
  await call('PUT', '/session/logout', token, {});
}

async function waitForMark(page, name, timeout = 30_000) {
  await page.waitForFunction((mark) => window.__bench.seen[mark] !== undefined, name, { timeout, polling: 50 });
  return page.evaluate((mark) => window.__bench.seen[mark], name);
}

async function lastClick(page) {
  return page.evaluate(() => window.__bench.clicks[window.__bench.clicks.length - 1]);
}

/**
 * Opens /auth/signin in a fresh browser context (empty cache) and records the JavaScript loaded
 * until the sign-in form can be typed into, gzipped at level 9 the way a server would send it,
 * and the time from navigation start to that moment; then signs in and times the dashboard
 * with all its data, and a few lists opened from the menu.
 */
export async function measureFirstLoad({ baseUrl, account }) {
  await seed({ baseUrl, account });
  const loads = [os.loadavg()[0]];
  const runs = await firstLoadRuns({ baseUrl, account, count: RUNS });
  loads.push(os.loadavg()[0]);
  return firstLoadSection(runs, loads);
}

/** `count` cold loads, each with its sign-in, dashboard and lists; the raw figures of each. */
export async function firstLoadRuns({ baseUrl, account, count }) {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const runs = [];
  try {
    for (let i = 0; i < count; i++) {
      const context = await browser.newContext();
      await context.addInitScript(installProbes);
      const page = await context.newPage();
      const scripts = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response);
      });
      await page.goto(`${baseUrl}/auth/signin`, { waitUntil: 'commit' });
      const usableAt = await waitForMark(page, 'signInForm');
      // Scripts asked for before the form was usable: what follows (the console, fetched ahead
      // once the form is drawn and the browser idle) is not needed to use it.
      const usableEpoch = (await page.evaluate(() => performance.timeOrigin)) + usableAt;
      const loaded = scripts.filter((response) => response.request().timing().startTime <= usableEpoch);
      let raw = 0;
      let gzipped = 0;
      for (const response of loaded) {
        const body = await response.body();
        raw += body.length;
        gzipped += zlib.gzipSync(body, { level: 9 }).length;
      }

      // Then sign in and time the way to the dashboard with all its data.
      await page.locator('input[name="email"]').fill(account.email);
      await page.locator('input[name="password"]').fill(account.password);
      await page.locator('input[name="companyHostname"]').fill(account.companyHostname);
      await page.evaluate(
        (sections) => window.__bench.watch('dashboard', () => window.__bench.dashboardComplete(sections)),
        DASHBOARD_SECTIONS,
      );
      await page.locator('button[type="submit"]').click();
      const dashboardAt = await waitForMark(page, 'dashboard');
      const clickedAt = await lastClick(page);
      const signInCall = await page.evaluate(() => {
        const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/v1/signin'));
        return entry ? { waited: entry.requestStart - entry.startTime, answered: entry.responseEnd - entry.requestStart } : null;
      });

      const lists = {};
      for (const name of LISTS) {
        await page.waitForTimeout(THINK_MS);
        const link = page.getByRole('navigation').getByRole('link', { name, exact: true });
        const path = new URL(await link.getAttribute('href'), baseUrl).pathname;
        await page.evaluate((listPath) => {
          window.__bench.markRows();
          window.__bench.watch(`list ${listPath}`, () => window.__bench.listRowShown(listPath));
        }, path);
        await link.click();
        const rowAt = await waitForMark(page, `list ${path}`);
        lists[name] = rowAt - (await lastClick(page));
      }
      runs.push({ usableAt, files: loaded.length, raw, gzipped, dashboardMs: dashboardAt - clickedAt, signInCall, lists });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return runs;
}

function firstLoadSection(runs, loads) {
  const median = (values) => percentile(values, 50);
  const worst = (values) => Math.max(...values);
  const row = (label, values, target) => `| ${label} | ${ms(median(values))} | ${ms(worst(values))} | ${target} |`;
  const gz = median(runs.map((r) => r.gzipped));
  const verdict = (value, budget) => (value <= budget ? 'met' : '**missed**');
  const listRows = LISTS.map((name) => {
    const values = runs.map((r) => r.lists[name]);
    return row(`first row of ${name}, from the menu click`, values, `${TARGETS.listRow} ms (${verdict(median(values), TARGETS.listRow)})`);
  });
  const signInCalls = runs.map((r) => r.signInCall).filter(Boolean);
  return [
    '## Console first load',
    '',
    `Command: \`npm run bench\` (\`BENCH_ONLY=first-load npm run bench\` for this part alone; tests/bench/first-load.mjs) — ${runs.length} cold loads of \`/auth/signin\` in fresh browser contexts (empty cache), each followed by a sign-in as the company's admin and, ${THINK_MS / 1000} s apart, the lists ${LISTS.map((name) => `**${name}**`).join(', ')} opened from the menu. The data directory holds the first company with its sample connections and three workflows with a run each.`,
    'JavaScript is counted from navigation until the sign-in form accepts input (the files asked for before that moment), gzipped at level 9; the console itself is fetched after it, once the form is drawn and the browser is idle.',
    "Times are taken on the page's own clock: from navigation start, or from the click as the page received it, to the animation frame that paints the awaited state. The dashboard counts as shown with its data when all of it is on screen with figures: the company's cards, the five charts, the admin cards and the people panel, none of them still loading.",
    '',
    '| figure | median | worst | target |',
    '|---|---|---|---|',
    `| gzipped JS before the sign-in form is usable | ${kb(gz)} (${runs[0].files} files, ${kb(median(runs.map((r) => r.raw)))} raw) | ${kb(worst(runs.map((r) => r.gzipped)))} | 150 KB (${verdict(gz, SIGN_IN_JS_BUDGET_BYTES)}) |`,
    row(
      'sign-in form usable, from navigation start',
      runs.map((r) => r.usableAt),
      `${TARGETS.signInForm} ms (${verdict(median(runs.map((r) => r.usableAt)), TARGETS.signInForm)})`,
    ),
    row(
      'dashboard with all its data, from the sign-in click',
      runs.map((r) => r.dashboardMs),
      `${TARGETS.dashboard} ms (${verdict(median(runs.map((r) => r.dashboardMs)), TARGETS.dashboard)})`,
    ),
    signInCalls.length
      ? row(
          'of which the sign-in call, request to answer (argon2 verify; see "Sign-in cost")',
          signInCalls.map((c) => c.answered),
          '—',
        )
      : null,
    ...listRows,
    '',
    `Load average (1 min) as the runs started and ended: ${loads.map((load) => load.toFixed(2)).join(' and ')}, on ${os.cpus().length} cores; the browser, the server and anything else running share them, so these figures move with the machine's load.`,
  ].filter((line) => line !== null);
}
