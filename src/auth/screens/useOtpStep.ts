import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { SignInResult } from '../../../providers/authActions';
import { useAuthState } from '../../../providers/authState';
import { startLandingCalls } from '../../shell/landingCalls';
import { useOtpCode } from '../hooks/useOtpCode';

/**
 * A two-factor step (verifying a code, or confirming a new enrolment): sends the code and,
 * once accepted, follows the sign-in result like a sign-in does.
 */
export function useOtpStep(send: (code: string) => Promise<SignInResult>) {
  const navigate = useNavigate();
  const auth = useAuthState();
  const { run } = auth;

  const confirm = useCallback(
    async (code: string) => {
      const outcome = await run(() => send(code), {
        onSuccess: (result) => (result.user ? { type: 'loginSuccess', user: result.user } : { type: 'logout' }),
      });
      if (outcome.ok) {
        startLandingCalls(outcome.value);
        navigate(outcome.value.next, { replace: true });
      }
      return outcome.ok;
    },
    [run, send, navigate],
  );

  return { ...auth, otp: useOtpCode(confirm) };
}
