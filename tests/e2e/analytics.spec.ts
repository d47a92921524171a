import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY, E2E_PORT } from './env';
import { signIn } from './fixtures';

/**
 * A console whose server names an analytics property (GA_MEASUREMENT_ID) reports the links that
 * leave it (spec sections 7 and 9): the click is sent to Google Analytics as an outbound click, and
 * the link opens once Google has it, or after 250 ms when Google does not answer. This spec starts
 * a server of its own with the setting; Google's script is stood in for by one that notes each hit.
 */

const PORT = E2E_PORT + 10;
const BASE = `http://127.0.0.1:${PORT}`;
const MEASUREMENT_ID = 'G-E2ETEST123';
const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const GUIDE = 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html';

let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = spawn(process.execPath, ['tests/e2e/server.mjs'], {
    stdio: 'ignore',
    env: { ...process.env, PORT: String(PORT), GA_MEASUREMENT_ID: MEASUREMENT_ID, FILES_ROOTS: '', CONNECTION_ALLOWED_HOSTS: '' },
  });
  const deadline = Date.now() + 110_000;
  for (;;) {
    const up = await fetch(`${BASE}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error('the analytics server did not start');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});
test.afterAll(async () => {
  if (!server) return;
  const stopped = new Promise((resolve) => server!.once('exit', resolve));
  server.kill('SIGTERM');
  await stopped;
});

/**
 * Google's script, stood in for: it reads gtag's command queue as gtag.js does, notes every event
 * in `window.analyticsHits`, and calls an event's callback when `answers` (else never, as a blocked
 * or slow Google would).
 */
async function standInForGoogle(page: Page, answers: boolean) {
  await page.route('https://*.googletagmanager.com/**', (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `(() => {
        const hits = (window.analyticsHits = window.analyticsHits || []);
        const take = (args) => {
          if (args[0] !== 'event') return;
          hits.push({ name: args[1], params: JSON.parse(JSON.stringify(args[2] || {})) });
          if (${answers} && args[2] && typeof args[2].event_callback === 'function') setTimeout(args[2].event_callback, 20);
        };
        const queue = (window.dataLayer = window.dataLayer || []);
        for (const args of queue) take(args);
        queue.push = (args) => { take(args); return Array.prototype.push.call(queue, args); };
      })();`,
    }),
  );
  // The guide itself: a page of its own, so the test needs no network.
  await page.context().route(`${GUIDE}*`, (route) => route.fulfill({ contentType: 'text/html', body: '<title>Guide</title>' }));
}

async function openGuide(page: Page) {
  await page.goto(`${BASE}/marketplace`);
  const link = page.getByRole('link', { name: /^Setup guide of S3-compatible storage/ });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const started = Date.now();
  const [guide] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await guide.waitForURL(GUIDE);
  return { guide, tookMs: Date.now() - started };
}

const outboundHits = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { analyticsHits?: Array<{ name: string; params: Record<string, unknown> }> }).analyticsHits ?? []).filter(
      (hit) => hit.params.outbound === true || hit.name === 'click',
    ),
  );

test.use({ baseURL: BASE });

test('a link that leaves the console is reported to analytics, then opens', async ({ page }) => {
  await standInForGoogle(page, true);
  await signIn(page, admin);
  // The server named the property in the page, and the console reported the page views to it.
  await expect(page.locator('meta[name="ga-measurement-id"]')).toHaveAttribute('content', MEASUREMENT_ID);
  await expect
    .poll(async () => (await page.evaluate(() => (window as unknown as { analyticsHits?: unknown[] }).analyticsHits ?? [])).length)
    .toBeGreaterThan(0);

  const { guide } = await openGuide(page);
  expect(guide.url()).toBe(GUIDE);
  const hits = await outboundHits(page);
  expect(hits.map((hit) => hit.params.link_url ?? hit.params.url ?? hit.params.page_location)).toContain(GUIDE);
});

test('when analytics does not answer, the link still opens, after the 250 ms wait', async ({ page }) => {
  await standInForGoogle(page, false);
  await signIn(page, admin);
  const { guide, tookMs } = await openGuide(page);
  expect(guide.url()).toBe(GUIDE);
  expect((await outboundHits(page)).length).toBe(1);
  // It waited for the report (at least the 250 ms), and not much longer.
  expect(tookMs).toBeGreaterThanOrEqual(250);
});
