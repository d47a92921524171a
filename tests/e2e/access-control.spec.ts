import { expect, test, type Browser, type Page } from '@playwright/test';
import { adminToken, api, createActiveUser, lastMailTo, uniqueEmail } from './api';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_COMPANY } from './env';
import { signIn, submitSignIn } from './fixtures';

const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD, companyHostname: E2E_COMPANY };
const NEW_PASSWORD = 'Auditor-pass-2026';

/** A fresh browser profile: nothing in its storage, as on another computer. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

async function menuLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  return (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

test.describe.configure({ mode: 'serial' });

test('an admin builds a restricted role, invites a user into it, and the user sees only what the role allows', async ({ browser }) => {
  test.setTimeout(120_000);
  const roleName = `Auditors ${Date.now().toString(36)}`;
  const email = uniqueEmail('auditor');

  // The admin creates the role in the role editor: read users and audits, three pages.
  const adminPage = await freshPage(browser);
  await signIn(adminPage, admin);
  await adminPage.goto('/roles/create');
  await adminPage.getByLabel('Name').fill(roleName);
  await adminPage.getByLabel('Users: Read').check();
  await adminPage.getByLabel('System audits: Read').check();
  const pages = adminPage.getByRole('region', { name: 'Pages' });
  await pages.getByLabel('Users').check();
  await pages.getByLabel('System audits').check();
  await adminPage.getByRole('button', { name: 'Save' }).click();
  await expect(adminPage.getByText(roleName).first()).toBeVisible();

  // The admin invites the user with that role.
  await adminPage.goto('/users/create');
  await adminPage.getByLabel('Email').fill(email);
  await adminPage.getByLabel('First name').fill('Audrey');
  await adminPage.getByLabel('Last name').fill('Auditor');
  await adminPage.getByLabel('Role').click();
  await adminPage.getByRole('option', { name: roleName }).click();
  await adminPage.getByRole('button', { name: 'Save' }).click();
  await expect(adminPage).toHaveURL(/\/users(\/|$)/);

  // The user activates the account from the invitation mail.
  const mail = await lastMailTo(email);
  const link = mail.text.match(/https?:\/\/\S+\/auth\/activate-user-account\?token=[\w-]+/)![0];
  const temporary = mail.text.match(/^Temporary password: (\S+)$/m)![1];
  const userPage = await freshPage(browser);
  await userPage.goto(new URL(link).pathname + new URL(link).search);
  await userPage.getByLabel('Temporary password').fill(temporary);
  await userPage.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await userPage.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await userPage.getByRole('button', { name: /Create password|Activate/ }).click();
  await expect(userPage).toHaveURL(/\/auth\/signin/, { timeout: 15_000 });

  // Signed in, the user's menu holds the role's pages and nothing else.
  const user = { email, password: NEW_PASSWORD, companyHostname: E2E_COMPANY };
  await signIn(userPage, user);
  const links = await menuLinks(userPage);
  expect(links).toEqual(expect.arrayContaining(['Dashboard', 'Users', 'System audits']));
  for (const hidden of ['Roles and policies', 'API keys', 'Sessions', 'Mail outbox', 'Workspaces']) expect(links).not.toContain(hidden);

  // The users list is readable, but offers no invitation (no create policy).
  await userPage.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
  await expect(userPage.getByText(email)).toBeVisible();
  await expect(userPage.getByRole('link', { name: 'Create' })).toHaveCount(0);

  // The admin withdraws the audits policy while the user is signed in: the user's next call is
  // refused by the server, and the console shows the access-denied alert and goes to the dashboard.
  await userPage.getByRole('navigation').getByRole('link', { name: 'System audits' }).click();
  await expect(userPage).toHaveURL(/\/audits/);
  const token = await adminToken();
  const roles = await api<{ data: Array<{ id: string; name: string }> }>('/roles/active', { token });
  const roleId = roles.body.data.find((r) => r.name === roleName)!.id;
  const assigned = await api(`/policies/assign/${roleId}`, {
    method: 'PUT',
    token,
    body: { policies: [{ resource: 'users', actions: ['read'] }] },
  });
  expect(assigned.status).toBe(200);
  await userPage.getByRole('button', { name: 'Refresh' }).first().click();
  await expect(
    userPage.getByText("You don't have access to this resources. Please contact resource owner/admin to provide access"),
  ).toBeVisible();
  await expect(userPage).toHaveURL(/\/dashboard$/);

  await adminPage.context().close();
  await userPage.context().close();
});

test("an admin's default columns for the users list reach a user signing in from another browser", async ({ browser }) => {
  test.setTimeout(120_000);
  const token = await adminToken();
  // Start from the standard columns, whatever an earlier run left.
  await api('/lists/users.datatable/columns?scope=tenant', { method: 'DELETE', token });

  const adminPage = await freshPage(browser);
  await signIn(adminPage, admin);
  await adminPage.goto('/users');
  // Exact names: the console's hidden list primer has a header too, whose texts are keys holding these words.
  const header = adminPage.locator('thead');
  await expect(header.getByText('Email', { exact: true })).toBeVisible();
  await expect(header.getByText('Role', { exact: true })).toBeVisible();

  // Hide two columns and save them as the company's default.
  await adminPage.getByRole('button', { name: 'Columns' }).click();
  await adminPage.getByRole('menu').getByRole('switch', { name: 'Role', exact: true }).uncheck();
  await adminPage.getByRole('menu').getByRole('switch', { name: 'Workspaces', exact: true }).uncheck();
  await adminPage.getByRole('menuitem', { name: 'Save as default for everyone' }).click();
  await expect(adminPage.getByText('Saved as the default columns for everyone')).toBeVisible();
  await adminPage.keyboard.press('Escape');

  // A user who can read users signs in from a browser that never saw the console.
  const readerEmail = uniqueEmail('reader');
  const roleName = `Readers ${Date.now().toString(36)}`;
  const created = await api<{ data: { id: string } }>('/roles', {
    token,
    body: { name: roleName, policies: [{ resource: 'users', actions: ['read'] }], pageIds: ['dashboard', 'users'] },
  });
  expect(created.status).toBe(201);
  const demo = await api('/client/createUser', {
    token,
    body: {
      email: readerEmail,
      username: `reader${Date.now().toString(36)}`,
      firstName: 'Rea',
      lastName: 'Der',
      password: NEW_PASSWORD,
      roleId: created.body.data.id,
    },
  });
  expect(demo.status, JSON.stringify(demo.body)).toBe(201);

  const userPage = await freshPage(browser);
  await submitSignIn(userPage, { email: readerEmail, password: NEW_PASSWORD, companyHostname: E2E_COMPANY });
  await expect(userPage).toHaveURL(/\/dashboard$/);
  await userPage.goto('/users');
  const userHeader = userPage.locator('thead');
  await expect(userHeader.getByText('Email', { exact: true })).toBeVisible();
  await expect(userHeader.getByText('Role', { exact: true })).toHaveCount(0);
  await expect(userHeader.getByText('Workspaces', { exact: true })).toHaveCount(0);

  await api('/lists/users.datatable/columns?scope=tenant', { method: 'DELETE', token });
  await adminPage.context().close();
  await userPage.context().close();
});

test("a member reads the company's data work, and a page the role does not open names the admins to ask", async ({ browser }) => {
  test.setTimeout(120_000);
  const member = await createActiveUser('member-reader', { firstName: 'Mara', roleName: 'Member' });
  const page = await freshPage(browser);
  await signIn(page, member);
  const links = await menuLinks(page);
  expect(links).toEqual(expect.arrayContaining(['Connections', 'Tables', 'Workflows', 'Job runs']));
  expect(links).not.toContain('Users');

  // The data work is readable, but offers nothing to change.
  await page.getByRole('navigation').getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByText('Sample shop').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create' })).toHaveCount(0);

  // A page the role does not open says so, and names whom to ask.
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'You cannot open this page', level: 1 })).toBeVisible();
  const admins = page.getByRole('list', { name: "Your company's admins" });
  await expect(admins.getByRole('link', { name: E2E_ADMIN_EMAIL })).toHaveAttribute('href', `mailto:${E2E_ADMIN_EMAIL}`);
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.context().close();
});
