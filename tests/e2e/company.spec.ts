import { expect, test, type Locator } from '@playwright/test';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** A logo as a designer's tool might export it, script included: the server keeps the drawing only. */
const LOGO_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40" width="120" height="40" onload="alert('logo')">
  <script>alert('logo')</script>
  <defs><linearGradient id="brand" x1="0" x2="1"><stop offset="0" stop-color="#0a7cff"/><stop offset="1" stop-color="#004a99"/></linearGradient></defs>
  <rect width="40" height="40" rx="8" fill="url(#brand)"/>
  <text x="48" y="27" font-family="sans-serif" font-size="18" fill="#1f2937">Demo</text>
</svg>`;

/** The image has been fetched and decoded: it shows a picture, not a broken-image icon. */
async function expectDrawn(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
}

test.afterAll(async () => {
  // Other browser tests share this server's company: leave it without a logo, as it started.
  await api('/company', { method: 'PUT', token: await adminToken(), body: { removeLogo: true } });
});

test('an admin uploads a logo on /company, sees it in the app bar, and the sign-in page shows it for the host name typed', async ({
  page,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn(page, admin);

  await page.goto('/company');
  await expect(page.getByRole('heading', { name: 'Company profile', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Host name')).toHaveValue(E2E_COMPANY);
  await expect(page.getByText('No logo yet')).toBeVisible();

  // Choose the logo: previewed before it is saved, then saved with the form.
  await page.getByLabel('Logo file').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO_SVG) });
  await expectDrawn(page.getByRole('img', { name: 'The new logo, not saved yet' }));
  await page.getByLabel('City').fill('Lisbon');
  await page.getByRole('button', { name: 'Save company profile' }).click();
  await expect(page.getByRole('alert')).toContainText('The company profile has been saved');

  // The app bar shows it at once, under the address of the saved version.
  const appBarLogo = page.getByRole('banner').getByRole('img', { name: /^Logo of / });
  await expectDrawn(appBarLogo);
  await expect(appBarLogo).toHaveAttribute('src', /\/api\/v1\/company\/logo\?hostname=demo&v=[0-9a-f]{16}$/);

  // What the server stored is the drawing without its script.
  const stored = await page.request.get(`/api/v1/company/logo?hostname=${E2E_COMPANY}`);
  expect(stored.status()).toBe(200);
  expect(stored.headers()['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  const svg = await stored.text();
  expect(svg).toContain('<linearGradient id="brand"');
  expect(svg).not.toMatch(/script|onload|alert/);

  // After a reload (a new visit), the app bar still has it.
  await page.reload();
  await expectDrawn(page.getByRole('banner').getByRole('img', { name: /^Logo of / }));
  await expect(page.getByLabel('City')).toHaveValue('Lisbon');

  // Signed out, the sign-in page shows the logo of the host name typed, and none for another.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/auth\/signin$/);
  const hostname = page.getByLabel('Company host name');
  await hostname.fill('');
  await expect(page.getByRole('img', { name: /^Logo of / })).toHaveCount(0);
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/company/logo') asked.push(url.searchParams.get('hostname') ?? '');
  });
  await hostname.pressSequentially(E2E_COMPANY);
  await expectDrawn(page.getByRole('img', { name: `Logo of ${E2E_COMPANY}` }));
  // Asked for once the name rested, not for each letter typed (the browser may show the whole
  // name's logo from its image cache without asking again, if it had it before the field was cleared).
  expect(asked.filter((name) => name !== E2E_COMPANY)).toEqual([]);

  // An unknown host name answers 404 and shows nothing, not a broken image.
  const unknown = page.waitForResponse((response) => response.url().includes('hostname=nosuchcompany'));
  await hostname.fill('nosuchcompany');
  expect((await unknown).status()).toBe(404);
  await expect(page.getByRole('img', { name: /^Logo of / })).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('the company profile form asks before leaving with unsaved changes', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  await page.goto('/company');
  const city = page.getByLabel('City');
  await expect(city).toBeVisible({ timeout: 30_000 });
  await city.fill('Draftville');

  // Declined: the page and the typed text stay.
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toContain("Some of your changes weren't saved");
    void dialog.dismiss();
  });
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/company$/);
  await expect(city).toHaveValue('Draftville');

  // Accepted: the move goes on, and nothing was saved.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const profile = await api('/company', { token: await adminToken() });
  expect(JSON.stringify(profile.body)).not.toContain('Draftville');
});
