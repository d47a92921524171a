import { useState } from 'react';
import { useMountEffect } from './useMountEffect';

export type TokenStatus = 'checking' | 'valid' | 'invalid';

/** Checks a link's token once when the screen opens; a missing token is simply invalid. */
export function useTokenCheck(token: string, check: (token: string) => Promise<boolean>): TokenStatus {
  const [status, setStatus] = useState<TokenStatus>(token ? 'checking' : 'invalid');
  useMountEffect(() => {
    if (!token) return;
    void check(token).then((valid) => setStatus(valid ? 'valid' : 'invalid'));
  });
  return status;
}
