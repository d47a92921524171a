import { expect, test } from '@playwright/test';
import { inviteUser, uniqueEmail } from './api';
import { E2E_COMPANY } from './env';

test('an invited user activates the account with the temporary password', async ({ page }) => {
  const email = uniqueEmail('invited');
  const { link, temporaryPassword } = await inviteUser(email, 'Ivy', 'Invited');
  const path = new URL(link).pathname + new URL(link).search;

  // A wrong temporary password: the fixed message, then back to sign-in after 5 s.
  await page.goto(path);
  await page.getByLabel('Temporary password').fill('Not-the-temp-1');
  await page.getByLabel('New password', { exact: true }).fill('Ivy-chosen-pass-3');
  await page.getByLabel('Confirm new password').fill('Ivy-chosen-pass-3');
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page.getByRole('alert')).toContainText("The Temporary Password doesn't match");
  await expect(page).toHaveURL(/\/auth\/signin$/, { timeout: 8_000 });

  // The right one activates the account.
  await page.goto(path);
  await page.getByLabel('Temporary password').fill(temporaryPassword);
  await page.getByLabel('New password', { exact: true }).fill('Ivy-chosen-pass-3');
  await page.getByLabel('Confirm new password').fill('Ivy-chosen-pass-3');
  await page.getByRole('button', { name: 'Activate account' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  // Sign-in opens filled with the account's email and its company's host name.
  await expect(page).toHaveURL(/\/auth\/signin\?/, { timeout: 8_000 });
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Company host name')).toHaveValue(E2E_COMPANY);
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await page.getByLabel('Password', { exact: true }).fill('Ivy-chosen-pass-3');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Ivy' })).toBeVisible();
});
