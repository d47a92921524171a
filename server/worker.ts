import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createSecrets, loadInstanceSecret } from './auth/secrets';
import { readConfig, type Config } from './config';
import { processServices, stopOnSignals } from './process';
import { moveLegacyEmbeddedDatabasesOf } from './connectors/embedded-legacy';
import { openDatabase, selectRows, type Database } from './db/client';
import { createConfiguredRunner } from './jobs/configured-runner';
import type { LocalRunner } from './jobs/local-runner';
import { keepWritesPrivate, prepareDataDirectory } from './data-directory';

/**
 * `npm run worker`: works the job queue of a PostgreSQL database without serving HTTP, beside
 * servers started with RUN_WORKER=false (or beside servers that work the queue too). It reads the
 * server's environment (DATABASE_URL, DATABASE_SCHEMA, APP_SECRET, SMTP_URL, PUBLIC_URL, …).
 */

const EMBEDDED_REFUSAL =
  'The worker needs PostgreSQL: set DATABASE_URL to the database of the servers. With the embedded database (no DATABASE_URL) ' +
  'only one process may open the data directory, and the server works the job queue itself: start the server alone (npm start).';

const SECRET_MISSING =
  "The worker needs the servers' secret to open the connections' passwords and tokens: set APP_SECRET to the value the servers use, " +
  'or run the worker with their DATA_DIR (which holds instance.secret).';

const NOT_MIGRATED = 'The database has no tables of the console yet: start a server once (npm start) to create them, then the worker.';

/** The servers' secret, never a new one: a secret of its own would leave every sealed setting unreadable. */
function sharedSecret(config: Config): string {
  if (config.appSecret || fs.existsSync(path.join(config.dataDir, 'instance.secret')))
    return loadInstanceSecret(config.dataDir, config.appSecret);
  throw new Error(SECRET_MISSING);
}

async function assertMigrated(database: Database): Promise<void> {
  const [row] = await selectRows<{ present: string | null }>(database.db, sql`select to_regclass('job_runs')::text as present`);
  if (!row?.present) throw new Error(NOT_MIGRATED);
}

async function main(): Promise<void> {
  // Before anything is written: fetched repositories and companies' files are the worker's alone.
  keepWritesPrivate();
  const config = readConfig();
  if (!config.databaseUrl) {
    console.error(EMBEDDED_REFUSAL);
    process.exit(1);
  }
  await prepareDataDirectory(config.dataDir, (message) => console.warn(message));
  const secrets = createSecrets(sharedSecret(config));
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    prepare: config.databasePrepare,
    listenUrl: config.databaseListenUrl,
  });
  let runner: LocalRunner | undefined;
  stopOnSignals(
    (signal) => `${signal} received: the worker stops taking runs and ends the ones under way`,
    async () => {
      await runner?.stop();
    },
    database,
  );

  try {
    await assertMigrated(database);
    // A worker started before the servers must not open a shared embedded database of older versions where a company's own belongs.
    await moveLegacyEmbeddedDatabasesOf(database.db, config.dataDir, (message) => console.warn(message));
    const { mailer, connectors } = processServices(config, database, secrets);
    runner = createConfiguredRunner({ config, database, secrets, mailer, connectors });
    await runner.start();
    console.log(
      `DataOps Console worker ${runner.workerId} is working the job queue (PostgreSQL, schema ${config.databaseSchema}; mail: ${mailer.transport}).`,
    );
  } catch (error) {
    console.error(`The worker could not start: ${(error as Error).message}`);
    await runner?.stop().catch(() => {});
    await database.close().catch(() => {});
    process.exit(1);
  }
}

main().catch((error: Error) => {
  console.error(`The worker could not start: ${error.message}`);
  process.exit(1);
});
