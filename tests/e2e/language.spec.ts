import { expect, test, type Page } from '@playwright/test';
import { api, createActiveUser } from './api';
import { E2E_COMPANY } from './env';
import { storedUser, submitSignIn, type Account } from './fixtures';
import { serverTextsFr } from '../../providers/i18n/fr/server-texts';
import { compileServerTexts, translateServerText } from '../../providers/i18n/serverTexts';

/** The console in a second language: chosen in the profile, kept with the account, and nothing shown outside the catalogue. */

async function tokenOf(page: Page): Promise<string> {
  const user = await storedUser(page);
  return String(user?.accessToken ?? user?.token);
}

test('a user switches to French in the profile, and the console stays French across sign-out and sign-in', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const account: Account = await createActiveUser('lang', { firstName: 'Lea', lastName: 'Martin' });
  // The sign-in screens follow the browser's language (English here) until a user is known.
  await submitSignIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible({ timeout: 30_000 });

  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My profile', level: 1 })).toBeVisible({ timeout: 30_000 });
  // force: the profile's cards are still settling under a busy machine.
  await page.getByRole('combobox', { name: 'Console language' }).click({ force: true });
  await page.getByRole('option', { name: 'Français' }).click();

  // The whole console speaks French at once: the page, the menu, the alerts.
  await expect(page.getByRole('heading', { name: 'Mon profil', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Langue enregistrée')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Tableau de bord' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Langue de la console')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  // Kept on the server, with the account.
  const kept = await api<{ data: { locale: string } }>('/user/preferences/locale', { token: await tokenOf(page) });
  expect(kept.body.data.locale).toBe('fr');

  // A reload keeps it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Mon profil', level: 1 })).toBeVisible({ timeout: 30_000 });

  // Signed out, the sign-in screen follows the browser again.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/auth\/signin$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });

  // Another browser, which knows nothing of the choice: the server's applies at sign-in.
  const elsewhere = await (await browser.newContext()).newPage();
  await submitSignIn(elsewhere, account);
  await expect(elsewhere).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(elsewhere.getByRole('heading', { name: /Bienvenue/ })).toBeVisible({ timeout: 30_000 });
  await expect(elsewhere.getByRole('link', { name: 'Tableau de bord' })).toBeVisible({ timeout: 30_000 });

  // The user menu offers the languages too: back to English.
  await elsewhere.getByRole('button', { name: /Profil|Profile/ }).click();
  await elsewhere.getByRole('menuitem', { name: 'Langue : English' }).click();
  await expect(elsewhere.getByRole('heading', { name: /Welcome/ })).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(
      async () =>
        (await api<{ data: { locale: string } }>('/user/preferences/locale', { token: await tokenOf(elsewhere) })).body.data.locale,
    )
    .toBe('en');
});

test("the server's messages reach a French user in French: a refused sign-in, a refused search", async ({ browser }) => {
  test.setTimeout(120_000);
  const french = compileServerTexts(serverTextsFr);
  const inFrench = (text: string) => translateServerText(text, french) ?? `(not in the catalogue: ${text})`;
  const account: Account = await createActiveUser('serverfr', { firstName: 'Luc', lastName: 'Bernard' });
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();

  // The sign-in screen follows the browser's French; the server refuses a wrong password in English.
  await page.goto('/auth/signin');
  await page.locator('input[autocomplete="username"]').fill(account.email);
  await page.locator('input[autocomplete="current-password"]').fill('Not-the-password-1');
  await page.locator('input[autocomplete="organization"]').fill(account.companyHostname);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('alert')).toHaveText(new RegExp(escapeRegex(inFrench('Invalid email, password or company host name'))));

  // Signed in, with French kept for the account: a search too long for the server is refused in French.
  await page.locator('input[autocomplete="current-password"]').fill(account.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await api('/user/preferences/locale', { method: 'PUT', token: await tokenOf(page), body: { value: 'fr' } });
  await page.goto('/connections');
  await page.getByRole('textbox', { name: 'Rechercher des connexions' }).fill('x'.repeat(201));
  const refused = page.locator('[data-list-error]');
  await expect(refused).toContainText(inFrench('searchText: must be at most 200 characters'));
  await context.close();
});

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The texts on screen that are neither marked (from the catalogue) nor the test's own data. */
async function unmarkedTexts(page: Page, data: readonly string[]): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const text = node.textContent?.trim();
      const element = node.parentElement;
      if (!text || !element) continue;
      // Code, addresses and keys shown as they are (an API path, a JSON answer) are data, and so
      // are the initials an avatar draws from a name.
      if (element.closest('script, style, noscript, code, pre, [aria-hidden="true"], .MuiAvatar-root')) continue;
      if (!element.checkVisibility({ visibilityProperty: true })) continue;
      found.push(text);
    }
    for (const element of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (!(element as HTMLElement).checkVisibility?.({ visibilityProperty: true })) continue;
      for (const name of ['placeholder', 'aria-label', 'title']) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
  const escaped = [...data].sort((a, b) => b.length - a.length).map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const dataPattern = new RegExp(escaped.join('|'), 'g');
  return [
    ...new Set(
      texts.filter((text) => {
        // A catalogue text may hold another (a name of a thing inside a sentence): unmark from the inside out.
        let unmarked = text;
        for (let inner = unmarked.replace(/⟦[^⟦⟧]*⟧/g, ' '); inner !== unmarked; inner = unmarked.replace(/⟦[^⟦⟧]*⟧/g, ' ')) {
          unmarked = inner;
        }
        const rest = unmarked
          .replace(dataPattern, ' ')
          // Dates and times as the browser writes them.
          .replace(/\b(AM|PM|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|UTC|GMT)\b/g, ' ')
          // Units after a number ("24 ms", "4 min 05 s", "135 KB") are symbols, the same in every language.
          .replace(/\d\s?(ms|min|h|s|KB|MB|GB|B)\b/g, ' ');
        return /\p{L}{2,}/u.test(rest);
      }),
    ),
  ];
}

test('every screen shows only texts of the catalogue (a pseudo-locale marks them all)', async ({ browser }) => {
  test.setTimeout(900_000);
  const account: Account = await createActiveUser('pseudo', { firstName: 'Pseudo', lastName: 'Tester', roleName: 'Admin' });
  const context = await browser.newContext();
  // The browser's language is the pseudo-locale: the console then shows every catalogue text marked ⟦…⟧.
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'languages', { get: () => ['qps-ploc'] });
    Object.defineProperty(navigator, 'language', { get: () => 'qps-ploc' });
  });
  const page = await context.newPage();
  // Data is what the server answers under `data` (names, emails, descriptions, ...), besides the
  // account and the languages' own names; its messages (`message`) are texts like any other.
  // The browsers and systems a session's user agent names are product names, shown as they are.
  const devices = ['Chrome', 'Firefox', 'Edge', 'Safari', 'Windows', 'Android', 'iOS', 'macOS', 'Linux'];
  const data = new Set([account.email, account.companyHostname, E2E_COMPANY, 'English', 'Français', ...devices]);
  const collect = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.trim().length > 1) data.add(value.trim());
    } else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  page.on('response', async (response) => {
    if (!response.url().includes('/api/v1/') || !(response.headers()['content-type'] ?? '').includes('json')) return;
    const body = await response.json().catch(() => null);
    collect(body?.data);
    collect(body?.user);
    collect(body?.users);
  });
  const found: Record<string, string[]> = {};
  const check = async (where: string) => {
    const texts = await unmarkedTexts(page, [...data]);
    if (texts.length > 0) found[where] = texts;
  };

  await page.goto('/auth/signin');
  await expect(page.getByRole('heading', { name: '⟦Sign in⟧' })).toBeVisible({ timeout: 30_000 });
  await check('/auth/signin');
  for (const path of ['/auth/reset-password', '/auth/reset-user-account', '/contact-admin']) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible({ timeout: 30_000 });
    await check(path);
  }

  await page.goto('/auth/signin');
  await page.getByLabel('⟦Email⟧').fill(account.email);
  await page.getByLabel('⟦Password⟧', { exact: true }).fill(account.password);
  await page.getByLabel('⟦Company host name⟧').fill(account.companyHostname);
  await page.getByRole('button', { name: '⟦Sign in⟧' }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: /⟦Welcome, / })).toBeVisible({ timeout: 30_000 });

  const user = await storedUser(page);
  const menu = (user?.navItems as { userNavItemJson: { items: { children?: { url?: string }[] }[] } }).userNavItemJson.items;
  const urls = [
    ...new Set(menu.flatMap((group) => (group.children ?? []).map((child) => child.url)).filter((url): url is string => !!url)),
  ];
  expect(urls.length).toBeGreaterThan(10);
  for (const url of [...urls, '/profile']) {
    await page.goto(url);
    await expect(page.locator('main').first()).toBeVisible({ timeout: 30_000 });
    // The page's own calls answered (a live stream stays open, so the network never idles).
    await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0, { timeout: 30_000 });
    await page.waitForTimeout(1000);
    await check(url);
  }
  await context.close();
  expect(found).toEqual({});
});
