import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { endImpersonation, startImpersonation } from '../../../providers/impersonation';
import { navigateTo, reloadAt } from '../../../providers/navigation';
import { getImpersonator, getStoredUser, setImpersonator } from '../../../providers/storage';
import type { SessionUser } from '../../../providers/types';
import { Dashboard } from '../../../src/app/dashboard/Dashboard';
import { ImpersonationBanner } from '../../../src/app/ImpersonationBanner';
import { server } from '../msw';
import { admin, API, mockPreferencesServer, mockQuietCharts, plainUser, signIn } from './fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from './render';

// A full page load cannot happen in jsdom: record where the console would have gone.
vi.mock('../../../providers/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../providers/navigation')>()),
  reloadAt: vi.fn(),
  navigateTo: vi.fn(),
}));

/** Bob's session as the server answers an impersonation: his own navigation, the admin behind it. */
const bobAsImpersonated: SessionUser = {
  ...plainUser,
  accessToken: 'token-impersonation',
  token: 'token-impersonation',
  navItems: {
    userNavItemJson: {
      items: [{ id: 'work', title: 'Work', children: [{ id: 'tables', title: 'Tables', url: '/tables' }] }],
    },
  },
  impersonator: { id: admin.id!, email: admin.email!, name: 'Ada Admin' },
};

function mockImpersonate(user: SessionUser | Record<string, unknown>, status = 200) {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${API}/user/impersonate`, async ({ request }) => {
      bodies.push({ token: request.headers.get('x-access-token'), body: await request.json() });
      return status === 200 ? HttpResponse.json({ message: 'Signed in as Bob Builder', user }) : HttpResponse.json(user, { status });
    }),
  );
  return bodies;
}

function mockLogout(status = 200) {
  const tokens: (string | null)[] = [];
  server.use(
    http.put(`${API}/session/logout`, ({ request }) => {
      tokens.push(request.headers.get('x-access-token'));
      return status === 200
        ? HttpResponse.json({ message: 'Signed out' })
        : HttpResponse.json({ message: 'Invalid JWT token' }, { status });
    }),
  );
  return tokens;
}

beforeEach(() => {
  mockQuietCharts();
  vi.mocked(reloadAt).mockClear();
  vi.mocked(navigateTo).mockClear();
});

describe('starting an impersonation', { timeout: RENDER_TIMEOUT_MS }, () => {
  it("keeps the admin's stored user aside, stores the user's, and reloads at their first page", async () => {
    signIn(admin);
    const requests = mockImpersonate(bobAsImpersonated);
    await startImpersonation('u-bob');
    expect(requests).toEqual([{ token: 'token-admin', body: { userId: 'u-bob' } }]);
    expect(getStoredUser()).toEqual(bobAsImpersonated);
    expect(getImpersonator()).toEqual(admin);
    expect(reloadAt).toHaveBeenCalledExactlyOnceWith('/tables');
  });

  it.each([
    ['without auth', { ...bobAsImpersonated, auth: false }],
    ['needing a one-time code', { ...bobAsImpersonated, auth: false, requireOTP: true }],
    ['needing two-factor set-up', { ...bobAsImpersonated, auth: false, setupOTP: true }],
  ])('goes to sign-in on a result %s, storing nothing', async (_, user) => {
    signIn(admin);
    mockImpersonate(user);
    await startImpersonation('u-bob');
    expect(navigateTo).toHaveBeenCalledWith('/auth/signin');
    expect(reloadAt).not.toHaveBeenCalled();
    expect(getStoredUser()).toEqual(admin);
    expect(getImpersonator()).toBeNull();
  });

  it("rejects with the server's message when it refuses, changing nothing", async () => {
    signIn(admin);
    mockImpersonate({ message: 'This user is not active' }, 400);
    await expect(startImpersonation('u-bob')).rejects.toThrow('This user is not active');
    expect(getStoredUser()).toEqual(admin);
    expect(getImpersonator()).toBeNull();
  });

  it('starts from the "Sign in as" button of the dashboard, and a refusal shows as a toast', async () => {
    signIn(admin);
    mockPreferencesServer();
    server.use(
      http.get(`${API}/dashboard/topCards`, () => HttpResponse.json({ message: 'ok', data: { cards: [] } })),
      http.get(`${API}/admin/dashboard/cards`, () => HttpResponse.json({ message: 'ok', data: { cards: [] } })),
      http.get(`${API}/users/active`, () =>
        HttpResponse.json({ message: 'ok', users: [{ id: 'u-bob', email: 'bob@acme.test', firstName: 'Bob', lastName: 'Builder' }] }),
      ),
    );
    const requests = mockImpersonate({ message: 'This user is not active' }, 400);
    renderInConsole(<Dashboard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in as Bob Builder' }));
    expect(await screen.findByText('This user is not active')).toBeInTheDocument();
    expect(requests).toEqual([{ token: 'token-admin', body: { userId: 'u-bob' } }]);
    expect(screen.getByRole('button', { name: 'Sign in as Bob Builder' })).toBeEnabled();
  });
});

describe('returning to the admin account', () => {
  function impersonating() {
    signIn(bobAsImpersonated);
    setImpersonator(admin);
  }

  it("ends the impersonation session, restores the admin's stored user and reloads at their first page", async () => {
    impersonating();
    const logoutTokens = mockLogout();
    await endImpersonation();
    expect(logoutTokens).toEqual(['token-impersonation']);
    expect(getStoredUser()).toEqual(admin);
    expect(getImpersonator()).toBeNull();
    expect(reloadAt).toHaveBeenCalledExactlyOnceWith('/dashboard');
  });

  it('returns even when the impersonation session has already ended', async () => {
    impersonating();
    mockLogout(401);
    await endImpersonation();
    expect(getStoredUser()).toEqual(admin);
    expect(getImpersonator()).toBeNull();
    expect(navigateTo).not.toHaveBeenCalled();
    expect(reloadAt).toHaveBeenCalledExactlyOnceWith('/dashboard');
  });
});

describe('the impersonation banner', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('is absent on an ordinary session', () => {
    signIn(admin);
    mockPreferencesServer();
    renderInConsole(<ImpersonationBanner />);
    expect(screen.queryByText(/on behalf of/)).toBeNull();
  });

  it('says who is signed in on whose behalf, and takes the admin back', async () => {
    signIn(bobAsImpersonated);
    setImpersonator(admin);
    mockPreferencesServer();
    const logoutTokens = mockLogout();
    renderInConsole(<ImpersonationBanner />);
    const banner = screen.getByRole('status');
    expect(banner).toHaveTextContent('You are signed in as Bob Builder (bob@acme.test) on behalf of Ada Admin');
    const back = within(banner).getByRole('button', { name: 'Return to my account' });
    await userEvent.click(back);
    expect(back).toBeDisabled();
    await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/dashboard'));
    expect(logoutTokens).toEqual(['token-impersonation']);
    expect(getStoredUser()).toEqual(admin);
  });
});
