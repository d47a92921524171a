import { expect, test } from '@playwright/test';
import { api, createActiveUser } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn, storedUser, submitSignIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

test('an admin signs in and lands on the dashboard with what the company holds', async ({ page }) => {
  await signIn(page, admin);
  await expect(page.locator('[data-card="users"]')).toBeVisible();
  await expect(page.getByRole('region', { name: 'People' })).toBeVisible();
  const user = await storedUser(page);
  expect(user).toMatchObject({ auth: true, requireOTP: false, setupOTP: false });
  expect(typeof user!.accessToken).toBe('string');
});

test('a wrong password is refused with a message and nothing is stored', async ({ page }) => {
  await submitSignIn(page, { ...admin, password: 'Not-the-password-1' });
  await expect(page.getByRole('alert')).toContainText('Invalid email, password or company host name');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedUser(page)).toBeNull();
});

test('after logout the back button shows sign-in, not the console', async ({ page }) => {
  const member = await createActiveUser('logout');
  await signIn(page, member);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedUser(page)).toBeNull();
  await page.goBack();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('a revoked session sends the user to sign-in on the next call', async ({ page }) => {
  const member = await createActiveUser('revoked');
  await signIn(page, member);
  const token = (await storedUser(page))!.accessToken as string;
  // The session is ended behind the console's back (as an admin or another tab would).
  const res = await api('/session/logout', { method: 'PUT', token, body: {} });
  expect(res.status).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedUser(page)).toBeNull();
});

test('a forged token sends the user to sign-in', async ({ page }) => {
  const member = await createActiveUser('forged');
  await signIn(page, member);
  await page.evaluate(() => {
    const user = JSON.parse(localStorage.getItem('user')!);
    const [header, , signature] = user.accessToken.split('.');
    const payload = btoa(JSON.stringify({ sid: '00000000-0000-4000-8000-000000000000', cid: user.companyId, stg: 'full', sub: user.id }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    user.accessToken = user.token = `${header}.${payload}.${signature}`;
    localStorage.setItem('user', JSON.stringify(user));
  });
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/signin$/);
  expect(await storedUser(page)).toBeNull();
});
