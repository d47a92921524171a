import { expect, test } from '@playwright/test';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const ONBOARDED = 'Your company is ready. Welcome to DataOps Console: sign in with the admin account you just created.';
const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

test('a visitor creates a company from sign-in, signs in with the form filled, and follows the getting-started checklist', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const hostname = `initech-${suffix}`;
  const email = `peter-${suffix}@initech.test`;
  const password = 'Initech-pass-2026';

  await page.goto('/auth/signin');
  await page.getByRole('link', { name: 'New here? Create your company' }).click();
  await expect(page).toHaveURL(/\/auth\/create-company$/);
  await expect(page.getByRole('heading', { name: 'Create your company' })).toBeVisible();

  // Bad input is named on its field, and nothing is sent.
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('Company name is required')).toBeVisible();

  await page.getByLabel('Company name').fill('Initech');
  await page.getByLabel('Company host name').fill(hostname);
  await page.getByLabel('Your first name').fill('Peter');
  await page.getByLabel('Your last name').fill('Gibbons');
  await page.getByLabel('Your work email').fill(email);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByRole('alert')).toContainText(ONBOARDED);

  // Sign-in opens filled with the new admin's email and host name: only the password is left.
  await page.getByRole('link', { name: 'Go now' }).click();
  await expect(page).toHaveURL(/\/auth\/signin\?/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Company host name')).toHaveValue(hostname);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const checklist = page.getByRole('region', { name: 'Get started' });
  await expect(checklist).toBeVisible({ timeout: 30_000 });
  await expect(checklist).toContainText('0 of 5 done');
  await expect(checklist.getByRole('link', { name: 'Invite a colleague' })).toBeVisible();

  // A colleague is invited: the step ticks itself from the company's data.
  const session = await api<{ user: { accessToken: string } }>('/signin', { body: { email, password, companyHostname: hostname } });
  const token = session.body.user.accessToken;
  const roles = await api<{ data: { id: string; name: string }[] }>('/roles/active', { token });
  const viewer = roles.body.data.find((role) => role.name === 'Viewer');
  expect(viewer, 'a new company has a Viewer role').toBeTruthy();
  const invited = await api<{ message: string }>('/user', {
    token,
    body: { email: `milton-${suffix}@initech.test`, firstName: 'Milton', lastName: 'Waddams', roleId: viewer!.id },
  });
  expect(invited.status).toBe(201);
  expect(invited.body.message).toMatch(/kept in the Mail outbox/);

  await page.reload();
  await expect(checklist).toContainText('1 of 5 done', { timeout: 30_000 });
  await expect(checklist.getByRole('link', { name: 'Invite a colleague' })).toHaveCount(0);

  // Each open step leads to where it is done.
  await checklist.getByRole('link', { name: 'Connect a source' }).click();
  await expect(page).toHaveURL(/\/connections\/create$/);
  await page.goBack();

  // Hidden, it stays hidden: the choice is kept on the server.
  await checklist.getByRole('button', { name: 'Hide this checklist' }).click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('region', { name: 'What your company holds' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Get started' })).toHaveCount(0);
});

test('pairs are created from their own list, and a pair added on a connection shows in its count at once', async ({ page }) => {
  test.setTimeout(120_000);
  const token = await adminToken();
  const archive = async (label: string) => {
    const name = `${label} ${Date.now().toString(36)}`;
    const created = await api<{ data: { id: string } }>('/connections', {
      token,
      body: {
        name,
        type: 'embedded',
        settings: { database: name.toLowerCase().replace(/[^a-z0-9]+/g, '-') },
        isSource: false,
        isDestination: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { id: created.body.data.id, name };
  };
  const first = await archive('Archive one');
  const second = await archive('Archive two');
  await signIn(page, admin);

  // On a connection's page, its pair count follows a pair added there, without a reload.
  await page.goto(`/connections/${first.id}/show`);
  const count = page.locator('.ra-field-pairCount');
  await expect(count).toContainText('0', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Add pair' }).click();
  const add = page.getByRole('dialog', { name: 'New source/destination pair' });
  await add.getByLabel('Source').click();
  await page.getByRole('option', { name: /^Sample shop/ }).click();
  await add.getByRole('button', { name: 'Add pair' }).click();
  await expect(add).toHaveCount(0);
  await expect(count).toContainText('1');

  // The pairs list has its own Create.
  await page.goto('/source-destinations');
  await page.getByRole('button', { name: 'Create', exact: true }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: 'New source/destination pair' });
  await dialog.getByLabel('Source').click();
  await page.getByRole('option', { name: /^Sample shop/ }).click();
  await dialog.getByLabel('Destination').click();
  await page.getByRole('option', { name: new RegExp(`^${second.name}`) }).click();
  await expect(dialog.getByLabel('Name')).toHaveValue(`Sample shop → ${second.name}`);
  await dialog.getByRole('button', { name: 'Add pair' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('main').getByText(`Sample shop → ${second.name}`, { exact: true })).toBeVisible();
});
