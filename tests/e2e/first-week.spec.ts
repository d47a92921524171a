import { expect, test, type Page } from '@playwright/test';
import { adminToken, api, createActiveUser, sampleTable, uniqueEmail } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

/** What a new operator's first week stumbled on: the failing-tables card, deleting oneself, the invite form's role. */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** The figure a value card shows (`data-card`), as a number. */
async function cardValue(page: Page, key: string): Promise<number> {
  const card = page.locator(`#main-content [data-card="${key}"]`);
  await expect(card).toHaveText(/\d/, { timeout: 15_000 });
  const digits = (await card.innerText()).replace(/[^\d\n]/g, ' ').match(/\d[\d\s]*$/)?.[0] ?? '';
  return Number(digits.replace(/\s/g, ''));
}

const listPath = (resource: string, search: string) => `/${resource}?filter=${encodeURIComponent(JSON.stringify({ search }))}`;

test("the dashboard's failing-tables card counts what the Tables page counts as failing", async ({ page }) => {
  test.setTimeout(120_000);
  const token = await adminToken();
  // A table of the sample shop whose rule fails on every row, checked once.
  const table = await sampleTable(token, 'order_items');
  const dictionary = await api<{ data: { rows: Array<{ name: string }> } }>(`/tables/dataDictionary/tableId/${table.id}/0/100`, { token });
  const column = dictionary.body.data.rows[0].name;
  const rule = await api(`/table/dataQuality/${table.id}`, {
    token,
    body: { name: 'Never in range', functionName: 'value_between', columnName: column, params: { min: -2, max: -1 }, severity: 'fail' },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  const checked = await api(`/table/${table.id}/configure`, { method: 'POST', token });
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);

  await signIn(page, admin);
  await page.goto('/tables');
  const failingOnTables = await cardValue(page, 'failing');
  expect(failingOnTables).toBeGreaterThan(0);
  await page.goto('/dashboard');
  expect(await cardValue(page, 'failingTables')).toBe(failingOnTables);
});

test('your own row in Users offers no Delete: the control says why; a colleague can be deleted', async ({ page }) => {
  const colleague = await createActiveUser('colleague', { firstName: 'Cora', lastName: 'Colleague' });
  await signIn(page, admin);

  await page.goto(listPath('users', E2E_ADMIN_EMAIL));
  const own = page.locator('tbody tr.RaDataTable-row', { hasText: E2E_ADMIN_EMAIL });
  const remove = own.getByRole('button', { name: /^Delete / });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAccessibleDescription('You cannot delete your own account');
  await expect(own.getByRole('switch', { name: /^Active: / })).toBeDisabled();

  await page.goto(listPath('users', colleague.email));
  const theirs = page.locator('tbody tr.RaDataTable-row', { hasText: colleague.email });
  await expect(theirs.getByRole('button', { name: 'Delete Cora Colleague' })).toBeEnabled();
});

test('the invite form says an invitation is sent, and a missing role reads "Choose a role"; nothing is sent', async ({ page }) => {
  const email = uniqueEmail('no-role');
  await signIn(page, admin);
  await page.goto('/users/create');
  await expect(page.getByText('An invitation to choose a password is sent to this address.')).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('First name').fill('Nora');
  await page.getByLabel('Last name').fill('Role');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Choose a role')).toBeVisible();
  await expect(page).toHaveURL(/\/users\/create$/);

  // Nothing was sent: no invitation mail to that address.
  const outbox = await api<{ data: { rows: Array<{ toAddress: string }> } }>('/mail/outbox/0/50', { token: await adminToken() });
  expect(outbox.body.data.rows.map((row) => row.toAddress)).not.toContain(email);
});
