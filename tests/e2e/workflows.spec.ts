import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY, E2E_SLACK_PORT } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const PAIR = 'Sample shop → Sample warehouse';

interface Row {
  id: string;
  name: string;
}

/** Picks an option of a react-admin select or autocomplete by its label. */
async function choose(scope: Page | Locator, page: Page, label: string, option: string | RegExp, typed?: string) {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option }).click();
}

/**
 * The sample shop's orders table, registered once, with two rules: a known status (the sample
 * data has a few unknown ones, so it fails) and a customer on every order (it passes).
 */
async function ordersTableWithRules(token: string): Promise<string> {
  const pairs = await api<{ data: Array<{ id: string; name: string; sourceId: string }> }>('/active/source/destination', { token });
  const pair = pairs.body.data.find((candidate) => candidate.name === PAIR);
  if (!pair) throw new Error(`no pair "${PAIR}": ${JSON.stringify(pairs.body)}`);
  const registered = await api<{ data: Array<Row & { endpoint: string }> }>(`/table/connection/${pair.sourceId}`, { token });
  let table = registered.body.data.find((candidate) => candidate.name === 'orders');
  if (!table) {
    const endpoints = await api<{ data: Array<{ id: string; name: string }> }>(`/connection/${pair.sourceId}/endpoints`, { token });
    const endpoint = endpoints.body.data.find((candidate) => candidate.name === 'orders');
    if (!endpoint) throw new Error(`the sample shop has no orders endpoint: ${JSON.stringify(endpoints.body)}`);
    const created = await api<{ data: Row & { endpoint: string } }>('/table', {
      token,
      body: { connectionId: pair.sourceId, endpoint: endpoint.id, name: 'orders' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    table = created.body.data;
  }
  for (const rule of [
    {
      name: 'Known order status',
      functionName: 'in_set',
      columnName: 'status',
      params: { values: ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'] },
    },
    { name: 'Order has a customer', functionName: 'not_null', columnName: 'customer_id', params: {} },
  ]) {
    const saved = await api(`/table/dataQuality/${table.id}`, { token, body: { ...rule, severity: 'fail', tolerance: 0 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  }
  return table.id;
}

/** A Slack incoming webhook that takes its time to answer, so that a run is seen running; it keeps what it got. */
async function slowSlack(delayMs: number) {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(body);
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs);
    });
  });
  // On the port the server's operator settings let companies reach (tests/e2e/env.ts).
  await new Promise<void>((resolve) => server.listen(E2E_SLACK_PORT, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/e2e`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let closeSlack: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await closeSlack?.();
  closeSlack = undefined;
});

test('an admin creates a workflow, runs it, follows it live to its end, reads its data-quality results and finds it on the dashboard', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const token = await adminToken();
  await ordersTableWithRules(token);
  const slack = await slowSlack(4_000);
  closeSlack = slack.close;
  const slackName = `Data team channel ${Date.now().toString(36)}`;
  const channel = await api('/connections', {
    token,
    body: { name: slackName, type: 'slack', settings: { mode: 'webhook', webhookUrl: slack.url } },
  });
  expect(channel.status, JSON.stringify(channel.body)).toBe(201);
  const name = `Orders to the warehouse ${Date.now().toString(36)}`;

  await signIn(page, admin);
  await page.goto('/workflows/create');
  await page.getByRole('textbox', { name: 'Name', exact: true }).first().fill(name);
  await choose(page, page, 'Source/destination pair', PAIR);

  // Task 1: copy the orders into the warehouse.
  await page.getByRole('button', { name: 'Add task' }).click();
  // The browser asks for less motion (playwright.config.ts): the menu opens at once, not growing.
  const menuMotion = await page
    .getByRole('menu')
    .evaluate((menu) => getComputedStyle(menu.closest('.MuiPaper-root')!).transitionDuration.split(', '));
  expect(menuMotion.every((duration) => duration === '0s')).toBe(true);
  await page.getByRole('menuitem', { name: 'Copy' }).click();
  const copy = page.getByRole('listitem', { name: 'Task 1' });
  await copy.getByRole('textbox', { name: 'Name', exact: true }).fill('Copy the orders');
  // The tables come from what the pair's connections discovered: no typed names.
  await choose(copy, page, 'Source table', 'public / orders', 'orders');
  await choose(copy, page, 'Mode', 'Create (fails if it exists)');
  await choose(copy, page, 'Destination table', 'public.orders (new table)');

  // Task 2: tell the data team's channel (its webhook answers after 4 s: the run is seen running).
  await page.getByRole('button', { name: 'Add task' }).click();
  await page.getByRole('menuitem', { name: 'Notification' }).click();
  const notify = page.getByRole('listitem', { name: 'Task 2' });
  await notify.getByRole('textbox', { name: 'Name', exact: true }).fill('Tell the data team');
  await notify.getByRole('textbox', { name: 'Message', exact: true }).fill('The orders are in the warehouse.');
  await choose(notify, page, 'Slack connection', slackName);

  // Task 3: the orders table's rules.
  await page.getByRole('button', { name: 'Add task' }).click();
  await page.getByRole('menuitem', { name: 'Data-quality checks' }).click();
  const checks = page.getByRole('listitem', { name: 'Task 3' });
  await checks.getByRole('textbox', { name: 'Name', exact: true }).fill('Check the orders');
  await choose(checks, page, 'Tables', /^orders \(Sample shop\)/, 'orders');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Copy the orders' }).or(page.getByText('Copy the orders')).first()).toBeVisible();
  await expect(page).toHaveURL(/\/workflows\/[^/]+\/show$/);

  // Run it: the run's page opens and follows the run, without a reload, until it ends.
  await page
    .getByRole('button', { name: `Run ${name}` })
    .first()
    .click();
  await expect(page).toHaveURL(/\/job-runs\/[^/]+\/show/);
  await page.evaluate(() => Object.assign(window, { stillThisPage: true }));
  const following = page.getByText(/^Following the run: /);
  const summary = page.locator('main');
  await expect(following).toBeVisible();
  await expect(summary.getByText('Running', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
  // The orders table fails its known-status rule, so the run fails, after copying every order.
  await expect(following).toBeHidden({ timeout: 60_000 });
  await expect(summary.getByText('Failed', { exact: true }).first()).toBeVisible();
  await expect(summary.getByText('Step "Check the orders" failed: Data-quality checks did not pass: orders (failed)')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
  expect(slack.received.map((body) => JSON.parse(body).text)).toEqual([expect.stringContaining('The orders are in the warehouse.')]);
  const steps = page.locator('main');
  await expect(steps.getByText('Copy the orders').first()).toBeVisible();
  await expect(steps.getByText('Rows read: 10,000 · Rows written: 10,000')).toBeVisible();

  // Its data-quality results: one rule failed with failing rows, one passed.
  await page.getByRole('tab', { name: 'Data quality' }).click();
  const result = (rule: string) => page.locator('tr').filter({ hasText: rule }).first();
  await expect(result('Known order status')).toContainText('Failed');
  await expect(result('Order has a customer')).toContainText('Passed');

  // The dashboard counts it among today's failed runs; the bar leads to the list holding it.
  await page.goto('/dashboard');
  const today = new Date().toISOString().slice(0, 10);
  const bar = page.getByRole('link', { name: new RegExp(`^Failed on ${today}: \\d+$`) });
  await expect(bar).toBeVisible({ timeout: 15_000 });
  // The pies count it too: a failed run, and failed checks.
  await expect(
    page.getByRole('group', { name: 'Job runs by status, last 30 days' }).getByRole('link', { name: /^Failed: \d+ / }),
  ).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'Data-quality checks by result, last 30 days' }).getByRole('link', { name: /^Failed: \d+ / }),
  ).toBeVisible();
  await bar.click();
  await expect(page).toHaveURL(/\/job-runs\?filter=/);
  expect(JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}')).toEqual({
    status: ['failed'],
    startDate: today,
    endDate: today,
  });
  const runs = page.getByRole('table');
  await expect(runs.getByText(name).first()).toBeVisible();
  await expect(runs.getByRole('row').filter({ hasText: name }).first()).toContainText('Failed');
});
