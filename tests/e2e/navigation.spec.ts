import { expect, test, type Page } from '@playwright/test';
import { FIRST_PAGE_WAIT_MS } from '../../src/framework/list/firstPage';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** What the page's content showed, and when (ms after the recording began). */
interface Seen {
  state: 'dashboard' | 'loading page' | 'rows' | 'table without rows' | 'list without table' | 'nothing';
  at: number;
}

/**
 * Records what the page's content shows after each change of it, from now on: the dashboard, a
 * loading page, a table with rows, a table without them, a list page with no table yet, nothing.
 */
async function recordContent(page: Page) {
  await page.evaluate(() => {
    const start = performance.now();
    const seen: { state: string; at: number }[] = [];
    (window as unknown as { __seen: typeof seen }).__seen = seen;
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
            : shown('.RaList-main')
              ? 'list without table'
              : shown('section[aria-label="People"]')
                ? 'dashboard'
                : 'nothing';
      if (seen[seen.length - 1]?.state !== state) seen.push({ state, at: Math.round(performance.now() - start) });
    }).observe(main, { childList: true, subtree: true, attributes: true });
  });
}

async function recorded(page: Page): Promise<Seen[]> {
  return page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
}

const described = (seen: Seen[]) => `content seen: ${seen.map(({ state, at }) => `${state} (${at} ms)`).join(' → ') || 'no change'}`;

const menuLink = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

async function backToDashboard(page: Page) {
  await menuLink(page, 'Dashboard').click();
  await expect(page.locator('[data-card="users"]')).toBeVisible();
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
    const link = menuLink(page, entry);
    if (how === 'click') await link.click();
    else {
      await link.focus();
      await page.keyboard.press('Enter');
    }
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('tbody tr.RaDataTable-row').first()).toBeVisible();
    const seen = await recorded(page);
    const firstRows = seen.findIndex(({ state }) => state === 'rows');
    expect(firstRows, described(seen)).toBeGreaterThanOrEqual(0);
    // Before the rows, the page left (or no change). The wait for them is bounded: past
    // FIRST_PAGE_WAIT_MS from the move (which came after the recording began), a slow answer
    // lets the list page open without them (the next test holds one to see that).
    const tooSoon = seen.slice(0, firstRows).filter(({ state, at }) => state !== 'dashboard' && at < FIRST_PAGE_WAIT_MS);
    expect(tooSoon, described(seen)).toEqual([]);
    // The next list starts from this one.
    await backToDashboard(page);
  }
});

test('a list whose rows are slow to come opens without them once the page left has stayed its while, then shows them', async ({ page }) => {
  await signIn(page, admin);
  await expect(page.locator('[data-card="users"]')).toBeVisible();
  // The first page of users is held here until the list page has opened without it.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(/\/api\/v1\/users\/\d+\/\d+(\?|$)/, async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  await recordContent(page);
  await menuLink(page, 'Users').click();
  await expect(page).toHaveURL(/\/users$/);
  await expect(page.locator('.RaList-main')).toBeVisible();
  expect(held).toBeGreaterThan(0);
  await expect(page.locator('tbody tr.RaDataTable-row')).toHaveCount(0);
  release();
  await expect(page.locator('tbody tr.RaDataTable-row').first()).toBeVisible();
  const seen = await recorded(page);
  const opened = seen.findIndex(({ state }) => state !== 'dashboard');
  expect(opened, described(seen)).toBeGreaterThanOrEqual(0);
  // The page left stayed for the while the list waits for its rows, and not for ever.
  expect(seen[opened].at, described(seen)).toBeGreaterThanOrEqual(FIRST_PAGE_WAIT_MS);
  expect(seen[opened].state, described(seen)).not.toBe('rows');
  expect(seen[seen.length - 1].state, described(seen)).toBe('rows');
  await page.unroute(/\/api\/v1\/users\/\d+\/\d+(\?|$)/);
  await backToDashboard(page);
});
