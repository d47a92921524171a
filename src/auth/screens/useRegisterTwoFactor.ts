import { useCallback, useState } from 'react';
import { getOtpSetup, registerOtp, type OtpSetup } from '../../../providers/authActions';
import { alerts } from '../../../providers/alerts';
import { ApiError } from '../../../providers/http';
import { useMountEffect } from '../hooks/useMountEffect';
import { sessionStage } from '../session';
import { useOtpStep } from './useOtpStep';

/** Groups a base32 key in fours so it can be read out and typed: "ABCD EFGH IJKL". */
export function groupSecret(secret: string): string {
  return (
    secret
      .replace(/\s+/g, '')
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/**
 * Two-factor enrolment: fetches a new key once, then confirms it with a code from the app. A
 * signed-in user who has it on already (the server answers 409) is `alreadyOn`: the screen then
 * sends them to the profile's Security section, where it can be turned off or its codes renewed.
 */
export function useRegisterTwoFactor() {
  const step = useOtpStep(registerOtp);
  const [setup, setSetup] = useState<OtpSetup | null>(null);
  const [copied, setCopied] = useState(false);
  const [alreadyOn, setAlreadyOn] = useState(false);

  const { run } = step;
  const loadSetup = useCallback(() => {
    void run(getOtpSetup).then((outcome) => {
      if (outcome.ok) setSetup(outcome.value);
      else if (outcome.error instanceof ApiError && outcome.error.status === 409 && sessionStage() === 'signedIn') {
        // Not a failure for the user: the Security section says it is on and offers what to do.
        alerts.clear();
        setAlreadyOn(true);
      }
    });
  }, [run]);
  // Once on opening: each GET restarts the enrolment with a new key.
  useMountEffect(loadSetup);

  const copySecret = async () => {
    if (!setup) return;
    try {
      await navigator.clipboard.writeText(setup.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return { ...step, setup, loadSetup, groupedSecret: setup ? groupSecret(setup.secret) : '', copied, copySecret, alreadyOn };
}
