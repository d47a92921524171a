import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { api } from './api';
import { E2E_APP_SECRET } from './env';
import { signIn } from './fixtures';

/*
 * A plan's limit, seen in the console: a company of its own (onboarded here, so the other browser
 * tests' company keeps its default plan) is put on Free by a grant the operator prints with
 * `npm run plan -- <host name> free --grant` and its admin pastes on the Subscription page; once
 * it has its five users, inviting a sixth shows why it cannot, and the page shows the full seat.
 */

const run = promisify(execFile);
const PASSWORD = 'Plans-admin-pass-9';
const LIMIT_MESSAGE = 'Your plan (Free) allows 5 users and the company has 5. Delete a user or upgrade on the Subscription page.';

/** What an operator runs on the server's machine: the grant needs only the instance secret. */
async function operatorGrant(hostname: string, plan: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/cli/plan.ts', hostname, plan, '--grant'], {
    env: { PATH: process.env.PATH ?? '', APP_SECRET: E2E_APP_SECRET, DATA_DIR: os.tmpdir(), DATABASE_URL: '' },
  });
  const token = stdout.trim().split('\n').at(-1) ?? '';
  expect(token, stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  return token;
}

test('a company on the Free plan is told, in the console, why it cannot invite a sixth user', async ({ page }) => {
  test.setTimeout(120_000);
  const hostname = `plans-${Date.now().toString(36)}`;
  const adminEmail = `admin@${hostname}.test`;
  const onboarded = await api('/company', {
    body: {
      companyName: 'Plans Test',
      companyHostname: hostname,
      adminEmail,
      adminPassword: PASSWORD,
      firstName: 'Paula',
      lastName: 'Plans',
    },
  });
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(201);
  const grant = await operatorGrant(hostname, 'free');

  // The admin pastes the operator's grant on the Subscription page.
  await signIn(page, { email: adminEmail, password: PASSWORD, companyHostname: hostname });
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Unlimited plan' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Plan grant' }).fill(grant);
  await page.getByRole('button', { name: 'Apply grant' }).click();
  await expect(page.getByText('The company is now on the Free plan')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Free plan' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Users' })).toHaveAttribute('aria-valuetext', '1 of 5');

  // Four more users: the company now has the five its plan allows.
  const signedIn = await api<{ user: { accessToken: string } }>('/signin', {
    body: { email: adminEmail, password: PASSWORD, companyHostname: hostname },
  });
  const token = signedIn.body.user.accessToken;
  const roles = await api<{ data: Array<{ id: string; name: string }> }>('/roles/active', { token });
  const member = roles.body.data.find((role) => role.name === 'Member')!;
  for (const [i, lastName] of ['One', 'Two', 'Three', 'Four'].entries()) {
    const invited = await api('/user', {
      token,
      body: { email: `seat${i + 1}@${hostname}.test`, firstName: 'Seat', lastName, roleId: member.id },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  }

  // The sixth invitation, made in the console, is refused with the reason, and nobody is added.
  await page.goto('/users/create');
  await page.getByLabel('Email').fill(`seat6@${hostname}.test`);
  await page.getByLabel('First name').fill('Sixth');
  await page.getByLabel('Last name').fill('Seat');
  await page.getByLabel('Role').click();
  await page.getByRole('option', { name: 'Member' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(LIMIT_MESSAGE)).toBeVisible();
  await expect(page).toHaveURL(/\/users\/create$/);
  const users = await api<{ data: { rows: Array<{ email: string }>; count: number } }>('/users/0/50', { token });
  expect(users.body.data.count).toBe(5);
  expect(users.body.data.rows.map((row) => row.email)).not.toContain(`seat6@${hostname}.test`);

  // The Subscription page shows the full seat count against the plan.
  await page.goto('/subscription');
  await expect(page.getByRole('progressbar', { name: 'Users' })).toHaveAttribute('aria-valuetext', '5 of 5');
  await expect(page.getByText('Limit reached: nothing more can be added until one is removed or the plan is upgraded.')).toBeVisible();
});
