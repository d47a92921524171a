import { expect, test, type Page } from '@playwright/test';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

/** Data work on a table: the failing rows a run keeps, suggested rule names, "Save all" in the dictionary, action failures. */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const SHOP = 'Sample shop';

interface Row {
  id: string;
  name: string;
}

/** A table of the sample shop, registered once; its id and its columns' names. */
async function shopTable(token: string, name: string): Promise<{ id: string; columns: string[] }> {
  const connections = await api<{ data: { rows: Row[] } }>('/connections/search/0/50?searchText=Sample', { token });
  const shop = connections.body.data.rows.find((row) => row.name === SHOP);
  if (!shop) throw new Error(`no "${SHOP}" connection: ${JSON.stringify(connections.body)}`);
  const registered = await api<{ data: Row[] }>(`/table/connection/${shop.id}`, { token });
  let table = registered.body.data.find((candidate) => candidate.name === name);
  if (!table) {
    const endpoints = await api<{ data: Row[] }>(`/connection/${shop.id}/endpoints`, { token });
    const endpoint = endpoints.body.data.find((candidate) => candidate.name === name);
    if (!endpoint) throw new Error(`the sample shop has no ${name}: ${JSON.stringify(endpoints.body)}`);
    const created = await api<{ data: Row }>('/table', { token, body: { connectionId: shop.id, endpoint: endpoint.id, name } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    table = created.body.data;
  }
  const dictionary = await api<{ data: { rows: Array<{ name: string }> } }>(`/tables/dataDictionary/tableId/${table.id}/0/100`, { token });
  return { id: table.id, columns: dictionary.body.data.rows.map((row) => row.name) };
}

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

test('the failing rows a run keeps: as many as the setting says, paged, found again after a reload, and downloaded', async ({ page }) => {
  test.setTimeout(300_000);
  const token = await adminToken();
  const table = await shopTable(token, 'order_items');
  const [column] = table.columns;
  const rule = await api(`/table/dataQuality/${table.id}`, {
    token,
    body: { name: 'Every item fails', functionName: 'value_between', columnName: column, params: { min: -2, max: -1 }, severity: 'fail' },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);

  await signIn(page, admin);
  // The company keeps 50 failing rows per rule and run.
  await page.goto('/settings');
  const kept = page.getByRole('spinbutton', { name: 'Failing rows kept per rule and run' });
  await kept.fill('50');
  await page.getByRole('button', { name: 'Save service settings' }).click();
  await expect(page.locator('.alert-bar')).toContainText('Service settings saved');

  await page.goto(`/tables/${table.id}/show/quality`);
  await page.getByRole('button', { name: 'Run checks now' }).click();
  const results = page.getByRole('region', { name: 'Results of the run' });
  await expect(results.getByText('Failing rows (50)')).toBeVisible({ timeout: 60_000 });
  const rows = results.getByRole('table', { name: 'Failing rows of Every item fails' });
  await expect(rows.getByRole('row')).toHaveCount(21);
  await expect(results.getByText('Rows 1–20 of 50')).toBeVisible();
  await results.getByRole('button', { name: 'Go to next page' }).click();
  await expect(results.getByText('Rows 21–40 of 50')).toBeVisible();
  await expect(rows.getByRole('row')).toHaveCount(21);

  // After a reload the run is among the past runs, and its rows are still there.
  await page.reload();
  const history = page.getByRole('region', { name: 'Past runs' });
  await history
    .getByRole('button', { name: /^Show the results of the run of/ })
    .first()
    .click();
  await expect(page.getByRole('region', { name: 'Results of the run' }).getByText('Failing rows (50)')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the failing rows of Every item fails as CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Every_item_fails-failing-rows.csv');
  const text = (await (await file.createReadStream()).toArray()).map(String).join('');
  expect(text.trim().split(/\r\n/)).toHaveLength(51);
});

test('a new rule is named after its check and column until the user names it', async ({ page }) => {
  test.setTimeout(180_000);
  const token = await adminToken();
  const table = await shopTable(token, 'products');
  const [first, second] = table.columns;
  await signIn(page, admin);
  await page.goto(`/tables/${table.id}/show/quality`);
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog');
  const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
  await choose(page, 'Column', new RegExp(`^${first} \\(`));
  await expect(name).toHaveValue(`${first} not null`);
  await choose(page, 'Check', 'Unique');
  await expect(name).toHaveValue(`${first} unique`);
  await choose(page, 'Column', new RegExp(`^${second} \\(`));
  await expect(name).toHaveValue(`${second} unique`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('table', { name: 'Data-quality rules' }).getByText(`${second} unique`)).toBeVisible();
});

test('"Save all" saves every edited row of the data dictionary', async ({ page }) => {
  test.setTimeout(180_000);
  const token = await adminToken();
  const table = await shopTable(token, 'products');
  const [first, second] = table.columns;
  await signIn(page, admin);
  await page.goto(`/tables/${table.id}/show/dictionary`);
  const dictionary = page.getByRole('table', { name: 'Data dictionary' });
  await dictionary.getByLabel(`Description of ${first}`).fill('The product’s key');
  await dictionary.getByLabel(`Owner of ${second}`).fill('catalogue-team');
  await page.getByRole('button', { name: 'Save all (2)' }).click();
  await expect(page.locator('.alert-bar')).toContainText('The 2 edited rows were saved');
  await expect(dictionary.locator(`tr[data-column="${first}"]`).getByText('Saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('table', { name: 'Data dictionary' }).getByLabel(`Owner of ${second}`)).toHaveValue('catalogue-team');
  await expect(page.getByRole('table', { name: 'Data dictionary' }).getByLabel(`Description of ${first}`)).toHaveValue('The product’s key');
});

test('a table action that fails is an error alert', async ({ page }) => {
  test.setTimeout(180_000);
  const token = await adminToken();
  const table = await shopTable(token, 'products');
  // Its rules switched off: the run has nothing to run.
  const rules = await api<{ data: { rows: Array<Row & Record<string, unknown>> } }>(`/table/dataQuality/${table.id}/0/100`, { token });
  for (const rule of rules.body.data.rows) await api(`/table/dataQuality/${rule.id}`, { method: 'DELETE', token });
  await signIn(page, admin);
  await page.goto(`/tables/${table.id}/show/quality`);
  await page.getByRole('button', { name: 'Run checks now' }).click();
  const alert = page.locator('.alert-bar');
  await expect(alert).toContainText('has no active data-quality rules to run');
  await expect(alert).toHaveClass(/alert-danger/);
});
