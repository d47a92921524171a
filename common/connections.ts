import { z } from 'zod';

/**
 * The kinds of connection and the settings each takes, declared once for both halves: the server
 * validates and stores settings by these declarations (secret ones encrypted, never sent back),
 * and the console draws each type's form from them. The marketplace offers the same catalogue.
 */

export const CONNECTION_TYPES = [
  'postgresql',
  'mysql',
  'embedded',
  'files',
  's3',
  'gcs',
  'azure_blob',
  'databricks',
  'slack',
  'bitbucket',
  'git',
] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export type ConnectionCategory = 'database' | 'storage' | 'compute' | 'chat' | 'code';

/** What a connection's endpoints are: tables of a database, files of a folder or bucket, channels, repositories, branches. */
export type EndpointKind = 'table' | 'file' | 'channel' | 'repository' | 'branch';

export type SettingKind = 'text' | 'number' | 'password' | 'boolean' | 'select' | 'url';

export interface SettingDeclaration {
  key: string;
  label: string;
  kind: SettingKind;
  required?: boolean;
  /** Encrypted at rest and never sent back to the console; an edit that leaves it blank keeps it. */
  secret?: boolean;
  default?: string | number | boolean;
  choices?: ReadonlyArray<{ id: string; name: string }>;
  placeholder?: string;
  help?: string;
  /** Shown only when another setting has one of these values (`{ mode: ['webhook'] }`). */
  when?: Record<string, readonly string[]>;
  min?: number;
  max?: number;
  /** A text setting must match this (JavaScript regular expression source), else `message`. */
  pattern?: { source: string; message: string };
  /** A text setting's most characters: 2,000 unless told (a key file is longer). */
  maxLength?: number;
}

export interface ConnectionTypeDeclaration {
  type: ConnectionType;
  label: string;
  description: string;
  category: ConnectionCategory;
  /** The parts it can play in a source/destination pair (none for chat and code integrations). */
  roles: ReadonlyArray<'source' | 'destination'>;
  endpointKind: EndpointKind;
  settings: readonly SettingDeclaration[];
}

const SSL_CHOICES = [
  { id: 'disable', name: 'Off' },
  { id: 'require', name: 'Required (any certificate)' },
  { id: 'verify-full', name: 'Required, certificate verified' },
] as const;

const host: SettingDeclaration = { key: 'host', label: 'Host', kind: 'text', required: true, placeholder: 'db.example.com' };
const user: SettingDeclaration = { key: 'user', label: 'User', kind: 'text', required: true };
const password: SettingDeclaration = { key: 'password', label: 'Password', kind: 'password', secret: true };
const database: SettingDeclaration = { key: 'database', label: 'Database', kind: 'text', required: true };
const ssl: SettingDeclaration = { key: 'ssl', label: 'TLS', kind: 'select', choices: SSL_CHOICES, default: 'disable' };

export const CONNECTION_TYPE_CATALOGUE: readonly ConnectionTypeDeclaration[] = [
  {
    type: 'postgresql',
    label: 'PostgreSQL',
    description: 'A PostgreSQL database: its tables are sources and destinations.',
    category: 'database',
    roles: ['source', 'destination'],
    endpointKind: 'table',
    settings: [host, { key: 'port', label: 'Port', kind: 'number', default: 5432, min: 1, max: 65535 }, database, user, password, ssl],
  },
  {
    type: 'mysql',
    label: 'MySQL / MariaDB',
    description: 'A MySQL or MariaDB database: its tables are sources and destinations.',
    category: 'database',
    roles: ['source', 'destination'],
    endpointKind: 'table',
    settings: [host, { key: 'port', label: 'Port', kind: 'number', default: 3306, min: 1, max: 65535 }, database, user, password, ssl],
  },
  {
    type: 'embedded',
    label: 'Embedded database',
    description: "A PostgreSQL database kept in the server's own data directory, for samples and small data.",
    category: 'database',
    roles: ['source', 'destination'],
    endpointKind: 'table',
    settings: [
      {
        key: 'database',
        label: 'Database name',
        kind: 'text',
        required: true,
        help: 'Letters, digits, - and _; a database of that name is created when missing.',
        pattern: { source: '^[A-Za-z0-9_-]{1,63}$', message: 'may hold only letters, digits, - and _ (at most 63)' },
      },
    ],
  },
  {
    type: 'files',
    label: 'Folder of files',
    description: 'CSV and Parquet files in a folder the server can read.',
    category: 'storage',
    roles: ['source', 'destination'],
    endpointKind: 'file',
    settings: [
      {
        key: 'path',
        label: 'Folder',
        kind: 'text',
        required: true,
        placeholder: '/srv/exports',
        help: "A folder relative to your company's data folder on the server, or an absolute path inside your company's folder of a root the operator grants (FILES_ROOTS).",
      },
    ],
  },
  {
    type: 's3',
    label: 'S3-compatible storage',
    description: 'CSV and Parquet files in a bucket of Amazon S3 or any S3-compatible store.',
    category: 'storage',
    roles: ['source', 'destination'],
    endpointKind: 'file',
    settings: [
      {
        key: 'endpoint',
        label: 'Endpoint',
        kind: 'url',
        default: 'https://s3.amazonaws.com',
        help: 'The service URL; for another S3-compatible store, its own.',
      },
      { key: 'region', label: 'Region', kind: 'text', default: 'us-east-1' },
      { key: 'bucket', label: 'Bucket', kind: 'text', required: true },
      { key: 'prefix', label: 'Folder in the bucket', kind: 'text', placeholder: 'exports/' },
      { key: 'accessKeyId', label: 'Access key id', kind: 'text', required: true },
      { key: 'secretAccessKey', label: 'Secret access key', kind: 'password', secret: true, required: true },
      {
        key: 'pathStyle',
        label: 'Path-style addresses',
        kind: 'boolean',
        default: false,
        help: 'On for most S3-compatible stores other than Amazon S3.',
      },
    ],
  },
  {
    type: 'gcs',
    label: 'Google Cloud Storage',
    description: 'CSV and Parquet files in a Google Cloud Storage bucket, read with a service account.',
    category: 'storage',
    roles: ['source'],
    endpointKind: 'file',
    settings: [
      {
        key: 'bucket',
        label: 'Bucket',
        kind: 'text',
        required: true,
        pattern: {
          source: '^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$',
          message: 'must be a bucket name: 3 to 222 lowercase letters, digits, -, _ and .',
        },
      },
      { key: 'prefix', label: 'Folder in the bucket', kind: 'text', placeholder: 'exports/' },
      {
        key: 'serviceAccountKey',
        label: 'Service account key (JSON)',
        kind: 'password',
        secret: true,
        required: true,
        help: 'Paste the whole JSON key file of a service account that may read the bucket (role Storage Object Viewer).',
        maxLength: 16_000,
        // The connector reads the key whole; this catches a key id or an email pasted in its place.
        pattern: {
          source: '^\\s*\\{(?=[\\s\\S]*"client_email"\\s*:)(?=[\\s\\S]*"private_key"\\s*:)[\\s\\S]*\\}\\s*$',
          message: 'must be the JSON key file of a service account (with client_email and private_key)',
        },
      },
      {
        key: 'endpoint',
        label: 'Endpoint',
        kind: 'url',
        default: 'https://storage.googleapis.com',
        help: 'The JSON API address; change it only for a private endpoint or an emulator.',
      },
    ],
  },
  {
    type: 'azure_blob',
    label: 'Azure Blob Storage',
    description: 'CSV and Parquet files in a container of an Azure storage account.',
    category: 'storage',
    roles: ['source'],
    endpointKind: 'file',
    settings: [
      {
        key: 'accountName',
        label: 'Storage account',
        kind: 'text',
        required: true,
        pattern: { source: '^[a-z0-9]{3,24}$', message: 'must be a storage account name: 3 to 24 lowercase letters and digits' },
      },
      {
        key: 'container',
        label: 'Container',
        kind: 'text',
        required: true,
        pattern: {
          source: '^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$',
          message: 'must be a container name: 3 to 63 lowercase letters, digits and single hyphens',
        },
      },
      { key: 'prefix', label: 'Folder in the container', kind: 'text', placeholder: 'exports/' },
      {
        key: 'authMethod',
        label: 'Sign in with',
        kind: 'select',
        required: true,
        default: 'sharedKey',
        choices: [
          { id: 'sharedKey', name: 'Account key (Shared Key)' },
          { id: 'sas', name: 'Shared access signature (SAS)' },
        ],
      },
      {
        key: 'accountKey',
        label: 'Account key',
        kind: 'password',
        secret: true,
        required: true,
        when: { authMethod: ['sharedKey'] },
        help: "One of the storage account's access keys (base64).",
        pattern: { source: '^[A-Za-z0-9+/]+={0,2}$', message: 'must be a storage account access key (base64)' },
      },
      {
        key: 'sasToken',
        label: 'SAS token',
        kind: 'password',
        secret: true,
        required: true,
        when: { authMethod: ['sas'] },
        placeholder: 'sv=…&sp=rl&sig=…',
        help: 'A token that allows reading and listing (sp=rl) the container.',
        pattern: {
          source: '^\\??([^=&\\s]+=[^&\\s]*&)*sig=[^&\\s]+(&[^=&\\s]+=[^&\\s]*)*$',
          message: 'must be a SAS token: the query string that holds sig=…',
        },
      },
      {
        key: 'endpoint',
        label: 'Endpoint',
        kind: 'url',
        placeholder: 'https://<account>.blob.core.windows.net',
        help: "Leave blank for the account's own address; set it for a private endpoint or an emulator.",
      },
    ],
  },
  {
    type: 'databricks',
    label: 'Databricks',
    description: 'A Databricks workspace: its tables, and jobs that run workflows at scale.',
    category: 'compute',
    roles: ['source', 'destination'],
    endpointKind: 'table',
    settings: [
      { key: 'host', label: 'Workspace URL', kind: 'url', required: true, placeholder: 'https://dbc-1234.cloud.databricks.com' },
      { key: 'token', label: 'Access token', kind: 'password', secret: true, required: true },
      { key: 'catalog', label: 'Catalog', kind: 'text', help: 'Only the tables of this catalog; all catalogs when empty.' },
      {
        key: 'warehouseId',
        label: 'SQL warehouse ID',
        kind: 'text',
        placeholder: '1234567890abcdef',
        help: "The SQL warehouse that runs data-quality checks on this connection's tables (SQL Warehouses → the warehouse → Connection details). Without one, tables can be registered but not checked.",
        pattern: { source: '^[A-Za-z0-9]{1,64}$', message: 'must be the ID of a SQL warehouse: letters and digits' },
      },
    ],
  },
  {
    type: 'slack',
    label: 'Slack',
    description: 'Messages to Slack channels, by an incoming webhook or a bot token.',
    category: 'chat',
    roles: [],
    endpointKind: 'channel',
    settings: [
      {
        key: 'mode',
        label: 'Send with',
        kind: 'select',
        required: true,
        default: 'webhook',
        choices: [
          { id: 'webhook', name: 'Incoming webhook' },
          { id: 'bot', name: 'Bot token' },
        ],
      },
      { key: 'webhookUrl', label: 'Webhook URL', kind: 'password', secret: true, required: true, when: { mode: ['webhook'] } },
      {
        key: 'botToken',
        label: 'Bot token',
        kind: 'password',
        secret: true,
        required: true,
        when: { mode: ['bot'] },
        placeholder: 'xoxb-…',
      },
      { key: 'channel', label: 'Default channel', kind: 'text', placeholder: '#data-alerts', when: { mode: ['bot'] } },
      { key: 'apiUrl', label: 'Slack API URL', kind: 'url', default: 'https://slack.com/api', when: { mode: ['bot'] } },
    ],
  },
  {
    type: 'bitbucket',
    label: 'Bitbucket',
    description: "A Bitbucket workspace's repositories, for workflows' SQL files.",
    category: 'code',
    roles: [],
    endpointKind: 'repository',
    settings: [
      {
        key: 'workspace',
        label: 'Workspace',
        kind: 'text',
        required: true,
        placeholder: 'acme-data',
        help: 'The workspace id, as in bitbucket.org/<workspace>/<repository>.',
      },
      // Bitbucket Cloud takes API tokens with the Atlassian account's email; app passwords
      // (a username and an app password, which this type took before) were removed on 28 July 2026.
      {
        key: 'email',
        label: 'Atlassian account email',
        kind: 'text',
        required: true,
        placeholder: 'ana@example.com',
        help: 'The email you sign in to Atlassian with: Bitbucket takes it with the API token.',
        pattern: { source: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', message: 'must be an email address (the one of your Atlassian account)' },
      },
      {
        key: 'apiToken',
        label: 'API token',
        kind: 'password',
        secret: true,
        required: true,
        help: 'An API token with scopes, made at id.atlassian.com/manage-profile/security/api-tokens ("Create API token with scopes", app Bitbucket) with the scope read:repository:bitbucket (Repositories: Read). It replaces the app password.',
      },
      { key: 'apiUrl', label: 'Bitbucket API URL', kind: 'url', default: 'https://api.bitbucket.org/2.0' },
    ],
  },
  {
    type: 'git',
    label: 'Git repository',
    description: 'Any git repository by URL or local path, for workflows’ SQL files.',
    category: 'code',
    roles: [],
    endpointKind: 'branch',
    settings: [
      {
        key: 'url',
        label: 'Repository URL or path',
        kind: 'text',
        required: true,
        placeholder: 'https://git.example.com/team/sql.git',
        help: "An http(s) URL, or a repository on the server: a path relative to your company's repositories folder, or an absolute path inside your company's folder of a root the operator grants (FILES_ROOTS).",
      },
      { key: 'username', label: 'Username', kind: 'text' },
      { key: 'password', label: 'Password or token', kind: 'password', secret: true },
    ],
  },
];

/** What drawing and checking a type's settings form needs of its declaration (the marketplace has this much of an integration). */
export type SettingsFormDeclaration = Pick<ConnectionTypeDeclaration, 'type' | 'label' | 'roles' | 'settings'>;

export function connectionTypeOf(type: string): ConnectionTypeDeclaration | undefined {
  return CONNECTION_TYPE_CATALOGUE.find((declaration) => declaration.type === type);
}

/** Whether a setting applies given the others (its `when`); `values` hold the defaults of settings left blank. */
export function settingApplies(setting: SettingDeclaration, values: Record<string, unknown>): boolean {
  if (!setting.when) return true;
  return Object.entries(setting.when).every(([key, allowed]) => allowed.includes(String(values[key] ?? '')));
}

const SETTING_TEXT_MAX = 2000;

function settingRule(setting: SettingDeclaration): z.ZodType {
  switch (setting.kind) {
    case 'number': {
      let rule = z.coerce.number({ error: 'must be a number' }).int('must be a whole number');
      if (setting.min !== undefined) rule = rule.min(setting.min, `must be at least ${setting.min}`);
      if (setting.max !== undefined) rule = rule.max(setting.max, `must be at most ${setting.max}`);
      return rule;
    }
    case 'boolean':
      return z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], { error: 'must be true or false' });
    case 'select':
      return z.enum((setting.choices ?? []).map((c) => c.id) as [string, ...string[]], {
        error: `must be one of ${(setting.choices ?? []).map((c) => c.id).join(', ')}`,
      });
    case 'url':
      return z
        .string({ error: 'must be a URL' })
        .trim()
        .max(SETTING_TEXT_MAX, `must be at most ${SETTING_TEXT_MAX} characters`)
        .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'must be an http(s) URL');
    default: {
      const max = setting.maxLength ?? SETTING_TEXT_MAX;
      const text = z.string({ error: 'must be text' }).max(max, `must be at most ${max} characters`);
      return setting.pattern ? text.regex(new RegExp(setting.pattern.source), setting.pattern.message) : text;
    }
  }
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export interface ParsedSettings {
  /** Settings kept as they are (never secret). */
  settings: Record<string, unknown>;
  /** Secret settings given in this body; a blank one is absent (kept as it was, on an edit). */
  secrets: Record<string, string>;
}

/**
 * Checks a body's settings against a type's declarations. `keptSecrets` names the secrets already
 * stored (an edit may leave them blank). Problems are `key: message` lines, as the API answers them.
 */
export function parseSettings(
  declaration: Pick<ConnectionTypeDeclaration, 'label' | 'settings'>,
  values: Record<string, unknown>,
  keptSecrets: ReadonlySet<string> = new Set(),
): { ok: true; value: ParsedSettings } | { ok: false; problems: string[] } {
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  const problems: string[] = [];
  const known = new Set(declaration.settings.map((s) => s.key));
  for (const key of Object.keys(values)) if (!known.has(key)) problems.push(`settings.${key}: is not a setting of ${declaration.label}`);
  const withDefaults: Record<string, unknown> = {};
  for (const setting of declaration.settings)
    withDefaults[setting.key] = isBlank(values[setting.key]) ? setting.default : values[setting.key];
  for (const setting of declaration.settings) {
    if (!settingApplies(setting, withDefaults)) continue;
    const value = withDefaults[setting.key];
    if (isBlank(value)) {
      if (setting.required && !(setting.secret && keptSecrets.has(setting.key))) problems.push(`settings.${setting.key}: is required`);
      continue;
    }
    const parsed = settingRule(setting).safeParse(value);
    if (!parsed.success) {
      problems.push(`settings.${setting.key}: ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
      continue;
    }
    if (setting.secret) secrets[setting.key] = String(parsed.data);
    else settings[setting.key] = parsed.data;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { settings, secrets } };
}
