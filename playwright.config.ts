import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.mjs';
import { E2E_ALLOWED_HOSTS, E2E_BASE_URL, E2E_FILES_ROOT, E2E_PORT } from './tests/e2e/env';

// Browser tests: Debian's Chromium against the real server on a fresh data directory
// (tests/e2e/server.mjs builds nothing: `npm test` builds the console first).
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: '.tmp/e2e-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The console honours prefers-reduced-motion (src/app/theme.ts): menus and dialogs open at once,
    // so a click never lands on a menu still growing under the pointer.
    contextOptions: { reducedMotion: 'reduce' },
    launchOptions: { executablePath: chromiumPath() ?? undefined, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: 'node tests/e2e/server.mjs',
    url: `${E2E_BASE_URL}/api/v1/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PORT: String(E2E_PORT), FILES_ROOTS: E2E_FILES_ROOT, CONNECTION_ALLOWED_HOSTS: E2E_ALLOWED_HOSTS },
  },
});
