import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  boolean,
  doublePrecision,
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
 * Every tenant table carries company_id, its indexes lead with it, and its primary key and unique
 * indexes include it (migration 0022), so that the schema can be distributed by company on Citus
 * without a redesign (docs/scaling.md; tests/server/shard-ready.test.ts).
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
/**
 * The id of a company's row: its table's primary key is (id, company_id), declared beside the
 * table (migration 0022), because a table distributed by company_id may only have keys that
 * include it (docs/scaling.md). id comes first, so a lookup by id alone still reads the key.
 */
const rowId = () =>
  uuid('id')
    .notNull()
    .default(sql`gen_random_uuid()`);
const companyId = () => uuid('company_id').notNull();
/**
 * The company of rows that belong to none (a sign-in naming an unknown host name, a mail of the
 * instance itself): no company has the nil uuid, and a distributed table accepts no null company.
 */
export const NO_COMPANY = '00000000-0000-0000-0000-000000000000';
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text('name').notNull(),
    /** Lower-case host name users type at sign-in; unique across the instance. */
    hostname: text('hostname').notNull(),
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    /** The profile (GET/PUT /company): how the company is reached and where it is. */
    contactEmail: text('contact_email'),
    phone: text('phone'),
    website: text('website'),
    addressLine: text('address_line'),
    city: text('city'),
    postalCode: text('postal_code'),
    country: text('country'),
    /** IANA time zone the company's reports and schedules are read in. */
    timezone: text('timezone').notNull().default('UTC'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('companies_hostname_key').on(t.hostname)],
);

/** A company's logo (PNG, JPEG or sanitised SVG), served by GET /company/logo. */
export const companyLogos = pgTable('company_logos', {
  companyId: uuid('company_id').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  /** Digest of the bytes: the logo's ETag and the cache-busting part of its URL. */
  sha256: text('sha256').notNull(),
  updatedBy: uuid('updated_by'),
  updatedAt: updatedAt(),
});

/**
 * A company's settings, one row per group (`service`, `email`): the values as JSON, the secret
 * ones (the SMTP password) sealed apart. A group without a row has its defaults.
 */
export const companySettings = pgTable(
  'company_settings',
  {
    companyId: companyId(),
    key: text('key').notNull(),
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
    secretsEnc: text('secrets_enc'),
    updatedBy: uuid('updated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] })],
);

export const roles = pgTable(
  'roles',
  {
    id: rowId(),
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
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('roles_company_name_key').on(t.companyId, sql`lower(${t.name})`),
    index('roles_company_updated_idx').on(t.companyId, t.updatedAt),
  ],
);

export const users = pgTable(
  'users',
  {
    id: rowId(),
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
    gaUserId: uuid('ga_user_id')
      .notNull()
      .default(sql`gen_random_uuid()`),
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
    /** Profile picture (PNG, JPEG or WebP), at most 1 MB. */
    avatar: bytea('avatar'),
    avatarType: text('avatar_type'),
    aiNotification: boolean('ai_notification').notNull().default(false),
    preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('users_company_email_key').on(t.companyId, t.email),
    uniqueIndex('users_company_username_key').on(t.companyId, sql`lower(${t.username})`),
    index('users_company_created_idx').on(t.companyId, t.createdAt, t.id),
    index('users_company_role_idx').on(t.companyId, t.roleId),
  ],
);

/**
 * A signed-in session. The access token only names a row here; every request checks that the
 * row is still open, so ending it (logout, an admin, a password change, deactivation) takes
 * effect on the next call.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: rowId(),
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
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('sessions_company_user_idx').on(t.companyId, t.userId),
    index('sessions_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);

/**
 * Two-factor recovery codes: single-use, stored as keyed hashes only (server/auth/recovery-codes.ts).
 * A used code keeps its row, with the time it was used, until the codes are regenerated.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    companyId: companyId(),
    userId: uuid('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.codeHash] })],
);

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

export const rolePages = pgTable(
  'role_pages',
  {
    companyId: companyId(),
    roleId: uuid('role_id').notNull(),
    pageId: text('page_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.roleId, t.pageId] })],
);

/** Security access events: sign-in attempts, OTP checks, password changes, logouts, impersonation. */
export const accessEvents = pgTable(
  'access_events',
  {
    id: rowId(),
    /** NO_COMPANY when the company named at sign-in does not exist. */
    companyId: companyId(),
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
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('access_events_company_created_idx').on(t.companyId, t.createdAt, t.id),
    index('access_events_company_user_created_idx').on(t.companyId, t.userId, t.createdAt, t.id),
    index('access_events_company_status_created_idx').on(t.companyId, t.status, t.createdAt, t.id),
  ],
);

/** System audit: one entry per mutation, with who did it (and who they were impersonating as). */
export const systemAudits = pgTable(
  'system_audits',
  {
    id: rowId(),
    companyId: companyId(),
    userId: uuid('user_id'),
    impersonatorUserId: uuid('impersonator_user_id'),
    /** The API key the change was made with (acting as userId); null for a signed-in session. */
    apiKeyId: uuid('api_key_id'),
    /** The entity changed, e.g. 'user', 'role', 'company', 'session'. */
    model: text('model').notNull(),
    /** 'create', 'update', 'delete', 'activate', 'deactivate', or a verb of the entity. */
    operation: text('operation').notNull(),
    recordId: text('record_id'),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('system_audits_company_created_idx').on(t.companyId, t.createdAt, t.id),
    index('system_audits_company_user_created_idx').on(t.companyId, t.userId, t.createdAt, t.id),
    index('system_audits_company_model_created_idx').on(t.companyId, t.model, t.createdAt, t.id),
    index('system_audits_company_operation_created_idx').on(t.companyId, t.operation, t.createdAt, t.id),
  ],
);

/** Every mail the server composes; sent through SMTP when configured, readable by admins always. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: rowId(),
    /** NO_COMPANY for a mail of the instance itself. */
    companyId: companyId(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** The files it carried, by name, type and size (their bytes are not kept here). */
    attachments: jsonb('attachments').$type<Array<{ fileName: string; contentType: string; size: number }>>().notNull().default([]),
    /** 'activation', 'password_reset', 'password_changed', ... */
    kind: text('kind').notNull(),
    /** 'stored' (no SMTP configured), 'sent' or 'failed' */
    status: text('status').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), index('mail_outbox_company_created_idx').on(t.companyId, t.createdAt)],
);

/** One-time tokens mailed to users: password reset and account activation. Stored hashed. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: rowId(),
    companyId: companyId(),
    userId: uuid('user_id').notNull(),
    /** 'reset' or 'activation' */
    kind: text('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), uniqueIndex('auth_tokens_hash_key').on(t.tokenHash, t.companyId)],
);

/** Failed-attempt counters for sign-in, OTP and onboarding, kept in the database so that several instances share them. */
export const throttles = pgTable('throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
});

/** Workspaces group users (and, later, connections, tables and workflows) inside a company. */
export const workspaces = pgTable(
  'workspaces',
  {
    id: rowId(),
    companyId: companyId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Deleting a workspace keeps the row (later areas point at it) and hides it everywhere. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('workspaces_company_name_key')
      .on(t.companyId, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
    index('workspaces_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);

/** Which users belong to which workspaces. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    companyId: companyId(),
    workspaceId: uuid('workspace_id').notNull(),
    userId: uuid('user_id').notNull(),
    /**
     * The member's users.created_at (which never changes), kept here so that a workspace's members
     * can be read newest first from an index: the users list filtered by one workspace, in its
     * default order, reads its page along workspace_members_company_workspace_user_created_idx.
     */
    userCreatedAt: timestamp('user_created_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.workspaceId, t.userId] }),
    // A user's workspaces, and "is this user in one of these workspaces" (the users filter) answered from the index alone.
    index('workspace_members_company_user_workspace_idx').on(t.companyId, t.userId, t.workspaceId),
    index('workspace_members_company_workspace_user_created_idx').on(t.companyId, t.workspaceId, t.userCreatedAt, t.userId),
  ],
);

/** What a role may do: for one resource, the actions allowed ('read', 'create', 'update', 'delete'). */
export const rolePolicies = pgTable(
  'role_policies',
  {
    companyId: companyId(),
    roleId: uuid('role_id').notNull(),
    resource: text('resource').notNull(),
    actions: text('actions').array().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.roleId, t.resource] })],
);

/** Per-user access control: where a user has a policy for a resource, it replaces the role's. */
export const userPolicies = pgTable(
  'user_policies',
  {
    companyId: companyId(),
    userId: uuid('user_id').notNull(),
    resource: text('resource').notNull(),
    actions: text('actions').array().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId, t.resource] })],
);

/**
 * API keys: a credential for the API that acts as its access user, limited to the operations
 * granted to it. Only a hash of the secret is kept; the prefix finds the row.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: rowId(),
    companyId: companyId(),
    name: text('name').notNull(),
    /** The first characters of the key, shown in lists and used to find the row. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    /** The user the key acts as. */
    accessUserId: uuid('access_user_id').notNull(),
    /** Operation ids of the OpenAPI document the key may call. */
    operations: text('operations')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    isDeleted: boolean('is_deleted').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('api_keys_prefix_key').on(t.prefix, t.companyId),
    index('api_keys_company_created_idx').on(t.companyId, t.createdAt),
  ],
);

/** In-app notifications, one row per recipient. */
export const notifications = pgTable(
  'notifications',
  {
    id: rowId(),
    companyId: companyId(),
    /** The recipient. */
    userId: uuid('user_id').notNull(),
    /** 'invitation_accepted', 'role_changed', 'job_failed', ... */
    type: text('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    /** Where the console links the notification to. */
    link: text('link'),
    /** 'unread' or 'read' */
    status: text('status').notNull().default('unread'),
    /** Who caused it (null for the system). */
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('notifications_company_user_created_idx').on(t.companyId, t.userId, t.createdAt, t.id),
    index('notifications_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);

/**
 * Column choices of a list: the tenant's default (user_id null) and each user's own. Kept here
 * rather than in the browser so that they survive logout and follow the user.
 */
export const listColumnChoices = pgTable(
  'list_column_choices',
  {
    id: rowId(),
    companyId: companyId(),
    listKey: text('list_key').notNull(),
    /** Null for the tenant default. */
    userId: uuid('user_id'),
    hidden: text('hidden').array().notNull(),
    order: text('column_order').array(),
    updatedBy: uuid('updated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('list_column_choices_key').on(
      t.companyId,
      t.listKey,
      sql`coalesce(${t.userId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  ],
);

/**
 * A connection to a source, a destination or an integration (chat, code). `settings` holds the
 * plain settings its type declares (common/connections.ts); secret ones live encrypted in
 * `secrets_enc` and never leave the server.
 */
export const connections = pgTable(
  'connections',
  {
    id: rowId(),
    companyId: companyId(),
    workspaceId: uuid('workspace_id'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** One of CONNECTION_TYPES. */
    type: text('type').notNull(),
    isSource: boolean('is_source').notNull().default(false),
    isDestination: boolean('is_destination').notNull().default(false),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** The secret settings as one encrypted JSON object (server/auth/secrets.ts); null when there are none. */
    secretsEnc: text('secrets_enc'),
    isActive: boolean('is_active').notNull().default(true),
    /** The last test: when, whether it worked, how long it took, what the source said. */
    lastTestedAt: timestamp('last_tested_at', { withTimezone: true }),
    lastTestOk: boolean('last_test_ok'),
    lastTestLatencyMs: integer('last_test_latency_ms'),
    lastTestMessage: text('last_test_message'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('connections_company_name_key').on(t.companyId, sql`lower(${t.name})`),
    index('connections_company_created_idx').on(t.companyId, t.createdAt, t.id),
    index('connections_company_workspace_idx').on(t.companyId, t.workspaceId),
  ],
);

/** A source connection paired with a destination connection: what a workflow copies from and to. */
export const sourceDestinations = pgTable(
  'source_destinations',
  {
    id: rowId(),
    companyId: companyId(),
    name: text('name').notNull(),
    sourceId: uuid('source_id').notNull(),
    destinationId: uuid('destination_id').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('source_destinations_company_pair_key').on(t.companyId, t.sourceId, t.destinationId),
    index('source_destinations_company_destination_idx').on(t.companyId, t.destinationId),
  ],
);

/** A table registered from a connection's endpoint, with its data dictionary and quality rules. */
export const dataTables = pgTable(
  'data_tables',
  {
    id: rowId(),
    companyId: companyId(),
    connectionId: uuid('connection_id').notNull(),
    workspaceId: uuid('workspace_id'),
    /** The endpoint it was registered from: `schema.table`, or a file's path. */
    endpoint: text('endpoint').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    /** When the columns were last read from the source. */
    discoveredAt: timestamp('discovered_at', { withTimezone: true }),
    /** A timestamp, or an id that only grows: row rules then read only the rows past their last result (migration 0017). */
    watermarkColumn: text('watermark_column'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('data_tables_company_connection_endpoint_key').on(t.companyId, t.connectionId, t.endpoint),
    index('data_tables_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);

/** A table's data dictionary: one row per column, as discovered, with what people wrote about it. */
export const tableColumns = pgTable(
  'table_columns',
  {
    companyId: companyId(),
    tableId: uuid('table_id').notNull(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    dataType: text('data_type').notNull(),
    nullable: boolean('nullable').notNull().default(true),
    description: text('description').notNull().default(''),
    businessName: text('business_name').notNull().default(''),
    /** 'public', 'internal', 'confidential' or 'pii': a PII column is masked in failing-row samples. */
    sensitivity: text('sensitivity').notNull().default('internal'),
    owner: text('owner').notNull().default(''),
    /** False once the source no longer has the column (kept for what was written about it). */
    present: boolean('present').notNull().default(true),
    updatedBy: uuid('updated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.tableId, t.name] })],
);

/** A data-quality rule of a table (server/quality/checks.ts has the kinds and their parameters). */
export const qualityRules = pgTable(
  'quality_rules',
  {
    id: rowId(),
    companyId: companyId(),
    tableId: uuid('table_id').notNull(),
    name: text('name').notNull(),
    /** 'column', 'table' or 'custom'. */
    functionType: text('function_type').notNull(),
    /** not_null, unique, row_count_between, value_between, regex_match, in_set, length_between, freshness, custom_sql. */
    functionName: text('function_name').notNull(),
    columnName: text('column_name'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    /** 'warn' or 'fail': what a failure makes of the run. */
    severity: text('severity').notNull().default('fail'),
    /** The share of rows allowed to fail (0 to 1). */
    tolerance: doublePrecision('tolerance').notNull().default(0),
    /** Set: the rule reads this percent of the table's pages, and its results are estimates. */
    samplePercent: doublePrecision('sample_percent'),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), index('quality_rules_company_table_idx').on(t.companyId, t.tableId, t.createdAt)],
);

/** One evaluation of a table's rules: by a person ("Run checks now") or by a workflow run. */
export const qualityRuns = pgTable(
  'quality_runs',
  {
    id: rowId(),
    companyId: companyId(),
    tableId: uuid('table_id').notNull(),
    /** The job run it belongs to, when a workflow ran it. */
    jobRunId: uuid('job_run_id'),
    trigger: text('trigger').notNull().default('manual'),
    /** 'running', 'passed', 'warned', 'failed' or 'error'. */
    status: text('status').notNull().default('running'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('quality_runs_company_table_started_idx').on(t.companyId, t.tableId, t.startedAt),
    index('quality_runs_company_job_run_idx').on(t.companyId, t.jobRunId),
  ],
);

/** What one rule found in one run. */
export const qualityResults = pgTable(
  'quality_results',
  {
    id: rowId(),
    companyId: companyId(),
    runId: uuid('run_id').notNull(),
    ruleId: uuid('rule_id').notNull(),
    tableId: uuid('table_id').notNull(),
    /** The rule as it was when it ran. */
    ruleName: text('rule_name').notNull(),
    functionName: text('function_name').notNull(),
    columnName: text('column_name'),
    severity: text('severity').notNull(),
    /** 'passed', 'warned', 'failed' or 'error'. */
    status: text('status').notNull(),
    /** The measured value (a count, a row count, an age in seconds…) as text. */
    observed: text('observed'),
    rowsScanned: bigint('rows_scanned', { mode: 'number' }),
    rowsFailed: bigint('rows_failed', { mode: 'number' }),
    failedShare: doublePrecision('failed_share'),
    /** Up to 20 failing rows, sensitive columns masked. */
    sample: jsonb('sample').$type<Array<Record<string, unknown>>>(),
    query: text('query'),
    message: text('message'),
    /** The watermark column its rows were read by; null when the table had none (migration 0017). */
    coveredColumn: text('covered_column'),
    /** The watermark value its rows were read after; null: every row. */
    coveredAfter: text('covered_after'),
    /** The greatest watermark when the run started: the rule's next incremental run reads the rows after it. */
    coveredUpTo: text('covered_up_to'),
    /** Measured on this percent of the table's pages: the result is an estimate. */
    samplePercent: doublePrecision('sample_percent'),
    /** What would make the check cheaper, as a statement to run (an index). */
    advice: text('advice'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('quality_results_company_run_idx').on(t.companyId, t.runId),
    index('quality_results_company_rule_ended_idx').on(t.companyId, t.ruleId, t.endedAt),
  ],
);

/**
 * The failing rows one rule of one run kept, masked as its result's sample is (migration 0014):
 * up to the company's `qualitySampleRows`, numbered from 0 in the order the source answered them.
 */
export const qualityFailingRows = pgTable(
  'quality_failing_rows',
  {
    companyId: companyId(),
    runId: uuid('run_id').notNull(),
    ruleId: uuid('rule_id').notNull(),
    position: integer('position').notNull(),
    row: jsonb('row').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.runId, t.ruleId, t.position] })],
);

/**
 * A workflow: tasks run in order as one job run, on the local runner or as a Databricks job
 * (docs/api/workflows.md). `tasks` holds the task list as the API takes it.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: rowId(),
    companyId: companyId(),
    workspaceId: uuid('workspace_id'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    pairId: uuid('pair_id').notNull(),
    repositoryConnectionId: uuid('repository_connection_id'),
    databricksConnectionId: uuid('databricks_connection_id'),
    databricksJobId: text('databricks_job_id'),
    tasks: jsonb('tasks').$type<Array<Record<string, unknown>>>().notNull().default([]),
    scheduleCron: text('schedule_cron'),
    scheduleTimezone: text('schedule_timezone').notNull().default('UTC'),
    maxRetries: integer('max_retries').notNull().default(0),
    retryBackoffSeconds: integer('retry_backoff_seconds').notNull().default(60),
    timeoutMinutes: integer('timeout_minutes').notNull().default(60),
    concurrency: integer('concurrency').notNull().default(1),
    notifyOnFailure: jsonb('notify_on_failure')
      .$type<{ inApp: boolean; slackConnectionId?: string | null; emails?: string[] }>()
      .notNull()
      .default({ inApp: true }),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('workflows_company_name_key').on(t.companyId, sql`lower(${t.name})`),
    index('workflows_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);

/** One run of a workflow, from queued to its end (the run tracker). */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: rowId(),
    companyId: companyId(),
    workflowId: uuid('workflow_id').notNull(),
    /** queued, running, succeeded, failed, canceled, timed_out */
    status: text('status').notNull().default('queued'),
    /** manual, schedule, api_key */
    trigger: text('trigger').notNull(),
    triggeredBy: uuid('triggered_by'),
    apiKeyId: uuid('api_key_id'),
    attempt: integer('attempt').notNull().default(1),
    /** local or databricks */
    engine: text('engine').notNull().default('local'),
    /** The Databricks run id, for a run of the Databricks engine. */
    externalRunId: text('external_run_id'),
    gitCommit: text('git_commit'),
    error: text('error'),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
    /** Which runner works it, and when it last said so: a run whose runner went silent is recovered. */
    worker: text('worker'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('job_runs_company_workflow_queued_idx').on(t.companyId, t.workflowId, t.queuedAt, t.id),
    index('job_runs_company_queued_idx').on(t.companyId, t.queuedAt, t.id),
    index('job_runs_status_idx').on(t.status),
  ],
);

/** One task of a run: its status, row counts and log. */
export const jobRunSteps = pgTable(
  'job_run_steps',
  {
    id: rowId(),
    companyId: companyId(),
    runId: uuid('run_id').notNull(),
    position: integer('position').notNull(),
    taskId: text('task_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** pending, running, succeeded, failed, skipped, canceled */
    status: text('status').notNull().default('pending'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    rowsRead: bigint('rows_read', { mode: 'number' }),
    rowsWritten: bigint('rows_written', { mode: 'number' }),
    log: text('log').notNull().default(''),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), index('job_run_steps_company_run_idx').on(t.companyId, t.runId, t.position)],
);

/** A report (weekly, or made on demand): the period it sums up, its figures and who got it. */
export const reports = pgTable(
  'reports',
  {
    id: rowId(),
    companyId: companyId(),
    /** weekly, on_demand */
    kind: text('kind').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** The figures the mail and the attachment were made from. */
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull().default({}),
    /** csv, pdf */
    format: text('format').notNull(),
    /** Addresses it was mailed to. */
    recipients: jsonb('recipients').$type<string[]>().notNull().default([]),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    index('reports_company_created_idx').on(t.companyId, t.createdAt, t.id),
    uniqueIndex('reports_company_weekly_period_key')
      .on(t.companyId, t.periodStart)
      .where(sql`kind = 'weekly'`),
  ],
);

/** A file a report carries. */
export const reportAttachments = pgTable(
  'report_attachments',
  {
    id: rowId(),
    companyId: companyId(),
    reportId: uuid('report_id').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), index('report_attachments_company_report_idx').on(t.companyId, t.reportId)],
);

/** Something shared with chosen users (POST /shares): a report, or a list view by its address. */
export const shares = pgTable(
  'shares',
  {
    id: rowId(),
    companyId: companyId(),
    /** report, list */
    kind: text('kind').notNull(),
    reportId: uuid('report_id'),
    /** The console path of a shared list view, filters included. */
    path: text('path'),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    recipientIds: uuid('recipient_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), index('shares_company_created_idx').on(t.companyId, t.createdAt, t.id)],
);

/** A company's plan: assigned by an operator (provider `self`) or bought through Stripe. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    companyId: uuid('company_id').primaryKey(),
    /** One of the plans of common/plans.ts. */
    plan: text('plan').notNull(),
    /** active, trialing, past_due, canceled, incomplete */
    status: text('status').notNull().default('active'),
    /** self, stripe */
    provider: text('provider').notNull().default('self'),
    customerId: text('customer_id'),
    subscriptionId: text('subscription_id'),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    updatedBy: uuid('updated_by'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('subscriptions_customer_key').on(t.customerId)],
);

/** A Stripe Checkout session started from the console, until it completes. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    /** Stripe's id of the session. */
    id: text('id').notNull(),
    companyId: companyId(),
    plan: text('plan').notNull(),
    /** open, complete, expired */
    status: text('status').notNull().default('open'),
    customerId: text('customer_id'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.id, t.companyId] }), index('checkout_sessions_company_created_idx').on(t.companyId, t.createdAt)],
);

/** Stripe webhook events already applied, so that a redelivery changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A user's saved view of a list (react-admin's saved queries): its filters, sort and columns
 * under a name, one set per user and list (migration 0015).
 */
export const listSavedViews = pgTable(
  'list_saved_views',
  {
    id: rowId(),
    companyId: companyId(),
    userId: uuid('user_id').notNull(),
    listKey: text('list_key').notNull(),
    name: text('name').notNull(),
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull().default({}),
    sort: jsonb('sort').$type<{ field: string; order: 'ASC' | 'DESC' } | null>(),
    /** The columns hidden, and their order, when the view keeps them. */
    hidden: text('hidden').array(),
    order: text('column_order').array(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.companyId] }),
    uniqueIndex('list_saved_views_name_key').on(t.companyId, t.userId, t.listKey, sql`lower(${t.name})`),
  ],
);

/**
 * How far each incremental copy task has read its source (migration 0016): the greatest value of
 * its watermark column among the rows its last successful run read, in the source's own text.
 * `source` and `columnName` say what it is a watermark of: a task that changes either starts
 * over. `fullCopy` asks the task's next run to read every row, once.
 */
export const copyWatermarks = pgTable(
  'copy_watermarks',
  {
    companyId: companyId(),
    workflowId: uuid('workflow_id').notNull(),
    taskId: text('task_id').notNull(),
    source: text('source').notNull(),
    columnName: text('column_name').notNull(),
    value: text('value'),
    fullCopy: boolean('full_copy').notNull().default(false),
    /** The run that moved it last. */
    runId: uuid('run_id'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.workflowId, t.taskId] })],
);
