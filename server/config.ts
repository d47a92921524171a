import path from 'node:path';
import { parseHostRules, type HostRule } from './reach/host-rules';
import { readPlanSettings, type PlanSettings } from './subscription/config';

/**
 * The server's whole configuration, read from the environment once at start.
 * Every variable is listed with its default in the README's configuration table;
 * keep the two in step.
 */
export interface Config {
  port: number;
  host: string;
  /** Where the embedded database, the instance secret and the lock file live. */
  dataDir: string;
  /** PostgreSQL connection string; when unset the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  /** Schema to run in on PostgreSQL (tests use one per run); `public` by default. */
  databaseSchema: string;
  /** Send parameterised statements named, so PostgreSQL plans each once per connection (DATABASE_PREPARE=false: unnamed). */
  databasePrepare: boolean;
  /** Where the change feed listens for other servers' writes (server/db/change-feed.ts); DATABASE_URL when unset. */
  databaseListenUrl: string | undefined;
  /** The embedded database's shared buffers, in MB (PGLITE_BUFFERS_MB): held in memory the whole time the server runs. */
  pgliteBuffersMb: number;
  bootstrap: {
    companyHostname: string;
    companyName: string;
    adminEmail: string;
    /** When unset a strong random password is generated and printed once. */
    adminPassword: string | undefined;
    /** Give the first company the sample shop source, a warehouse destination and their pair. */
    sampleData: boolean;
  };
  allowCompanySignup: boolean;
  /** smtp://user:pass@host:port — when unset, mail is kept in the outbox table only. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Base URL used in links inside mails; when unset it is taken from the request. */
  publicUrl: string | undefined;
  /** Secret for signing tokens and encrypting secrets at rest; generated into DATA_DIR when unset. */
  appSecret: string | undefined;
  /** Lifetime of a signed-in session, in minutes. */
  sessionTtlMinutes: number;
  /** Directory holding the built console; served at `/` when it exists. */
  consoleDir: string;
  /** LOG_LEVEL: `info` (default) writes one line per request; the server's own start-up stays at warnings (server/http/request-log.ts). */
  logLevel: string;
  /**
   * Prometheus metrics (server/http/metrics.ts): METRICS_TOKEN asks scrapers for `Authorization:
   * Bearer <token>`, METRICS_PORT serves them on a port of their own (on METRICS_HOST) instead of
   * /api/v1/metrics; with neither, metrics are off.
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  trustProxy: boolean;
  /** Exact origins allowed to call the API from a browser (CORS); empty keeps CORS closed. */
  corsOrigins: string[];
  /** Origins the console's Content-Security-Policy also allows scripts, images and connections from (Google's, with GA_MEASUREMENT_ID). */
  cspExtraOrigins: string[];
  /** GA_MEASUREMENT_ID: the Google Analytics 4 property the console reports page views and outbound links to; none by default. */
  gaMeasurementId: string | undefined;
  /** Work the job queue in the server process; false leaves it to `npm run worker` processes (PostgreSQL only). */
  runWorker: boolean;
  /** Plans and Stripe: DEFAULT_PLAN, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_*, STRIPE_API_BASE (server/subscription/config.ts). */
  plans: PlanSettings;
  /**
   * What companies' connections may reach (docs/security.md, "What a company can reach"):
   * CONNECTION_ALLOWED_HOSTS and CONNECTION_DENIED_HOSTS, over a default that depends on whether
   * the server hosts more than one company.
   */
  reach: { allowedHosts: HostRule[]; deniedHosts: HostRule[] };
  /** FILES_ROOTS: folders of the server a company's files and git connections may use, each company its own sub-folder of each. */
  filesRoots: string[];
  /**
   * Embedded source databases: how many a company may have (EMBEDDED_DATABASES_PER_COMPANY), how
   * long one stays open unused (EMBEDDED_IDLE_SECONDS), and the shared buffers each holds while
   * open, in MB (EMBEDDED_BUFFERS_MB).
   */
  embedded: { maxPerCompany: number; idleSeconds: number; buffersMb: number };
  /**
   * Calls a minute one API key (RATE_LIMIT_API_KEY_PER_MINUTE) or one signed-in session
   * (RATE_LIMIT_SESSION_PER_MINUTE) may make, counted in the database across servers
   * (server/auth/rate-limit.ts); 0 turns that limit off.
   */
  rateLimits: { apiKeyPerMinute: number; sessionPerMinute: number };
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['false', '0', 'no', 'off'].includes(value.trim().toLowerCase());
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`${name} must be a whole number, got "${value}"`);
  }
  return n;
}

/** Shared buffers of an embedded database, in MB: at least 1, at most 4096. */
function buffersMb(name: string, value: string | undefined, fallback: number): number {
  const n = int(name, value, fallback);
  if (n < 1 || n > 4096) throw new Error(`${name} must be between 1 and 4096 (megabytes), got "${value}"`);
  return n;
}

/** The origins Google Analytics 4 loads its script from and sends hits to. */
export const GOOGLE_ANALYTICS_ORIGINS = [
  'https://*.googletagmanager.com',
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
];

/** A Google Analytics 4 measurement id ("G-" and letters and digits), or none. */
function measurementId(value: string | undefined): string | undefined {
  const id = value?.trim();
  if (!id) return undefined;
  if (!/^G-[A-Z0-9]{4,20}$/.test(id))
    throw new Error(`GA_MEASUREMENT_ID must be a Google Analytics 4 measurement id such as G-ABC123XYZ9, got "${id}"`);
  return id;
}

/** With analytics on, the console's policy lets it load Google's script and send hits to Google. */
function withAnalyticsOrigins(extra: string[], gaMeasurementId: string | undefined): string[] {
  if (!gaMeasurementId) return extra;
  return [...extra, ...GOOGLE_ANALYTICS_ORIGINS.filter((origin) => !extra.includes(origin))];
}

/**
 * A comma-separated list of origins (`https://host[:port]`, no path). With `wildcards`, a host may
 * start with `*.` (a CSP source such as `https://*.google-analytics.com`).
 */
function origins(name: string, value: string | undefined, wildcards: boolean): string[] {
  return commaList(value).map((entry) => {
    const wildcard = wildcards && entry.includes('://*.');
    const host = wildcard ? entry.replace('://*.', '://wildcard.') : entry;
    let parsed: URL | null;
    try {
      parsed = new URL(host);
    } catch {
      parsed = null;
    }
    const normalised = wildcard ? parsed?.origin.replace('://wildcard.', '://*.') : parsed?.origin;
    if (
      !parsed ||
      host.includes('*') ||
      !['http:', 'https:'].includes(parsed.protocol) ||
      normalised !== entry.replace(/\/$/, '').toLowerCase()
    ) {
      throw new Error(`${name} must list origins such as https://console.example.com (scheme, host and port only), got "${entry}"`);
    }
    return normalised;
  });
}

/** The entries of a comma-separated setting, trimmed, empty ones left out. */
function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** A comma-separated list of absolute folders, kept as given (normalised); a relative one stops the server at start. */
function folders(name: string, value: string | undefined): string[] {
  return commaList(value).map((entry) => {
    if (!path.isAbsolute(entry)) throw new Error(`${name} must list absolute folders such as /srv/exports, got "${entry}"`);
    return path.normalize(entry).replace(/(.)\/+$/, '$1');
  });
}

/** A token a scraper could guess in a few tries would open the metrics to anyone: at least 16 characters. */
const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsSettings(env: NodeJS.ProcessEnv): Config['metrics'] {
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (token !== undefined && (token.length < METRICS_TOKEN_MIN_LENGTH || /\s/.test(token))) {
    throw new Error(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces (openssl rand -hex 32 makes one)`,
    );
  }
  const port = env.METRICS_PORT ? int('METRICS_PORT', env.METRICS_PORT, 0) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) throw new Error(`METRICS_PORT must be a port number, got "${env.METRICS_PORT}"`);
  if (port !== undefined && port === int('PORT', env.PORT, 8080)) {
    throw new Error('METRICS_PORT must differ from PORT: the metrics are served apart from the console and the API');
  }
  return { token, port, host: env.METRICS_HOST?.trim() || '127.0.0.1' };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const schema = env.DATABASE_SCHEMA || 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`DATABASE_SCHEMA must be a plain lower-case identifier, got "${schema}"`);
  }
  return {
    port: int('PORT', env.PORT, 8080),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: schema,
    databasePrepare: env.DATABASE_PREPARE !== 'false',
    databaseListenUrl: env.DATABASE_LISTEN_URL || undefined,
    pgliteBuffersMb: buffersMb('PGLITE_BUFFERS_MB', env.PGLITE_BUFFERS_MB, 32),
    bootstrap: {
      companyHostname: (env.BOOTSTRAP_COMPANY_HOSTNAME || 'demo').trim().toLowerCase(),
      companyName: env.BOOTSTRAP_COMPANY_NAME || 'Demo Company',
      adminEmail: (env.BOOTSTRAP_ADMIN_EMAIL || 'admin@demo.local').trim().toLowerCase(),
      adminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || undefined,
      sampleData: bool(env.BOOTSTRAP_SAMPLE_DATA, true),
    },
    allowCompanySignup: bool(env.ALLOW_COMPANY_SIGNUP, true),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'DataOps Console <no-reply@dataops.local>',
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    appSecret: env.APP_SECRET || undefined,
    sessionTtlMinutes: int('SESSION_TTL_MINUTES', env.SESSION_TTL_MINUTES, 480),
    consoleDir: path.resolve(env.CONSOLE_DIR || './dist/console'),
    logLevel: env.LOG_LEVEL || 'info',
    metrics: metricsSettings(env),
    trustProxy: bool(env.TRUST_PROXY, false),
    corsOrigins: origins('CORS_ORIGINS', env.CORS_ORIGINS, false),
    cspExtraOrigins: withAnalyticsOrigins(origins('CSP_EXTRA_ORIGINS', env.CSP_EXTRA_ORIGINS, true), measurementId(env.GA_MEASUREMENT_ID)),
    gaMeasurementId: measurementId(env.GA_MEASUREMENT_ID),
    runWorker: bool(env.RUN_WORKER, true),
    plans: readPlanSettings(env),
    reach: {
      allowedHosts: parseHostRules('CONNECTION_ALLOWED_HOSTS', env.CONNECTION_ALLOWED_HOSTS),
      deniedHosts: parseHostRules('CONNECTION_DENIED_HOSTS', env.CONNECTION_DENIED_HOSTS),
    },
    filesRoots: folders('FILES_ROOTS', env.FILES_ROOTS),
    embedded: {
      maxPerCompany: int('EMBEDDED_DATABASES_PER_COMPANY', env.EMBEDDED_DATABASES_PER_COMPANY, 10),
      idleSeconds: int('EMBEDDED_IDLE_SECONDS', env.EMBEDDED_IDLE_SECONDS, 300),
      buffersMb: buffersMb('EMBEDDED_BUFFERS_MB', env.EMBEDDED_BUFFERS_MB, 16),
    },
    rateLimits: {
      apiKeyPerMinute: int('RATE_LIMIT_API_KEY_PER_MINUTE', env.RATE_LIMIT_API_KEY_PER_MINUTE, 600),
      // A console session opens a screen with a burst of calls (cards, lists, filter choices) and
      // keeps a live stream; a busy person stays far below this, a runaway script does not.
      sessionPerMinute: int('RATE_LIMIT_SESSION_PER_MINUTE', env.RATE_LIMIT_SESSION_PER_MINUTE, 1200),
    },
  };
}
