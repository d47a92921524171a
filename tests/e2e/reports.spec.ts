import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { lastMailTo } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };

test('an admin makes a report on /reports, finds it listed with its file, and downloads it', async ({ page }) => {
  await signIn(page, admin);
  await page.goto('/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

  // A PDF of the last 7 days, the default.
  await page.getByRole('button', { name: 'Make a report now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make a report now' });
  await expect(dialog.getByRole('radio', { name: 'PDF' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Make the report' }).click();
  await expect(page.getByText(/^Report made and mailed to \d+ (person|people)$/)).toBeVisible();
  await expect(dialog).toBeHidden();

  const table = page.getByRole('table', { name: 'Past reports' });
  const row = table.getByRole('row').filter({ hasText: 'On demand' }).first();
  await expect(row).toBeVisible();
  await expect(row.getByText(/^Job runs: \d/)).toBeVisible();
  const pdfButton = row.getByRole('button', { name: /^Download report-demo-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/ });
  const [pdf] = await Promise.all([page.waitForEvent('download'), pdfButton.click()]);
  expect(pdf.suggestedFilename()).toMatch(/^report-demo-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdfBytes = fs.readFileSync(await pdf.path());
  expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // A CSV of chosen days.
  await page.getByRole('button', { name: 'Make a report now' }).click();
  await dialog.getByRole('radio', { name: 'CSV (spreadsheet)' }).check();
  await dialog.getByRole('radio', { name: 'Chosen days' }).check();
  const today = new Date().toISOString().slice(0, 10);
  await dialog.getByLabel('First day').fill(today);
  await dialog.getByLabel('Last day').fill(today);
  await dialog.getByRole('button', { name: 'Make the report' }).click();
  await expect(dialog).toBeHidden();
  const csvRow = table.getByRole('row').filter({ hasText: /\.csv/ }).first();
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    csvRow.getByRole('button', { name: /^Download report-demo-.*\.csv$/ }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe(`report-demo-${today}.csv`);
  const csvText = fs.readFileSync(await csv.path(), 'utf8').replace(/^\uFEFF/, '');
  expect(csvText.split('\r\n')[0]).toBe('section,figure,detail,value');
  expect(csvText).toContain('Report,Company,,Demo Company');

  // The report was mailed to the admin with its file.
  const mail = await lastMailTo(E2E_ADMIN_EMAIL);
  expect(mail.subject).toMatch(/^Report of Demo Company: /);
  expect(mail.text).toContain('The figures are attached as report-demo-');

  // Its details open from the list.
  await csvRow.getByRole('button', { name: /^Details of the report of/ }).click();
  const details = page.getByRole('region', { name: /^Report: / });
  await expect(details.getByRole('region', { name: 'Security' })).toContainText('Sign-ins');
});
