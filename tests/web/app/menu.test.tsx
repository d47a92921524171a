import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { mergeTranslations } from 'react-admin';
import { messages } from '../../../providers/i18nProvider';
import { SideMenu } from '../../../src/app/menu/SideMenu';
import { TopMenu } from '../../../src/app/menu/TopMenu';
import { admin, mockPreferencesServer, plainUser, signIn } from './fixtures';
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

  it('leaves out pages the role was not given', () => {
    signIn(plainUser);
    mockPreferencesServer();
    renderInConsole(<SideMenu />);
    const nav = menu();
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Dashboard']);
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
    const i18nProvider = polyglotI18nProvider(() => mergeTranslations(messages.en, { nav: { page: { outbox: 'Outgoing mail' } } }), 'en', [], {
      allowMissing: true,
    });
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
