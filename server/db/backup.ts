import crypto from 'node:crypto';
import fs from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { PGlite, protocol } from '@electric-sql/pglite';
import { tightenPermissions } from '../data-directory';
import { serverFilePath } from '../server-files';
import { migrationsFolder, pgliteExtensions } from './client';
import { acquireDataDirLock } from './lock';
import { tarFolder, TarError, untarInto } from './tar';

/**
 * Backups of the embedded database (docs/operations.md, "Backups of the embedded database").
 *
 * A backup file is a line naming the format, a line of JSON (the header: product version, last
 * migration applied, instance secret), the database's data directory as a .tar.gz, and a last
 * line (the end mark) giving the size and checksum of that archive. The header is read before
 * anything is unpacked, so a backup of a newer version is refused at once; a file without its
 * end mark was cut short.
 */

const MAGIC = 'DATAOPS-CONSOLE-BACKUP 1\n';
const END_MARK = 'DATAOPS-CONSOLE-BACKUP-END ';
/** A header is a few hundred bytes, an end mark about a hundred. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_END_BYTES = 1024;
/** The migrations table as server/db/client.ts migrates it. */
const MIGRATIONS_TABLE = 'public.__drizzle_migrations';

export interface MigrationMark {
  /** The migration's file name without `.sql`, when this version knows it. */
  tag: string | null;
  /** Its place in time (`when` of the journal, `created_at` of the migrations table). */
  when: number;
}

export interface BackupHeader {
  format: 1;
  productVersion: string;
  createdAt: string;
  /** The newest migration the database had applied; null for a database never migrated. */
  lastMigration: MigrationMark | null;
  migrationsApplied: number;
  /** DATA_DIR/instance.secret of the server that took it: what the database's sealed secrets need. */
  instanceSecret?: string;
}

export interface Backup {
  header: BackupHeader;
  /** How long the database answered no other statement. */
  heldMs: number;
  /** The whole file, made as it is read from the copy of the database. */
  file: AsyncIterable<Buffer>;
  /** Removes the copy; call it once the file has been read, or instead. */
  discard(): Promise<void>;
}

/** A failure an operator can act on, printed alone. */
export class BackupError extends Error {}

/** The version in package.json, beside server/ (or one folder further up, should the server be bundled a folder deeper). */
export function productVersion(): string {
  for (const candidate of [serverFilePath('../package.json'), serverFilePath('../../package.json')]) {
    try {
      const manifest = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'dataops-console' && manifest.version) return manifest.version;
    } catch {
      /* not there: the next place */
    }
  }
  return 'unknown';
}

/** The migrations this version ships, oldest first. */
export function knownMigrations(): MigrationMark[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  return journal.entries.map((entry) => ({ tag: entry.tag, when: entry.when })).sort((a, b) => a.when - b.when);
}

const MIGRATIONS_SUMMARY = `select count(*)::int as count, max(created_at)::text as last from ${MIGRATIONS_TABLE}`;

function migrationsFrom(count: number, last: string | null | undefined): { count: number; last: MigrationMark | null } {
  if (last === null || last === undefined) return { count, last: null };
  const when = Number(last);
  return { count, last: { tag: knownMigrations().find((known) => known.when === when)?.tag ?? null, when } };
}

async function migrationsOf(pglite: PGlite): Promise<{ count: number; last: MigrationMark | null }> {
  const { rows } = await pglite.query<{ count: number; last: string | null }>(MIGRATIONS_SUMMARY);
  return migrationsFrom(rows[0]?.count ?? 0, rows[0]?.last);
}

/** The first row of a statement sent through the wire protocol, for use inside PGlite's locks. */
async function wireRow(pglite: PGlite, statement: string): Promise<Array<string | null>> {
  const { messages } = await pglite.execProtocol(protocol.serialize.query(statement));
  const row = messages.find((message) => message.name === 'dataRow') as unknown as { fields: Array<string | null> } | undefined;
  return row?.fields ?? [];
}

/** A WAL segment's file name: 24 hex digits. */
const WAL_SEGMENT = /^pg_wal\/[0-9A-F]{24}$/;

/** How long a backup waits for a transaction opened outside PGlite's own `transaction()` to end. */
const OPEN_TRANSACTION_PATIENCE_MS = 30_000;

/**
 * Copies the database's folder into `copy` between two transactions. PGlite's `dumpDataDir`
 * waits only for the statement running, so it lands between two statements of an open
 * transaction; here the backup first takes the transaction lock that PGlite's `query`, `exec` and
 * `transaction` take (an open transaction holds it to its end), then the statement lock, so no
 * statement runs until the copy is made. A CHECKPOINT writes every commit into the files first;
 * the connection must then be idle (a transaction begun by a bare BEGIN holds no lock: the backup
 * tries again). The WAL segments past the current one are recycled files of old records, which a
 * restored database does not read: they are left out (up to max_wal_size, 1 GB).
 */
async function copyBetweenTransactions(
  pglite: PGlite,
  folder: string,
  copy: string,
): Promise<{ heldMs: number; migrations: { count: number; last: MigrationMark | null } }> {
  const deadline = Date.now() + OPEN_TRANSACTION_PATIENCE_MS;
  for (;;) {
    const taken = await pglite._runExclusiveTransaction(() =>
      pglite.runExclusive(async () => {
        const started = performance.now();
        // A Sync runs nothing and answers the connection's state: 'I' idle, 'T' or 'E' inside a transaction.
        const { messages } = await pglite.execProtocol(protocol.serialize.sync());
        if (messages.some((message) => message.name === 'readyForQuery' && (message as { status?: string }).status !== 'I')) return null;
        await pglite.execProtocol(protocol.serialize.query('CHECKPOINT'));
        const [count, last] = await wireRow(pglite, MIGRATIONS_SUMMARY);
        const [currentSegment] = await wireRow(pglite, 'select pg_walfile_name(pg_current_wal_lsn())');
        await copyFolder(
          folder,
          copy,
          (relative) => WAL_SEGMENT.test(relative) && !!currentSegment && relative.slice('pg_wal/'.length) > currentSegment,
        );
        return { heldMs: performance.now() - started, migrations: migrationsFrom(Number(count ?? 0), last) };
      }),
    );
    if (taken) return taken;
    if (Date.now() > deadline) {
      throw new BackupError(
        `The embedded database stayed inside a transaction for ${OPEN_TRANSACTION_PATIENCE_MS / 1000} s; no backup was taken. Try again.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Copies a folder, leaving out what `skip` names (relative, with `/`). Several files at once and
 * by copyFile: about three times faster than fs.cp, and a clone where the file system can make
 * one (btrfs, XFS), which costs next to nothing.
 */
async function copyFolder(from: string, to: string, skip: (relative: string) => boolean): Promise<void> {
  const files: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    await mkdir(path.join(to, relative), { mode: 0o700 });
    for (const entry of await readdir(path.join(from, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip(child)) continue;
      if (entry.isDirectory()) await visit(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await visit('');
  let next = 0;
  const copier = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      await copyFile(path.join(from, file), path.join(to, file), fs.constants.COPYFILE_FICLONE);
    }
  };
  await Promise.all(Array.from({ length: 8 }, copier));
}

const STAGING_PREFIX = 'backup-in-progress-';

/**
 * Takes a backup of an open embedded database in `dataDir` (its folder `pglite`). Statements wait
 * only while its files are copied beside it; the archive is made from that copy afterwards.
 */
export async function takeBackup(pglite: PGlite, dataDir: string): Promise<Backup> {
  // What a backup cut short (the server stopped mid-way) left behind.
  for (const name of await readdir(dataDir)) {
    if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
  const copy = path.join(dataDir, `${STAGING_PREFIX}${process.pid}-${Date.now()}`);
  let taken: Awaited<ReturnType<typeof copyBetweenTransactions>>;
  try {
    taken = await copyBetweenTransactions(pglite, path.join(dataDir, 'pglite'), copy);
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
  const secret = (await readFile(path.join(dataDir, 'instance.secret'), 'utf8').catch(() => ''))?.trim();
  const header: BackupHeader = {
    format: 1,
    productVersion: productVersion(),
    createdAt: new Date().toISOString(),
    lastMigration: taken.migrations.last,
    migrationsApplied: taken.migrations.count,
    ...(secret ? { instanceSecret: secret } : {}),
  };
  async function* file(): AsyncGenerator<Buffer> {
    yield Buffer.from(MAGIC + JSON.stringify(header) + '\n');
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    // Level 1: two to three times faster than the default, for 10 to 20% more bytes on database files.
    const gzip = zlib.createGzip({ level: 1, chunkSize: 1 << 20 });
    const archive = Readable.from(tarFolder(copy));
    archive.on('error', (error) => gzip.destroy(error));
    archive.pipe(gzip);
    for await (const chunk of gzip as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
    yield Buffer.from(END_MARK + JSON.stringify({ bytes, sha256: hash.digest('hex') }) + '\n');
  }
  return { header, heldMs: taken.heldMs, file: file(), discard: () => rm(copy, { recursive: true, force: true }) };
}

/** Refuses a database that has migrations this version does not know, naming the versions. */
function refuseNewer(last: MigrationMark | null, madeBy: string | null, shown: string): void {
  const ours = knownMigrations().at(-1);
  if (!last || !ours || last.when <= ours.when) return;
  const by = madeBy ? `version ${madeBy}` : 'a newer version';
  throw new BackupError(
    `${shown} comes from ${by} of the DataOps Console, whose database has a migration (${last.tag ?? last.when}) ` +
      `that this version (${productVersion()}, migrations up to ${ours.tag}) does not know. Restore it with ${by} or newer.`,
  );
}

interface OpenedBackup {
  header: BackupHeader;
  /** Where the archive starts and ends in the file, and its checksum. */
  archive: { start: number; end: number; sha256: string };
}

/** Reads and checks a backup's header and end mark, without reading the archive between them. */
async function openBackup(file: string): Promise<OpenedBackup> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new BackupError(`${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    const size = (await handle.stat()).size;
    const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES));
    await handle.read(head, 0, head.length, 0);
    if (!head.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC))) {
      throw new BackupError(`${file} is not a backup of the DataOps Console (it does not start with "${MAGIC.trim()}").`);
    }
    const headerEnd = head.indexOf(0x0a, MAGIC.length);
    if (headerEnd < 0) throw new BackupError(`${file} is truncated: it ends inside its header. Use another copy of the backup.`);
    let header: BackupHeader;
    try {
      header = JSON.parse(head.subarray(MAGIC.length, headerEnd).toString('utf8')) as BackupHeader;
    } catch {
      throw new BackupError(`${file} is damaged: its header cannot be read. Use another copy of the backup.`);
    }
    if (header.format !== 1) {
      throw new BackupError(`${file} is a backup format this version does not know: restore it with the version that made it or newer.`);
    }
    refuseNewer(header.lastMigration, header.productVersion, file);

    const tail = Buffer.alloc(Math.min(size - headerEnd - 1, MAX_END_BYTES));
    await handle.read(tail, 0, tail.length, size - tail.length);
    const mark = tail.lastIndexOf(END_MARK);
    let end: { bytes: number; sha256: string } | undefined;
    try {
      if (mark >= 0 && tail.at(-1) === 0x0a) end = JSON.parse(tail.subarray(mark + END_MARK.length, -1).toString('utf8'));
    } catch {
      end = undefined;
    }
    const start = headerEnd + 1;
    const archiveEnd = size - (tail.length - mark);
    if (!end || archiveEnd - start !== end.bytes) {
      throw new BackupError(
        `${file} is truncated or damaged: it lacks the end mark a complete backup has (${size} bytes). Use another copy of the backup.`,
      );
    }
    return { header, archive: { start, end: archiveEnd, sha256: end.sha256 } };
  } finally {
    await handle.close();
  }
}

export interface Restored {
  header: BackupHeader;
  /** Where the database that was there before now is, when there was one. */
  previous?: string;
  previousSecret?: string;
  /** Migrations the server will apply at its next start. */
  pendingMigrations: number;
}

/** The pid written in the data directory's lock, if any. */
export function lockHolder(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Restores a backup into a stopped data directory. Everything that can fail is done beside the
 * database in place, which is moved aside, never deleted, once the restored one has been
 * unpacked, opened and checked.
 */
export async function restoreBackup(dataDir: string, file: string): Promise<Restored> {
  let release: () => void;
  try {
    release = acquireDataDirLock(dataDir);
  } catch (error) {
    const holder = lockHolder(dataDir);
    throw new BackupError(
      holder ? `A server process (pid ${holder}) is running on ${dataDir}: stop it first, then restore.` : (error as Error).message,
      { cause: error },
    );
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const staging = path.join(dataDir, `pglite.restoring-${stamp}`);
  try {
    const { header, archive } = await openBackup(file);
    await unpack(file, archive, staging);
    const pendingMigrations = await checkDatabase(staging, file);
    await tightenPermissions(staging);
    const current = path.join(dataDir, 'pglite');
    const restored: Restored = { header, pendingMigrations };
    if (fs.existsSync(current)) {
      restored.previous = path.join(dataDir, `pglite.before-restore-${stamp}`);
      await rename(current, restored.previous);
    }
    await rename(staging, current);
    if (header.instanceSecret) restored.previousSecret = await installSecret(dataDir, header.instanceSecret, stamp);
    return restored;
  } finally {
    await rm(staging, { recursive: true, force: true });
    release();
  }
}

/** Unpacks the archive of a backup into `into`, checking it against the end mark's checksum. */
async function unpack(file: string, archive: OpenedBackup['archive'], into: string): Promise<void> {
  const hash = crypto.createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const gunzip = zlib.createGunzip();
  const reading = pipeline(fs.createReadStream(file, { start: archive.start, end: archive.end - 1 }), hashing, gunzip);
  // A failed archive stops both sides, and both are waited for: the staging folder is removed
  // after this, and must not be written to while it is (a file unpacked late made that removal
  // fail with ENOTEMPTY instead of the damage being said).
  let failure: unknown;
  const noting = (work: Promise<unknown>) =>
    work.catch((error: unknown) => {
      failure ??= error;
      gunzip.destroy();
    });
  await Promise.all([noting(untarInto(gunzip, into)), noting(reading)]);
  if (failure !== undefined) {
    const why = failure instanceof TarError ? failure.message : `its archive cannot be uncompressed (${(failure as Error).message})`;
    throw new BackupError(`${file} is damaged: ${why}. Use another copy of the backup.`);
  }
  if (hash.digest('hex') !== archive.sha256) {
    throw new BackupError(`${file} is damaged: its archive does not match the checksum of its end mark. Use another copy of the backup.`);
  }
}

/** Opens the unpacked database once and checks its migrations; answers how many this version will add. */
async function checkDatabase(folder: string, shown: string): Promise<number> {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(folder, { extensions: pgliteExtensions });
  } catch (error) {
    throw new BackupError(`The database in ${shown} could not be opened: ${(error as Error).message}`);
  }
  try {
    let migrations: Awaited<ReturnType<typeof migrationsOf>>;
    try {
      migrations = await migrationsOf(pglite);
    } catch (error) {
      throw new BackupError(
        `${shown} holds no database of the DataOps Console: its migrations cannot be read (${(error as Error).message}).`,
      );
    }
    refuseNewer(migrations.last, null, shown);
    const applied = migrations.last?.when ?? 0;
    return knownMigrations().filter((known) => known.when > applied).length;
  } finally {
    await pglite.query('CHECKPOINT').catch(() => {});
    await pglite.close();
  }
}

/** Puts the backup's instance secret in place, keeping a different one aside; answers where. */
async function installSecret(dataDir: string, secret: string, stamp: string): Promise<string | undefined> {
  const target = path.join(dataDir, 'instance.secret');
  const existing = await readFile(target, 'utf8').catch(() => undefined);
  if (existing?.trim() === secret) return undefined;
  let aside: string | undefined;
  if (existing !== undefined) {
    aside = path.join(dataDir, `instance.secret.before-restore-${stamp}`);
    await rename(target, aside);
  }
  const handle = await open(target, 'wx', 0o600);
  try {
    await handle.writeFile(secret + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return aside;
}
