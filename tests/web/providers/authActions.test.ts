import { http, HttpResponse } from 'msw';
import {
  changePassword,
  LAST_HOSTNAME_KEY,
  logout,
  routeAfterSignIn,
  signIn,
  verifyActivationToken,
  verifyOtp,
  verifyResetToken,
} from '../../../providers/authActions';
import { PASSWORD_UPDATED_MESSAGE } from '../../../common/messages';
import { DEFAULT_PASSWORD_POLICY } from '../../../common/password-policy';
import { isSignedIn } from '../../../providers/storage';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';

const credentials = { email: ' ada@acme.test ', password: 'secret-123456', companyHostname: ' ACME ' };

function answerSignIn(user: unknown, seen?: unknown[]) {
  server.use(
    http.post('/api/v1/signin', async ({ request }) => {
      seen?.push({ body: await request.json(), token: request.headers.get('x-access-token') });
      return HttpResponse.json({ message: 'Signed in', user });
    }),
  );
}

describe('signIn: the sign-in result of spec section 4', () => {
  it('auth true and no OTP: stores the user and goes to the first navigation URL', async () => {
    const seen: unknown[] = [];
    answerSignIn(sessionUser(), seen);
    const result = await signIn(credentials);
    expect(result.next).toBe('/tables');
    expect(storedUser()).toMatchObject({ email: 'ada@acme.test', auth: true });
    expect(isSignedIn()).toBe(true);
    // The body is the spec's, trimmed and with the host name normalised; a public call sends no token.
    expect(seen).toEqual([{ body: { email: 'ada@acme.test', password: 'secret-123456', companyHostname: 'acme' }, token: null }]);
    expect(localStorage.getItem(LAST_HOSTNAME_KEY)).toBe('acme');
  });

  it('requireOTP true: goes to /auth/verify-otp with the user stored as not signed in', async () => {
    answerSignIn(sessionUser({ auth: false, requireOTP: true, navItems: undefined }));
    const result = await signIn(credentials);
    expect(result.next).toBe('/auth/verify-otp');
    expect(storedUser()).toMatchObject({ requireOTP: true, auth: false, accessToken: 'token-1' });
    expect(isSignedIn()).toBe(false);
  });

  it('setupOTP true: goes to /auth/register-2fa with the user stored as not signed in', async () => {
    // Even a server that sets auth alongside setupOTP does not sign the user in before enrolment.
    answerSignIn(sessionUser({ auth: true, setupOTP: true }));
    const result = await signIn(credentials);
    expect(result.next).toBe('/auth/register-2fa');
    expect(storedUser()).toMatchObject({ setupOTP: true, auth: false });
    expect(isSignedIn()).toBe(false);
  });

  it('otherwise: back to /auth/signin with nothing stored', async () => {
    storeUser(sessionUser({ email: 'previous@acme.test' }));
    answerSignIn(sessionUser({ auth: false }));
    const result = await signIn(credentials);
    expect(result.next).toBe('/auth/signin');
    expect(storedUser()).toBeNull();

    answerSignIn(undefined);
    expect((await signIn(credentials)).next).toBe('/auth/signin');
  });

  it('a failed sign-in clears everything and keeps the server message', async () => {
    storeUser();
    localStorage.setItem('impersonator', JSON.stringify(sessionUser()));
    server.use(
      http.post('/api/v1/signin', () => HttpResponse.json({ message: 'Invalid email, password or company host name' }, { status: 401 })),
    );
    await expect(signIn(credentials)).rejects.toThrow('Invalid email, password or company host name');
    expect(storedUser()).toBeNull();
    expect(localStorage.getItem('impersonator')).toBeNull();
  });

  it('routeAfterSignIn follows the same rules', () => {
    expect(routeAfterSignIn(null)).toBe('/auth/signin');
    expect(routeAfterSignIn(sessionUser({ requireOTP: true, auth: false }))).toBe('/auth/verify-otp');
    expect(routeAfterSignIn(sessionUser({ setupOTP: true, auth: false }))).toBe('/auth/register-2fa');
    expect(routeAfterSignIn(sessionUser())).toBe('/tables');
    expect(routeAfterSignIn(sessionUser({ auth: false }))).toBe('/auth/signin');
  });
});

describe('two-factor and password calls', () => {
  it('verifyOtp sends the pending token and stores the full user', async () => {
    storeUser(sessionUser({ auth: false, requireOTP: true, accessToken: 'pending', token: 'pending' }));
    let token: string | null = null;
    server.use(
      http.post('/api/v1/user/otp/verify', ({ request }) => {
        token = request.headers.get('x-access-token');
        return HttpResponse.json({ message: 'ok', user: sessionUser({ accessToken: 'full', token: 'full' }) });
      }),
    );
    const result = await verifyOtp('123456');
    expect(token).toBe('pending');
    expect(result.next).toBe('/tables');
    expect(storedUser()).toMatchObject({ accessToken: 'full', auth: true });
  });

  it('verifyResetToken posts { resetPasswordToken } and returns the grant', async () => {
    server.use(
      http.post('/api/v1/user/password/token/verify', async ({ request }) => {
        expect(await request.json()).toEqual({ resetPasswordToken: 'tok' });
        return HttpResponse.json({ message: 'ok', data: { email: 'ada@acme.test', clientId: 'grant-1' } });
      }),
    );
    // A server that sends no password rules: the default ones.
    expect(await verifyResetToken('tok')).toEqual({ email: 'ada@acme.test', clientId: 'grant-1', passwordPolicy: DEFAULT_PASSWORD_POLICY });
  });

  it('verifyActivationToken is verified only on an accepted token', async () => {
    server.use(http.post('/api/v1/user/verify', () => HttpResponse.json({ message: 'ok', data: { email: 'new@acme.test' } })));
    // A server that does not name the company leaves the host name to the person.
    expect(await verifyActivationToken('tok')).toEqual({
      email: 'new@acme.test',
      companyHostname: '',
      verified: true,
      passwordPolicy: DEFAULT_PASSWORD_POLICY,
    });
    server.use(
      http.post('/api/v1/user/verify', () =>
        HttpResponse.json({ message: 'ok', data: { email: 'new@acme.test', companyHostname: 'acme' } }),
      ),
    );
    expect((await verifyActivationToken('tok')).companyHostname).toBe('acme');
    server.use(
      http.post('/api/v1/user/verify', () => HttpResponse.json({ message: 'ok', data: { email: 'new@acme.test', verified: false } })),
    );
    expect((await verifyActivationToken('tok')).verified).toBe(false);
  });

  it('changePassword returns the fixed text whatever the server says, and forgets the session', async () => {
    storeUser();
    server.use(http.post('/api/v1/user/password', () => HttpResponse.json({ message: 'Password changed' })));
    expect(await changePassword({ oldPassword: 'old-password-1', newPassword: 'new-password-1' })).toEqual({
      message: PASSWORD_UPDATED_MESSAGE,
    });
    expect(storedUser()).toBeNull();
  });
});

describe('logout', () => {
  it('ends the session on the server with the stored token and clears storage', async () => {
    storeUser(sessionUser({ accessToken: 'tok-9', token: 'tok-9' }));
    localStorage.setItem('impersonator', JSON.stringify(sessionUser()));
    const tokens: (string | null)[] = [];
    server.use(
      http.put('/api/v1/session/logout', ({ request }) => {
        tokens.push(request.headers.get('x-access-token'));
        return HttpResponse.json({ message: 'Signed out' });
      }),
    );
    await logout();
    expect(tokens).toEqual(['tok-9']);
    expect(storedUser()).toBeNull();
    expect(localStorage.getItem('impersonator')).toBeNull();
  });

  it('ignores a failure of the server call', async () => {
    storeUser();
    server.use(http.put('/api/v1/session/logout', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 })));
    await expect(logout()).resolves.toBeUndefined();
    expect(storedUser()).toBeNull();
  });

  it('calls nothing without a stored token', async () => {
    // An unhandled request would fail the test (onUnhandledRequest: 'error').
    await expect(logout()).resolves.toBeUndefined();
  });
});
