import { z } from 'zod';

/**
 * The bodies of the account's security calls (two-factor, recovery codes): shared by the server,
 * which checks them, and the console, which checks the same before sending.
 */

/** Letters and digits that cannot be mistaken for one another when read from paper (no 0/o, 1/l/i). */
export const RECOVERY_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_LENGTH = 10;

/** A recovery code as the user types it: case, spaces and hyphens do not matter. */
export function normaliseRecoveryCode(value: string): string {
  return value.replace(/[\s-]+/g, '').toLowerCase();
}

export const otpCode = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string of 6 digits') })
  .trim()
  .regex(/^\d{6}$/, 'must be the 6 digits shown by the authenticator app');

export const recoveryCode = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .max(40, 'is too long')
  .transform(normaliseRecoveryCode)
  .refine((value) => value.length === RECOVERY_CODE_LENGTH && [...value].every((c) => RECOVERY_CODE_ALPHABET.includes(c)), {
    message: 'must be one of your recovery codes, like abcde-fghjk',
  });

const password = z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'is too long');

/** A code from the authenticator app, or one of the recovery codes: exactly one of the two. */
function oneCode<T extends { otp?: string; recoveryCode?: string }>(body: T, ctx: z.RefinementCtx) {
  if (body.otp === undefined && body.recoveryCode === undefined) {
    ctx.addIssue({ code: 'custom', path: ['otp'], message: 'is required (or a recoveryCode)' });
  } else if (body.otp !== undefined && body.recoveryCode !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['recoveryCode'], message: 'give either otp or recoveryCode, not both' });
  }
}

/** `POST /user/otp/verify`: the sign-in's second step, with a code or a recovery code. */
export const verifyOtpBody = z.object({ otp: otpCode.optional(), recoveryCode: recoveryCode.optional() }).superRefine(oneCode);

/** `POST /user/otp/disable`: the password and a current code (or a recovery code). */
export const disableOtpBody = z.object({ password, otp: otpCode.optional(), recoveryCode: recoveryCode.optional() }).superRefine(oneCode);

/** `POST /user/otp/recovery-codes`: the password again, before new codes replace the old ones. */
export const regenerateRecoveryCodesBody = z.object({ password });
