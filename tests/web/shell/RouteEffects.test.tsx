import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router';
import { http, HttpResponse } from 'msw';
import { ACCESS_DENIED_ALERT } from '../../../common/messages';
import { alerts } from '../../../providers/alerts';
import { createRecordingAnalytics, noopAnalytics, setAnalytics } from '../../../providers/analytics';
import { apiRequest } from '../../../providers/http';
import { navigateTo } from '../../../providers/navigation';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { RouteEffects } from '../../../src/shell/RouteEffects';
import { server } from '../msw';
import { renderConsole } from './renderConsole';

let recorder: ReturnType<typeof createRecordingAnalytics>;
let scrollTo: ReturnType<typeof vi.fn>;

beforeEach(() => {
  recorder = createRecordingAnalytics();
  setAnalytics(recorder);
  scrollTo = vi.fn();
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
});
afterEach(() => {
  setAnalytics(noopAnalytics);
  alerts.clear();
  vi.useRealTimers();
});

describe('on every route change', () => {
  it('clears alerts, scrolls to the top and sends a page view tagged with ga_user_id', async () => {
    storeUser(sessionUser({ ga_user_id: 'ga-77' }));
    const { location } = renderConsole('/tables');
    await screen.findByTestId('main-app');
    expect(recorder.pageViews).toEqual([{ path: '/tables', userId: 'ga-77' }]);

    act(() => alerts.error('Something failed'));
    // The alert bar may still be arriving in its own chunk; it shows the current alert when it does.
    expect(await screen.findByRole('alert')).toHaveTextContent('Something failed');
    scrollTo.mockClear();

    act(() => navigateTo('/workflows?search=abc'));
    await waitFor(() => expect(location()).toBe('/workflows?search=abc'));
    expect(alerts.get().type).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(recorder.pageViews.at(-1)).toEqual({ path: '/workflows?search=abc', userId: 'ga-77' });
  });

  it('tags page views as anonymous when signed out', async () => {
    renderConsole('/auth/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(recorder.pageViews).toEqual([{ path: '/auth/signin', userId: 'anonymous' }]);
  });

  it('lends the router to the http client: an invalid token goes to sign-in', async () => {
    storeUser();
    server.use(http.get('/api/v1/user/profile', () => HttpResponse.json({ message: 'Invalid JWT token' }, { status: 401 })));
    const { location } = renderConsole('/tables');
    await screen.findByTestId('main-app');
    await act(() => apiRequest('/user/profile').catch(() => undefined));
    await waitFor(() => expect(location()).toBe('/auth/signin'));
    expect(storedUser()).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('keeps the access-denied alert that arrives with the move to /dashboard', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    storeUser();
    server.use(
      http.get('/api/v1/admin/dashboard/cards', () => HttpResponse.json({ message: 'Resource Access not provided' }, { status: 403 })),
    );
    const { location } = renderConsole('/tables');
    await screen.findByTestId('main-app');
    await act(() => apiRequest('/admin/dashboard/cards').catch(() => undefined));
    expect(location()).toBe('/tables');

    await act(() => vi.advanceTimersByTimeAsync(1100));
    await waitFor(() => expect(location()).toBe('/dashboard'));
    expect(await screen.findByRole('alert')).toHaveTextContent(ACCESS_DENIED_ALERT);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByRole('alert')).toHaveTextContent(ACCESS_DENIED_ALERT);
  });
});

describe('under StrictMode', () => {
  it('sends one page view per page', () => {
    render(
      <StrictMode>
        <MemoryRouter initialEntries={['/tables']}>
          <RouteEffects />
        </MemoryRouter>
      </StrictMode>,
    );
    expect(recorder.pageViews).toEqual([{ path: '/tables', userId: 'anonymous' }]);
  });
});
