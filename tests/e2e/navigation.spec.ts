import { expect, test } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/**
 * What the page's content showed after each change of it, from now on: the dashboard, a
 * loading page, a table with rows, a table without them, nothing.
 */
async function recordContent(page: import('@playwright/test').Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    const main = document.getElementById('main-content')!;
    // Only what is on screen counts: React hides a page it keeps (display: none) rather than removing it.
    const shown = (selector: string) => [...main.querySelectorAll(selector)].some((element) => element.getClientRects().length > 0);
    new MutationObserver(() => {
      const state = shown('.RaLoading-root')
        ? 'loading page'
        : shown('tbody tr.RaDataTable-row')
          ? 'rows'
          : shown('table')
            ? 'table without rows'
            : shown('section[aria-label="People"]')
              ? 'dashboard'
              : 'nothing';
      if (seen[seen.length - 1] !== state) seen.push(state);
    }).observe(main, { childList: true, subtree: true, attributes: true });
  });
}

test('a list opened from the menu, by pointer or keyboard, comes in one go with its rows: the page left stays until then', async ({
  page,
}) => {
  await signIn(page, admin);
  await expect(page.locator('[data-card="users"]')).toBeVisible();
  for (const [entry, path, how] of [
    ['Users', '/users', 'click'],
    ['System audits', '/audits', 'click'],
    // The keyboard's way, to a list not opened yet: the entry focused, then Enter.
    ['Roles and policies', '/roles', 'keyboard'],
  ]) {
    await recordContent(page);
    const link = page.getByRole('navigation').getByRole('link', { name: entry, exact: true });
    if (how === 'click') await link.click();
    else {
      await link.focus();
      await page.keyboard.press('Enter');
    }
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('tbody tr.RaDataTable-row').first()).toBeVisible();
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    // Whatever was shown before the rows was the page left (or nothing changed before them).
    const firstOther = seen.findIndex((state) => state !== 'dashboard' && state !== 'rows');
    const firstRows = seen.indexOf('rows');
    expect(firstRows, `content seen: ${seen.join(' → ')}`).toBeGreaterThanOrEqual(0);
    expect(firstOther === -1 || firstOther > firstRows, `content seen: ${seen.join(' → ')}`).toBe(true);
    // The next list starts from this one.
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(page.locator('[data-card="users"]')).toBeVisible();
  }
});
