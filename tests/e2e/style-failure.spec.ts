import { expect, test } from '@playwright/test';

/**
 * Spec §8: a style sheet that does not load is said ("Loading CSS chunk {id} failed", with
 * Retry), never drawn as an unstyled page; here the console's first one, linked from index.html.
 */
test("the console's first style sheet failing is said, and Retry brings the styled console", async ({ page }) => {
  const entrySheet = /\/assets\/index-[^/]+\.css$/;
  await page.route(entrySheet, (route) => route.abort());
  await page.goto('/auth/signin');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Loading CSS chunk index failed');
  await expect(page.getByLabel('Email')).toHaveCount(0);

  await page.unroute(entrySheet);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Styled: the sheet is in, and its rules apply.
  const sheets = await page.evaluate(() => [...document.styleSheets].filter((sheet) => /\/assets\/index-/.test(sheet.href ?? '')).length);
  expect(sheets).toBe(1);
});
