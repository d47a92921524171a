import { z } from 'zod';
import { DEFAULT_PASSWORD_POLICY, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH_FLOOR, type PasswordPolicy } from './password-policy';

/**
 * A company's settings (docs/api/settings.md), in two groups: `service` (sessions, passwords,
 * two-factor, who may be invited, how long records are kept) and `email` (the company's own SMTP
 * server). The server checks bodies with these schemas and the console's settings forms use the
 * same ones, so both say the same thing about the same field.
 */

export const SETTINGS_GROUPS = ['service', 'email'] as const;
export type SettingsGroupId = (typeof SETTINGS_GROUPS)[number];

export const SETTINGS_GROUP_LABELS: Record<SettingsGroupId, string> = {
  service: 'Service settings',
  email: 'Email settings',
};

export function isSettingsGroup(value: string): value is SettingsGroupId {
  return (SETTINGS_GROUPS as readonly string[]).includes(value);
}

/** The bounds of each number a company may set. */
export const SETTING_LIMITS = {
  /** 15 minutes to 30 days. */
  sessionLifetimeMinutes: { min: 15, max: 43_200 },
  passwordMinLength: { min: PASSWORD_MIN_LENGTH_FLOOR, max: PASSWORD_MAX_LENGTH },
  auditRetentionDays: { min: 30, max: 3650 },
  runRetentionDays: { min: 7, max: 3650 },
  /** The failing rows each data-quality rule keeps per run. */
  qualitySampleRows: { min: 1, max: 1000 },
  smtpPort: { min: 1, max: 65_535 },
} as const;

/** The failing rows a data-quality rule keeps per run until the company chooses otherwise. */
export const QUALITY_SAMPLE_ROWS_DEFAULT = 20;

/** At most this many allowed email domains. */
export const ALLOWED_EMAIL_DOMAINS_MAX = 100;
export const SMTP_DEFAULT_PORT = 587;
export const SMTP_PASSWORD_MAX = 1024;

const flag = z.boolean({ error: 'must be true or false' });
const settingsObjectError = (issue: { code: string }) => (issue.code === 'invalid_type' ? 'must be a JSON object of settings' : undefined);

function wholeNumber(limits: { min: number; max: number }) {
  return z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(limits.min, `must be at least ${limits.min.toLocaleString('en')}`)
    .max(limits.max, `must be at most ${limits.max.toLocaleString('en')}`);
}

/** Text of a form: null (an emptied input) is ''; trimmed. */
function text(max: number) {
  return z.preprocess(
    (value) => (value === null || value === undefined ? '' : value),
    z.string({ error: 'must be text' }).trim().max(max, `must be at most ${max} characters`),
  );
}

// ---- Email domains ---------------------------------------------------------------------------------

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** "@Example.COM." → "example.com": what people paste is still read as the domain meant. */
export function normaliseDomain(value: string): string {
  return value.trim().toLowerCase().replace(/^@+/, '').replace(/\.+$/, '');
}

export function isDomainName(value: string): boolean {
  return DOMAIN_PATTERN.test(value);
}

/** The domain of an address: what follows its last @, in lower case. */
export function emailDomainOf(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/** An empty list allows any domain; otherwise the address's domain must be one of the list (exactly; subdomains are listed on their own). */
export function isEmailDomainAllowed(email: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || allowed.includes(emailDomainOf(email));
}

export const allowedEmailDomainsSchema = z
  .array(z.string({ error: 'must be a list of domain names' }), { error: 'must be a list of domain names' })
  .transform((list) => [...new Set(list.map(normaliseDomain).filter(Boolean))])
  .superRefine((list, ctx) => {
    const wrong = list.find((domain) => !isDomainName(domain));
    if (wrong !== undefined) ctx.addIssue({ code: 'custom', message: `"${wrong}" is not a domain name such as example.com` });
    if (list.length > ALLOWED_EMAIL_DOMAINS_MAX)
      ctx.addIssue({ code: 'custom', message: `may hold at most ${ALLOWED_EMAIL_DOMAINS_MAX} domains` });
  });

// ---- Service settings ------------------------------------------------------------------------------

export const passwordPolicySchema = z.strictObject(
  {
    minLength: wholeNumber(SETTING_LIMITS.passwordMinLength),
    requireUppercase: flag,
    requireLowercase: flag,
    requireDigit: flag,
    requireSymbol: flag,
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object of password rules' : undefined) },
);

const serviceFields = {
  sessionLifetimeMinutes: wholeNumber(SETTING_LIMITS.sessionLifetimeMinutes),
  passwordPolicy: passwordPolicySchema,
  requireTwoFactor: flag,
  allowedEmailDomains: allowedEmailDomainsSchema,
  /** null: kept forever. */
  auditRetentionDays: wholeNumber(SETTING_LIMITS.auditRetentionDays).nullable(),
  /** null: kept forever. */
  runRetentionDays: wholeNumber(SETTING_LIMITS.runRetentionDays).nullable(),
  /** The failing rows each data-quality rule keeps per run (masked as samples are). */
  qualitySampleRows: wholeNumber(SETTING_LIMITS.qualitySampleRows),
};

/** The service settings whole: the console's form. */
export const serviceSettingsSchema = z.strictObject(serviceFields);
export type ServiceSettings = z.output<typeof serviceSettingsSchema>;

/** PUT /settings/service: any of the settings; those left out keep their value (the password rules one by one). */
export const serviceSettingsChange = z.strictObject(
  {
    sessionLifetimeMinutes: serviceFields.sessionLifetimeMinutes.optional(),
    passwordPolicy: passwordPolicySchema.partial().optional(),
    requireTwoFactor: flag.optional(),
    allowedEmailDomains: allowedEmailDomainsSchema.optional(),
    auditRetentionDays: serviceFields.auditRetentionDays.optional(),
    runRetentionDays: serviceFields.runRetentionDays.optional(),
    qualitySampleRows: serviceFields.qualitySampleRows.optional(),
  },
  { error: settingsObjectError },
);
export type ServiceSettingsChange = z.output<typeof serviceSettingsChange>;

/** The console's service form: an emptied retention field (left out by the form) means "keep forever". */
export const serviceSettingsForm = serviceSettingsSchema.extend({
  auditRetentionDays: serviceFields.auditRetentionDays.optional(),
  runRetentionDays: serviceFields.runRetentionDays.optional(),
  /** Absent when the server answering does not have the setting. */
  qualitySampleRows: serviceFields.qualitySampleRows.optional(),
});

/** A company's service settings before anyone sets them; the session lifetime is the server's SESSION_TTL_MINUTES. */
export function defaultServiceSettings(sessionLifetimeMinutes: number): ServiceSettings {
  return {
    sessionLifetimeMinutes,
    passwordPolicy: { ...DEFAULT_PASSWORD_POLICY } satisfies PasswordPolicy,
    requireTwoFactor: false,
    allowedEmailDomains: [],
    auditRetentionDays: null,
    runRetentionDays: null,
    qualitySampleRows: QUALITY_SAMPLE_ROWS_DEFAULT,
  };
}

// ---- Email settings --------------------------------------------------------------------------------

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/i;
const IPV6 = /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/i;

/** A host name (smtp.example.com, localhost) or an IP address (IPv6 with or without brackets). */
export function isMailHost(value: string): boolean {
  return HOST_NAME.test(value) || IPV6.test(value);
}

const emailText = z.email({ error: 'must be a valid email address' });

const emailFields = {
  /** The SMTP server; '' means the company's mail goes out the instance's way (SMTP_URL or the outbox). */
  host: text(253).refine((value) => value === '' || isMailHost(value), 'must be a host name or an IP address such as smtp.example.com'),
  port: wholeNumber(SETTING_LIMITS.smtpPort),
  /** true: TLS from the first byte (usually port 465); false: plain, upgraded with STARTTLS when the server offers it. */
  secure: flag,
  /** '' means the server takes mail without signing in. */
  username: text(254),
  fromAddress: text(254).refine((value) => value === '' || emailText.safeParse(value).success, 'must be a valid email address'),
  fromName: text(100).refine((value) => !/[\r\n<>"]/.test(value), 'must not contain line breaks, quotes or angle brackets'),
};

/** The email settings that are not secret, as stored and answered (beside `passwordSet`). */
export const emailSettingsSchema = z.strictObject(emailFields);
export type EmailSettings = z.output<typeof emailSettingsSchema>;

export const DEFAULT_EMAIL_SETTINGS: EmailSettings = Object.freeze({
  host: '',
  port: SMTP_DEFAULT_PORT,
  secure: false,
  username: '',
  fromAddress: '',
  fromName: '',
});

const smtpPassword = text(SMTP_PASSWORD_MAX);

/**
 * PUT /settings/email and the unsaved settings of a test mail: any of the settings, and the
 * password, which a blank leaves as it is. `passwordSet` (what GET answers) may be sent back and is ignored.
 */
export const emailSettingsChange = z.strictObject(
  {
    host: emailFields.host.optional(),
    port: emailFields.port.optional(),
    secure: emailFields.secure.optional(),
    username: emailFields.username.optional(),
    password: smtpPassword.optional(),
    fromAddress: emailFields.fromAddress.optional(),
    fromName: emailFields.fromName.optional(),
    passwordSet: z.unknown().optional(),
  },
  { error: settingsObjectError },
);
export type EmailSettingsChange = z.output<typeof emailSettingsChange>;

export interface SettingsProblem {
  field: string;
  message: string;
}

/** Rules across the email settings, once they are laid over the stored ones. */
export function emailSettingsProblems(values: EmailSettings, passwordSet: boolean): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (values.host && !values.fromAddress) problems.push({ field: 'fromAddress', message: 'is required when an SMTP host is set' });
  if (values.username && !passwordSet) problems.push({ field: 'password', message: 'is required with a username' });
  return problems;
}

/** The console's email form: every setting, the password blank unless it is being changed. */
export function emailSettingsForm(passwordSet: boolean) {
  return z.strictObject({ ...emailFields, password: smtpPassword.optional() }).superRefine((values, ctx) => {
    for (const problem of emailSettingsProblems(values, passwordSet || Boolean(values.password))) {
      ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    }
  });
}

/** The sender a mail of these settings writes: `"Acme Data" <data@acme.example>`, or the bare address. */
export function senderOf(values: Pick<EmailSettings, 'fromAddress' | 'fromName'>): string {
  return values.fromName ? `"${values.fromName.replace(/\\/g, '')}" <${values.fromAddress}>` : values.fromAddress;
}

// ---- Messages --------------------------------------------------------------------------------------

/** Zod's issues as the API words them: "passwordPolicy.minLength: must be at least 8; colour: is not a setting". */
export function describeSettingsIssues(error: z.ZodError, limit = 5): string {
  return error.issues
    .flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => `${[...issue.path, key].join('.')}: is not a setting`)
        : [`${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`],
    )
    .slice(0, limit)
    .join('; ');
}
