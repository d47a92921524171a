import { useCallback, useReducer } from 'react';
import { alerts } from './alerts';
import { ApiError } from './http';
import { authMessages } from './i18n/auth-messages';
import { getStoredUser, isSignedIn } from './storage';
import type { SessionUser } from './types';

/** The authentication state of spec section 3. */
export interface AuthState {
  loggedIn: boolean;
  user: SessionUser | null;
  email: string;
  /** Set by the activation-token check: true only when the token was verified. */
  allowCreate: boolean;
  /** Set by the reset-token check. */
  allowReset: boolean;
  /** The grant returned by the reset-token check, sent back with the new password. */
  clientId: string;
  loading: boolean;
  error: string | null;
}

export type AuthAction =
  | { type: 'request' }
  | { type: 'success' }
  | { type: 'failure'; error: string }
  | { type: 'loginSuccess'; user: SessionUser }
  | { type: 'loginFailure'; error: string }
  | { type: 'logout' }
  | { type: 'resetTokenVerified'; email: string; clientId: string }
  | { type: 'activationTokenChecked'; email: string; verified: boolean }
  /** Resending a verification clears the state on either outcome (spec section 4). */
  | { type: 'clear' };

const SIGNED_OUT: AuthState = {
  loggedIn: false,
  user: null,
  email: '',
  allowCreate: false,
  allowReset: false,
  clientId: '',
  loading: false,
  error: null,
};

/** Starting state: logged in when a signed-in user is stored in the browser. */
export function initialAuthState(): AuthState {
  const user = getStoredUser();
  return isSignedIn(user) ? { ...SIGNED_OUT, loggedIn: true, user } : SIGNED_OUT;
}

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'request':
      return { ...state, loading: true, error: null };
    case 'success':
      return { ...state, loading: false, error: null };
    case 'failure':
      return { ...state, loading: false, error: action.error };
    case 'loginSuccess':
      return {
        ...state,
        loading: false,
        error: null,
        loggedIn: isSignedIn(action.user),
        user: action.user,
        email: action.user.email ?? state.email,
      };
    case 'loginFailure':
      return { ...SIGNED_OUT, error: action.error };
    case 'logout':
      return SIGNED_OUT;
    case 'resetTokenVerified':
      return { ...state, loading: false, error: null, allowReset: true, email: action.email, clientId: action.clientId };
    case 'activationTokenChecked':
      return { ...state, loading: false, error: null, allowCreate: action.verified, email: action.email };
    case 'clear':
      return { ...SIGNED_OUT, loggedIn: state.loggedIn, user: state.user };
  }
}

/** The text to show for a failed call: the server's message, or a plain one for a lost network. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return authMessages.auth.errors.network;
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

export type TaskOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown; message: string };

export interface TaskOptions<T> {
  /** The action for a success; `{ type: 'success' }` when absent. */
  onSuccess?: (value: T) => AuthAction;
  /** The action for a failure; `{ type: 'failure' }` when absent. */
  onFailure?: (message: string) => AuthAction;
  /** A success text for the alert bar; without one the alert bar is cleared. */
  successAlert?: (value: T) => string | null | undefined;
}

/**
 * The authentication state of one screen, and `run`, which takes a call through the request,
 * success and failure steps of spec section 4 and mirrors them in the alert bar (loading, the
 * success text, the error as a danger alert).
 */
export function useAuthState() {
  const [state, dispatch] = useReducer(authReducer, undefined, initialAuthState);

  const run = useCallback(async <T>(task: () => Promise<T>, options: TaskOptions<T> = {}): Promise<TaskOutcome<T>> => {
    dispatch({ type: 'request' });
    alerts.loading();
    try {
      const value = await task();
      dispatch(options.onSuccess?.(value) ?? { type: 'success' });
      const text = options.successAlert?.(value);
      if (text) alerts.success(text);
      else alerts.clear();
      return { ok: true, value };
    } catch (error) {
      const message = errorText(error);
      dispatch(options.onFailure?.(message) ?? { type: 'failure', error: message });
      alerts.error(message);
      return { ok: false, error, message };
    }
  }, []);

  return { state, dispatch, run };
}
