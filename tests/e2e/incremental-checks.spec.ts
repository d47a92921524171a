import { expect, test, type Page } from '@playwright/test';
import { adminToken, api, appendToWarehouse, connectionNamed } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

/**
 * An incremental data-quality check in the console: a table of the warehouse gets a watermark
 * column; the first run reads every row, and once new rows arrive the next run reads only them,
 * its result saying "Rows since id …"; a full check reads every row again.
 */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
/** Runs the checks with `button` and answers the results' region once they show. */
async function runChecks(page: Page, button: 'Run checks now' | 'Full check') {
  const section = page.getByRole('region', { name: 'Data-quality rules' });
  await section.getByRole('button', { name: button, exact: true }).click();
  await expect(section.getByRole('button', { name: 'Run checks now', exact: true })).toBeEnabled({ timeout: 30_000 });
  const results = section.getByRole('region', { name: 'Results of the run' });
  await expect(results).toBeVisible();
  return results;
}

test('an incremental check reads only the new rows and says since which id; a full check reads them all', async ({ page }) => {
  test.setTimeout(180_000);
  const token = await adminToken();
  const stamp = Date.now().toString(36);
  const table = `public.customers_checked_${stamp}`;
  await appendToWarehouse(token, { name: `Load ${table}`, query: 'select * from public.customers where id <= 100', table });
  const warehouse = await connectionNamed(token, 'Sample warehouse');
  const registered = await api<{ data: { id: string } }>('/table', { token, body: { connectionId: warehouse.id, endpoint: table } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const tableId = registered.body.data.id;

  await signIn(page, admin);
  await page.goto(`/tables/${tableId}/show/quality`);
  const section = page.getByRole('region', { name: 'Data-quality rules' });
  await expect(
    section.getByText('Every run reads every row. Choose a timestamp, or an id that only grows, to check only new rows'),
  ).toBeVisible();
  await section.getByRole('combobox', { name: 'Incremental checks by' }).click();
  await page.getByRole('option', { name: 'id', exact: true }).click();
  await expect(section.getByText(/^Row rules read only the rows whose id is past their last result/)).toBeVisible();
  await expect(section.getByRole('button', { name: 'Full check' })).toBeVisible();

  await section.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Email given');
  await dialog.getByRole('combobox', { name: 'Check', exact: true }).click();
  await page.getByRole('option', { name: 'Not null' }).click();
  await dialog.getByRole('combobox', { name: 'Column', exact: true }).click();
  await page.getByRole('option', { name: /^email/ }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  // The first run reads every row.
  let results = await runChecks(page, 'Run checks now');
  await expect(results.getByText('All rows', { exact: true })).toBeVisible();
  await expect(results.getByText(/^\d+ of 100 rows: email is null$/)).toBeVisible();

  // Thirty new customers arrive; the next run reads only them.
  await appendToWarehouse(token, {
    name: `Load more into ${table}`,
    query: 'select * from public.customers where id > 100 and id <= 130',
    table,
  });
  results = await runChecks(page, 'Run checks now');
  await expect(results.getByText('Rows since id 100', { exact: true })).toBeVisible();
  await expect(results.getByText(/^\d+ of 30 rows with id after 100: email is null$/)).toBeVisible();
  // The rule's row shows the same beside its last result.
  const rules = section.getByRole('table', { name: 'Data-quality rules' });
  await expect(rules.getByText('Rows since id 100', { exact: true })).toBeVisible();

  // A full check reads every row again.
  results = await runChecks(page, 'Full check');
  await expect(results.getByText(/^\d+ of 130 rows: email is null$/)).toBeVisible();
  await expect(results.getByText('All rows', { exact: true })).toBeVisible();
});
