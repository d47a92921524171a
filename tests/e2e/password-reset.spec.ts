import { expect, test } from '@playwright/test';
import { createActiveUser, lastMailTo } from './api';
import { signIn, submitSignIn } from './fixtures';

test('a forgotten password is reset through the link in the mail', async ({ page }) => {
  const account = await createActiveUser('reset');

  await page.goto('/auth/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Company host name').fill(account.companyHostname);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  // Back to sign-in after 3 s.
  await expect(page).toHaveURL(/\/auth\/signin$/, { timeout: 6_000 });

  const mail = await lastMailTo(account.email);
  const link = mail.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=[\w-]+/)![0];
  await page.goto(new URL(link).pathname + new URL(link).search);
  const newPassword = 'Brand-new-pass-8';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/signin$/, { timeout: 8_000 });

  // The old password no longer works; the new one does.
  await submitSignIn(page, account);
  await expect(page.getByRole('alert')).toContainText('Invalid email, password or company host name');
  await signIn(page, { ...account, password: newPassword });

  // The link cannot be used twice.
  await page.goto('/logout');
  // The logout ends on sign-in: going on before it has would find the session still open.
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByText('This reset link cannot be used.')).toBeVisible();
});
