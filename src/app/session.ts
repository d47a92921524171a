import { useState } from 'react';
import { getStoredUser } from '../../providers/storage';
import type { SessionUser } from '../../providers/types';

/**
 * The stored session user, read once per mount: it only changes across a sign-in or an
 * impersonation, and both load the main app afresh.
 */
export function useSessionUser(): SessionUser | null {
  return useState(getStoredUser)[0];
}
