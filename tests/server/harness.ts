import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import type { EntityModule } from '../../server/platform/entity-routes';
import { readConfig, type Config } from '../../server/config';
import { migrateDatabase, openDatabase, openOperatorView, type Database, type Db } from '../../server/db/client';
import { createMailer } from '../../server/mail/mailer';
import { createCompanyMailRoutes } from '../../server/settings/mail-route';
import { createConnectorRegistry, serverConnectorContext } from '../../server/connectors';
import type { ReachOptions } from '../../server/reach/reach';
import { TEST_ALLOWED_HOSTS, testResolver } from './connectors/test-context';
import { createConfiguredRunner } from '../../server/jobs/configured-runner';
import { dropQueueSchema } from '../../server/jobs/queue';
import { createSecrets } from '../../server/auth/secrets';
import { syncPageCatalogue } from '../../server/auth/pages-catalogue';
import { openMigratedPglite } from './pglite-template';
import { provisionCompany, type ProvisionedCompany } from '../../server/tenancy/provision';

/**
 * A fresh server for one test file: an in-memory PGlite database (or, when DATABASE_URL is set,
 * a schema of its own on that PostgreSQL, dropped at the end), migrated, with one company.
 */
export interface TestServer {
  app: FastifyInstance;
  /**
   * The tables as their owner sees them (every company's rows, whatever the scope), for setting up
   * and checking data; the server's own connections (database.db) are held to the scope of their
   * code by row-level security on PostgreSQL.
   */
  db: Db;
  database: Database;
  config: Config;
  company: ProvisionedCompany & { hostname: string; adminEmail: string; adminPassword: string };
  close(): Promise<void>;
}

export const TEST_ADMIN_PASSWORD = 'Correct-horse-42';

export interface TestServerOptions {
  /** The reach guard's resolver and dial hook (tests that attack it). */
  reach?: Pick<ReachOptions, 'resolve' | 'onDial'>;
  /** Keep embedded databases in the data directory, by company, as a server does (in memory otherwise). */
  embeddedOnDisk?: boolean;
  /** Entities served from their contracts beside the built-in areas, and SQL run after the migrations for their tables. */
  modules?: readonly EntityModule[];
  moduleSql?: string;
}

/**
 * `overrides` replace settings of the configuration: by default the server hosts many companies
 * (sign-up open) and lets them reach this machine's loopback addresses (TEST_ALLOWED_HOSTS), where
 * the tests' fakes and databases listen; `reach: { allowedHosts: [], deniedHosts: [] }` gives the
 * policy a server has out of the box. Names are resolved without the network (testResolver): only
 * `localhost` and the names `options.reach.resolve` knows have addresses. The limits of calls a
 * minute are off; `rateLimits` turns them on.
 */
export async function createTestServer(overrides: Partial<Config> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const schema = databaseUrl ? `t_${crypto.randomBytes(6).toString('hex')}` : 'public';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-test-'));
  const config: Config = {
    ...readConfig({
      DATA_DIR: dataDir,
      CONNECTION_ALLOWED_HOSTS: TEST_ALLOWED_HOSTS,
      // The suites drive one session or key far faster than anyone would; tests/server/rate-limits.test.ts sets its own.
      RATE_LIMIT_API_KEY_PER_MINUTE: '0',
      RATE_LIMIT_SESSION_PER_MINUTE: '0',
    }),
    databaseUrl,
    databaseSchema: schema,
    ...overrides,
  };
  const database = databaseUrl ? await openDatabase({ databaseUrl, schema }) : await openMigratedPglite();
  await migrateDatabase(database, schema, { moduleSql: options.moduleSql });
  const operator = openOperatorView(database);
  await syncPageCatalogue(operator.db);
  const secrets = createSecrets(crypto.randomBytes(32).toString('base64url'));
  // Embedded databases of connections live in memory, by company and name, for the life of the test process (unless embeddedOnDisk).
  const connectorContext = {
    ...serverConnectorContext(config, database.db, { resolve: testResolver(), ...options.reach }),
    dataDir: options.embeddedOnDisk ? config.dataDir : undefined,
  };
  const mailer = createMailer(database.db, {
    from: config.mailFrom,
    companyRoute: createCompanyMailRoutes(database.db, secrets, connectorContext.reach).route,
  });
  const hostname = 'acme';
  const adminEmail = 'admin@acme.test';
  const company = await provisionCompany(operator.db, {
    name: 'Acme',
    hostname,
    admin: { email: adminEmail, password: TEST_ADMIN_PASSWORD, firstName: 'Ada', lastName: 'Admin' },
  });
  const connectors = createConnectorRegistry(connectorContext);
  const runner = createConfiguredRunner({ config, database, secrets, mailer, connectors });
  await runner.start();
  const app = await buildApp(
    { db: database.db, config, mailer, secrets, connectors, runner },
    {
      modules: options.modules,
      checkAnswers: true,
    },
  );
  await app.ready();
  return {
    app,
    db: operator.db,
    database,
    config,
    company: { ...company, hostname, adminEmail, adminPassword: TEST_ADMIN_PASSWORD },
    async close() {
      await app.close();
      await runner.stop();
      await operator.close();
      await database.close();
      if (databaseUrl) await dropTestSchema(databaseUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Drops a test's PostgreSQL schema and its job queue's. */
export async function dropTestSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
  await dropQueueSchema({ url: databaseUrl, schema });
}
