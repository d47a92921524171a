import { useQuery } from '@tanstack/react-query';
import { getOtpStatus, getOwnSessions } from './securityApi';

export const OTP_STATUS_KEY = ['profile', 'otpStatus'];
export const OWN_SESSIONS_KEY = ['profile', 'ownSessions'];

/** The caller's two-factor status; `data` is null when the server does not offer the call. */
export function useOtpStatus() {
  return useQuery({ queryKey: OTP_STATUS_KEY, queryFn: ({ signal }) => getOtpStatus(signal), retry: false });
}

/** The caller's own signed-in sessions; `data` is null when the server does not offer the call. */
export function useOwnSessions() {
  return useQuery({ queryKey: OWN_SESSIONS_KEY, queryFn: ({ signal }) => getOwnSessions(signal), retry: false });
}
