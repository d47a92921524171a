import { authReducer, initialAuthState, type AuthState } from '../../../providers/authState';
import { sessionUser, storeUser } from '../fixtures';

const base = (): AuthState => initialAuthState();

describe('authReducer (spec sections 3 and 4)', () => {
  it('starts logged in only when a signed-in user is stored', () => {
    expect(initialAuthState()).toMatchObject({ loggedIn: false, user: null, loading: false, error: null });
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    expect(initialAuthState().loggedIn).toBe(false);
    storeUser();
    expect(initialAuthState()).toMatchObject({ loggedIn: true, user: { email: 'ada@acme.test' } });
  });

  it('request sets loading; success clears it; failure stores the error text', () => {
    const loading = authReducer(base(), { type: 'request' });
    expect(loading.loading).toBe(true);
    expect(authReducer(loading, { type: 'success' })).toMatchObject({ loading: false, error: null });
    expect(authReducer(loading, { type: 'failure', error: 'Nope' })).toMatchObject({ loading: false, error: 'Nope' });
  });

  it('login success sets loggedIn and the user; login failure and logout clear everything', () => {
    const user = sessionUser();
    const signedIn = authReducer(base(), { type: 'loginSuccess', user });
    expect(signedIn).toMatchObject({ loggedIn: true, user, email: 'ada@acme.test' });
    const pending = authReducer(base(), { type: 'loginSuccess', user: sessionUser({ auth: false, requireOTP: true }) });
    expect(pending.loggedIn).toBe(false);

    const dirty = { ...signedIn, allowReset: true, clientId: 'c', allowCreate: true };
    expect(authReducer(dirty, { type: 'loginFailure', error: 'Bad password' })).toEqual({ ...initialAuthState(), error: 'Bad password' });
    expect(authReducer(dirty, { type: 'logout' })).toEqual({ ...initialAuthState(), loggedIn: false, user: null });
  });

  it('token verification sets allowReset and the grant; activation sets allowCreate only when verified', () => {
    expect(authReducer(base(), { type: 'resetTokenVerified', email: 'a@b.co', clientId: 'grant' })).toMatchObject({
      allowReset: true,
      email: 'a@b.co',
      clientId: 'grant',
    });
    expect(authReducer(base(), { type: 'activationTokenChecked', email: 'a@b.co', verified: true }).allowCreate).toBe(true);
    expect(authReducer(base(), { type: 'activationTokenChecked', email: 'a@b.co', verified: false }).allowCreate).toBe(false);
  });

  it('clear resets the flow but keeps the session', () => {
    const user = sessionUser();
    const state = { ...base(), loggedIn: true, user, error: 'x', allowReset: true, loading: true };
    expect(authReducer(state, { type: 'clear' })).toMatchObject({ loggedIn: true, user, error: null, allowReset: false, loading: false });
  });
});
