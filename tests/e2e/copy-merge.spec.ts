import { expect, test, type Locator, type Page } from '@playwright/test';
import { adminToken, api, appendToWarehouse, connectionNamed } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

/**
 * A copy in merge mode, set up with the copy form's pickers, run twice: the first run adds the
 * customers the destination lacks, the second leaves the destination's row count as it was.
 */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const PAIR = 'Sample shop → Sample warehouse';
/** The sample shop's customers (server/connectors/sample-data.ts). */
const CUSTOMERS = 2_000;
/** The customers the destination holds before the merge. */
const ALREADY_HELD = 500;

/** Picks an option of a react-admin select or autocomplete by its label. */
async function choose(scope: Page | Locator, page: Page, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * A workflow of one append copy of the first customers into `table` of the warehouse, made and run
 * through the API: the table then exists, holding some of the customers. The same workflow tells
 * how many rows the table holds at any time (`GET /workflow/destinationRows/{id}` counts the
 * destinations of append copies); it is never run again.
 */
async function seededDestination(token: string, table: string): Promise<{ rows: () => Promise<number | null> }> {
  const workflowId = await appendToWarehouse(token, {
    name: `Seed ${table}`,
    query: `select * from public.customers where id <= ${ALREADY_HELD}`,
    table,
  });
  return {
    rows: async () => {
      const counted = await api<{ data: { tables: Array<{ table: string; rows: number | null; more: boolean }> } }>(
        `/workflow/destinationRows/${workflowId}`,
        { token },
      );
      expect(counted.status, JSON.stringify(counted.body)).toBe(200);
      const [held] = counted.body.data.tables;
      expect(held?.table).toBe(table);
      expect(held?.more).toBe(false);
      return held?.rows ?? null;
    },
  };
}

/** Runs the workflow from its page and follows the run on its own page until it ends; the run's id. */
async function runAndFollow(page: Page, workflowName: string, previousRunId?: string): Promise<string> {
  await page
    .getByRole('button', { name: `Run ${workflowName}`, exact: true })
    .first()
    .click();
  await expect(page).toHaveURL(/\/job-runs\/[^/]+\/show/);
  const runId = new URL(page.url()).pathname.split('/')[2]!;
  expect(runId).not.toBe(previousRunId);
  const summary = page.getByRole('region', { name: 'Run', exact: true });
  await expect(summary).toBeVisible();
  // The page follows the run while it is queued or running, and stops once it has ended.
  await expect(summary.getByText(/^Following the run: /)).toBeHidden({ timeout: 60_000 });
  await expect(summary.getByText('Succeeded', { exact: true })).toBeVisible();
  return runId;
}

test('a merge copy made with the pickers runs again without changing how many rows its destination holds', async ({ page }) => {
  test.setTimeout(180_000);
  const token = await adminToken();
  const stamp = Date.now().toString(36);
  const table = `public.customers_merged_${stamp}`;
  const destination = await seededDestination(token, table);
  expect(await destination.rows()).toBe(ALREADY_HELD);
  // The warehouse lists the seeded table, which the destination picker offers.
  const warehouse = await connectionNamed(token, 'Sample warehouse');
  const endpoints = await api<{ data: Array<{ id: string }> }>(`/connection/${warehouse.id}/endpoints`, { token });
  expect(endpoints.body.data.map((endpoint) => endpoint.id)).toContain(table);

  const name = `Merge the customers ${stamp}`;
  await signIn(page, admin);
  await page.goto('/workflows/create');
  await page.getByRole('textbox', { name: 'Name', exact: true }).first().fill(name);
  await choose(page, page, 'Source/destination pair', PAIR);
  await page.getByRole('button', { name: 'Add task' }).click();
  await page.getByRole('menuitem', { name: 'Copy' }).click();
  const copy = page.getByRole('listitem', { name: 'Task 1' });
  await copy.getByRole('textbox', { name: 'Name', exact: true }).fill('Merge the customers');
  // Tables and columns come from what the pair's connections describe: nothing is typed.
  await choose(copy, page, 'Source table', 'public / customers');
  await choose(copy, page, 'Mode', 'Merge (update or add by key)');
  await choose(copy, page, 'Destination table', `public / customers_merged_${stamp}`);
  await choose(copy, page, 'Key columns', 'id (integer)');
  await page.keyboard.press('Escape');
  await expect(copy.getByRole('button', { name: 'id (integer)' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/workflows\/[^/]+\/show$/);
  await expect(page.getByText('Merge the customers').first()).toBeVisible();
  const stored = await api<{ data: { rows: Array<{ name: string; tasks: unknown[] }> } }>(
    `/workflow/search/0/10?searchText=${encodeURIComponent(name)}`,
    { token },
  );
  expect(stored.body.data.rows.find((row) => row.name === name)?.tasks).toEqual([
    expect.objectContaining({
      type: 'copy',
      from: { table: 'public.customers' },
      to: { table, mode: 'merge', keys: ['id'] },
    }),
  ]);

  // The first run adds the customers the destination lacked.
  const firstRun = await runAndFollow(page, name);
  const steps = page.locator('main');
  await expect(steps.getByText(`Rows read: ${CUSTOMERS.toLocaleString('en')}`)).toBeVisible();
  const afterFirst = await destination.rows();
  expect(afterFirst).toBe(CUSTOMERS);

  // The second run, from the workflow's page again, matches every row by its key: nothing is added.
  await page.getByRole('region', { name: 'Run', exact: true }).getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/workflows\/[^/]+\/show$/);
  await runAndFollow(page, name, firstRun);
  await expect(steps.getByText(`Rows read: ${CUSTOMERS.toLocaleString('en')}`)).toBeVisible();
  expect(await destination.rows()).toBe(afterFirst);
});
