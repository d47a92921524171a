import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { mergeTranslations } from 'react-admin';
import { consoleTexts } from '../../../src/app/providers';
import { SideMenu } from '../../../src/app/menu/SideMenu';
import { TopMenu } from '../../../src/app/menu/TopMenu';
import { admin, adminNav, mockPreferencesServer, plainUser, signIn } from './fixtures';

// Counts the entries drawn: each group and page entry takes its icon as it renders.
const drawn = vi.hoisted(() => ({ icons: 0 }));
vi.mock('../../../src/framework/icons', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/framework/icons')>();
  return {
    ...original,
    menuIcon: (...args: Parameters<typeof original.menuIcon>) => {
      drawn.icons += 1;
      return original.menuIcon(...args);
    },
  };
});
import { RENDER_TIMEOUT_MS, renderInConsole } from './render';

function menu() {
  return screen.getByRole('navigation', { name: 'Main navigation' });
}

describe('the sidebar menu', { timeout: RENDER_TIMEOUT_MS }, () => {
  it("shows the user's groups and pages, nested as the server sent them, the current page highlighted", async () => {
    signIn(admin);
    mockPreferencesServer();
    renderInConsole(<SideMenu />, { path: '/audits/access-events' });
    const nav = menu();
    for (const group of ['Overview', 'Administration', 'Audits']) {
      expect(within(nav).getByRole('button', { name: group })).toHaveAttribute('aria-expanded', 'true');
    }
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(nav).getByRole('link', { name: 'Mail outbox' })).toHaveAttribute('href', '/outbox');
    const current = within(nav).getByRole('link', { name: 'Access events' });
    expect(current).toHaveAttribute('href', '/audits/access-events');
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('moving to another page redraws the entries it leaves and enters, not the whole menu', async () => {
    // A menu the size of the console's own: six more groups of three pages.
    const more = Array.from({ length: 6 }, (_, group) => ({
      id: `group-${group}`,
      title: `Group ${group}`,
      type: 'group' as const,
      icon: 'folder',
      children: Array.from({ length: 3 }, (__, page) => ({
        id: `page-${group}-${page}`,
        title: `Page ${group}.${page}`,
        url: `/page-${group}-${page}`,
        icon: 'table',
      })),
    }));
    signIn({ ...admin, navItems: { userNavItemJson: { items: [...adminNav, ...more] } } });
    mockPreferencesServer();
    renderInConsole(<SideMenu />, { path: '/dashboard' });
    const nav = menu();
    expect(within(nav).getAllByRole('link')).toHaveLength(21);
    drawn.icons = 0;
    await userEvent.click(within(nav).getByRole('link', { name: 'Access events' }));
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Access events' })).toHaveAttribute('aria-current', 'page'));
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    // Dashboard and its group, Access events and its two groups: 5 entries of the 30.
    expect(drawn.icons).toBeLessThanOrEqual(5);
  });

  it('leaves out pages the role was not given', () => {
    signIn(plainUser);
    mockPreferencesServer();
    renderInConsole(<SideMenu />);
    const nav = menu();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard']);
    expect(within(nav).queryByText('Administration')).toBeNull();
    expect(within(nav).queryByText('Mail outbox')).toBeNull();
  });

  it('opens and closes a group, and remembers it in the preferences saved on the server', async () => {
    signIn(admin);
    const api = mockPreferencesServer();
    renderInConsole(<SideMenu />);
    const group = within(menu()).getByRole('button', { name: 'Administration' });
    await userEvent.click(group);
    expect(group).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(within(menu()).queryByRole('link', { name: 'Mail outbox' })).toBeNull());
    await waitFor(() => expect(api.saved).toHaveLength(1));
    expect(api.saved[0].body).toMatchObject({ value: { openGroups: { administration: false } } });
  });

  it('uses the translation of nav.page.<id> when there is one, the server title otherwise', () => {
    signIn(admin);
    mockPreferencesServer();
    const i18nProvider = polyglotI18nProvider(
      () => mergeTranslations(consoleTexts().en, { nav: { page: { outbox: 'Outgoing mail' } } }),
      'en',
      [],
      {
        allowMissing: true,
      },
    );
    renderInConsole(<SideMenu />, { i18nProvider });
    expect(within(menu()).getByRole('link', { name: 'Outgoing mail' })).toHaveAttribute('href', '/outbox');
    expect(within(menu()).getByRole('link', { name: 'Dashboard' })).toBeInTheDocument();
  });
});

describe('the top menu (horizontal layout)', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('opens a group as a dropdown of its pages, nested groups as headings', async () => {
    signIn(admin);
    mockPreferencesServer();
    renderInConsole(<TopMenu />, { path: '/outbox' });
    await userEvent.click(within(menu()).getByRole('button', { name: 'Administration' }));
    const dropdown = await screen.findByRole('menu');
    expect(within(dropdown).getByRole('menuitem', { name: 'Mail outbox' })).toHaveAttribute('aria-current', 'page');
    expect(within(dropdown).getByText('Audits')).toBeInTheDocument();
    expect(within(dropdown).getByRole('menuitem', { name: 'Access events' })).toHaveAttribute('href', '/audits/access-events');
  });
});
