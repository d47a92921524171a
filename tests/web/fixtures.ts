import type { SessionUser } from '../../providers/types';

/** A session user as docs/api.md describes it, fully signed in unless overridden. */
export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 'u-1',
    email: 'ada@acme.test',
    firstName: 'Ada',
    lastName: 'Admin',
    companyId: 'c-1',
    companyName: 'Acme',
    companyHostname: 'acme',
    roleId: 'r-1',
    roleName: 'Admin',
    isAdmin: true,
    accessToken: 'token-1',
    token: 'token-1',
    ga_user_id: 'ga-1',
    auth: true,
    requireOTP: false,
    setupOTP: false,
    otpEnabled: false,
    navItems: {
      userNavItemJson: {
        items: [
          {
            id: 'overview',
            title: 'Overview',
            type: 'group',
            children: [
              { id: 'tables', title: 'Tables', url: '/tables' },
              { id: 'dashboard', title: 'Dashboard', url: '/dashboard' },
            ],
          },
        ],
      },
    },
    impersonator: null,
    ...overrides,
  };
}

export function storeUser(user: SessionUser = sessionUser()): SessionUser {
  localStorage.setItem('user', JSON.stringify(user));
  return user;
}

export function storedUser(): SessionUser | null {
  const raw = localStorage.getItem('user');
  return raw ? (JSON.parse(raw) as SessionUser) : null;
}
