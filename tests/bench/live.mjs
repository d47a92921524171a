import crypto from 'node:crypto';
import { chromium } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/chromium.mjs';
import { openDatabase } from '../../server/db/client.ts';
import { jobRuns, workflows } from '../../server/db/schema.ts';
import { withTenant } from '../../server/db/tenant-scope.ts';
import { announce } from '../../server/live/signals.ts';
import { ms, percentile } from './stats.mjs';

/**
 * From a run's status written in the database to the open run page showing it, through the live
 * stream: the server runs on PostgreSQL, and this process writes the status as a second process
 * would (the worker of `npm run worker`): in one transaction, the row and its signal, which
 * PostgreSQL hands at the commit to the server's LISTEN connection; the server sends the event to
 * the page's stream, and the page patches the run it shows. Chromium, headless, on loopback.
 */

export const LIVE_CHANGES = 20;
const TARGET_P95_MS = 500;
/** Run statuses the page shows, taken in turn (ended ones: no runner or sweep touches them meanwhile). */
const STATUSES = [
  ['failed', 'Failed'],
  ['succeeded', 'Succeeded'],
  ['canceled', 'Canceled'],
];

/**
 * `startServer(env)` starts the real server (scripts/bench.mjs) with these settings added; the
 * console is served from `consoleDir`.
 */
export async function measureLiveLatency({ baseUrl, account, databaseUrl, startServer, consoleDir, dataDir }) {
  const heading = '## Live stream: from a status written to the open run page';
  const probe = new pg.Client({ connectionString: databaseUrl });
  let version;
  try {
    await probe.connect();
    version = (await probe.query('select version() as v')).rows[0].v.split(' on ')[0];
  } catch (err) {
    return [heading, '', `Not measured: ${databaseUrl} is unreachable (${err.message}).`];
  } finally {
    await probe.end().catch(() => {});
  }
  const schema = `bench_live_${crypto.randomBytes(4).toString('hex')}`;
  const server = startServer({ DATA_DIR: dataDir, CONSOLE_DIR: consoleDir, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
  let database;
  let browser;
  try {
    await server.ready();
    const signIn = await fetch(`${baseUrl}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    const user = (await signIn.json()).user;
    if (!user?.accessToken) throw new Error(`sign-in answered ${signIn.status}`);
    const { companyId } = user;

    // The writer: the server's own code path on a connection of its own, as the worker's.
    database = await openDatabase({ databaseUrl, schema });
    const db = database.db;
    const runId = await withTenant(companyId, async () => {
      const [workflow] = await db
        .insert(workflows)
        .values({ companyId, name: 'Followed live', pairId: crypto.randomUUID(), tasks: [] })
        .returning({ id: workflows.id });
      const [run] = await db
        .insert(jobRuns)
        .values({ companyId, workflowId: workflow.id, status: 'succeeded', trigger: 'manual', endedAt: new Date(), startedAt: new Date() })
        .returning({ id: jobRuns.id });
      return { workflowId: workflow.id, runId: run.id };
    });
    const write = (status) =>
      withTenant(companyId, () =>
        db.transaction(async (tx) => {
          await tx
            .update(jobRuns)
            .set({ status })
            .where(and(eq(jobRuns.companyId, companyId), eq(jobRuns.id, runId.runId)));
          await announce(tx, { kind: 'run', companyId, runId: runId.runId, workflowId: runId.workflowId, status });
        }),
      );

    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/auth/signin`);
    await page.evaluate((stored) => localStorage.setItem('user', JSON.stringify(stored)), user);
    await page.goto(`${baseUrl}/job-runs/${runId.runId}/show`);
    const chip = page.getByRole('region', { name: 'Run' }).locator('[data-status]');
    await chip.waitFor({ state: 'visible', timeout: 30_000 });

    /** Writes the status and answers how long the page took to show it. */
    const change = async (status, label) => {
      const shown = page.evaluate(
        (expected) =>
          new Promise((resolve) => {
            const element = () => document.querySelector('section[aria-label="Run"] [data-status]');
            const look = () => {
              if (element()?.textContent === expected) {
                observer.disconnect();
                resolve(Date.now());
                return true;
              }
              return false;
            };
            const observer = new MutationObserver(look);
            observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
            look();
          }),
        label,
      );
      // The page's observer is in place before the write.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
      const written = Date.now();
      await write(status);
      const at = await Promise.race([shown, new Promise((resolve) => setTimeout(() => resolve(undefined), 10_000))]);
      if (at === undefined) throw new Error(`the run page did not show "${label}" within 10 s: is the live stream open?`);
      return at - written;
    };

    // Once for the stream to be open and the page settled, not counted.
    for (let i = 0; i < 3; i++) await change(...STATUSES[i % STATUSES.length]);
    const times = [];
    for (let i = 0; i < LIVE_CHANGES; i++) {
      times.push(await change(...STATUSES[i % STATUSES.length]));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const p95 = percentile(times, 95);
    return [
      heading,
      '',
      `Command: \`npm run bench\` (\`BENCH_ONLY=live npm run bench\` for this part alone; tests/bench/live.mjs, on \`BENCH_DATABASE_URL\`, default the local PostgreSQL, in a schema of its own). ` +
        `The server runs on PostgreSQL with the built console; Chromium holds a run's page open. A second process writes the run's status ${LIVE_CHANGES} times, ` +
        'a quarter of a second apart, each in one transaction with its signal, as the worker does. The figure runs from just before that write to the moment the ' +
        "page's status chip shows the new status: the commit, PostgreSQL's NOTIFY to the server's LISTEN connection, the event down the page's stream, and the page's render. " +
        `Without the stream the page reads a live run every 1.5 s (0.75 s on average), and an ended one not at all. Target: p95 ≤ ${TARGET_P95_MS} ms.`,
      '',
      '| database | changes | p50 | p95 | max | target |',
      '|---|---|---|---|---|---|',
      `| ${version} | ${times.length} | ${ms(percentile(times, 50))} | ${ms(p95)} | ${ms(Math.max(...times))} | ${p95 <= TARGET_P95_MS ? 'met' : 'missed'} |`,
    ];
  } finally {
    await browser?.close().catch(() => {});
    await database?.close().catch(() => {});
    await server.stop();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
    await client.query(`drop schema if exists "${schema}_jobs" cascade`).catch(() => {});
    await client.end();
  }
}
