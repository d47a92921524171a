import { http, HttpResponse } from 'msw';
import { setStoredUser } from '../../../providers/storage';
import type { NavGroup, SessionUser } from '../../../providers/types';
import { server } from '../msw';

export const API = '/api/v1';

/** The navigation the server gives an admin: two groups, one page nested a level deeper. */
export const adminNav: NavGroup[] = [
  {
    id: 'overview',
    title: 'Overview',
    type: 'group',
    icon: 'dashboard',
    children: [{ id: 'dashboard', title: 'Dashboard', url: '/dashboard', icon: 'dashboard' }],
  },
  {
    id: 'administration',
    title: 'Administration',
    type: 'group',
    icon: 'admin_panel_settings',
    children: [
      { id: 'outbox', title: 'Mail outbox', url: '/outbox', icon: 'outgoing_mail' },
      {
        id: 'audits',
        title: 'Audits',
        icon: 'no_such_icon',
        children: [{ id: 'access-events', title: 'Access events', url: '/audits/access-events', icon: 'security' }],
      },
    ],
  },
];

/** A plain user's role was given the dashboard only. */
export const userNav: NavGroup[] = [adminNav[0]];

export const admin: SessionUser = {
  id: 'u-admin',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Admin',
  companyName: 'Acme',
  companyHostname: 'acme',
  roleName: 'Admin',
  isAdmin: true,
  accessToken: 'token-admin',
  token: 'token-admin',
  auth: true,
  requireOTP: false,
  setupOTP: false,
  navItems: { userNavItemJson: { items: adminNav } },
  impersonator: null,
};

export const plainUser: SessionUser = {
  ...admin,
  id: 'u-bob',
  email: 'bob@acme.test',
  firstName: 'Bob',
  lastName: 'Builder',
  roleName: 'Analyst',
  isAdmin: false,
  accessToken: 'token-bob',
  token: 'token-bob',
  navItems: { userNavItemJson: { items: userNav } },
};

export function signIn(user: SessionUser): SessionUser {
  setStoredUser(user);
  return user;
}

export interface PreferencesServer {
  /** Bodies of every `PUT /user/preferences/layout`, with the token it came with. */
  saved: { token: string | null; body: unknown }[];
}

/** `GET /user/preferences` answering `stored` per token, and a recorder of the saves. */
export function mockPreferencesServer(stored: Record<string, unknown> = {}): PreferencesServer {
  const record: PreferencesServer = { saved: [] };
  server.use(
    http.get(`${API}/user/preferences`, ({ request }) => {
      const token = request.headers.get('x-access-token') ?? '';
      const layout = stored[token];
      return HttpResponse.json({ message: 'Preferences', data: layout === undefined ? {} : { layout } });
    }),
    http.put(`${API}/user/preferences/layout`, async ({ request }) => {
      const body = (await request.json()) as { value: unknown };
      record.saved.push({ token: request.headers.get('x-access-token'), body });
      return HttpResponse.json({ message: 'Saved', data: { layout: body.value } });
    }),
  );
  return record;
}

/**
 * The dashboard's charts answering with nothing to draw, and the caller's policies as the
 * session says (tests of other parts of the dashboard and of the console frame).
 */
export function mockQuietCharts(user: SessionUser = admin): void {
  server.use(
    http.get(`${API}/authorization/user/policies`, () =>
      HttpResponse.json({ message: 'Policies', data: { isAdmin: user.isAdmin, policies: [] } }),
    ),
    http.get(`${API}/dashboard/dailyJobRunTracker/:from/:to`, () => HttpResponse.json({ message: 'Runs per day', data: { days: [] } })),
    http.get(`${API}/dashboard/pieCharts`, () =>
      HttpResponse.json({ message: 'Pie charts', data: { runsByStatus: [], checksByResult: [] } }),
    ),
    http.get(`${API}/dashboard/distinctConnections`, () => HttpResponse.json({ message: 'Connections by type', data: [] })),
    http.get(`${API}/admin/dashboard/chart`, () => HttpResponse.json({ message: 'Sign-ins per day', data: { days: [] } })),
  );
}
