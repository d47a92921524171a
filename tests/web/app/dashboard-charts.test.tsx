import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { Dashboard } from '../../../src/app/dashboard/Dashboard';
import { server } from '../msw';
import { admin, API, mockPreferencesServer, plainUser, signIn } from './fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from './render';

const TODAY = '2026-11-20';

function day(date: string, counts: Partial<Record<'succeeded' | 'failed' | 'canceled' | 'timed_out' | 'running' | 'queued', number>> = {}) {
  return { date, succeeded: 0, failed: 0, canceled: 0, timed_out: 0, running: 0, queued: 0, ...counts };
}

/** The dashboard's routes as docs/api/workflows.md answers them; `fail` makes one answer an error. */
function mockDashboard({
  fail = {} as Record<string, { status: number; message: string }>,
  policies = null as { resource: string; actions: string[] }[] | null,
} = {}) {
  const calls: string[] = [];
  const answer = (name: string, body: JsonBodyType) => {
    const failure = fail[name];
    return failure ? HttpResponse.json({ message: failure.message }, { status: failure.status }) : HttpResponse.json(body);
  };
  server.use(
    http.all(`${API}/*`, ({ request }) => {
      const url = new URL(request.url);
      calls.push(`${request.method} ${url.pathname.slice(API.length)}${url.search}`);
      return undefined;
    }),
    http.get(`${API}/dashboard/topCards`, () =>
      HttpResponse.json({
        message: 'Dashboard cards',
        data: { cards: [{ key: 'workflows', label: 'Workflows', value: 4, link: '/workflows' }] },
      }),
    ),
    http.get(`${API}/admin/dashboard/cards`, () => HttpResponse.json({ message: 'Admin cards', data: { cards: [] } })),
    http.get(`${API}/users/active`, () => HttpResponse.json({ message: 'Active users', users: [] })),
    http.get(`${API}/authorization/user/policies`, () =>
      policies
        ? HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies } })
        : HttpResponse.json({ message: 'Not found' }, { status: 404 }),
    ),
    http.get(`${API}/dashboard/dailyJobRunTracker/:from/:to`, ({ params, request }) => {
      const status = new URL(request.url).searchParams.get('jobRunStatus');
      const days = [
        day(String(params.from)),
        day('2026-11-18', { succeeded: 4, failed: 1 }),
        day('2026-11-19', { succeeded: 6, failed: 3, timed_out: 1 }),
        day(String(params.to), { running: 2 }),
      ];
      const kept = status ? days.map((entry) => ({ ...day(entry.date), [status]: entry[status as 'failed'] })) : days;
      return answer('daily', { message: 'Runs per day', data: { days: kept } });
    }),
    http.get(`${API}/dashboard/pieCharts`, () =>
      answer('pies', {
        message: 'Pie charts',
        data: {
          runsByStatus: [
            { status: 'succeeded', count: 30 },
            { status: 'failed', count: 10 },
          ],
          checksByResult: [
            { status: 'passed', count: 8 },
            { status: 'failed', count: 2 },
          ],
        },
      }),
    ),
    http.get(`${API}/dashboard/distinctConnections`, () =>
      answer('connections', {
        message: 'Connections by type',
        data: [
          { type: 'slack', label: 'Slack', count: 1, active: 1 },
          { type: 'postgresql', label: 'PostgreSQL', count: 3, active: 2 },
        ],
      }),
    ),
    http.get(`${API}/admin/dashboard/chart`, () =>
      answer('signins', {
        message: 'Sign-ins per day',
        data: {
          days: [
            { date: '2026-11-19', signins: 12, failures: 0 },
            { date: TODAY, signins: 7, failures: 2 },
          ],
        },
      }),
    ),
  );
  return calls;
}

/** The list a link leads to, with its filter read back. */
function target(link: HTMLElement): { path: string; filter: unknown } {
  const url = new URL(link.getAttribute('href')!, 'http://console.test');
  const filter = url.searchParams.get('filter');
  return { path: url.pathname, filter: filter ? JSON.parse(filter) : null };
}

const region = (name: string) => screen.findByRole('region', { name });

describe('the dashboard charts', { timeout: RENDER_TIMEOUT_MS }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${TODAY}T10:00:00.000Z`));
  });
  afterEach(() => vi.useRealTimers());

  it('draws the runs of the last 14 days as stacked bars, each a link to those runs, with the figures as a table', async () => {
    const user = userEvent.setup();
    signIn(admin);
    mockPreferencesServer();
    const calls = mockDashboard();
    const view = renderInConsole(<Dashboard />);
    const chart = await region('Job runs per day');
    await waitFor(() => expect(chart).toHaveAttribute('aria-busy', 'false'));
    expect(calls).toContain('GET /dashboard/dailyJobRunTracker/2026-11-07/2026-11-20');
    expect(within(chart).getByLabelText('From')).toHaveValue('2026-11-07');
    expect(within(chart).getByLabelText('To')).toHaveValue(TODAY);

    const bars = within(chart).getAllByRole('link');
    expect(bars.map((bar) => bar.getAttribute('aria-label'))).toEqual([
      'Succeeded on 2026-11-18: 4',
      'Failed on 2026-11-18: 1',
      'Succeeded on 2026-11-19: 6',
      'Failed on 2026-11-19: 3',
      'Timed out on 2026-11-19: 1',
      'Running on 2026-11-20: 2',
    ]);
    const failed19 = within(chart).getByRole('link', { name: 'Failed on 2026-11-19: 3' });
    expect(failed19.querySelector('rect')).toHaveAttribute('data-count', '3');
    // Stacked: the failed segment sits on the succeeded one, and is half as tall (3 of 6).
    const succeeded19 = within(chart).getByRole('link', { name: 'Succeeded on 2026-11-19: 6' }).querySelector('rect')!;
    const failedRect = failed19.querySelector('rect')!;
    expect(Number(failedRect.getAttribute('y')) + Number(failedRect.getAttribute('height'))).toBeCloseTo(
      Number(succeeded19.getAttribute('y')),
    );
    expect(Number(failedRect.getAttribute('height')) * 2).toBeCloseTo(Number(succeeded19.getAttribute('height')));
    expect(target(failed19)).toEqual({ path: '/job-runs', filter: { status: ['failed'], startDate: '2026-11-19', endDate: '2026-11-19' } });
    expect([...chart.querySelectorAll('[data-legend]')].map((item) => item.textContent)).toEqual([
      'Queued: 0',
      'Running: 2',
      'Succeeded: 10',
      'Failed: 4',
      'Canceled: 0',
      'Timed out: 1',
    ]);

    await user.click(within(chart).getByRole('button', { name: 'Show the figures' }));
    const figures = within(chart).getByRole('table', { name: 'Figures of Job runs per day' });
    expect(
      within(figures)
        .getAllByRole('row')
        .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)),
    ).toEqual([
      ['Day', 'Queued', 'Running', 'Succeeded', 'Failed', 'Canceled', 'Timed out', 'Total'],
      ['2026-11-07', '0', '0', '0', '0', '0', '0', '0'],
      ['2026-11-18', '0', '0', '4', '1', '0', '0', '5'],
      ['2026-11-19', '0', '0', '6', '3', '0', '1', '10'],
      ['2026-11-20', '0', '2', '0', '0', '0', '0', '2'],
    ]);

    await user.click(failed19);
    await waitFor(() => expect(view.location().pathname).toBe('/job-runs'));
    expect(JSON.parse(new URLSearchParams(view.location().search).get('filter')!)).toEqual({
      status: ['failed'],
      startDate: '2026-11-19',
      endDate: '2026-11-19',
    });
  });

  it('asks again for another range and for one status; a range that cannot be asked is said, not sent', async () => {
    const user = userEvent.setup();
    signIn(admin);
    mockPreferencesServer();
    const calls = mockDashboard();
    renderInConsole(<Dashboard />);
    const chart = await region('Job runs per day');
    await within(chart).findByRole('link', { name: 'Failed on 2026-11-19: 3' });

    await user.click(within(chart).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(calls).toContain('GET /dashboard/dailyJobRunTracker/2026-11-07/2026-11-20?jobRunStatus=failed'));
    await waitFor(() => expect(within(chart).queryByRole('link', { name: /^Succeeded/ })).toBeNull());
    expect(
      within(chart)
        .getAllByRole('link')
        .map((bar) => bar.getAttribute('aria-label')),
    ).toEqual(['Failed on 2026-11-18: 1', 'Failed on 2026-11-19: 3']);

    const from = within(chart).getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2026-11-01');
    await waitFor(() => expect(calls).toContain('GET /dashboard/dailyJobRunTracker/2026-11-01/2026-11-20?jobRunStatus=failed'));

    const asked = calls.length;
    await user.clear(from);
    await user.type(from, '2026-11-25');
    expect(await within(chart).findByText('Choose a start on or before the end, at most 366 days apart.')).toBeInTheDocument();
    expect(calls.slice(asked).filter((call) => call.includes('dailyJobRunTracker'))).toEqual([]);
  });

  it('draws runs by status and checks by result as rings, each slice leading to the list behind it', async () => {
    const user = userEvent.setup();
    signIn(admin);
    mockPreferencesServer();
    mockDashboard();
    const view = renderInConsole(<Dashboard />);
    const runs = await region('Job runs by status, last 30 days');
    const succeeded = await within(runs).findByRole('link', { name: 'Succeeded: 30 (75%)' });
    expect(target(succeeded)).toEqual({ path: '/job-runs', filter: { status: ['succeeded'], startDate: '2026-10-22' } });
    expect(target(within(runs).getByRole('link', { name: 'Failed: 10 (25%)' }))).toEqual({
      path: '/job-runs',
      filter: { status: ['failed'], startDate: '2026-10-22' },
    });
    expect([...runs.querySelectorAll('[data-legend]')].map((item) => item.textContent)).toEqual([
      'Succeeded: 30 (75%)',
      'Failed: 10 (25%)',
    ]);

    const checks = await region('Data-quality checks by result, last 30 days');
    expect([...checks.querySelectorAll('[data-legend]')].map((item) => item.textContent)).toEqual(['Passed: 8 (80%)', 'Failed: 2 (20%)']);
    expect(target(within(checks).getByRole('link', { name: 'Failed: 2 (20%)' }))).toEqual({ path: '/tables', filter: null });

    await user.click(within(runs).getByRole('link', { name: 'Failed: 10 (25%)' }));
    await waitFor(() => expect(view.location().pathname).toBe('/job-runs'));
  });

  it('lists the connections by type, most first, each leading to the connections of that type', async () => {
    const user = userEvent.setup();
    signIn(admin);
    mockPreferencesServer();
    mockDashboard();
    const view = renderInConsole(<Dashboard />);
    const chart = await region('Connections by type');
    const postgres = await within(chart).findByRole('link', { name: 'PostgreSQL: 3 (2 active)' });
    expect(
      within(chart)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['PostgreSQL: 3 (2 active)', 'Slack: 1 (1 active)']);
    expect(target(postgres)).toEqual({ path: '/connections', filter: { type: ['postgresql'] } });
    await user.click(postgres);
    await waitFor(() => expect(view.location().pathname).toBe('/connections'));
    expect(JSON.parse(new URLSearchParams(view.location().search).get('filter')!)).toEqual({ type: ['postgresql'] });
  });

  it('gives admins the sign-ins per day, each bar leading to those access events', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockDashboard();
    renderInConsole(<Dashboard />);
    const chart = await region('Sign-ins per day, last 14 days');
    const failures = await within(chart).findByRole('link', { name: `Failed attempts on ${TODAY}: 2` });
    expect(target(failures)).toEqual({
      path: '/access-events',
      filter: { status: ['failure', 'blocked'], startDate: TODAY, endDate: TODAY },
    });
    expect(target(within(chart).getByRole('link', { name: 'Sign-ins on 2026-11-19: 12' }))).toEqual({
      path: '/access-events',
      filter: { status: ['success'], startDate: '2026-11-19', endDate: '2026-11-19' },
    });
    expect([...chart.querySelectorAll('[data-legend]')].map((item) => item.textContent)).toEqual(['Sign-ins: 19', 'Failed attempts: 2']);
  });

  it('shows each user the charts of what they may read: run charts to a workflows reader, no sign-ins to a non-admin', async () => {
    signIn(plainUser);
    mockPreferencesServer();
    const calls = mockDashboard({ policies: [{ resource: 'workflows', actions: ['read'] }] });
    renderInConsole(<Dashboard />);
    expect(await region('Job runs per day')).toBeInTheDocument();
    expect(await region('Job runs by status, last 30 days')).toBeInTheDocument();
    await waitFor(() => expect(calls).toContain('GET /dashboard/pieCharts'));
    expect(screen.queryByRole('region', { name: 'Connections by type' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Sign-ins per day, last 14 days' })).toBeNull();
    expect(calls.filter((call) => /distinctConnections|admin\/dashboard\/chart/.test(call))).toEqual([]);
  });

  it('a failed chart call shows an error toast; that chart says so and the rest of the dashboard still shows', async () => {
    signIn(admin);
    mockPreferencesServer();
    mockDashboard({ fail: { pies: { status: 500, message: 'The run figures are not available' } } });
    renderInConsole(<Dashboard />);
    expect(await screen.findByText('The run figures are not available')).toBeInTheDocument();
    const runs = await region('Job runs by status, last 30 days');
    await waitFor(() => expect(runs).toHaveTextContent('Not available right now.'));
    expect(await region('Data-quality checks by result, last 30 days')).toHaveTextContent('Not available right now.');
    expect(await within(await region('Job runs per day')).findByRole('link', { name: 'Failed on 2026-11-19: 3' })).toBeInTheDocument();
    expect(await within(await region('Connections by type')).findByRole('link', { name: 'PostgreSQL: 3 (2 active)' })).toBeInTheDocument();
    expect(await screen.findByText('Workflows')).toBeInTheDocument();
  });
});
