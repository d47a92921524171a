import { securityActions, type OtpStatus } from '../../../common/contract/security';
import type { Session } from '../../../common/contract/sessions';
import { callAction } from '../../../providers/dataProvider';
import { ApiError } from '../../../providers/http';
import { getStoredUser, setStoredUser } from '../../../providers/storage';

/**
 * The profile's Security calls (common/contract/security.ts). They are additions to the spec's
 * contract: a server without one answers 404, and the reads below then give null so that the
 * section leaves out what the call serves.
 */

async function unlessMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function getOtpStatus(signal?: AbortSignal): Promise<OtpStatus | null> {
  return unlessMissing(async () => (await callAction(securityActions.otpStatus, { signal })).data);
}

export function getOwnSessions(signal?: AbortSignal): Promise<Session[] | null> {
  return unlessMissing(async () => (await callAction(securityActions.ownSessions, { signal })).data.rows);
}

/** The code typed in the turn-off form: six digits are the app's code, anything else a recovery code. */
export function codeBody(code: string): { otp: string } | { recoveryCode: string } {
  const trimmed = code.trim();
  return /^\d{6}$/.test(trimmed) ? { otp: trimmed } : { recoveryCode: trimmed };
}

/** Keeps the stored session user's flag in step, so the two-factor screen and menu read it right. */
function rememberOtpEnabled(otpEnabled: boolean): void {
  const user = getStoredUser();
  if (user && user.otpEnabled !== otpEnabled) setStoredUser({ ...user, otpEnabled });
}

export async function disableOtp(password: string, code: string): Promise<string | undefined> {
  const answer = await callAction(securityActions.disableOtp, { body: { password, ...codeBody(code) } });
  rememberOtpEnabled(false);
  return answer.message;
}

export async function regenerateRecoveryCodes(password: string): Promise<{ message?: string; codes: string[] }> {
  const answer = await callAction(securityActions.regenerateRecoveryCodes, { body: { password } });
  return { message: answer.message, codes: answer.data.codes };
}

export async function endOwnSession(id: string): Promise<string | undefined> {
  return (await callAction(securityActions.endOwnSession, { values: { id } })).message;
}
