import { z } from 'zod';
import { answer, timestamp } from '../answers';

/** The answers of signing in, two-factor authentication and passwords (docs/api.md, "Authentication"). */

/** A page of the console's menu. */
export const navChild = z.object({ id: z.string(), title: z.string(), url: z.string(), icon: z.string() });

/** A group of the console's menu and its pages. */
export const navGroup = z.object({
  id: z.string(),
  title: z.string(),
  type: z.literal('group'),
  /** A Material icon name. */
  icon: z.string(),
  children: z.array(navChild),
});

/** The admin behind an impersonation session. */
export const impersonator = z.object({
  id: z.string(),
  email: z.string(),
  /** Their full name, else their email. */
  name: z.string(),
});

/**
 * The session user: what sign-in, two-factor verification and enrolment, and impersonation
 * answer; the console keeps it as `user` (docs/api.md, "The session user").
 */
export const sessionUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  companyHostname: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  isAdmin: z.boolean(),
  /** The session's token, sent back as the `x-access-token` header. */
  accessToken: z.string(),
  /** The same token as `accessToken`. */
  token: z.string(),
  /** Analytics id: random and stable, never the user's real id. */
  ga_user_id: z.string(),
  /** Fully signed in: the token opens every route the role allows. */
  auth: z.boolean(),
  /** Two-factor is on: the token only opens `POST /user/otp/verify`. */
  requireOTP: z.boolean(),
  /** Two-factor is required but not set up: the token only opens the enrolment calls. */
  setupOTP: z.boolean(),
  otpEnabled: z.boolean(),
  /** When the token stops working. */
  expiresAt: timestamp,
  /** The role's menu; empty until the sign-in is complete. */
  navItems: z.object({ userNavItemJson: z.object({ items: z.array(navGroup) }) }),
  /** On an impersonation session, the admin behind it. */
  impersonator: impersonator.nullable(),
});
export type SessionUser = z.infer<typeof sessionUser>;

/** `{ message, user }`: a session opened or moved on a step. */
export const sessionUserAnswer = z.object({ message: z.string(), user: sessionUser });

/**
 * `POST /user/otp/register`: the session user, and the ten recovery codes made as two-factor was
 * turned on (shown this once; a server without recovery codes leaves them out).
 */
export const otpRegisterAnswer = sessionUserAnswer.extend({ recoveryCodes: z.array(z.string()).optional() });

/** A company's password rules, as the forms that choose a password check them (common/password-policy.ts). */
export const passwordPolicyAnswer = z.object({
  minLength: z.number().int(),
  requireUppercase: z.boolean(),
  requireLowercase: z.boolean(),
  requireDigit: z.boolean(),
  requireSymbol: z.boolean(),
});

/** `GET /user/otp/setup`: a new secret to enrol in an authenticator app. */
export const otpSetupAnswer = answer(
  z.object({
    /** The TOTP secret (base32), for typing in by hand. */
    secret: z.string(),
    /** The `otpauth://` URI the QR code holds. */
    otpauthUrl: z.string(),
    /** The QR code as a `data:image/png;base64,…` URL. */
    qrCodeDataUrl: z.string(),
  }),
);

/** `POST /user/password/token/verify`: the reset link is valid. */
export const resetLinkAnswer = answer(
  z.object({
    email: z.string(),
    /** The grant to send back with the new password (`POST /user/password/reset`). */
    clientId: z.string(),
    passwordPolicy: passwordPolicyAnswer,
  }),
);
