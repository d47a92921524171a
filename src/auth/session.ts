import { getStoredUser, isSignedIn } from '../../providers/storage';
import type { SessionUser } from '../../providers/types';

/** How far the stored user got: signed out, waiting for a two-factor step, or signed in. */
export type SessionStage = 'signedOut' | 'verifyOtp' | 'setupOtp' | 'signedIn';

export function sessionStage(user: SessionUser | null = getStoredUser()): SessionStage {
  if (isSignedIn(user)) return 'signedIn';
  const hasToken = Boolean(user?.accessToken || user?.token);
  if (hasToken && user?.requireOTP) return 'verifyOtp';
  if (hasToken && user?.setupOTP) return 'setupOtp';
  return 'signedOut';
}
