import { generateSecret, generateURI, verify } from 'otplib';

/** Time-based one-time codes (RFC 6238) as authenticator apps make them: 30-second steps, 6 digits. */
export const TOTP_ISSUER = 'DataOps Console';
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step either way: a phone clock a little off, or a code typed just as it rolled over. */
const DRIFT_SECONDS = TOTP_PERIOD_SECONDS;

export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// address an authenticator app reads from the QR code; labelled "<hostname>:<email>". */
export function totpUri(secret: string, companyHostname: string, email: string): string {
  return generateURI({
    issuer: TOTP_ISSUER,
    label: `${companyHostname}:${email}`,
    secret,
    period: TOTP_PERIOD_SECONDS,
    digits: TOTP_DIGITS,
  });
}

/** The time step the code belongs to (within the drift allowed), or null when it matches none. */
export async function matchTotp(secret: string, code: string, nowMs = Date.now()): Promise<number | null> {
  try {
    const result = await verify({
      secret,
      token: code,
      period: TOTP_PERIOD_SECONDS,
      digits: TOTP_DIGITS,
      epoch: Math.floor(nowMs / 1000),
      epochTolerance: DRIFT_SECONDS,
    });
    // The result type also covers HOTP, whose matches carry no time step.
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    // otplib throws on a malformed code; for the caller that is simply a wrong code.
    return null;
  }
}
