import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import git from 'isomorphic-git';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY, E2E_FILES_ROOT } from './env';
import { signIn, storedUser } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** A bare repository in the company's own sub-folder of the granted root, with one commit on main, made without a git binary. */
async function bareRepository(companyId: string): Promise<string> {
  fs.mkdirSync(path.join(E2E_FILES_ROOT, companyId), { recursive: true });
  const gitdir = fs.mkdtempSync(path.join(E2E_FILES_ROOT, companyId, 'e2e-market-')) + '/models.git';
  await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
  const blob = await git.writeBlob({ fs, gitdir, blob: new TextEncoder().encode('select count(*) from public.orders;\n') });
  const tree = await git.writeTree({ fs, gitdir, tree: [{ mode: '100644', path: 'daily.sql', oid: blob, type: 'blob' }] });
  await git.commit({
    fs,
    gitdir,
    ref: 'refs/heads/main',
    tree,
    parent: [],
    message: 'Daily model',
    author: { name: 'Data team', email: 'data@demo.local' },
  });
  return gitdir;
}

let repository: string | undefined;
test.afterAll(() => {
  if (repository) fs.rmSync(path.dirname(repository), { recursive: true, force: true });
});

test('an admin configures the Git integration from the marketplace into a connection that tests green', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `SQL models ${Date.now().toString(36)}`;
  await signIn(page, admin);
  repository = await bareRepository(String((await storedUser(page))!.companyId));

  // The marketplace is in the menu of an admin.
  await page.getByRole('link', { name: 'Marketplace' }).click();
  await expect(page).toHaveURL(/\/marketplace$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Marketplace' })).toBeVisible();
  const gitCard = page.getByRole('article', { name: 'Git repository' });
  await expect(gitCard).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cloud storage' }).getByRole('article', { name: 'Google Cloud Storage' })).toBeVisible();

  // Only the code repositories, then Configure.
  await page.getByRole('search', { name: 'Filter integrations' }).getByRole('button', { name: 'Code repositories' }).click();
  await expect(page.getByRole('article')).toHaveCount(2);
  await gitCard.getByRole('button', { name: 'Configure Git repository' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configure Git repository' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: 'Repository URL or path' }).fill(repository);
  await dialog.getByRole('button', { name: 'Test and save' }).click();

  // Saved and tested at once: green, in the repository's own words.
  const result = dialog.getByRole('status');
  await expect(result).toContainText(/OK in \d+ ms/);
  await expect(result).toContainText('Default branch main, 1 branch');
  await expect(dialog.getByText(`The connection "${name}" was saved and works.`)).toBeVisible();

  // The new connection, its recorded test shown.
  await dialog.getByRole('link', { name: 'Open the connection' }).click();
  await expect(page).toHaveURL(/\/connections\/[0-9a-f-]{36}\/show$/);
  await expect(page.getByText(name).first()).toBeVisible();
  await expect(page.locator('[data-test-status="ok"]').first()).toBeVisible();

  // Back in the marketplace, the integration is in use.
  await page.goto('/marketplace?category=code');
  const used = page.getByRole('article', { name: 'Git repository' });
  await expect(used.getByText('Active', { exact: true })).toBeVisible();
  await expect(used.getByRole('link', { name: /^1 connection: / })).toBeVisible();
  await used.getByRole('link', { name: /^1 connection: / }).click();
  await expect(page).toHaveURL(/\/connections\?filter=/);
  await expect(page.getByText(name)).toBeVisible();
});
