import { useState } from 'react';
import { useNotify } from 'react-admin';
import { endImpersonation, startImpersonation } from '../../providers/impersonation';
import { getImpersonator } from '../../providers/storage';
import type { SessionUser } from '../../providers/types';
import { useSessionUser } from './session';

export interface ImpersonationSession {
  /** The user the console is signed in as. */
  user: SessionUser | null;
  /** The admin behind the session, or null when this is nobody's impersonation. */
  impersonator: SessionUser | null;
  returning: boolean;
  returnToMyAccount(): void;
}

export function useImpersonationSession(): ImpersonationSession {
  const user = useSessionUser();
  const [impersonator] = useState(getImpersonator);
  const [returning, setReturning] = useState(false);
  return {
    user,
    impersonator,
    returning,
    returnToMyAccount() {
      setReturning(true);
      // The page reloads at the admin's landing page; nothing to do afterwards.
      void endImpersonation();
    },
  };
}

/** "Sign in as": which user is being switched to, and the action; a refusal shows as a toast. */
export function useSignInAs(): { pendingUserId: string | null; signInAs(userId: string): void } {
  const notify = useNotify();
  const [pendingUserId, setPendingUserId] = useState<string | null>(null);
  return {
    pendingUserId,
    signInAs(userId) {
      setPendingUserId(userId);
      startImpersonation(userId).catch((error: unknown) => {
        setPendingUserId(null);
        notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      });
    },
  };
}
