import type { Identifier } from 'react-admin';

/** The sessions list filtered to one user: the "Sessions of this user" view. */
export function userSessionsUrl(userId: Identifier): string {
  return `/sessions?filter=${encodeURIComponent(JSON.stringify({ user: String(userId) }))}`;
}
