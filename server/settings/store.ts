import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '../../common/password-policy';
import {
  DEFAULT_EMAIL_SETTINGS,
  defaultServiceSettings,
  emailSettingsSchema,
  passwordPolicySchema,
  serviceSettingsSchema,
  type EmailSettings,
  type ServiceSettings,
  type SettingsGroupId,
} from '../../common/settings';
import type { Secrets } from '../auth/secrets';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies, companySettings, users } from '../db/schema';
import { userNameSql } from '../users/display-name';

/**
 * How a company's settings are read: one row per group in company_settings (values as JSON, the
 * SMTP password sealed apart), laid over the defaults. Two-factor for everyone lives in
 * companies.require_two_factor, which sign-in has always read: it is the one truth, and the
 * service group reads and writes it there rather than in its JSON.
 */

export interface SettingsRow {
  values: Record<string, unknown>;
  secretsEnc: string | null;
  updatedAt: Date;
  updatedBy: string | null;
  updatedByName: string | null;
}

export async function readSettingsRow(db: Db, companyId: string, key: SettingsGroupId): Promise<SettingsRow | null> {
  const [row] = await db
    .select({
      values: companySettings.values,
      secretsEnc: companySettings.secretsEnc,
      updatedAt: companySettings.updatedAt,
      updatedBy: companySettings.updatedBy,
      updatedByName: userNameSql(users),
    })
    .from(companySettings)
    .leftJoin(users, and(eq(users.companyId, companySettings.companyId), eq(users.id, companySettings.updatedBy)))
    .where(and(eq(companySettings.companyId, companyId), eq(companySettings.key, key)));
  return row ?? null;
}

/**
 * Stored values over the defaults, one setting at a time: a stored value that no longer passes
 * its rule (written by an older version, or by hand) gives way to the default instead of breaking
 * every sign-in of the company.
 */
function overDefaults<T extends Record<string, unknown>>(
  shape: Record<string, z.ZodType>,
  defaults: T,
  stored: Record<string, unknown> | undefined,
): T {
  const result: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults)) {
    if (!stored || !(key in stored)) continue;
    const parsed = shape[key]?.safeParse(stored[key]);
    if (parsed?.success) result[key] = parsed.data;
  }
  return result as T;
}

function storedPolicy(stored: unknown): PasswordPolicy {
  const given = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : undefined;
  return overDefaults(passwordPolicySchema.shape, { ...DEFAULT_PASSWORD_POLICY }, given);
}

/** The service settings of stored values (two-factor aside: the caller gives the company's flag). */
export function serviceSettingsFrom(
  stored: Record<string, unknown> | undefined,
  defaultSessionMinutes: number,
  requireTwoFactor: boolean,
): ServiceSettings {
  const defaults = defaultServiceSettings(defaultSessionMinutes);
  const { passwordPolicy: _policy, requireTwoFactor: _ignored, ...rest } = serviceSettingsSchema.shape;
  const { passwordPolicy: _p, requireTwoFactor: _r, ...restDefaults } = defaults;
  return {
    ...overDefaults(rest, restDefaults, stored),
    passwordPolicy: storedPolicy(stored?.passwordPolicy),
    requireTwoFactor,
  };
}

export function emailSettingsFrom(stored: Record<string, unknown> | undefined): EmailSettings {
  return overDefaults(emailSettingsSchema.shape, { ...DEFAULT_EMAIL_SETTINGS }, stored);
}

/** The secrets of the email group, decrypted; {} when none are stored. */
export function openEmailSecrets(secrets: Secrets, sealed: string | null): { password?: string } {
  if (!sealed) return {};
  return JSON.parse(secrets.decrypt(sealed)) as { password?: string };
}

export function sealEmailSecrets(secrets: Secrets, values: { password?: string }): string | null {
  return values.password ? secrets.encrypt(JSON.stringify({ password: values.password })) : null;
}

async function companyRequiresTwoFactor(db: Db, companyId: string): Promise<boolean> {
  const [company] = await db.select({ requireTwoFactor: companies.requireTwoFactor }).from(companies).where(eq(companies.id, companyId));
  return company?.requireTwoFactor ?? false;
}

/** The company's service settings, with the row they come from (null while it has the defaults). */
export async function readServiceSettings(
  db: Db,
  config: Pick<Config, 'sessionTtlMinutes'>,
  companyId: string,
): Promise<{ row: SettingsRow | null; values: ServiceSettings }> {
  const row = await readSettingsRow(db, companyId, 'service');
  const requireTwoFactor = await companyRequiresTwoFactor(db, companyId);
  return { row, values: serviceSettingsFrom(row?.values, config.sessionTtlMinutes, requireTwoFactor) };
}

/** The company's email settings, with the row they come from, and whether a password is kept (never the password). */
export async function readEmailSettings(
  db: Db,
  companyId: string,
): Promise<{ row: SettingsRow | null; values: EmailSettings; passwordSet: boolean }> {
  const row = await readSettingsRow(db, companyId, 'email');
  return { row, values: emailSettingsFrom(row?.values), passwordSet: Boolean(row?.secretsEnc) };
}

/** One value of the service group, read without the rest (these are read on every sign-in and password change). */
async function storedServiceValue(db: Db, companyId: string, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: sql<unknown>`${companySettings.values} -> ${key}` })
    .from(companySettings)
    .where(and(eq(companySettings.companyId, companyId), eq(companySettings.key, 'service')));
  return row?.value ?? undefined;
}

/** How long a new full session of the company lasts: its setting, else SESSION_TTL_MINUTES. */
export async function sessionLifetimeOf(db: Db, config: Pick<Config, 'sessionTtlMinutes'>, companyId: string): Promise<number> {
  const stored = await storedServiceValue(db, companyId, 'sessionLifetimeMinutes');
  const parsed = serviceSettingsSchema.shape.sessionLifetimeMinutes.safeParse(stored);
  return parsed.success ? parsed.data : config.sessionTtlMinutes;
}

/** The password rules of the company: its setting, else the instance default. */
export async function passwordPolicyOf(db: Db, companyId: string): Promise<PasswordPolicy> {
  return storedPolicy(await storedServiceValue(db, companyId, 'passwordPolicy'));
}

/** The domains the company's users must have their email at; [] means any. */
export async function allowedEmailDomainsOf(db: Db, companyId: string): Promise<string[]> {
  const parsed = serviceSettingsSchema.shape.allowedEmailDomains.safeParse(await storedServiceValue(db, companyId, 'allowedEmailDomains'));
  return parsed.success ? parsed.data : [];
}

/** Creates or replaces a group's row. */
export async function writeSettingsRow(
  db: Db,
  companyId: string,
  key: SettingsGroupId,
  row: { values: Record<string, unknown>; secretsEnc: string | null; updatedBy: string | null },
): Promise<void> {
  const set = { values: row.values, secretsEnc: row.secretsEnc, updatedBy: row.updatedBy, updatedAt: new Date() };
  await db
    .insert(companySettings)
    .values({ companyId, key, ...set })
    .onConflictDoUpdate({ target: [companySettings.companyId, companySettings.key], set });
}
