import { z } from 'zod';
import { disableOtpBody, regenerateRecoveryCodesBody } from '../schemas/security';
import { recordId } from '../schemas/users';
import { pageOf } from './answers';
import { defineAction } from './define';
import { sessionRow } from './sessions';

/**
 * The signed-in user's own security calls, which the profile's Security section makes, and the
 * admin's reset of someone's two-factor (docs/api.md, "Two-factor and sessions"). All are
 * additions to the spec's contract: a server without them answers 404, and the console then
 * leaves out what they serve.
 */

/** `GET /user/otp/status`: whether two-factor is on, whether it may be turned off, and the recovery codes left. */
export const otpStatus = z.object({
  otpEnabled: z.boolean(),
  /** The company ("two-factor for everyone") or an admin requires it: it cannot be turned off. */
  otpRequired: z.boolean(),
  /** Unused recovery codes (0 while two-factor is off). */
  recoveryCodesLeft: z.number().int(),
});
export type OtpStatus = z.infer<typeof otpStatus>;

/** New recovery codes: shown this once, never again. */
export const recoveryCodesData = z.object({ codes: z.array(z.string()) });

export const securityActions = {
  otpStatus: defineAction({ path: '/user/otp/status', method: 'GET', summary: 'Your two-factor status', data: otpStatus }),
  disableOtp: defineAction({
    path: '/user/otp/disable',
    method: 'POST',
    summary: 'Turn two-factor authentication off (password and a current code)',
    body: disableOtpBody,
  }),
  regenerateRecoveryCodes: defineAction({
    path: '/user/otp/recovery-codes',
    method: 'POST',
    summary: 'Replace your recovery codes with ten new ones',
    body: regenerateRecoveryCodesBody,
    data: recoveryCodesData,
  }),
  ownSessions: defineAction({
    path: '/user/sessions',
    method: 'GET',
    summary: 'Your signed-in sessions',
    data: pageOf(sessionRow),
  }),
  endOwnSession: defineAction({ path: '/user/sessions/{id}', method: 'DELETE', summary: 'End one of your sessions' }),
  resetUserOtp: defineAction({
    path: '/user/{userId}/otp/reset',
    method: 'POST',
    summary: "Reset a user's two-factor authentication",
    params: { userId: recordId },
  }),
} as const;
