import { http, HttpResponse } from 'msw';
import { apiRequest, forgetHeadStarts, HEAD_START_TTL_MS, startAhead, takeAnsweredAhead } from '../../../providers/http';
import { startLandingCalls } from '../../../src/shell/landingCalls';
import { sessionUser, storeUser } from '../fixtures';
import { server } from '../msw';

/** Answers GETs under /api/v1 with a counter per path, so a test sees which calls were made. */
function countCalls(): Map<string, number> {
  const calls = new Map<string, number>();
  server.use(
    http.get('/api/v1/*', ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice('/api/v1'.length) + url.search;
      calls.set(path, (calls.get(path) ?? 0) + 1);
      return HttpResponse.json({ message: 'ok', data: { path, call: calls.get(path) } });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
  forgetHeadStarts();
  localStorage.clear();
});

describe('calls started ahead of the view that makes them', () => {
  it('the first request for the same url takes the answer of the call started ahead; the next one calls again', async () => {
    storeUser();
    const calls = countCalls();
    startAhead('/dashboard/topCards');
    expect(await apiRequest('/dashboard/topCards')).toEqual({ message: 'ok', data: { path: '/dashboard/topCards', call: 1 } });
    expect(calls.get('/dashboard/topCards')).toBe(1);
    expect(await apiRequest('/dashboard/topCards')).toEqual({ message: 'ok', data: { path: '/dashboard/topCards', call: 2 } });
  });

  it('is not handed to another session (a new token), nor after HEAD_START_TTL_MS', async () => {
    storeUser();
    const calls = countCalls();
    startAhead('/users/active');
    storeUser(sessionUser({ accessToken: 'token-2', token: 'token-2' }));
    await apiRequest('/users/active');
    expect(calls.get('/users/active')).toBe(2);

    vi.useFakeTimers({ toFake: ['Date'] });
    startAhead('/users/active');
    vi.setSystemTime(Date.now() + HEAD_START_TTL_MS + 1);
    await apiRequest('/users/active');
    expect(calls.get('/users/active')).toBe(4);
  });

  it('a failure reaches the view that takes it, and goes unnoticed when no view does', async () => {
    storeUser();
    server.use(http.get('/api/v1/dashboard/pieCharts', () => HttpResponse.json({ message: 'pies are off' }, { status: 500 })));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    startAhead('/dashboard/pieCharts');
    await expect(apiRequest('/dashboard/pieCharts')).rejects.toThrow('pies are off');
    startAhead('/dashboard/pieCharts');
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('an answer already come back can be taken at once, once; one still on its way, or failed, cannot', async () => {
    storeUser();
    const calls = countCalls();
    server.use(http.get('/api/v1/dashboard/pieCharts', () => HttpResponse.json({ message: 'pies are off' }, { status: 500 })));
    startAhead('/dashboard/topCards');
    startAhead('/dashboard/pieCharts');
    // Still on its way: nothing to take, and the call stays for the view's own request.
    expect(takeAnsweredAhead('/dashboard/topCards')).toBeUndefined();
    const before = Date.now();
    await vi.waitFor(() =>
      expect(takeAnsweredAhead('/dashboard/topCards')).toMatchObject({ payload: { data: { path: '/dashboard/topCards', call: 1 } } }),
    );
    // Taken: the next request calls again.
    expect(takeAnsweredAhead('/dashboard/topCards')).toBeUndefined();
    expect(await apiRequest('/dashboard/topCards')).toMatchObject({ data: { call: 2 } });
    expect(calls.get('/dashboard/topCards')).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(takeAnsweredAhead('/dashboard/pieCharts')).toBeUndefined();
    await expect(apiRequest('/dashboard/pieCharts')).rejects.toThrow('pies are off');

    startAhead('/users/active');
    await vi.waitFor(() => expect(calls.get('/users/active')).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    storeUser(sessionUser({ accessToken: 'token-2', token: 'token-2' }));
    expect(takeAnsweredAhead('/users/active')).toBeUndefined();
    expect(before).toBeLessThanOrEqual(Date.now());
  });

  it('an aborted request gives up on the call started ahead', async () => {
    storeUser();
    countCalls();
    startAhead('/dashboard/distinctConnections');
    const controller = new AbortController();
    const request = apiRequest('/dashboard/distinctConnections', { signal: controller.signal });
    controller.abort(new Error('left the page'));
    await expect(request).rejects.toThrow('left the page');
  });
});

describe('the landing page calls started at sign-in', () => {
  it("an admin landing on the dashboard: all of the dashboard's first calls", async () => {
    const user = storeUser(sessionUser({ navItems: { userNavItemJson: { items: [] } } }));
    const calls = countCalls();
    startLandingCalls({ user, message: '', next: '/dashboard' });
    await vi.waitFor(() => expect(calls.size).toBe(7));
    expect([...calls.keys()].map((path) => path.replace(/\d{4}-\d{2}-\d{2}/g, 'DAY')).sort()).toEqual([
      '/admin/dashboard/cards',
      '/admin/dashboard/chart',
      '/dashboard/dailyJobRunTracker/DAY/DAY',
      '/dashboard/distinctConnections',
      '/dashboard/pieCharts',
      '/dashboard/topCards',
      '/users/active',
    ]);
  });

  it('someone else: the company cards and the policies that decide the charts; elsewhere, nothing', async () => {
    const user = storeUser(sessionUser({ isAdmin: false }));
    const calls = countCalls();
    startLandingCalls({ user, message: '', next: '/dashboard' });
    await vi.waitFor(() => expect([...calls.keys()].sort()).toEqual(['/authorization/user/policies', '/dashboard/topCards']));
    startLandingCalls({ user, message: '', next: '/tables' });
    startLandingCalls({ user: null, message: '', next: '/auth/signin' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.size).toBe(2);
  });
});
