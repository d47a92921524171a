import crypto from 'node:crypto';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { adminToken, api, connectionNamed, copyWorkflow } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

/**
 * A copy from a table whose size the source knows shows how far it has read on the run's page, as
 * a percentage that grows while it runs and reaches 100% when it succeeds, through the live stream.
 * The source is the machine's PostgreSQL (the operator lets companies reach it), with a table of
 * 400,000 rows that PostgreSQL has counted (ANALYZE).
 */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const ROWS = 400_000;
const SCHEMA = 'e2e_progress';
const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Runs statements on the machine's PostgreSQL, the source of the copy. */
async function onSource(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

let made: string | undefined;
test.afterEach(async () => {
  if (made) await onSource(`drop table if exists ${made}`);
  made = undefined;
});

test('the run page of a copy shows its percentage grow, then 100% of the rows the source counted', async ({ page }) => {
  test.setTimeout(150_000);
  const tag = Date.now().toString(36);
  const table = `events_${tag}`;
  made = `${SCHEMA}.${table}`;
  await onSource(
    `create schema if not exists ${SCHEMA}`,
    `create table ${made} as select g as id, md5(g::text) as label, now() - g * interval '1 second' as at from generate_series(1, ${ROWS}) g`,
    `analyze ${made}`,
  );

  const token = await adminToken();
  const source = await api<{ data: { id: string } }>('/connections', {
    token,
    body: {
      name: `Events source ${tag}`,
      type: 'postgresql',
      settings: { host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres' },
    },
  });
  expect(source.status, JSON.stringify(source.body)).toBe(201);
  const warehouse = await connectionNamed(token, 'Sample warehouse');
  const pairId = crypto.randomUUID();
  const pair = await api(`/source/destination/${pairId}`, {
    method: 'PUT',
    token,
    body: { sourceId: source.body.data.id, destinationId: warehouse.id },
  });
  expect(pair.status, JSON.stringify(pair.body)).toBeLessThan(300);
  const name = `Copy events ${tag}`;
  const workflowId = await copyWorkflow(token, {
    name,
    pairId,
    task: 'Copy the events',
    from: made,
    to: `public.events_${tag}`,
    mode: 'create',
    batchSize: 1000,
  });

  await signIn(page, admin);
  await page.goto(`/workflows/${workflowId}/show`);
  // Every percentage the page shows is noted as it appears.
  await page.evaluate(() => {
    const seen: number[] = [];
    Object.assign(window, { percentsSeen: seen });
    new MutationObserver(() => {
      for (const element of document.querySelectorAll('[data-percent]')) {
        const value = Number(element.getAttribute('data-percent'));
        if (seen[seen.length - 1] !== value) seen.push(value);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent'] });
  });
  await page
    .getByRole('button', { name: `Run ${name}` })
    .first()
    .click();
  await expect(page).toHaveURL(/\/job-runs\/[^/]+\/show/);

  const step = page.getByRole('region', { name: 'Copy the events' });
  await expect(step.getByRole('progressbar', { name: /Copy the events/ })).toBeVisible({ timeout: 30_000 });
  await expect(step.getByText('About 100% of about 400,000 rows')).toBeVisible({ timeout: 90_000 });
  await expect(page.locator('main').getByText('Succeeded', { exact: true }).first()).toBeVisible();

  const seen = await page.evaluate(() => (window as unknown as { percentsSeen: number[] }).percentsSeen);
  // It grew while the copy ran: some share below 100 was shown first, and the shares only rose.
  expect(
    seen.some((percent) => percent > 0 && percent < 100),
    `percentages shown: ${seen.join(', ')}`,
  ).toBe(true);
  expect(
    [...seen].sort((a, b) => a - b),
    `percentages shown: ${seen.join(', ')}`,
  ).toEqual(seen);
  expect(seen[seen.length - 1]).toBe(100);
});
