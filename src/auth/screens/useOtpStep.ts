import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import type { SignInResult } from '../../../providers/authActions';
import { useAuthState } from '../../../providers/authState';
import { startLandingCalls } from '../../shell/landingCalls';
import { useOtpCode } from '../hooks/useOtpCode';

/**
 * A two-factor step (verifying a code, or confirming a new enrolment): sends the code and,
 * once accepted, follows the sign-in result like a sign-in does. A result that brings new
 * recovery codes is held until the user has seen them and chooses to go on (`proceed`).
 */
export function useOtpStep(send: (code: string) => Promise<SignInResult>) {
  const navigate = useNavigate();
  const auth = useAuthState();
  const { run } = auth;
  const [held, setHeld] = useState<SignInResult | null>(null);

  const go = useCallback(
    (result: SignInResult) => {
      startLandingCalls(result);
      navigate(result.next, { replace: true });
    },
    [navigate],
  );

  const confirm = useCallback(
    async (code: string) => {
      const outcome = await run(() => send(code), {
        onSuccess: (result) => (result.user ? { type: 'loginSuccess', user: result.user } : { type: 'logout' }),
      });
      if (outcome.ok) {
        if (outcome.value.recoveryCodes?.length) setHeld(outcome.value);
        else go(outcome.value);
      }
      return outcome.ok;
    },
    [run, send, go],
  );

  const proceed = useCallback(() => {
    if (held) go(held);
  }, [held, go]);

  return { ...auth, confirm, otp: useOtpCode(confirm), recoveryCodes: held?.recoveryCodes ?? null, proceed };
}
