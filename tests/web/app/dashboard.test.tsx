import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { authProvider } from '../../../src/app/providers';
import { forgetHeadStarts } from '../../../providers/http';
import { ConsoleQueryClient } from '../../../src/app/consoleQueryClient';
import { Dashboard } from '../../../src/app/dashboard/Dashboard';
import { startLandingCalls } from '../../../src/shell/landingCalls';
import { server } from '../msw';
import { admin, API, mockPreferencesServer, mockQuietCharts, plainUser, signIn } from './fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from './render';

const topCards = [
  { key: 'users', label: 'Users', value: 12 },
  { key: 'roles', label: 'Roles', value: 3 },
];
const adminCards = [{ key: 'mails24h', label: 'Mails sent in the last 24 hours', value: 1234, link: '/outbox' }];
const activeUsers = [
  { id: admin.id, email: admin.email, firstName: 'Ada', lastName: 'Admin', roleName: 'Admin', isAdmin: true },
  { id: 'u-bob', email: 'bob@acme.test', firstName: 'Bob', lastName: 'Builder', roleName: 'Analyst', isAdmin: false },
];

/** The dashboard's calls, counted, with the top cards answering `topStatus`. */
function mockDashboardApi({ topStatus = 200 } = {}) {
  const calls: string[] = [];
  const record = (path: string) => calls.push(path);
  mockQuietCharts();
  server.use(
    http.get(`${API}/dashboard/topCards`, () => {
      record('topCards');
      return topStatus === 200
        ? HttpResponse.json({ message: 'Dashboard cards', data: { cards: topCards } })
        : HttpResponse.json({ message: 'The database is not available' }, { status: topStatus });
    }),
    http.get(`${API}/admin/dashboard/cards`, () => {
      record('adminCards');
      return HttpResponse.json({ message: 'Admin dashboard cards', data: { cards: adminCards } });
    }),
    http.get(`${API}/users/active`, () => {
      record('activeUsers');
      return HttpResponse.json({ message: 'Active users', users: activeUsers });
    }),
  );
  return calls;
}

function section(name: string) {
  return screen.findByRole('region', { name });
}

describe('the dashboard', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('welcomes the user, names the tenant and shows what it holds', async () => {
    signIn(plainUser);
    mockPreferencesServer();
    const calls = mockDashboardApi();
    renderInConsole(<Dashboard />);
    expect(screen.getByRole('heading', { name: 'Welcome, Bob' })).toBeInTheDocument();
    expect(screen.getByText('Acme · acme')).toBeInTheDocument();
    const holds = await section('What your company holds');
    await waitFor(() => expect(holds).toHaveAttribute('aria-busy', 'false'));
    expect(within(holds).getByText('Users').closest('[data-card]')).toHaveTextContent('Users12');
    expect(within(holds).getByText('Roles').closest('[data-card]')).toHaveTextContent('Roles3');
    // Not an admin: no admin cards, no people, and those calls are never made.
    expect(screen.queryByRole('region', { name: 'Administration' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'People' })).toBeNull();
    expect(calls).toEqual(['topCards']);
  });

  it('shows skeletons while the cards load', async () => {
    signIn(plainUser);
    mockPreferencesServer();
    mockQuietCharts(plainUser);
    let answer: () => void = () => {};
    server.use(
      http.get(`${API}/dashboard/topCards`, async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json({ message: 'Dashboard cards', data: { cards: topCards } });
      }),
    );
    renderInConsole(<Dashboard />);
    const holds = await section('What your company holds');
    expect(holds).toHaveAttribute('aria-busy', 'true');
    expect(holds.querySelectorAll('.MuiSkeleton-root').length).toBeGreaterThan(0);
    answer();
    expect(await within(holds).findByText('Users')).toBeInTheDocument();
    expect(holds.querySelectorAll('.MuiSkeleton-root')).toHaveLength(0);
  });

  it('an admin arriving from the sign-in sees the answers of the calls started then on the first render, and nothing is called twice', async () => {
    const user = signIn(admin);
    mockPreferencesServer();
    const calls = mockDashboardApi();
    const chartCalls: string[] = [];
    server.use(
      http.get(`${API}/dashboard/*`, ({ request }) => {
        chartCalls.push(new URL(request.url).pathname);
        return undefined;
      }),
      http.get(`${API}/admin/dashboard/chart`, ({ request }) => {
        chartCalls.push(new URL(request.url).pathname);
        return HttpResponse.json({ message: 'Sign-ins per day', data: { days: [{ date: '2026-11-20', signins: 4, failures: 1 }] } });
      }),
    );
    try {
      startLandingCalls({ user, message: '', next: '/dashboard' });
      await waitFor(() => expect(calls.length + chartCalls.length).toBe(8)); // 7 calls; /dashboard/topCards counted twice
      await new Promise((resolve) => setTimeout(resolve, 50));

      renderInConsole(<Dashboard />, { queryClient: new ConsoleQueryClient(authProvider) });
      // Nothing awaited: the first render has every section, with its figures.
      const main = document.body;
      expect(main.querySelectorAll('section[aria-label]')).toHaveLength(8);
      expect(main.querySelectorAll('[aria-busy="true"], .MuiSkeleton-root')).toHaveLength(0);
      const holds = screen.getByRole('region', { name: 'What your company holds' });
      expect(within(holds).getByText('Users').closest('[data-card]')).toHaveTextContent('Users12');
      expect(within(screen.getByRole('region', { name: 'Administration' })).getByText(/Mails sent/)).toBeInTheDocument();
      expect(within(screen.getByRole('region', { name: 'People' })).getByText(/Bob Builder/)).toBeInTheDocument();

      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(calls.length + chartCalls.length).toBe(8);
    } finally {
      forgetHeadStarts();
    }
  });

  it('gives admins their own cards, linked where there is a list behind them', async () => {
    signIn(admin);
    mockPreferencesServer();
    const calls = mockDashboardApi();
    const view = renderInConsole(<Dashboard />);
    const adminSection = await section('Administration');
    const mails = await within(adminSection).findByRole('link', { name: /Mails sent in the last 24 hours/ });
    expect(mails).toHaveTextContent((1234).toLocaleString());
    // Pressing the card starts the list's first page before the page is there.
    const listCalls: string[] = [];
    server.use(
      http.get(`${API}/mail/outbox/:offset/:limit`, ({ params }) => {
        listCalls.push(`${params.offset}/${params.limit}`);
        return HttpResponse.json({ message: 'Mail outbox', data: [], total: 0 });
      }),
    );
    fireEvent.pointerDown(mails);
    await waitFor(() => expect(listCalls).toEqual(['0/10']));
    expect(view.location().pathname).toBe('/dashboard');
    await userEvent.click(mails);
    await waitFor(() => expect(view.location().pathname).toBe('/outbox'));
    expect(calls).toEqual(expect.arrayContaining(['topCards', 'adminCards', 'activeUsers']));
  });

  it("shows a failed call's message as an error toast", async () => {
    signIn(plainUser);
    mockPreferencesServer();
    mockDashboardApi({ topStatus: 503 });
    renderInConsole(<Dashboard />);
    expect(await screen.findByText('The database is not available')).toBeInTheDocument();
    const holds = await section('What your company holds');
    expect(holds).toHaveAttribute('aria-busy', 'false');
  });

  it('lists the active people for admins, with "Sign in as" for everyone but themselves', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockDashboardApi();
    renderInConsole(<Dashboard />);
    const people = await section('People');
    await within(people).findByText('Bob Builder');
    expect(within(people).getByRole('button', { name: 'Sign in as Bob Builder' })).toBeEnabled();
    expect(within(people).queryByRole('button', { name: 'Sign in as Ada Admin' })).toBeNull();
    expect(within(people).getByText('You')).toBeInTheDocument();
  });
});
