import { readConfig } from './config';
import { asSystem, withTenant } from './db/tenant-scope';
import { migrateDatabase, missingExtras, openDatabase } from './db/client';
import { buildApp } from './app';
import { createSecrets, loadInstanceSecret } from './auth/secrets';
import { syncPageCatalogue } from './auth/pages-catalogue';
import { upgradeDefaultRoles } from './roles/defaults';
import { bootstrapFirstCompany } from './tenancy/bootstrap';
import { processServices, stopOnSignals } from './process';
import { moveLegacyEmbeddedDatabasesOf } from './connectors/embedded-legacy';
import { closeEmbeddedDatabases } from './connectors/embedded';
import { provisionSampleData } from './tenancy/sample-data';
import { createConfiguredRunner } from './jobs/configured-runner';
import type { LocalRunner } from './jobs/local-runner';
import { keepOpeningQueue, type QueueOpening } from './jobs/queue-opening';
import { startWeeklyReports, type WeeklyReports } from './reports/schedule';
import { startRetentionPurge, type RetentionPurge } from './settings/retention';
import { keepWritesPrivate, prepareDataDirectory, tightenPermissions } from './data-directory';
import { startControlSocket, type ControlSocket } from './control-socket';
import { takeBackup } from './db/backup';
import { handOver, isSetUpProcess, makesNewEmbeddedDatabase, setUpInOwnProcess, SetUpFailed } from './first-start';
import type { BootstrapResult } from './tenancy/bootstrap';

async function main() {
  // Before anything is written: the database, the secret and companies' files are the server's alone.
  keepWritesPrivate();
  const config = readConfig();
  await prepareDataDirectory(config.dataDir, (message) => console.warn(message));
  // A new embedded database is made by a process of its own, which gives its memory back (first-start.ts).
  let createdBySetUp: BootstrapResult | null = null;
  if (!isSetUpProcess() && makesNewEmbeddedDatabase(config)) {
    try {
      createdBySetUp = await setUpInOwnProcess();
    } catch (err) {
      if (err instanceof SetUpFailed) process.exit(err.exitCode);
      throw err;
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    prepare: config.databasePrepare,
    listenUrl: config.databaseListenUrl,
    dataDir: config.dataDir,
    lock: true,
    buffersMb: config.pgliteBuffersMb,
  });
  // PGlite sets the modes of the files it unpacks on a first start itself (0666), whatever the umask.
  await tightenPermissions(config.dataDir);
  stopOnSignals(
    (signal) => `\n${signal} received: stopping`,
    async () => {
      await control?.close();
      await app?.close();
      queueOpening?.stop();
      await runner?.stop();
      await weeklyReports?.stop();
      await retention?.stop();
    },
    database,
  );

  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let runner: LocalRunner | undefined;
  let queueOpening: QueueOpening | undefined;
  let weeklyReports: WeeklyReports | undefined;
  let retention: RetentionPurge | undefined;
  let control: ControlSocket | undefined;
  try {
    await migrateDatabase(database, config.databaseSchema);
    if ((await missingExtras(database.db)).length > 0) {
      console.warn(
        'Note: this PostgreSQL has no pg_trgm extension for the server, so searches in users, audits and access events read every row of a company. ' +
          'See docs/operations.md, "Search index".',
      );
    }
    await asSystem("the page catalogue is matched with every company's roles", () => syncPageCatalogue(database.db));
    await asSystem('companies made before the default roles are given them', () => upgradeDefaultRoles(database.db));
    // Before anything opens an embedded database: the shared ones of older versions go to the companies that name them.
    await moveLegacyEmbeddedDatabasesOf(database.db, config.dataDir, (message) => console.warn(message));
    const secrets = createSecrets(loadInstanceSecret(config.dataDir, config.appSecret));
    const { mailer, connectors } = processServices(config, database, secrets);
    if (!config.runWorker && database.kind === 'pglite') {
      throw new Error(
        'RUN_WORKER=false needs PostgreSQL (DATABASE_URL): no other process can open the embedded database to work the job queue',
      );
    }
    runner = createConfiguredRunner({ config, database, secrets, mailer, connectors });
    const createdHere = await asSystem('the first company is made when there is none', () => bootstrapFirstCompany(database.db, config));
    if (createdHere && config.bootstrap.sampleData) {
      // Without the samples the console still works: say so and go on.
      await withTenant(createdHere.companyId, () =>
        provisionSampleData(database.db, connectors, createdHere.companyId, createdHere.adminUserId),
      ).catch((err) => console.warn(`The sample connections could not be created: ${(err as Error).message}`));
    }
    if (isSetUpProcess()) {
      await handOver(createdHere);
      await runner.stop();
      await closeEmbeddedDatabases();
      await database.close();
      process.exit(0);
    }
    const created = createdHere ?? createdBySetUp;
    app = await buildApp(
      { db: database.db, config, mailer, secrets, connectors, runner },
      {
        logger: { level: config.logLevel },
        serveConsole: true,
        poolStats: database.poolStats,
        embeddedMemoryBytes: database.embeddedMemoryBytes,
      },
    );
    if (config.runWorker) await runner.start();
    else {
      const queueRunner = runner;
      queueOpening = keepOpeningQueue(() => queueRunner.openQueue(), { log: (message) => console.warn(message) });
    }
    weeklyReports = startWeeklyReports({ db: database.db, mailer, config }, (message) => console.warn(message));
    retention = startRetentionPurge(database.db, { onError: (error) => console.warn(`The retention purge failed: ${error.message}`) });
    // The operator's backups of the embedded database (docs/operations.md): only this process may open it.
    const pglite = database.pglite;
    if (pglite) control = await startControlSocket(config.dataDir, { backup: () => takeBackup(pglite, config.dataDir) }, console);
    await app.listen({ port: config.port, host: config.host });
    const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    const where = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
    console.log(`\nDataOps Console is running at ${url} (${where}; mail: ${mailer.transport}).`);
    if (created) {
      console.log('\nA first company was created. Sign in at ' + `${url}/auth/signin with:`);
      console.log(`  Email:             ${created.email}`);
      console.log(`  Company host name: ${created.hostname}`);
      if (created.generatedPassword) {
        console.log(`  Password:          ${created.generatedPassword}`);
        console.log('  (generated now and shown only this once; set BOOTSTRAP_ADMIN_PASSWORD to choose it)');
      } else {
        console.log('  Password:          the value of BOOTSTRAP_ADMIN_PASSWORD');
      }
      console.log('');
    }
  } catch (err) {
    console.error(`Could not start: ${(err as Error).message}`);
    await control?.close().catch(() => {});
    await app?.close().catch(() => {});
    queueOpening?.stop();
    await runner?.stop().catch(() => {});
    await weeklyReports?.stop().catch(() => {});
    await retention?.stop().catch(() => {});
    await database.close().catch(() => {});
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(`Could not start: ${(err as Error).message}`);
  process.exit(1);
});
