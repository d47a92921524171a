import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminToken, api, createActiveUser, lastMailTo, totp } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn, storedUser, submitSignIn, type Account } from './fixtures';

const admin: Account = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

async function freshPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** Turns two-factor on from the set-up screen as the user would, and gives its key and the recovery codes shown once. */
async function enrolInBrowser(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.goto('/auth/register-2fa');
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId('otp-secret').innerText()).replace(/\s+/g, '');
  // The previous step's code (within the drift allowed), so that the current one stays unspent for the test.
  await page.getByLabel('Six-digit code').fill(totp(secret, -1));
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  // allInnerTexts reads at once: the list is first waited for until its ten codes are drawn.
  const shown = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(shown).toHaveCount(10);
  const codes = await shown.allInnerTexts();
  await page.getByRole('button', { name: 'I have saved them, continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { secret, codes: codes.map((code) => code.trim()) };
}

/** Turns two-factor on through the API (for tests about what follows). */
async function enrolByApi(account: Account): Promise<{ id: string; secret: string }> {
  const signin = await api<{ user: { id: string; token: string } }>('/signin', { body: account });
  const token = signin.body.user.token;
  const setup = await api<{ data: { secret: string } }>('/user/otp/setup', { token });
  const secret = setup.body.data.secret;
  const done = await api('/user/otp/register', { token, body: { otp: totp(secret, -1) } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { id: signin.body.user.id, secret };
}

async function openSecurity(page: Page) {
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Security' });
  await expect(section).toBeVisible();
  return section;
}

test('the two-factor entry no longer dead-ends: with two-factor on it opens the Security section', async ({ page }) => {
  const account = await createActiveUser('sec-deadend');
  await signIn(page, account);
  await enrolInBrowser(page);

  await page.goto('/auth/register-2fa');
  await expect(page).toHaveURL(/\/profile#security$/);
  const section = page.getByRole('region', { name: 'Security' });
  await expect(section.getByTestId('two-factor-state')).toHaveText('On');
  await expect(section.getByRole('button', { name: 'Turn off' })).toBeVisible();
  await expect(page.getByText(/already on; turn it off/)).toHaveCount(0);
});

test('turning two-factor off asks for the password and a current code, then sign-in needs the password only', async ({ page }) => {
  const account = await createActiveUser('sec-off');
  await signIn(page, account);
  const { secret } = await enrolInBrowser(page);

  const section = await openSecurity(page);
  await expect(section.getByTestId('two-factor-state')).toHaveText('On');
  await section.getByRole('button', { name: 'Turn off' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
  await dialog.getByLabel('Password', { exact: true }).fill('Not-the-password-1');
  await dialog.getByLabel('Code', { exact: true }).fill(totp(secret));
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog.getByText('is not correct')).toBeVisible();
  // Refused: the dialog stays open with what was typed, and two-factor stays on (below, until the right password).
  await expect(dialog.getByLabel('Code', { exact: true })).toHaveValue(/^\d{6}$/);

  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByTestId('two-factor-state')).toHaveText('Off');
  await expect(section.getByRole('link', { name: 'Set up' })).toBeVisible();

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await signIn(page, account);
});

test('a recovery code signs in once; the count goes down; regenerating replaces the old codes', async ({ page }) => {
  const account = await createActiveUser('sec-recovery');
  await signIn(page, account);
  const { codes } = await enrolInBrowser(page);

  await page.goto('/logout');
  // The logout ends on sign-in: going on before it has would find the session still open.
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await submitSignIn(page, account);
  await expect(page).toHaveURL(/\/auth\/verify-otp$/);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await storedUser(page)).toMatchObject({ auth: true });

  let section = await openSecurity(page);
  await expect(section.getByTestId('recovery-codes-left')).toHaveText('9 recovery codes left');

  // The used code does not work a second time.
  await page.goto('/logout');
  // The logout ends on sign-in: going on before it has would find the session still open.
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await submitSignIn(page, account);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('The recovery code is not valid or has already been used');
  await page.getByLabel('Recovery code').fill(codes[1]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Regenerate: ten new codes, shown once; the old ones stop working.
  section = await openSecurity(page);
  await section.getByRole('button', { name: 'Regenerate recovery codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'New recovery codes' });
  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Regenerate recovery codes' }).click();
  // The new codes come with the call's answer: wait until the ten are drawn, then read them.
  const freshItems = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(freshItems).toHaveCount(10);
  const fresh = await freshItems.allInnerTexts();
  expect(fresh.some((code) => codes.includes(code.trim()))).toBe(false);
  await dialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByTestId('recovery-codes-left')).toHaveText('10 recovery codes left');

  await page.goto('/logout');
  // The logout ends on sign-in: going on before it has would find the session still open.
  await expect(page).toHaveURL(/\/auth\/signin$/);
  await submitSignIn(page, account);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[2]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('The recovery code is not valid or has already been used');
  await page.getByLabel('Recovery code').fill(fresh[0].trim());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the Security section lists one's sessions; ending another signs that browser out at once", async ({ browser }) => {
  const account = await createActiveUser('sec-sessions');
  const laptop = await freshPage(browser);
  await signIn(laptop, account);
  const phone = await freshPage(browser);
  await signIn(phone, account);

  const section = await openSecurity(phone);
  const rows = section.getByTestId('own-session');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'This session' })).toHaveCount(1);
  const other = rows.filter({ hasNotText: 'This session' });
  await other.getByRole('button', { name: /^End the session on/ }).click();
  await phone.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End' }).click();
  await expect(phone.getByText('The session has been ended')).toBeVisible();
  await expect(rows).toHaveCount(1);

  // The laptop's next step finds its session gone.
  await laptop.goto('/profile');
  await expect(laptop).toHaveURL(/\/auth\/signin/);
  // The phone stays signed in.
  await phone.reload();
  await expect(phone.getByRole('region', { name: 'Security' })).toBeVisible();
});

test("an admin resets a user's two-factor: confirmed, mailed, and the user signs in with the password only", async ({ browser }) => {
  const account = await createActiveUser('sec-reset', { firstName: 'Lost', lastName: 'Phone' });
  const { id } = await enrolByApi(account);

  const adminPage = await freshPage(browser);
  await signIn(adminPage, admin);
  await adminPage.goto(`/users/${id}/show`);
  await adminPage.getByRole('button', { name: 'Actions for Lost Phone' }).first().click();
  await adminPage.getByRole('menuitem', { name: 'Reset two-factor' }).click();
  const confirm = adminPage.getByRole('dialog', { name: 'Reset the two-factor authentication of Lost Phone?' });
  await confirm.getByRole('button', { name: 'Reset two-factor' }).click();
  await expect(adminPage.getByText(`The two-factor authentication of ${account.email} has been reset`)).toBeVisible();

  const mail = await lastMailTo(account.email, await adminToken());
  expect(mail.subject).toBe('Your DataOps Console two-factor authentication was reset');

  const userPage = await freshPage(browser);
  await signIn(userPage, account);
  const section = await openSecurity(userPage);
  await expect(section.getByTestId('two-factor-state')).toHaveText('Off');
});

test('"two-factor for everyone" sends a user without it to set-up at sign-in', async ({ browser }) => {
  const account = await createActiveUser('sec-rule');
  const token = await adminToken();
  const adminPage = await freshPage(browser);
  await signIn(adminPage, admin);
  try {
    await adminPage.goto('/settings');
    const rule = adminPage.getByLabel('Require two-factor authentication for everyone');
    await rule.check();
    await adminPage.getByRole('button', { name: 'Save service settings' }).click();
    await expect(adminPage.getByText(/settings saved/i).first()).toBeVisible();

    const userPage = await freshPage(browser);
    await submitSignIn(userPage, account);
    await expect(userPage).toHaveURL(/\/auth\/register-2fa$/);
    expect(await storedUser(userPage)).toMatchObject({ auth: false, setupOTP: true });
    const { codes } = await enrolInBrowser(userPage);
    expect(codes).toHaveLength(10);
    const section = await openSecurity(userPage);
    await expect(section.getByTestId('two-factor-state')).toHaveText('On');
    await expect(section.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
  } finally {
    await api('/settings/service', { method: 'PUT', token, body: { requireTwoFactor: false } });
  }
});
