import { expect, test, type Page } from '@playwright/test';
import { adminToken, api } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** Picks an option of a react-admin select or autocomplete by its label. */
async function choose(page: Page, label: string, option: string | RegExp, typed?: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option }).click();
}

async function addRule(
  page: Page,
  rule: { name: string; kind: string; column?: string; fill?: (page: Page) => Promise<void>; severity?: string },
) {
  await page.getByRole('button', { name: 'Add rule' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(rule.name);
  await choose(page, 'Check', rule.kind);
  if (rule.column) await choose(page, 'Column', rule.column);
  await rule.fill?.(page);
  if (rule.severity) await choose(page, 'Severity', rule.severity);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Data-quality rules' }).getByText(rule.name)).toBeVisible();
}

test('an admin registers a table from the sample source, describes it, and runs data-quality rules on the live data', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, admin);

  // Register the sample shop's customers table.
  await page.goto('/tables/create');
  await choose(page, 'Connection', /^Sample shop/, 'Sample');
  await choose(page, 'Endpoint', 'public / customers', 'customers');
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('customers');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(/Table "customers" registered with \d+ columns/)).toBeVisible();

  const token = await adminToken();
  const found = await api<{ data: { rows: Array<{ id: string }> } }>('/tables/search/0/10?searchText=customers', { token });
  const tableId = found.body.data.rows[0].id;

  // Describe two columns in place.
  await page.goto(`/tables/${tableId}/show/dictionary`);
  const dictionary = page.getByRole('table', { name: 'Data dictionary' });
  for (const [column, text] of [
    ['email', 'Where receipts are sent'],
    ['country', 'ISO 3166 country code'],
  ]) {
    await dictionary.getByLabel(`Description of ${column}`).fill(text);
    await dictionary.getByRole('button', { name: `Save ${column}` }).click();
    await expect(dictionary.locator(`tr[data-column="${column}"]`).getByText('Saved')).toBeVisible();
  }

  // Upload a dictionary file: email is personal data, and a business name for the full name.
  await page.getByLabel('Dictionary CSV file').setInputFiles({
    name: 'customers.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('column,business_name,sensitivity\nemail,Email address,pii\nfull_name,Customer name,confidential\n'),
  });
  await expect(page.getByText('2 columns updated, 0 unchanged')).toBeVisible();
  await expect(dictionary.getByLabel('Business name of full_name')).toHaveValue('Customer name');
  await expect(dictionary.getByLabel('Description of email')).toHaveValue('Where receipts are sent');

  // Three rules: two the dirty sample data breaks, one it keeps.
  await page.getByRole('tab', { name: 'Data quality' }).click();
  await addRule(page, { name: 'Email given', kind: 'Not null', column: 'email' });
  await addRule(page, {
    name: 'Email looks like one',
    kind: 'Matches a pattern',
    column: 'email',
    fill: (p) => p.getByRole('textbox', { name: 'Pattern', exact: true }).fill('^[^@ ]+@[^@ ]+\\.[a-z]+$'),
  });
  await addRule(page, { name: 'Customer has a name', kind: 'Not null', column: 'full_name' });

  await page.getByRole('button', { name: 'Run checks now' }).click();
  const results = page.getByRole('table', { name: 'Results of the run' });
  await expect(results).toBeVisible({ timeout: 30_000 });
  const row = (name: string) => results.getByRole('row').filter({ hasText: name });
  await expect(row('Customer has a name')).toContainText('Passed');
  await expect(row('Email given')).toContainText('Failed');
  await expect(row('Email looks like one')).toContainText('Failed');

  // The failing rows of the pattern rule, with the email masked.
  const sample = page.getByRole('table', { name: 'Failing rows of Email looks like one' });
  await expect(sample).toBeVisible();
  const cells = await sample.getByRole('cell').allInnerTexts();
  expect(cells.some((text) => /^\S\*\*\*$/.test(text.trim()))).toBe(true);
  // No address shows whole: the malformed ones kept only their first character.
  expect(cells.join(' ')).not.toMatch(/[^\s@]+@[^\s@]+/);
});
