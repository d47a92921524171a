import type { SessionUser } from './types';

/** Storage keys. `user` is the spec's; the others are the console's own. */
export const USER_KEY = 'user';
/** While impersonating: the admin's own stored user, to go back to. */
export const IMPERSONATOR_KEY = 'impersonator';

function read(key: string): SessionUser | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' ? (value as SessionUser) : null;
  } catch {
    return null;
  }
}

export function getStoredUser(): SessionUser | null {
  return read(USER_KEY);
}

export function setStoredUser(user: SessionUser): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function clearStoredUser(): void {
  localStorage.removeItem(USER_KEY);
}

/** The token to send, or null: only a stored user that has a token sends one (spec section 6). */
export function getAccessToken(): string | null {
  const user = getStoredUser();
  return user?.accessToken || user?.token || null;
}

/** Signed in means: a stored user whose sign-in finished (no two-factor step pending). */
export function isSignedIn(user: SessionUser | null = getStoredUser()): boolean {
  return Boolean(user && user.auth === true && (user.accessToken || user.token));
}

export function getImpersonator(): SessionUser | null {
  return read(IMPERSONATOR_KEY);
}

export function setImpersonator(user: SessionUser): void {
  localStorage.setItem(IMPERSONATOR_KEY, JSON.stringify(user));
}

export function clearImpersonator(): void {
  localStorage.removeItem(IMPERSONATOR_KEY);
}

/** Logout and failed sign-in clear everything the console keeps about the user. */
export function clearSession(): void {
  clearStoredUser();
  clearImpersonator();
}
