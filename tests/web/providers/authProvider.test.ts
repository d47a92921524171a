import { http, HttpResponse } from 'msw';
import { canAccessResource, createAuthProvider } from '../../../providers/authProvider';
import { authProvider } from '../../../src/app/providers';
import { ApiError } from '../../../providers/http';
import { allows, clearCallerPolicies, policyActionOf } from '../../../providers/policies';
import { defineResource } from '../../../src/framework/types';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';

const ctx = { signal: new AbortController().signal } as { signal: AbortSignal } & Parameters<
  NonNullable<typeof authProvider.getPermissions>
>[0];

describe('authProvider', () => {
  it('checkAuth resolves when signed in, else rejects to /auth/signin without a notification', async () => {
    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: '/auth/signin', message: false });
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    await expect(authProvider.checkAuth({})).rejects.toMatchObject({ redirectTo: '/auth/signin' });
    storeUser();
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('tells what checkAuth and getPermissions will answer, known now, exactly as they answer it', async () => {
    expect(authProvider.signedInNow!()).toBe(false);
    expect(authProvider.permissionsNow!()).toBeUndefined();
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    expect(authProvider.signedInNow!()).toBe(false);
    expect(authProvider.permissionsNow!()).toBeUndefined();
    storeUser(sessionUser({ isAdmin: false }));
    expect(authProvider.signedInNow!()).toBe(true);
    expect(authProvider.permissionsNow!()).toEqual(await authProvider.getPermissions!(ctx));
  });

  it('checkError rejects only for a 401 "Invalid JWT token"', async () => {
    await expect(authProvider.checkError(new ApiError('Invalid JWT token', 401, null))).rejects.toMatchObject({
      redirectTo: '/auth/signin',
    });
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

  it('canAccess: admins reach everything without asking for policies', async () => {
    storeUser(sessionUser({ isAdmin: true }));
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'delete' })).resolves.toBe(true);
    localStorage.clear();
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'list' })).resolves.toBe(false);
  });

  it("canAccess: others by their effective policies, under each declaration's policy name, loaded once per session", async () => {
    clearCallerPolicies();
    let calls = 0;
    server.use(
      http.get('/api/v1/authorization/user/policies', ({ request }) => {
        calls += 1;
        const token = request.headers.get('x-access-token');
        const policies =
          token === 'token-1'
            ? [
                { resource: 'users', actions: ['read', 'update'] },
                { resource: 'accessEvents', actions: ['read'] },
              ]
            : [{ resource: 'users', actions: ['read', 'create', 'update', 'delete'] }];
        return HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies } });
      }),
    );
    const accessEvents = defineResource({
      name: 'access-events',
      access: 'accessEvents',
      messages: { en: { name: 'Access events' } },
      fields: [],
      routes: { list: '/access/events/{offset}/{limit}' },
    });
    const provider = createAuthProvider([accessEvents]);
    storeUser(sessionUser({ isAdmin: false }));
    const can = (resource: string, action: string) => provider.canAccess!({ ...ctx, resource, action });

    await expect(can('users', 'list')).resolves.toBe(true);
    await expect(can('users', 'show')).resolves.toBe(true);
    await expect(can('users', 'export')).resolves.toBe(true);
    await expect(can('users', 'edit')).resolves.toBe(true);
    await expect(can('users', 'activate')).resolves.toBe(true);
    await expect(can('users', 'create')).resolves.toBe(false);
    await expect(can('users', 'delete')).resolves.toBe(false);
    // access-events is guarded by the policy resource "accessEvents".
    await expect(can('access-events', 'list')).resolves.toBe(true);
    await expect(can('access-events', 'delete')).resolves.toBe(false);
    await expect(can('roles', 'list')).resolves.toBe(false);
    await expect(can('users', 'launch-missiles')).resolves.toBe(false);
    expect(calls).toBe(1);

    // Another session (another token) reads its own policies.
    storeUser(sessionUser({ isAdmin: false, accessToken: 'token-2', token: 'token-2' }));
    await expect(can('users', 'delete')).resolves.toBe(true);
    expect(calls).toBe(2);
  });

  it('canAccess: against a server without the policies route, the navigation decides', async () => {
    clearCallerPolicies();
    server.use(http.get('/api/v1/authorization/user/policies', () => HttpResponse.json({ message: 'Not Found' }, { status: 404 })));
    storeUser(sessionUser({ isAdmin: false }));
    await expect(authProvider.canAccess!({ ...ctx, resource: 'tables', action: 'list' })).resolves.toBe(true);
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'list' })).resolves.toBe(false);
    expect(canAccessResource({ isAdmin: false, pages: ['/users/'] }, 'users')).toBe(true);
    expect(canAccessResource({ isAdmin: false, pages: ['/users-archive'] }, 'users')).toBe(false);
  });

  it('canAccess: a failed policies call refuses, and is asked again next time', async () => {
    clearCallerPolicies();
    let fail = true;
    server.use(
      http.get('/api/v1/authorization/user/policies', () =>
        fail
          ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 })
          : HttpResponse.json({ message: 'ok', data: { isAdmin: false, policies: [{ resource: 'users', actions: ['read'] }] } }),
      ),
    );
    storeUser(sessionUser({ isAdmin: false }));
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'list' })).resolves.toBe(false);
    fail = false;
    await expect(authProvider.canAccess!({ ...ctx, resource: 'users', action: 'list' })).resolves.toBe(true);
  });

  it('maps react-admin actions to policy actions', () => {
    expect(['list', 'show', 'export', 'create', 'edit', 'activate', 'delete', 'other'].map(policyActionOf)).toEqual([
      'read',
      'read',
      'read',
      'create',
      'update',
      'update',
      'delete',
      null,
    ]);
    expect(allows({ isAdmin: true, policies: [] }, 'anything', 'delete')).toBe(true);
    expect(allows({ isAdmin: false, policies: [{ resource: 'roles', actions: ['update'] }] }, 'roles', 'activate')).toBe(true);
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
    server.use(
      http.post('/api/v1/signin', () => HttpResponse.json({ message: 'ok', user: sessionUser({ auth: false, requireOTP: true }) })),
    );
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
