import { AUTH_PATHS } from './authPaths';
import { firstNavigationUrl } from './firstNavigationUrl';
import { apiRequest } from './http';
import { navigateTo, reloadAt } from './navigation';
import { clearImpersonator, getAccessToken, getImpersonator, getStoredUser, setImpersonator, setStoredUser } from './storage';
import type { SessionUser } from './types';

/**
 * Admins signing in as another user of their company (spec sections 4 and 6).
 *
 * The server opens a new session for the user and keeps the admin's own session open; the
 * console keeps the admin's stored user aside (storage `impersonator`) to go back to it.
 */

/** A session that can be entered as it is: signed in, with no two-factor step pending. */
function isUsable(user: SessionUser | undefined | null): user is SessionUser {
  return Boolean(user && user.auth === true && !user.requireOTP && !user.setupOTP && (user.accessToken || user.token));
}

export async function startImpersonation(userId: string): Promise<void> {
  const { user } = await apiRequest<{ user?: SessionUser }>('/user/impersonate', { method: 'POST', body: { userId } });
  if (!isUsable(user)) {
    navigateTo(AUTH_PATHS.signIn);
    return;
  }
  // Signing in as someone else while already impersonating keeps the original admin to return to.
  const admin = getImpersonator() ?? getStoredUser();
  if (admin) setImpersonator(admin);
  setStoredUser(user);
  reloadAt(firstNavigationUrl(user));
}

export async function endImpersonation(): Promise<void> {
  const admin = getImpersonator();
  if (!admin) return;
  const token = getAccessToken();
  try {
    // Sent as a public call with the token by hand: if the impersonation session has ended
    // already, the 401 must not clear the stored users and send the admin to sign-in.
    await apiRequest('/session/logout', { method: 'PUT', body: {}, public: true, headers: token ? { 'x-access-token': token } : {} });
  } catch {
    // Going back to the admin's account does not depend on ending this session.
  }
  setStoredUser(admin);
  clearImpersonator();
  reloadAt(firstNavigationUrl(admin));
}

export function displayName(user: Pick<SessionUser, 'firstName' | 'lastName' | 'email'> | null | undefined): string {
  const name = [user?.firstName, user?.lastName].filter(Boolean).join(' ').trim();
  return name || user?.email || '';
}
