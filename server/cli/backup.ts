import fs from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { readConfig } from '../config';
import { controlSocketPath, type ControlAnswer, type ControlEnd } from '../control-socket';
import { keepWritesPrivate } from '../data-directory';
import { BackupError, lockHolder, takeBackup } from '../db/backup';
import { pgliteExtensions } from '../db/client';
import { acquireDataDirLock } from '../db/lock';

/**
 * `npm run backup -- FILE`: a consistent copy of the embedded database (docs/operations.md,
 * "Backups of the embedded database"). A running server takes it itself, through its control
 * socket, as only it may open the database; with no server running, this process opens the
 * database and takes it. The file appears complete or not at all (FILE.partial, then renamed).
 */

const USAGE = 'Usage: npm run backup -- FILE   (a backup of the embedded database in DATA_DIR, the server running or not)';

interface Outcome {
  bytes: number;
  heldMs: number;
  createdAt: string;
  from: 'server' | 'stopped';
}

/** Asks the server for a backup and writes what it sends into `partial`; undefined when no server listens. */
async function fromServer(socketPath: string, partial: string): Promise<Outcome | undefined> {
  const socket = await new Promise<net.Socket | undefined>((resolve, reject) => {
    const connection = net.createConnection(socketPath);
    connection.once('connect', () => resolve(connection));
    connection.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(new BackupError(`The server's control socket ${socketPath} cannot be reached: ${error.message}`));
    });
  });
  if (!socket) return undefined;
  socket.write(JSON.stringify({ command: 'backup' }) + '\n');

  const file = await open(partial, 'w', 0o600);
  try {
    await file.chmod(0o600);
    let pending = Buffer.alloc(0);
    let answer: ControlAnswer | undefined;
    let end: ControlEnd | undefined;
    let framesEnded = false;
    let written = 0;
    const readLine = <T>(): T | undefined => {
      const at = pending.indexOf(0x0a);
      if (at < 0) return undefined;
      const value = JSON.parse(pending.subarray(0, at).toString('utf8')) as T;
      pending = pending.subarray(at + 1);
      return value;
    };
    for await (const chunk of socket as AsyncIterable<Buffer>) {
      pending = Buffer.concat([pending, chunk]);
      if (!answer) {
        answer = readLine<ControlAnswer>();
        if (!answer) continue;
        if (!answer.ok) throw new BackupError(`The server could not take the backup: ${answer.message}`);
      }
      while (!framesEnded && pending.length >= 4) {
        const length = pending.readUInt32BE(0);
        if (length === 0) {
          framesEnded = true;
          pending = pending.subarray(4);
          break;
        }
        if (pending.length < 4 + length) break;
        await file.write(pending.subarray(4, 4 + length));
        written += length;
        pending = pending.subarray(4 + length);
      }
      if (framesEnded) end ??= readLine<ControlEnd>();
    }
    if (!answer) throw new BackupError('The server closed its control socket without answering; see its output.');
    if (!answer.ok) throw new BackupError(`The server could not take the backup: ${answer.message}`);
    if (!end) throw new BackupError(`The backup was cut short after ${written} bytes: the server stopped sending it (see its output).`);
    if (!end.ok) throw new BackupError(`The server could not finish the backup: ${end.message}`);
    if (end.bytes !== written) throw new BackupError(`The backup was cut short: ${written} of ${end.bytes} bytes arrived.`);
    await file.sync();
    return { bytes: written, heldMs: answer.heldMs, createdAt: answer.createdAt, from: 'server' };
  } finally {
    socket.destroy();
    await file.close();
  }
}

/** No server runs: this process takes the data directory's lock and the backup itself. */
async function fromStoppedDatabase(dataDir: string, socketPath: string, partial: string): Promise<Outcome> {
  let release: () => void;
  try {
    release = acquireDataDirLock(dataDir);
  } catch (error) {
    throw new BackupError(
      `A server process (pid ${lockHolder(dataDir) ?? '?'}) holds ${dataDir} but does not answer on its control socket ${socketPath}: ` +
        'it is a version without online backups, or could not open the socket (see its start-up warnings). ' +
        'Restart it with this version, or stop it and run npm run backup again.',
      { cause: error },
    );
  }
  try {
    const folder = path.join(dataDir, 'pglite');
    if (!fs.existsSync(path.join(folder, 'PG_VERSION'))) {
      throw new BackupError(`There is no embedded database in ${dataDir}: set DATA_DIR to the server's data directory.`);
    }
    const pglite = await PGlite.create(folder, { extensions: pgliteExtensions });
    try {
      const backup = await takeBackup(pglite, dataDir);
      const file = await open(partial, 'w', 0o600);
      let bytes = 0;
      try {
        await file.chmod(0o600);
        for await (const chunk of backup.file) {
          await file.write(chunk);
          bytes += chunk.length;
        }
        await file.sync();
      } finally {
        await file.close();
        await backup.discard();
      }
      return { bytes, heldMs: backup.heldMs, createdAt: backup.header.createdAt, from: 'stopped' };
    } finally {
      await pglite.close();
    }
  } finally {
    release();
  }
}

export async function runBackupCommand(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  if (argv.length !== 1 || argv[0].startsWith('-')) throw new BackupError(USAGE);
  const config = readConfig(env);
  if (config.databaseUrl) {
    throw new BackupError(
      'The server runs on PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=backup.dump "$DATABASE_URL". ' +
        'npm run backup is for the embedded database.',
    );
  }
  keepWritesPrivate();
  const target = path.resolve(argv[0]);
  const partial = `${target}.partial`;
  const socketPath = controlSocketPath(config.dataDir);
  try {
    const outcome = (await fromServer(socketPath, partial)) ?? (await fromStoppedDatabase(config.dataDir, socketPath, partial));
    await rename(partial, target);
    const where = outcome.from === 'server' ? 'taken by the running server' : 'taken from the stopped database';
    print(
      `Backup written to ${target} (${(outcome.bytes / 1e6).toFixed(1)} MB, ${where}, as of ${outcome.createdAt}); ` +
        `the database was held ${Math.round(outcome.heldMs)} ms.`,
    );
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  runBackupCommand(process.argv.slice(2), process.env, (line) => console.log(line))
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      console.error(error instanceof BackupError ? error.message : `npm run backup failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
