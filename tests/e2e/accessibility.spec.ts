import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn, storedUser } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

/** The rules checked: WCAG 2.1 A and AA, as axe-core tags them. */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Finding {
  page: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

// The checks below add a style sheet of their own, which the console's Content-Security-Policy would refuse.
test.use({ bypassCSP: true });

/**
 * Colours are read as they are at rest: a button that has just become enabled fades its colour in
 * over 250 ms, and a contrast read mid-fade is neither its colour before nor after.
 */
const AT_REST = '*, *::before, *::after { transition: none !important; animation: none !important; }';

/** The serious and critical violations on the page as it is shown now. */
async function seriousFindings(page: Page, name: string): Promise<Finding[]> {
  await page.addStyleTag({ content: AT_REST });
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      page: name,
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.html.replace(/\s+/g, ' ').slice(0, 900)),
    }));
}

function report(findings: Finding[]): string {
  return findings.map((f) => `${f.page}: [${f.impact}] ${f.rule} — ${f.help}\n    ${f.targets.join('\n    ')}`).join('\n');
}

/**
 * Waits until a console page has drawn its content: no loading indicator left in the main area
 * (a usage meter is a progress bar too, but a determinate one, and stays).
 */
async function settled(page: Page) {
  await expect(page.locator('#main-content')).toBeVisible();
  const loading = '.RaLoading-root, .MuiCircularProgress-root, .MuiLinearProgress-indeterminate, .MuiSkeleton-root';
  await expect(page.locator('#main-content').locator(loading)).toHaveCount(0, { timeout: 15_000 });
}

test('the sign-in screens have no serious or critical accessibility violation', async ({ page }) => {
  const findings: Finding[] = [];
  for (const path of ['/auth/signin', '/auth/reset-password', '/contact-admin']) {
    await page.goto(path);
    await expect(page.locator('form, main').first()).toBeVisible();
    findings.push(...(await seriousFindings(page, path)));
  }
  expect(findings, report(findings)).toEqual([]);
});

test('every page of the menu, and a record and a form of each list, have no serious or critical accessibility violation', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, admin);
  const user = (await storedUser(page)) as { navItems: { userNavItemJson: { items: { children: { url: string }[] }[] } } };
  const urls = user.navItems.userNavItemJson.items.flatMap((group) => group.children.map((child) => child.url));
  expect(urls.length).toBeGreaterThan(10);

  const findings: Finding[] = [];
  const visited = new Set<string>();
  const check = async (url: string) => {
    if (visited.has(url)) return;
    visited.add(url);
    await page.goto(url);
    await settled(page);
    findings.push(...(await seriousFindings(page, url)));
  };

  for (const url of ['/dashboard', ...urls]) await check(url);
  // A list's first record and its create form, where the list offers them.
  for (const url of urls) {
    await page.goto(url);
    await settled(page);
    const firstRow = page.locator('tbody tr.RaDataTable-row').first();
    if (await firstRow.isVisible()) {
      await firstRow.click();
      await settled(page);
      if (page.url() !== new URL(url, page.url()).href) await check(new URL(page.url()).pathname);
      await page.goto(url);
      await settled(page);
    }
    const create = page.getByRole('link', { name: /^Create$/ });
    if (await create.first().isVisible()) await check(`${new URL(url, page.url()).pathname}/create`);
  }
  await check('/profile');
  expect(findings, report(findings)).toEqual([]);
});
