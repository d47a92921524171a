import { useCallback, useState } from 'react';
import { getOtpSetup, registerOtp, type OtpSetup } from '../../../providers/authActions';
import { useMountEffect } from '../hooks/useMountEffect';
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

/** Two-factor enrolment: fetches a new key once, then confirms it with a code from the app. */
export function useRegisterTwoFactor() {
  const step = useOtpStep(registerOtp);
  const [setup, setSetup] = useState<OtpSetup | null>(null);
  const [copied, setCopied] = useState(false);

  const { run } = step;
  const loadSetup = useCallback(() => {
    void run(getOtpSetup).then((outcome) => {
      if (outcome.ok) setSetup(outcome.value);
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

  return { ...step, setup, loadSetup, groupedSecret: setup ? groupSecret(setup.secret) : '', copied, copySecret };
}
