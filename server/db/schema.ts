import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * Every tenant table carries company_id, and tenant-owned rows are keyed and indexed with it
 * first, so that the schema can later be distributed by company without a redesign.
 */

const id = () => uuid('id').primaryKey().default(sql`gen_random_uuid()`);
const companyId = () => uuid('company_id').notNull();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const companies = pgTable('companies', {
  id: id(),
  name: text('name').notNull(),
  /** Lower-case host name users type at sign-in; unique across the instance. */
  hostname: text('hostname').notNull(),
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [uniqueIndex('companies_hostname_key').on(t.hostname)]);

export const roles = pgTable('roles', {
  id: id(),
  companyId: companyId(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** 'system' roles are created with the company; 'custom' ones by its admins. */
  type: text('type').notNull().default('custom'),
  isAdmin: boolean('is_admin').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  uniqueIndex('roles_company_name_key').on(t.companyId, sql`lower(${t.name})`),
  index('roles_company_updated_idx').on(t.companyId, t.updatedAt),
]);

export const users = pgTable('users', {
  id: id(),
  companyId: companyId(),
  email: text('email').notNull(),
  username: text('username'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  phone: text('phone'),
  /** argon2id hash; null until an invited user activates the account. */
  passwordHash: text('password_hash'),
  /** 'invited' (temporary password not yet replaced), 'active' or 'inactive'. */
  status: text('status').notNull().default('invited'),
  isActive: boolean('is_active').notNull().default(true),
  roleId: uuid('role_id').notNull(),
  /** Analytics id: random, stable, never the user's real id. */
  gaUserId: uuid('ga_user_id').notNull().default(sql`gen_random_uuid()`),
  otpEnabled: boolean('otp_enabled').notNull().default(false),
  /** An admin may require two-factor set-up for one user. */
  otpRequired: boolean('otp_required').notNull().default(false),
  /** TOTP secret, encrypted at rest. */
  otpSecretEnc: text('otp_secret_enc'),
  /** Secret offered during enrolment, encrypted, until the first code confirms it. */
  otpPendingSecretEnc: text('otp_pending_secret_enc'),
  /** The last TOTP time step accepted: a code of this step or an earlier one is refused. */
  otpLastStep: bigint('otp_last_step', { mode: 'number' }),
  mpinHash: text('mpin_hash'),
  aiNotification: boolean('ai_notification').notNull().default(false),
  preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [
  uniqueIndex('users_company_email_key').on(t.companyId, t.email),
  uniqueIndex('users_company_username_key').on(t.companyId, sql`lower(${t.username})`),
  index('users_company_created_idx').on(t.companyId, t.createdAt),
]);

/**
 * A signed-in session. The access token only names a row here; every request checks that the
 * row is still open, so ending it (logout, an admin, a password change, deactivation) takes
 * effect on the next call.
 */
export const sessions = pgTable('sessions', {
  id: id(),
  companyId: companyId(),
  userId: uuid('user_id').notNull(),
  /** 'full', or a step of sign-in still missing: 'otp' (code needed) or 'otp_setup' (enrolment needed). */
  stage: text('stage').notNull().default('full'),
  /** Set on a session an admin opened as another user. */
  impersonatorUserId: uuid('impersonator_user_id'),
  impersonatorSessionId: uuid('impersonator_session_id'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  createdAt: createdAt(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  /** 'logout', 'ended_by_admin', 'password_changed', 'user_deactivated', 'replaced' */
  endReason: text('end_reason'),
  isDeleted: boolean('is_deleted').notNull().default(false),
}, (t) => [
  index('sessions_company_user_idx').on(t.companyId, t.userId),
  index('sessions_company_created_idx').on(t.companyId, t.createdAt),
]);

/** The catalogue of console pages (the same for every tenant); roles are given pages. */
export const pages = pgTable('pages', {
  id: text('id').primaryKey(),
  /** Translation key of the page's title. */
  title: text('title').notNull(),
  url: text('url').notNull(),
  /** Menu group the page sits in (a translation key too). */
  groupKey: text('group_key').notNull(),
  icon: text('icon').notNull().default(''),
  sortOrder: integer('sort_order').notNull().default(0),
  adminOnly: boolean('admin_only').notNull().default(false),
});

export const rolePages = pgTable('role_pages', {
  companyId: companyId(),
  roleId: uuid('role_id').notNull(),
  pageId: text('page_id').notNull(),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.companyId, t.roleId, t.pageId] })]);

/** Security access events: sign-in attempts, OTP checks, password changes, logouts, impersonation. */
export const accessEvents = pgTable('access_events', {
  id: id(),
  /** Null when the company named at sign-in does not exist. */
  companyId: uuid('company_id'),
  userId: uuid('user_id'),
  email: text('email'),
  /** 'signin', 'otp', 'otp_setup', 'password_change', 'password_reset', 'password_create', 'logout', 'impersonation', 'session_end' */
  event: text('event').notNull(),
  /** 'success', 'failure' or 'blocked' */
  status: text('status').notNull(),
  reason: text('reason'),
  ip: text('ip'),
  userAgent: text('user_agent'),
  impersonatorUserId: uuid('impersonator_user_id'),
  createdAt: createdAt(),
}, (t) => [index('access_events_company_created_idx').on(t.companyId, t.createdAt)]);

/** System audit: one entry per mutation, with who did it (and who they were impersonating as). */
export const systemAudits = pgTable('system_audits', {
  id: id(),
  companyId: companyId(),
  userId: uuid('user_id'),
  impersonatorUserId: uuid('impersonator_user_id'),
  /** The entity changed, e.g. 'user', 'role', 'company', 'session'. */
  model: text('model').notNull(),
  /** 'create', 'update', 'delete', 'activate', 'deactivate', or a verb of the entity. */
  operation: text('operation').notNull(),
  recordId: text('record_id'),
  changes: jsonb('changes').$type<Record<string, unknown>>(),
  ip: text('ip'),
  createdAt: createdAt(),
}, (t) => [index('system_audits_company_created_idx').on(t.companyId, t.createdAt)]);

/** Every mail the server composes; sent through SMTP when configured, readable by admins always. */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  companyId: uuid('company_id'),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  /** 'activation', 'password_reset', 'password_changed', ... */
  kind: text('kind').notNull(),
  /** 'stored' (no SMTP configured), 'sent' or 'failed' */
  status: text('status').notNull(),
  error: text('error'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
}, (t) => [index('mail_outbox_company_created_idx').on(t.companyId, t.createdAt)]);

/** One-time tokens mailed to users: password reset and account activation. Stored hashed. */
export const authTokens = pgTable('auth_tokens', {
  id: id(),
  companyId: companyId(),
  userId: uuid('user_id').notNull(),
  /** 'reset' or 'activation' */
  kind: text('kind').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('auth_tokens_hash_key').on(t.tokenHash)]);

/** Failed-attempt counters for sign-in, OTP and onboarding, kept in the database so that several instances share them. */
export const throttles = pgTable('throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});
