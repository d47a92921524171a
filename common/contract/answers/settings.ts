import { z } from 'zod';
import { answer, timestamp } from '../answers';

/** A company's settings, in two groups (docs/api/settings.md; the rules are common/settings.ts). */

/** The password rules of the company (`GET /settings/password-policy`, and the service group's `passwordPolicy`). */
export const passwordPolicy = z.object({
  minLength: z.number().int(),
  requireUppercase: z.boolean(),
  requireLowercase: z.boolean(),
  requireDigit: z.boolean(),
  requireSymbol: z.boolean(),
});

/** The service group's values. */
export const serviceSettingsValues = z.object({
  /** How long a new full session lasts; this server's SESSION_TTL_MINUTES until the company sets it. */
  sessionLifetimeMinutes: z.number().int(),
  passwordPolicy,
  /** Everyone must sign in with a second factor. */
  requireTwoFactor: z.boolean(),
  /** The domains users' emails must be at; empty: any. */
  allowedEmailDomains: z.array(z.string()),
  /** Days system audits and access events are kept; null: forever. */
  auditRetentionDays: z.number().int().nullable(),
  /** Days workflow runs are kept; null: forever. */
  runRetentionDays: z.number().int().nullable(),
  /** The failing rows each data-quality rule keeps per run (1 to 1,000; 20 by default). */
  qualitySampleRows: z.number().int(),
});

/** The email group's values: the company's own SMTP server, never its password. */
export const emailSettingsValues = z.object({
  /** '' while the company's mail goes out the instance's way (see `instanceTransport`). */
  host: z.string(),
  port: z.number().int(),
  /** TLS from the first byte (usually port 465); false: plain, upgraded with STARTTLS when offered. */
  secure: z.boolean(),
  /** '' when the server takes mail without signing in. */
  username: z.string(),
  fromAddress: z.string(),
  fromName: z.string(),
  /** A password is kept (never answered). */
  passwordSet: z.boolean(),
});

/** Who last changed a group: all null while it has its defaults. */
const lastChange = {
  updatedAt: timestamp.nullable(),
  updatedBy: z.string().nullable(),
  /** Their full name, else their email. */
  updatedByName: z.string().nullable(),
};

/** One group of settings (`id` is one of SETTINGS_GROUPS): its values, what they are before anyone sets them, and its last change. */
export const settingsGroup = z.discriminatedUnion('id', [
  z.object({
    id: z.literal('service'),
    label: z.string(),
    values: serviceSettingsValues,
    /** What the values are before anyone sets them (the session lifetime is this server's SESSION_TTL_MINUTES). */
    defaults: serviceSettingsValues,
    ...lastChange,
  }),
  z.object({
    id: z.literal('email'),
    label: z.string(),
    values: emailSettingsValues,
    /** What the values are before anyone sets them. */
    defaults: emailSettingsValues,
    ...lastChange,
    /** How the company's mail goes out while no host is set: the server's SMTP_URL, or the outbox alone. */
    instanceTransport: z.enum(['smtp', 'outbox']),
  }),
]);
export type SettingsGroup = z.infer<typeof settingsGroup>;

/** `GET /settings`: both groups, service first. */
export const settingsAnswer = answer(z.array(settingsGroup));

/** `GET /settings/{id}` and `PUT /settings/{id}` (the group as saved). */
export const settingsGroupAnswer = answer(settingsGroup);

export const passwordPolicyAnswer = answer(passwordPolicy);

/** `POST /settings/email/test`: whether the server took the mail, in its own words either way (a failure is still a 200). */
export const testMailAnswer = answer(
  z.object({
    ok: z.boolean(),
    /** The SMTP server's answer (`250 Accepted …`), or why it failed. */
    detail: z.string(),
    to: z.string(),
    /** `host:port` it went to. */
    server: z.string(),
  }),
);
