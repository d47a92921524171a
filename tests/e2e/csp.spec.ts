import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

/**
 * The console under the Content-Security-Policy the server sends with its page
 * (server/http/security-headers.ts): every screen visited here must render with no violation.
 * Violations are caught twice: the page's own `securitypolicyviolation` events, and Chromium's
 * console messages about the policy.
 */

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

interface Violation {
  directive: string;
  blocked: string;
  source: string;
  page: string;
}

async function watchViolations(page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  await page.exposeFunction('reportCspViolation', (violation: Violation) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (v: unknown) => void }).reportCspViolation;
      void report({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
        page: location.pathname,
      });
    });
  });
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) {
      violations.push({
        directive: 'console',
        blocked: message.text(),
        source: message.location().url,
        page: new URL(page.url()).pathname,
      });
    }
  });
  return violations;
}

/**
 * The page's requests still in flight, but for the live stream (`GET /events`), which stays open
 * for as long as the page does: "network idle" would never come.
 */
function watchRequests(page: Page): { settled: () => Promise<void> } {
  const pending = new Set<unknown>();
  page.on('request', (request) => {
    if (!new URL(request.url()).pathname.endsWith('/events')) pending.add(request);
  });
  const done = (request: unknown) => pending.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    settled: async () => {
      await expect.poll(() => pending.size, { timeout: 20_000 }).toBe(0);
    },
  };
}

/** A list screen has drawn its table (or its empty state) from the API's answer. */
async function expectListRendered(page: Page) {
  await expect(
    page
      .locator('thead:visible')
      .or(page.getByRole('heading', { name: /^No .+ yet$/ }))
      .or(page.getByText(/^No .+ found$|No results/i))
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

test('the console renders its screens with no Content-Security-Policy violation', async ({ page }) => {
  const violations = await watchViolations(page);
  const requests = watchRequests(page);

  // The policy is really on: the page is answered with it, and an inline script is refused.
  const answer = await page.goto('/auth/signin');
  const policy = answer!.headers()['content-security-policy'];
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  const inlineRan = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineScriptRan = true';
    document.head.append(script);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return (window as unknown as { inlineScriptRan?: boolean }).inlineScriptRan ?? false;
  });
  expect(inlineRan).toBe(false);
  await expect.poll(() => violations.filter((v) => v.directive.startsWith('script-src')).length).toBeGreaterThan(0);
  violations.length = 0;

  await signIn(page, admin);
  // The dashboard with its cards and charts.
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await expect(
    page
      .locator('svg.recharts-surface, canvas, svg[role="img"]')
      .or(page.getByRole('heading', { level: 2 }))
      .first(),
  ).toBeVisible();

  // Styles: MUI's style elements carry the page's nonce; one without it is refused.
  const styles = await page.evaluate(async () => {
    const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';
    const emotion = [...document.querySelectorAll<HTMLStyleElement>('style[data-emotion]')];
    const injected = document.createElement('style');
    injected.textContent = 'body { outline: 7px solid rgb(1, 2, 3); }';
    document.head.append(injected);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      nonce,
      emotionCount: emotion.length,
      withoutNonce: emotion.filter((element) => element.nonce !== nonce).length,
      injectedApplied: getComputedStyle(document.body).outlineWidth === '7px',
    };
  });
  expect(styles.nonce).toMatch(/^[A-Za-z0-9+/=]{24}$/);
  expect(styles.emotionCount).toBeGreaterThan(0);
  expect(styles.withoutNonce).toBe(0);
  expect(styles.injectedApplied).toBe(false);
  await expect.poll(() => violations.filter((v) => v.directive.startsWith('style-src')).length).toBeGreaterThan(0);
  violations.length = 0;

  for (const path of ['/users', '/workflows', '/connections', '/audits', '/access-events', '/apikeys']) {
    await page.goto(path);
    await expectListRendered(page);
  }

  // A CSV export is a download of a blob: URL made by the page.
  await page.goto('/users');
  await expectListRendered(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);

  // A form, with its inputs and selects.
  await page.goto('/users/create');
  await expect(page.getByLabel('Email').first()).toBeVisible();
  await page.getByLabel('Email').first().fill('csp.check@demo.local');

  await page.goto('/company');
  await expect(page.getByRole('heading', { name: 'Company profile', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Host name')).toHaveValue(E2E_COMPANY);

  // The other screens, each in its own lazy chunk: drawn, and settled.
  for (const path of [
    '/profile',
    '/settings',
    '/reports',
    '/marketplace',
    '/api-explorer',
    '/subscription',
    '/roles',
    '/workspaces',
    '/tables',
    '/job-runs',
    '/sessions',
    '/notifications',
  ]) {
    await page.goto(path);
    const main = page.getByRole('main');
    await expect(
      main
        .getByRole('heading')
        .or(main.locator('thead:visible'))
        .or(main.getByText(/^No .+ found$/))
        .first(),
      path,
    ).toBeVisible();
    await requests.settled();
  }

  // Let late requests (images, lazy chunks) settle before judging.
  await requests.settled();
  expect(violations).toEqual([]);
});
