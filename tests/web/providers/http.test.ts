import { http, HttpResponse } from 'msw';
import { ACCESS_DENIED_ALERT, ONBOARDING_SUCCESS_MESSAGE, PASSWORD_UPDATED_MESSAGE } from '../../../common/messages';
import { alerts } from '../../../providers/alerts';
import { ACCESS_DENIED_DELAY_MS, ApiError, apiRequest } from '../../../providers/http';
import { registerNavigator } from '../../../providers/navigation';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';

const navigate = vi.fn();

beforeEach(() => {
  navigate.mockReset();
  registerNavigator(navigate);
});
afterEach(() => {
  registerNavigator(null);
  alerts.clear();
  vi.useRealTimers();
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('apiRequest: the error catalogue of spec section 8', () => {
  it('rejects a non-2xx answer with the server message', async () => {
    server.use(
      http.get('/api/v1/users/active', () => HttpResponse.json({ message: 'email: must be a valid email address' }, { status: 400 })),
    );
    const error = await failure(apiRequest('/users/active'));
    expect(error.message).toBe('email: must be a valid email address');
    expect(error.status).toBe(400);
  });

  it('rejects with the status text when the answer carries no message', async () => {
    server.use(http.get('/api/v1/users/active', () => new HttpResponse(null, { status: 502, statusText: 'Bad Gateway' })));
    expect((await failure(apiRequest('/users/active'))).message).toBe('Bad Gateway');

    server.use(
      http.get('/api/v1/users/active', () =>
        HttpResponse.json({ detail: 'no message field' }, { status: 500, statusText: 'Internal Server Error' }),
      ),
    );
    expect((await failure(apiRequest('/users/active'))).message).toBe('Internal Server Error');
  });

  it('on 401 "Invalid JWT token" clears the stored user and goes to /auth/signin', async () => {
    storeUser();
    server.use(http.get('/api/v1/user/profile', () => HttpResponse.json({ message: 'Invalid JWT token' }, { status: 401 })));
    const error = await failure(apiRequest('/user/profile'));
    expect(error.status).toBe(401);
    expect(storedUser()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/auth/signin', { replace: true });
  });

  it('does not apply the 401 handling to the sign-in call itself', async () => {
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    server.use(http.post('/api/v1/signin', () => HttpResponse.json({ message: 'Invalid JWT token' }, { status: 401 })));
    await failure(apiRequest('/signin', { method: 'POST', body: {}, public: true }));
    expect(storedUser()).not.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('does not sign out on another 401 message', async () => {
    storeUser();
    server.use(
      http.get('/api/v1/user/profile', () =>
        HttpResponse.json({ message: 'Invalid email, password or company host name' }, { status: 401 }),
      ),
    );
    await failure(apiRequest('/user/profile'));
    expect(storedUser()).not.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('on 403 "Resource Access not provided" shows the access-denied alert after 1 s and goes to /dashboard', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    storeUser();
    server.use(
      http.get('/api/v1/admin/dashboard/cards', () => HttpResponse.json({ message: 'Resource Access not provided' }, { status: 403 })),
    );
    const error = await failure(apiRequest('/admin/dashboard/cards'));
    expect(error.status).toBe(403);
    expect(ACCESS_DENIED_DELAY_MS).toBe(1000);

    await vi.advanceTimersByTimeAsync(ACCESS_DENIED_DELAY_MS - 200);
    expect(navigate).not.toHaveBeenCalled();
    expect(alerts.get().type).toBeNull();

    await vi.advanceTimersByTimeAsync(250);
    expect(navigate).toHaveBeenCalledWith('/dashboard', expect.anything());
    expect(alerts.get()).toMatchObject({ type: 'danger', message: ACCESS_DENIED_ALERT });
    expect(ACCESS_DENIED_ALERT).toBe("You don't have access to this resources. Please contact resource owner/admin to provide access");
    // A 403 is not a sign-out.
    expect(storedUser()).not.toBeNull();
  });

  it('sends x-access-token only when the stored user has a token', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.get('/api/v1/user/profile', ({ request }) => {
        seen.push(request.headers.get('x-access-token'));
        return HttpResponse.json({ message: 'ok' });
      }),
    );
    await apiRequest('/user/profile');
    storeUser(sessionUser({ accessToken: undefined, token: undefined }));
    await apiRequest('/user/profile');
    storeUser(sessionUser({ accessToken: 'abc', token: 'abc' }));
    await apiRequest('/user/profile');
    await apiRequest('/user/profile', { public: true });
    expect(seen).toEqual([null, null, 'abc', null]);
  });
});

describe('the fixed success texts of spec section 8', () => {
  it('keeps the exact wording', () => {
    expect(PASSWORD_UPDATED_MESSAGE).toBe('Password Updated SuccessFully');
    expect(ONBOARDING_SUCCESS_MESSAGE).toMatch(/sign in/i);
  });
});
