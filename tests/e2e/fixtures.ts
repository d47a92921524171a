import { expect, type Page } from '@playwright/test';

export interface Account {
  email: string;
  password: string;
  companyHostname: string;
}

/** Fills and submits the sign-in form as a person would. */
export async function submitSignIn(page: Page, account: Account) {
  await page.goto('/auth/signin');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Company host name').fill(account.companyHostname);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in and waits for the dashboard. */
export async function signIn(page: Page, account: Account) {
  await submitSignIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
}

/** The stored session user, as the console keeps it. */
export async function storedUser(page: Page): Promise<Record<string, unknown> | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('user');
    return raw ? JSON.parse(raw) : null;
  });
}
