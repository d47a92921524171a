import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY, E2E_SLACK_PORT } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const PAIR = 'Sample shop → Sample warehouse';

/** A Slack webhook that answers after `delayMs` with a refusal: the run is seen running, then fails. */
async function refusingSlack(delayMs: number) {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => setTimeout(() => response.writeHead(500, { 'content-type': 'text/plain' }).end('no_service'), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(E2E_SLACK_PORT, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/live`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let closeSlack: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await closeSlack?.();
  closeSlack = undefined;
});

test('a run started from the console shows on its page as it goes, and its failure rings the bell, with no reload', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await adminToken();
  // Slow enough that a busy machine still draws the run page while the run is running.
  const slack = await refusingSlack(8_000);
  closeSlack = slack.close;
  const tag = Date.now().toString(36);
  const channel = await api<{ data: { id: string } }>('/connections', {
    token,
    body: { name: `Live channel ${tag}`, type: 'slack', settings: { mode: 'webhook', webhookUrl: slack.url } },
  });
  expect(channel.status, JSON.stringify(channel.body)).toBe(201);
  const pairs = await api<{ data: Array<{ id: string; name: string }> }>('/active/source/destination', { token });
  const pair = pairs.body.data.find((candidate) => candidate.name === PAIR);
  if (!pair) throw new Error(`no pair "${PAIR}"`);
  const name = `Tell the team ${tag}`;
  const workflow = await api<{ data: { id: string } }>('/workflow', {
    token,
    body: {
      name,
      pairId: pair.id,
      tasks: [{ id: 'tell', name: 'Tell the data team', type: 'notify', message: 'Done', slackConnectionId: channel.body.data.id }],
    },
  });
  expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);

  await signIn(page, admin);
  const bell = page.getByRole('button', { name: /^Notifications/ }).first();
  const unread = async () => Number(/(\d+) unread/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1] ?? 0);
  // The count before the run, from the server (the bell may not have drawn its own yet).
  const counts = await api<{ data: { unread: number } }>('/notifications/count', { token });
  const unreadBefore = counts.body.data.unread;

  await page.goto(`/workflows/${workflow.body.data.id}/show`);
  await page
    .getByRole('button', { name: `Run ${name}` })
    .first()
    .click();
  await expect(page).toHaveURL(/\/job-runs\/[^/]+\/show/);
  await page.evaluate(() => Object.assign(window, { stillThisPage: true }));
  const main = page.locator('main');

  const queuedMessage = page.getByText(`Workflow "${name}" queued`);
  // The page follows the run through the live stream, not by reading it every few seconds.
  await expect(page.getByText('Following the run: its changes show as they happen')).toBeVisible();
  await expect(main.getByText('Running', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
  // The run has started: the message that it was queued is gone.
  await expect(queuedMessage).toBeHidden();
  await expect(main.getByText('Failed', { exact: true }).first()).toBeVisible({ timeout: 30_000 });

  // Its failure notice rings the bell at once (the bell polls only every 30 s without the stream).
  // (Another earlier run's notice may land too: the count grows by at least this one.)
  await expect.poll(unread, { timeout: 5_000 }).toBeGreaterThan(unreadBefore);
  await bell.click();
  await expect(page.getByRole('dialog').getByText(name).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
});

test('the job runs list refreshes by itself when a run changes', async ({ page }) => {
  test.setTimeout(90_000);
  const token = await adminToken();
  const pairs = await api<{ data: Array<{ id: string; name: string }> }>('/active/source/destination', { token });
  const pair = pairs.body.data.find((candidate) => candidate.name === PAIR);
  if (!pair) throw new Error(`no pair "${PAIR}"`);
  const name = `Listed live ${Date.now().toString(36)}`;
  const workflow = await api<{ data: { id: string; jobId: string } }>('/workflow', {
    token,
    body: { name, pairId: pair.id, tasks: [{ id: 'tell', name: 'Tell', type: 'notify', message: 'Done' }] },
  });
  expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);

  await signIn(page, admin);
  await page.goto('/job-runs');
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  // Started elsewhere (through the API): the open list shows it, and its end, by itself.
  const started = await api(`/workflow/run/${workflow.body.data.jobId ?? workflow.body.data.id}`, { method: 'POST', token, body: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const row = page.getByRole('row').filter({ hasText: name }).first();
  await expect(row).toBeVisible({ timeout: 5_000 });
  await expect(row).toContainText('Succeeded', { timeout: 15_000 });
});
