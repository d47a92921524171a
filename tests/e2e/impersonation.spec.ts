import { expect, test } from '@playwright/test';
import { createActiveUser } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn, storedUser } from './fixtures';

test('an admin signs in as another user and returns to their own account', async ({ page }) => {
  const member = await createActiveUser('pat', { firstName: 'Pat', lastName: 'Member' });
  await signIn(page, { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY });
  const adminUser = await storedUser(page);

  await page.getByRole('button', { name: 'Sign in as Pat Member' }).click();
  await expect(page.getByText(/You are signed in as Pat Member/)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Pat' })).toBeVisible();
  const impersonated = await storedUser(page);
  expect(impersonated).toMatchObject({ email: member.email, impersonator: { email: E2E_ADMIN_EMAIL } });
  // A member's menu has no admin pages.
  await expect(page.getByRole('link', { name: 'Mail outbox' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Return to my account' }).click();
  await expect(page.getByRole('heading', { name: /Welcome, Admin/ })).toBeVisible();
  await expect(page.getByText(/You are signed in as/)).toHaveCount(0);
  expect(await storedUser(page)).toMatchObject({ email: adminUser!.email, accessToken: adminUser!.accessToken });
});
