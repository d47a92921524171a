import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfig } from '../config';
import { keepWritesPrivate } from '../data-directory';
import { BackupError, restoreBackup } from '../db/backup';

/**
 * `npm run restore -- FILE`: puts a backup made by `npm run backup` in place of the embedded
 * database of a stopped server (docs/operations.md, "Backups of the embedded database"). The
 * database that was there is kept aside, never deleted.
 */

const USAGE = 'Usage: npm run restore -- FILE   (the server stopped; restores into DATA_DIR)';

export async function runRestoreCommand(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  if (argv.length !== 1 || argv[0].startsWith('-')) throw new BackupError(USAGE);
  const config = readConfig(env);
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: restore a PostgreSQL database with pg_restore. npm run restore is for the embedded database.',
    );
  }
  keepWritesPrivate();
  const file = path.resolve(argv[0]);
  const restored = await restoreBackup(config.dataDir, file);
  const { header } = restored;
  print(
    `Restored ${file} into ${path.join(config.dataDir, 'pglite')}: the database as of ${header.createdAt}, ` +
      `made by version ${header.productVersion} (last migration ${header.lastMigration?.tag ?? 'none'}).`,
  );
  if (restored.previous) print(`The database that was there is kept in ${restored.previous}; delete it once the server runs well.`);
  if (restored.previousSecret) print(`The instance secret that was there is kept in ${restored.previousSecret}; the backup's is in place.`);
  if (header.instanceSecret && config.appSecret) {
    print(
      'APP_SECRET is set: the server uses it rather than the restored instance.secret. It must be the secret of the server the backup came from.',
    );
  }
  if (restored.pendingMigrations > 0) print(`The server applies ${restored.pendingMigrations} newer migration(s) at its next start.`);
  print('Start the server.');
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  runRestoreCommand(process.argv.slice(2), process.env, (line) => console.log(line))
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(error instanceof BackupError ? error.message : `npm run restore failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
