import { expect, test } from '@playwright/test';
import { headerOf, startCapturingSmtp, type CapturingSmtp } from '../server/smtp-capture';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY, E2E_SMTP_PORT } from './env';
import { signIn } from './fixtures';

const RELAY = { username: 'relay@demo.local', password: 'Relay-pass-42' };

let smtp: CapturingSmtp;
test.beforeAll(async () => {
  // On the port the server's operator settings let companies reach (tests/e2e/env.ts).
  smtp = await startCapturingSmtp(RELAY, E2E_SMTP_PORT);
});
test.afterAll(async () => {
  // The company's mail goes back to the outbox for the other browser tests.
  await api('/settings/email', { method: 'PUT', token: await adminToken(), body: { host: '', username: '' } });
  await smtp?.close();
});

test('an admin points the email settings at an SMTP server, and the test mail arrives there', async ({ page }) => {
  await signIn(page, { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY });
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Email' }).click();

  await page.getByLabel('Host', { exact: true }).fill(smtp.host);
  await page.getByRole('spinbutton', { name: 'Port' }).fill(String(smtp.port));
  await page.getByLabel('Username', { exact: true }).fill(RELAY.username);
  await page.getByLabel('Password', { exact: true }).fill(RELAY.password);
  await page.getByLabel('From address').fill('data@demo.local');
  await page.getByLabel('From name').fill('Demo Data');
  await page.getByLabel('Send the test to').fill('ops@demo.local');
  await page.getByRole('button', { name: 'Send a test mail' }).click();

  const result = page.getByTestId('test-mail-result');
  await expect(result).toContainText(`The test mail was sent to ops@demo.local through ${smtp.host}:${smtp.port}.`);
  await expect(result).toContainText("The server's answer: 250");
  expect(smtp.received).toHaveLength(1);
  const [mail] = smtp.received;
  expect(mail).toMatchObject({ from: 'data@demo.local', to: ['ops@demo.local'], user: RELAY.username });
  expect(headerOf(mail.raw, 'From')).toBe('Demo Data <data@demo.local>');
  expect(headerOf(mail.raw, 'Subject')).toBe('Test mail from the email settings of Demo Company');

  // Saved, the settings come back with the password kept on the server and never shown.
  await page.getByRole('button', { name: 'Save email settings' }).click();
  await expect(page.getByText('Email settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Host', { exact: true })).toHaveValue(smtp.host);
  await expect(page.getByRole('spinbutton', { name: 'Port' })).toHaveValue(String(smtp.port));
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page.getByText('A password is saved: leave this blank to keep it.')).toBeVisible();
  await expect(page.getByText(/Last changed on .* by Admin/)).toBeVisible();

  // And the company's own mail now goes that way: a password reset request arrives at the server.
  await api('/user/password/forgot', { body: { email: E2E_ADMIN_EMAIL, companyHostname: E2E_COMPANY } });
  await expect.poll(() => smtp.received.map((received) => received.to.join(','))).toContain(E2E_ADMIN_EMAIL);
});
