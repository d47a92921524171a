import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTheme } from '@mui/material/styles';
import { alerts } from '../../../providers/alerts';
import { DEFAULT_LAYOUT_PREFERENCES } from '../../../providers/preferences';
import { ConsoleLayout } from '../../../src/app/layout/ConsoleLayout';
import { admin, mockPreferencesServer, signIn } from './fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from './render';

/** What the page sees of the MUI theme. */
function ThemeModeProbe() {
  return <p data-testid="theme-mode">{useTheme().palette.mode}</p>;
}

function renderLayout(path = '/dashboard') {
  return renderInConsole(
    <ConsoleLayout>
      <p>Page content</p>
      <ThemeModeProbe />
    </ConsoleLayout>,
    { path },
  );
}

// hidden: the Customize drawer, while open, hides the rest of the page from the accessibility tree.
const sidebar = () => screen.queryByRole('complementary', { hidden: true });
const menu = () => screen.getByRole('navigation', { name: 'Main navigation' });

async function openCustomize() {
  await userEvent.click(screen.getByRole('button', { name: 'Customize' }));
  return screen.findByRole('dialog');
}

describe('the console layout', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('frames the page with the app bar, the breadcrumb and the vertical menu by default', async () => {
    signIn(admin);
    mockPreferencesServer();
    renderLayout('/outbox/1/show');
    expect(screen.getByText('Page content')).toBeInTheDocument();
    expect(within(sidebar()!).getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByText('Administration')).toBeInTheDocument();
    expect(within(breadcrumb).getByRole('link', { name: 'Mail outbox' })).toHaveAttribute('href', '/outbox');
  });

  it('shows the alerts of the alert store under the app bar', async () => {
    signIn(admin);
    mockPreferencesServer();
    renderLayout();
    act(() => alerts.error('Something failed'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something failed');
    act(() => alerts.clear());
  });

  it('applies the layout the server kept for the user', async () => {
    signIn(admin);
    mockPreferencesServer({ 'token-admin': { ...DEFAULT_LAYOUT_PREFERENCES, layout: 'horizontal' } });
    renderLayout();
    await waitFor(() => expect(sidebar()).toBeNull());
    expect(within(menu()).getByRole('button', { name: 'Administration' })).toHaveAttribute('aria-haspopup', 'menu');
  });

  it('collapses the sidebar to icons from the app bar, and saves it', async () => {
    signIn(admin);
    const api = mockPreferencesServer();
    renderLayout();
    expect(within(menu()).getByText('Mail outbox')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Collapse menu' }));
    expect(within(menu()).queryByText('Mail outbox')).toBeNull();
    // Still reachable by name: the label moved to the link's accessible name and tooltip.
    expect(within(menu()).getByRole('link', { name: 'Mail outbox' })).toBeInTheDocument();
    // Groups are only separators now: every page is one click away.
    expect(within(menu()).queryByRole('button', { name: 'Administration' })).toBeNull();
    expect(
      within(menu())
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/dashboard', '/outbox', '/audits/access-events']);
    expect(screen.getByRole('button', { name: 'Expand menu' })).toBeInTheDocument();
    await waitFor(() => expect(api.saved.at(-1)?.body).toMatchObject({ value: { collapseMenu: true } }));
  });

  it('switches the theme from the app bar', async () => {
    signIn(admin);
    const api = mockPreferencesServer();
    renderLayout();
    expect(screen.getByTestId('theme-mode')).toHaveTextContent('light');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('theme-mode')).toHaveTextContent('dark'));
    await waitFor(() => expect(api.saved.at(-1)?.body).toMatchObject({ value: { theme: 'dark' } }));
  });

  it('changes every setting in the Customize drawer, and resets them to the defaults', async () => {
    signIn(admin);
    const api = mockPreferencesServer();
    renderLayout();
    const drawer = await openCustomize();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Horizontal' }));
    expect(sidebar()).toBeNull();
    await userEvent.click(within(within(drawer).getByRole('group', { name: 'Menu colours' })).getByRole('button', { name: 'Light' }));
    await userEvent.click(within(within(drawer).getByRole('group', { name: 'Header colours' })).getByRole('button', { name: 'Light' }));
    await userEvent.click(within(drawer).getByRole('switch', { name: 'Fixed navigation' }));
    await userEvent.click(within(drawer).getByRole('switch', { name: 'Fixed header' }));
    const content = screen.getByText('Page content').parentElement!;
    expect(content).toHaveStyle({ maxWidth: 'none' });
    await userEvent.click(within(drawer).getByRole('switch', { name: 'Full width' }));
    expect(content).toHaveStyle({ maxWidth: '1200px' });
    await waitFor(() =>
      expect(api.saved.at(-1)?.body).toEqual({
        value: {
          ...DEFAULT_LAYOUT_PREFERENCES,
          layout: 'horizontal',
          layoutType: 'menu-light',
          headerBackColor: 'header-light',
          navFixedLayout: false,
          headerFixedLayout: false,
          fullWidthLayout: false,
        },
      }),
    );
    expect(within(drawer).getByRole('switch', { name: 'Full width' })).not.toBeChecked();

    await userEvent.click(within(drawer).getByRole('button', { name: 'Reset to defaults' }));
    expect(within(drawer).getByRole('switch', { name: 'Full width' })).toBeChecked();
    expect(within(drawer).getByRole('button', { name: 'Vertical' })).toHaveAttribute('aria-pressed', 'true');
    expect(sidebar()).not.toBeNull();
    await waitFor(() => expect(api.saved.at(-1)?.body).toEqual({ value: DEFAULT_LAYOUT_PREFERENCES }));
  });

  it("offers the account's screens and sign-out in the user menu", async () => {
    signIn(admin);
    mockPreferencesServer();
    renderLayout();
    await userEvent.click(await screen.findByRole('button', { name: 'Profile' }));
    const userMenu = await screen.findByRole('menu');
    expect(within(userMenu).getByText('Ada Admin')).toBeInTheDocument();
    expect(within(userMenu).getByText('ada@acme.test')).toBeInTheDocument();
    expect(within(userMenu).getByRole('menuitem', { name: 'Change password' })).toHaveAttribute('href', '/auth/change-password');
    expect(within(userMenu).getByRole('menuitem', { name: 'My profile' })).toHaveAttribute('href', '/profile');
    expect(within(userMenu).getByRole('menuitem', { name: 'Two-factor authentication' })).toHaveAttribute('href', '/auth/register-2fa');
    expect(within(userMenu).getByRole('menuitem', { name: 'Sign out' })).toHaveAttribute('href', '/logout');
  });
});
