import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { adminToken, api, copyWorkflow, createActiveUser, sampleTable } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** The users list searched for a word, as a person types it into the search box. */
async function searchUsers(page: Page, word: string) {
  await page.goto('/users');
  await page.getByRole('textbox', { name: 'Search users' }).fill(word);
  // The search has been applied: the table holds these two rows and no other.
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await expect(page.locator('tbody tr').filter({ hasText: `${word}-` })).toHaveCount(2);
}

test('rows selected in a list are deactivated, exported and deleted together', async ({ page }) => {
  const word = `bulk${Date.now().toString(36)}`;
  const one = await createActiveUser(word);
  const two = await createActiveUser(word);
  await signIn(page, admin);
  await searchUsers(page, word);
  const rows = page.getByRole('row').filter({ hasText: `${word}-` });

  await page.getByRole('checkbox', { name: 'Select all' }).check();
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Deactivated: 2 of 2.')).toBeVisible();
  for (const row of await rows.all()) await expect(row.getByRole('switch')).not.toBeChecked();

  await page.getByRole('checkbox', { name: 'Select all' }).check();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export selected' }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(csv).toContain(one.email);
  expect(csv).toContain(two.email);
  expect(csv.trim().split('\n')).toHaveLength(3);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Delete 2 records?');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Deleted: 2 of 2.')).toBeVisible();
  await expect(rows).toHaveCount(0);
});

test('a saved view keeps the search, and comes back after signing out and in', async ({ page }) => {
  const word = `view${Date.now().toString(36)}`;
  await createActiveUser(word);
  await createActiveUser(word);
  await signIn(page, admin);
  await searchUsers(page, word);

  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: 'Save current view…' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill(`People ${word}`);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`View "People ${word}" saved`)).toBeVisible();

  // Kept on the server: a new sign-in, in a browser that has never seen it, finds it.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, admin);
  await page.goto('/users');
  await expect(page.getByRole('textbox', { name: 'Search users' })).toHaveValue('');
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: `People ${word}` }).click();
  await expect(page.getByRole('textbox', { name: 'Search users' })).toHaveValue(word);
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await expect(page.locator('tbody tr').filter({ hasText: `${word}-` })).toHaveCount(2);
});

test('a search the server refuses is said in place of the rows, with no toast, on tables, workflows and connections', async ({ page }) => {
  // Each list has rows, so its search box shows.
  const token = await adminToken();
  await sampleTable(token, 'orders');
  const pairs = await api<{ data: Array<{ id: string; name: string }> }>('/active/source/destination', { token });
  const pair = pairs.body.data.find((candidate) => candidate.name === 'Sample shop → Sample warehouse');
  if (!pair) throw new Error(`no sample pair: ${JSON.stringify(pairs.body)}`);
  const from = 'public.orders';
  await copyWorkflow(token, {
    name: `Searched ${Date.now().toString(36)}`,
    pairId: pair.id,
    task: 'Copy orders',
    from,
    to: from,
    mode: 'replace',
  });
  await signIn(page, admin);
  // A pasted text longer than any search the server takes (200 characters).
  const pasted = 'order '.repeat(40);
  for (const [path, label] of [
    ['/tables', 'Search tables'],
    ['/workflows', 'Search workflows'],
    ['/connections', 'Search connections'],
  ]) {
    await page.goto(path);
    await page.getByRole('textbox', { name: label }).fill(pasted);
    const inPlace = page.locator('[data-list-error]');
    await expect(inPlace, path).toContainText(/The list could not be loaded: \w+: must be at most 200 characters/);
    // Said once, where the rows were: no alert bar and no snackbar besides.
    await expect(page.locator('.alert-bar')).toHaveCount(0);
    await expect(page.locator('.MuiSnackbar-root')).toHaveCount(0);
    // The search box is still there to correct the search, and a shorter one reads the list again.
    await page.getByRole('textbox', { name: label }).fill('order');
    await expect(inPlace).toHaveCount(0);
  }
});
