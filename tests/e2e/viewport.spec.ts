import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn, storedUser } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** The menu's pages, as the signed-in admin's navigation lists them. */
async function menuPages(page: Page): Promise<string[]> {
  const user = (await storedUser(page)) as { navItems: { userNavItemJson: { items: { children: { url: string }[] }[] } } };
  return ['/dashboard', ...user.navItems.userNavItemJson.items.flatMap((group) => group.children.map((child) => child.url))];
}

/** How far the page is wider than the window, whether a list's paging is inside the window, and how many rows its filters take. */
function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const paging = document.querySelector('.MuiTablePagination-root');
    const filterRows = new Set(
      [...document.querySelectorAll('#main-content .filter-field')].map((field) => Math.round(field.getBoundingClientRect().top)),
    );
    return {
      beyond: root.scrollWidth - root.clientWidth,
      pagingCut: paging ? paging.getBoundingClientRect().right > root.clientWidth : false,
      filterRows: filterRows.size,
      fields: [...document.querySelectorAll('#main-content .filter-field')].map((field) => {
        const box = field.getBoundingClientRect();
        return `${Math.round(box.left)}+${Math.round(box.width)}`;
      }),
    };
  });
}

for (const [width, height] of [
  [1280, 800],
  [1440, 900],
] as const) {
  test(`no page of the menu scrolls sideways at ${width}×${height}, its filters sit in one row, and a wide table scrolls inside its card`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    await signIn(page, admin);
    const wide: string[] = [];
    for (const url of await menuPages(page)) {
      await page.goto(url);
      await expect(page.locator('#main-content')).toBeVisible();
      // Drawn with its data: a list's first rows, or the page's content without a loading indicator.
      await expect(page.locator('#main-content .RaLoading-root, #main-content .MuiSkeleton-root')).toHaveCount(0, { timeout: 15_000 });
      await page.waitForTimeout(300);
      const { beyond, pagingCut, filterRows, fields } = await sidewaysOverflow(page);
      if (beyond > 0 || pagingCut) wide.push(`${url}: ${beyond} px wider than the window${pagingCut ? ', paging cut' : ''}`);
      if (filterRows > 1) wide.push(`${url}: the filters take ${filterRows} rows (left+width: ${fields.join(', ')})`);
    }
    expect(wide, wide.join('\n')).toEqual([]);

    // The users table is wider than its card at these sizes: it scrolls there, the page does not.
    await page.goto('/users');
    const wrapper = page.locator('.RaDataTable-tableWrapper').first();
    await expect(page.locator('tbody tr.RaDataTable-row').first()).toBeVisible();
    const { scrolls, overflowX } = await wrapper.evaluate((element) => ({
      scrolls: element.scrollWidth > element.clientWidth,
      overflowX: getComputedStyle(element).overflowX,
    }));
    expect(overflowX).toBe('auto');
    if (scrolls) {
      await wrapper.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
      await expect(page.getByRole('columnheader').last()).toBeInViewport();
    }
  });
}
