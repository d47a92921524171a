import { useEffect, useRef } from 'react';

/**
 * Runs `effect` once per mounted screen, also under StrictMode's double mount: for calls that
 * must not be sent twice (the two-factor setup restarts enrolment, logout ends the session).
 */
export function useMountEffect(effect: () => void): void {
  const ran = useRef(false);
  const latest = useRef(effect);
  latest.current = effect;
  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    latest.current();
  }, []);
}
