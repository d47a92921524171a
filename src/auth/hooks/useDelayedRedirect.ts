import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

interface Pending {
  to: string;
  delayMs: number;
}

/**
 * Goes to a route after a delay (spec section 9), counting the seconds down for the screen.
 * The timers end with the screen, so leaving early cancels the redirect.
 */
export function useDelayedRedirect() {
  const navigate = useNavigate();
  const [pending, setPending] = useState<Pending | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (!pending) return;
    const redirect = setTimeout(() => navigate(pending.to, { replace: true }), pending.delayMs);
    const countdown = setInterval(() => setSecondsLeft((seconds) => Math.max(0, seconds - 1)), 1000);
    return () => {
      clearTimeout(redirect);
      clearInterval(countdown);
    };
  }, [pending, navigate]);

  const redirectAfter = useCallback((to: string, delayMs: number) => {
    setSecondsLeft(Math.ceil(delayMs / 1000));
    setPending({ to, delayMs });
  }, []);

  return { redirectAfter, target: pending?.to ?? null, secondsLeft };
}

export type DelayedRedirect = ReturnType<typeof useDelayedRedirect>;
