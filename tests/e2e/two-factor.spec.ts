import { expect, test } from '@playwright/test';
import { createActiveUser, totp } from './api';
import { signIn, storedUser, submitSignIn } from './fixtures';

test('two-factor enrolment, then sign-in with a code; a reused code is refused', async ({ page }) => {
  const account = await createActiveUser('otp');
  await signIn(page, account);

  // Enrol: the screen shows a QR code and the key for manual entry.
  await page.goto('/auth/register-2fa');
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId('otp-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const enrolmentCode = totp(secret);
  await page.getByLabel('Six-digit code').fill(enrolmentCode);
  // The recovery codes are shown once, then the console opens.
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  await page.getByRole('button', { name: 'I have saved them, continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await storedUser(page)).toMatchObject({ auth: true, otpEnabled: true });

  // Sign out; signing in now asks for a code.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await submitSignIn(page, account);
  await expect(page).toHaveURL(/\/auth\/verify-otp$/);
  expect(await storedUser(page)).toMatchObject({ auth: false, requireOTP: true });

  // The code used for enrolment cannot be used again.
  await page.getByLabel('Six-digit code').fill(enrolmentCode);
  await expect(page.getByRole('alert')).toContainText('This code has already been used');
  await expect(page).toHaveURL(/\/auth\/verify-otp$/);

  // The next time step's code (within the allowed drift) is accepted.
  await page.getByLabel('Six-digit code').fill(totp(secret, 1));
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await storedUser(page)).toMatchObject({ auth: true });
});
