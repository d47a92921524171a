import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { TestMemoryRouter } from 'react-admin';
import type { Location } from 'react-router';
import { ACCESS_DENIED_ALERT } from '../../../common/messages';
import { ConsoleRoutes } from '../../../src/shell/ConsoleRoutes';
import { defineChunk } from '../../../src/shell/lazyChunk';
import { server } from '../msw';
import { admin, API, mockPreferencesServer, mockQuietCharts, plainUser, signIn } from './fixtures';
import { RENDER_TIMEOUT_MS } from './render';

// Two console pages beside the resources: one in the console frame, one on its own.
vi.mock('../../../src/pages', () => ({
  pages: [
    { path: '/hello', component: () => <p>Hello page</p> },
    { path: '/bare', component: () => <p>Bare page</p>, noLayout: true },
  ],
}));

/** The console as the entry renders it: the shell's routes, the main app as its lazy chunk. */
function renderConsole(path: string) {
  let location: Location | null = null;
  const chunks = {
    auth: defineChunk('auth', async () => ({ default: () => <p>Sign-in screens</p> })),
    main: defineChunk('main', () => import('../../../src/app/MainApp')),
  };
  render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(current) => (location = current)}>
      <ConsoleRoutes chunks={chunks} />
    </TestMemoryRouter>,
  );
  return { location: () => location! };
}

/** `GET /lists/columns`, which the main app reads at start; `choices` as the server keeps them. */
function mockColumnChoices(choices: Record<string, unknown> = {}) {
  let calls = 0;
  server.use(
    http.get(`${API}/lists/columns`, () => {
      calls += 1;
      return HttpResponse.json({ message: 'Column choices', data: choices });
    }),
  );
  return { calls: () => calls };
}

function mockDashboard() {
  server.use(
    http.get(`${API}/dashboard/topCards`, () =>
      HttpResponse.json({ message: 'ok', data: { cards: [{ key: 'users', label: 'Users', value: 7 }] } }),
    ),
    http.get(`${API}/admin/dashboard/cards`, () => HttpResponse.json({ message: 'ok', data: { cards: [] } })),
    http.get(`${API}/users/active`, () => HttpResponse.json({ message: 'ok', users: [] })),
  );
}

const mails = [
  {
    id: 'm-2',
    toAddress: 'bob@acme.test',
    subject: 'Reset your password',
    kind: 'password_reset',
    status: 'kept',
    createdAt: '2026-01-02T10:00:00Z',
  },
  {
    id: 'm-1',
    toAddress: 'cy@acme.test',
    subject: 'Your invitation',
    kind: 'invitation',
    status: 'sent',
    createdAt: '2026-01-01T10:00:00Z',
  },
];

describe('the main app', { timeout: RENDER_TIMEOUT_MS }, () => {
  // The app bar asks for the caller's notifications on every screen.
  beforeEach(() => {
    mockQuietCharts();
    server.use(
      http.get(`${API}/notifications/count`, () => HttpResponse.json({ message: 'Notifications', data: { unread: 0, total: 0 } })),
      http.get(`${API}/notifications`, () => HttpResponse.json({ message: 'Notifications', data: [] })),
    );
  });

  // Loads (and transforms) the main chunk once, so each test measures the app, not the import.
  beforeAll(() => import('../../../src/app/MainApp'), RENDER_TIMEOUT_MS);

  it('shows the dashboard in the console frame, with the menu from the navigation', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockDashboard();
    const columns = mockColumnChoices();
    renderConsole('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada' }, { timeout: 10_000 })).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(menu).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('link', { name: 'Mail outbox' })).toBeInTheDocument();
    expect(await screen.findByText('Users')).toBeInTheDocument();
    // Column choices are read once at the start of the session.
    expect(columns.calls()).toBe(1);
  });

  it("gives react-admin the console's locale and its resources' definitions from the start, as it registers them", async () => {
    const { consoleStore, resourceDefinitions } = await import('../../../src/app/MainApp');
    const { i18nProvider } = await import('../../../src/app/providers');
    const { resources } = await import('../../../resources');
    const { resourceProps } = await import('../../../src/framework/resourceProps');
    const { Resource } = await import('react-admin');
    expect(consoleStore().getItem('locale')).toBe(i18nProvider.getLocale());
    expect(Object.keys(resourceDefinitions).sort()).toEqual(resources.map((declaration) => declaration.name).sort());
    // What react-admin registers as the console mounts is what it was given: nothing changes, nothing is drawn again.
    for (const declaration of resources)
      expect(Resource.registerResource(resourceProps(declaration))).toStrictEqual(resourceDefinitions[declaration.name]);
  });

  it('sends a visitor who is not signed in to the sign-in screen', async () => {
    mockPreferencesServer();
    const view = renderConsole('/outbox');
    await waitFor(() => expect(view.location().pathname).toBe('/auth/signin'), { timeout: 10_000 });
  });

  it('lists the mail outbox page by page and shows a mail with clickable links', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockColumnChoices();
    const pages: string[] = [];
    server.use(
      http.get(`${API}/mail/outbox/:offset/:limit`, ({ params }) => {
        pages.push(`${params.offset}/${params.limit}`);
        return HttpResponse.json({ message: 'Mail outbox', data: { rows: mails, count: 2 } });
      }),
      http.get(`${API}/mail/outbox/:id`, ({ params }) =>
        HttpResponse.json({
          message: 'Mail',
          data: {
            ...mails.find((mail) => mail.id === params.id),
            text: 'Hello Bob,\n\nReset it here: https://console.test/auth/reset-password?token=abc.\nThanks',
            html: null,
          },
        }),
      ),
    );
    const view = renderConsole('/outbox');
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    const headers = within(table)
      .getAllByRole('columnheader')
      .filter((cell) => !cell.querySelector('input[type="checkbox"]'))
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Created', 'To', 'Subject', 'Kind', 'Status']);
    const row = within(table).getByText('Reset your password').closest('tr')!;
    expect(row).toHaveTextContent('bob@acme.test');
    expect(row).toHaveTextContent('password_reset');
    expect(pages).toEqual(['0/10']);

    await userEvent.click(row);
    await waitFor(() => expect(view.location().pathname).toBe('/outbox/m-2/show'));
    const link = await screen.findByRole('link', { name: 'https://console.test/auth/reset-password?token=abc' });
    expect(link).toHaveAttribute('href', 'https://console.test/auth/reset-password?token=abc');
    const body = link.closest('pre')!;
    expect(body.textContent).toBe('Hello Bob,\n\nReset it here: https://console.test/auth/reset-password?token=abc.\nThanks');
  });

  it('answers a 403 "Resource Access not provided" with the access-denied alert after 1 s, on the dashboard', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockDashboard();
    mockColumnChoices();
    let deniedAt = 0;
    server.use(
      http.get(`${API}/mail/outbox/:offset/:limit`, () => {
        deniedAt = Date.now();
        return HttpResponse.json({ message: 'Resource Access not provided' }, { status: 403 });
      }),
    );
    const view = renderConsole('/outbox');
    await waitFor(() => expect(deniedAt).toBeGreaterThan(0), { timeout: 10_000 });
    expect(view.location().pathname).toBe('/outbox');
    expect(screen.queryByText(ACCESS_DENIED_ALERT)).toBeNull();

    const alert = await screen.findByText(ACCESS_DENIED_ALERT, {}, { timeout: 5000 });
    expect(Date.now() - deniedAt).toBeGreaterThanOrEqual(1000);
    expect(alert.closest('[role="alert"]')).toBeInTheDocument();
    await waitFor(() => expect(view.location().pathname).toBe('/dashboard'));
    // Still signed in (a 403 is not an expired session), and the route change left the alert up.
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada' })).toBeInTheDocument();
    expect(screen.getByText(ACCESS_DENIED_ALERT)).toBeInTheDocument();
  });

  it("shows each list's columns as the server keeps them: the user's own choice over the company default", async () => {
    signIn(admin);
    mockPreferencesServer();
    mockColumnChoices({
      outbox: {
        tenant: { hidden: ['kind', 'sentAt', 'error'], order: null },
        user: { hidden: ['sentAt', 'error', 'status'], order: ['subject', 'toAddress', 'createdAt', 'kind'] },
      },
    });
    server.use(
      http.get(`${API}/mail/outbox/:offset/:limit`, () => HttpResponse.json({ message: 'Mail outbox', data: { rows: mails, count: 2 } })),
    );
    renderConsole('/outbox');
    await screen.findByText('Reset your password', {}, { timeout: 10_000 });
    await waitFor(
      () =>
        expect(
          within(screen.getByRole('table'))
            .getAllByRole('columnheader')
            .filter((cell) => !cell.querySelector('input[type="checkbox"]'))
            .map((cell) => cell.textContent),
        ).toEqual(['Subject', 'To', 'Created', 'Kind']),
      {
        timeout: 10_000,
      },
    );
  });

  it('a user who is not an admin gets the actions their policies allow, read once per session', async () => {
    signIn(plainUser);
    mockPreferencesServer();
    mockColumnChoices();
    let policyCalls = 0;
    server.use(
      http.get(`${API}/authorization/user/policies`, () => {
        policyCalls += 1;
        return HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies: [{ resource: 'outbox', actions: ['read'] }] } });
      }),
      http.get(`${API}/mail/outbox/:offset/:limit`, () => HttpResponse.json({ message: 'Mail outbox', data: { rows: mails, count: 2 } })),
    );
    renderConsole('/outbox');
    const table = await screen.findByRole('table', {}, { timeout: 10_000 });
    expect(within(table).getByText('Reset your password')).toBeInTheDocument();
    expect(policyCalls).toBe(1);
  });

  it('renders each console page under its path, in the frame or on its own', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockColumnChoices();
    renderConsole('/hello');
    expect(await screen.findByText('Hello page', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
  });

  it('a page without the frame has no menu', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockColumnChoices();
    renderConsole('/bare');
    expect(await screen.findByText('Bare page', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });
});
