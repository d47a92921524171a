import { http, HttpResponse } from 'msw';
import { authProvider, canAccessResource } from '../../../providers/authProvider';
import { ApiError } from '../../../providers/http';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';

const ctx = { signal: new AbortController().signal } as { signal: AbortSignal } & Parameters<NonNullable<typeof authProvider.getPermissions>>[0];

describe('authProvider', () => {
  it('checkAuth resolves when signed in, else rejects to /auth/signin without a notification', async () => {
    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: '/auth/signin', message: false });
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/auth/signin' });
    storeUser();
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError rejects only for a 401 "Invalid JWT token"', async () => {
    await expect(authProvider.checkError(new ApiError('Invalid JWT token', 401, null))).rejects.toMatchObject({ redirectTo: '/auth/signin' });
    await expect(authProvider.checkError({ status: 401, message: 'Invalid JWT token: expired' })).rejects.toBeDefined();
    await expect(authProvider.checkError(new ApiError('Invalid email, password or company host name', 401, null))).resolves.toBeUndefined();
    await expect(authProvider.checkError(new ApiError('Resource Access not provided', 403, null))).resolves.toBeUndefined();
    await expect(authProvider.checkError(new ApiError('Table not found', 404, null))).resolves.toBeUndefined();
    await expect(authProvider.checkError(new Error('Failed to fetch'))).resolves.toBeUndefined();
    await expect(authProvider.checkError(undefined)).resolves.toBeUndefined();
  });

  it('getPermissions lists isAdmin and the navigation pages', async () => {
    storeUser(sessionUser({ isAdmin: false }));
    await expect(authProvider.getPermissions!(ctx)).resolves.toEqual({ isAdmin: false, pages: ['/tables', '/dashboard'] });
  });

  it('canAccess: admins reach everything, others the resources whose list page they were given', async () => {
    storeUser(sessionUser({ isAdmin: true }));
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'list' })).resolves.toBe(true);
    storeUser(sessionUser({ isAdmin: false }));
    await expect(authProvider.canAccess!({ ...ctx, resource: 'tables', action: 'list' })).resolves.toBe(true);
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'list' })).resolves.toBe(false);
    expect(canAccessResource({ isAdmin: false, pages: ['/users/'] }, 'users')).toBe(true);
    expect(canAccessResource({ isAdmin: false, pages: ['/users-archive'] }, 'users')).toBe(false);
    localStorage.clear();
    await expect(authProvider.canAccess!({ ...ctx, resource: 'tables', action: 'list' })).resolves.toBe(false);
  });

  it('getIdentity returns the stored user with its impersonator', async () => {
    const impersonator = { id: 'admin-1', email: 'boss@acme.test', name: 'Boss' };
    storeUser(sessionUser({ impersonator }));
    await expect(authProvider.getIdentity!()).resolves.toEqual({
      id: 'u-1',
      fullName: 'Ada Admin',
      avatar: undefined,
      email: 'ada@acme.test',
      impersonator,
    });
  });

  it('login signs in and redirects by the sign-in result; logout ends the session and returns the sign-in path', async () => {
    server.use(http.post('/api/v1/signin', () => HttpResponse.json({ message: 'ok', user: sessionUser({ auth: false, requireOTP: true }) })));
    await expect(authProvider.login({ email: 'ada@acme.test', password: 'secret-123456', companyHostname: 'acme' })).resolves.toEqual({
      redirectTo: '/auth/verify-otp',
    });

    storeUser();
    let loggedOut = false;
    server.use(
      http.put('/api/v1/session/logout', () => {
        loggedOut = true;
        return HttpResponse.json({ message: 'bye' });
      }),
    );
    await expect(authProvider.logout({})).resolves.toBe('/auth/signin');
    expect(loggedOut).toBe(true);
    expect(storedUser()).toBeNull();
  });
});
