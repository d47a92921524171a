import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY, E2E_FILES_ROOT } from './env';
import { signIn, storedUser } from './fixtures';

/**
 * What a company may reach, as an admin meets it in the connection form: a folder the server does
 * not grant is refused on the folder's own input, in words that say why and what to use instead,
 * and nothing is saved; what the operator allowed (the company's own sub-folder of FILES_ROOTS,
 * the local PostgreSQL named in CONNECTION_ALLOWED_HOSTS) is saved and tests green.
 */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

async function newConnection(page: Page, type: string, name: string, settings: Record<string, string>) {
  await page.goto('/connections/create');
  await page
    .getByRole('radiogroup', { name: 'Type' })
    .getByRole('radio', { name: new RegExp(`^${type}`) })
    .click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  for (const [label, value] of Object.entries(settings)) {
    const input = page.getByRole('textbox', { name: label, exact: true }).or(page.getByRole('spinbutton', { name: label, exact: true }));
    await input.fill(value);
  }
  await page.getByRole('button', { name: 'Save' }).click();
}

test('a folder the server does not grant is refused on its input; an allowed folder and database are saved and work', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);
  const companyId = String((await storedUser(page))!.companyId);

  // The root of the server's disk: refused, on the Folder input and in the alert, and not saved.
  const refusedName = `Everything ${Date.now().toString(36)}`;
  await newConnection(page, 'Folder of files', refusedName, { Folder: '/' });
  const folder = page.getByRole('textbox', { name: 'Folder', exact: true });
  await expect(folder).toHaveAccessibleDescription(/this server does not let companies read \/\. Give a folder .*FILES_ROOTS/);
  await expect(page.getByRole('alert').filter({ hasText: 'this server does not let companies read /' })).toBeVisible();
  await expect(page).toHaveURL(/\/connections\/create/);
  await page.goto('/connections');
  await expect(page.getByText(refusedName)).toHaveCount(0);

  // The company's own sub-folder of the granted root: saved, and it lists its CSV file.
  const own = path.join(E2E_FILES_ROOT, companyId, 'exports');
  fs.mkdirSync(own, { recursive: true });
  fs.writeFileSync(path.join(own, 'orders.csv'), 'id,total\n1,10\n2,32\n');
  await newConnection(page, 'Folder of files', `Exports ${Date.now().toString(36)}`, { Folder: own });
  await expect(page).toHaveURL(/\/connections(\/[0-9a-f-]{36}\/show)?$/);

  // The local PostgreSQL, allowed by the operator: saved, and its test is green.
  const database = `Operator's PostgreSQL ${Date.now().toString(36)}`;
  await newConnection(page, 'PostgreSQL', database, { Host: '127.0.0.1', Port: '5432', Database: 'test', User: 'postgres' });
  await page.goto('/connections');
  await page.getByText(database).click();
  await expect(page).toHaveURL(/\/connections\/[0-9a-f-]{36}\/show$/);
  await page
    .getByRole('button', { name: /^Test connection/ })
    .first()
    .click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /OK in \d+ ms/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByText(/PostgreSQL \d+/).first()).toBeVisible();
});
