import { chmod, lstat, mkdir, opendir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { legacyGitCache } from './connectors/company-places';

/**
 * The data directory holds the embedded database (password hashes in its write-ahead log
 * included), the instance secret and every company's files: it is the server's alone. The server
 * creates what it writes readable by its own account only (`keepWritesPrivate`), creates the
 * directory with mode 0700, takes group and other rights away from what an older version left
 * there (`tightenPermissions`), and says when the directory, or a folder above it the server's
 * account owns, still lets other accounts in (`dataDirectoryPrivacy`).
 */

/** Everything the process creates from now on is readable and writable by its own account only. Call it before anything is written. */
export function keepWritesPrivate(): void {
  process.umask(0o077);
}

export interface DataDirectoryPrivacy {
  path: string;
  /** Only the server's account may read or write the directory, and no other may replace it. */
  private: boolean;
  /** What is wrong, in an operator's words, with the command that fixes it. */
  problem?: string;
}

/**
 * Creates the data directory (mode 0700), tightens what is in it, removes the shared cache of
 * remote repositories older versions kept (each company now has its own, and it is only a cache),
 * and warns when the directory is still open to other accounts.
 */
export async function prepareDataDirectory(dataDir: string, warn: (message: string) => void): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await rm(legacyGitCache(dataDir), { recursive: true, force: true });
  const { failed } = await tightenPermissions(dataDir);
  if (failed.length > 0) {
    const shown = failed.slice(0, 3).join(', ') + (failed.length > 3 ? ` and ${failed.length - 3} more` : '');
    warn(
      `Warning: the server could not take other accounts' rights away from ${shown} in its data directory (they belong to another account).`,
    );
  }
  const privacy = await dataDirectoryPrivacy(dataDir);
  if (!privacy.private) warn(`Warning: ${privacy.problem}`);
}

/**
 * Takes group and other rights away from the folder and everything under it (folders become
 * 0700 or less, files 0600 or less, the owner's own rights kept). Symbolic links are neither
 * changed nor followed: chmod would change what they point to, which may lie outside.
 */
export async function tightenPermissions(root: string): Promise<{ changed: number; failed: string[] }> {
  let changed = 0;
  const failed: string[] = [];
  const tighten = async (target: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    try {
      await chmod(target, mode & 0o700);
      changed += 1;
    } catch {
      failed.push(target);
    }
  };
  const visit = async (folder: string): Promise<void> => {
    await tighten(folder, (await lstat(folder)).mode);
    let entries;
    try {
      entries = await opendir(folder);
    } catch {
      failed.push(folder);
      return;
    }
    for await (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) await tighten(full, (await lstat(full)).mode);
    }
  };
  const top = await lstat(root);
  // The data directory itself may be a link the operator made; what it leads to is the directory.
  if (top.isSymbolicLink()) await visit(await realpath(root));
  else if (top.isDirectory()) await visit(root);
  return { changed, failed };
}

/**
 * Whether the data directory is the server's alone: not readable or writable by other accounts,
 * owned by the server's account, and not in a folder of that account that others may write to
 * (they could rename it and put their own in its place).
 */
export async function dataDirectoryPrivacy(dataDir: string): Promise<DataDirectoryPrivacy> {
  const shown = path.resolve(dataDir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let real: string;
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    real = await realpath(shown);
    info = await stat(real);
  } catch (error) {
    return {
      path: shown,
      private: false,
      problem: `the data directory ${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  if (uid !== undefined && info.uid !== uid) {
    return {
      path: shown,
      private: false,
      problem: `the data directory ${shown} belongs to another account (uid ${info.uid}) than the server's (uid ${uid})`,
    };
  }
  if ((info.mode & 0o066) !== 0) {
    const who = info.mode & 0o044 ? (info.mode & 0o022 ? 'read and written' : 'read') : 'written';
    return {
      path: shown,
      private: false,
      problem: `the data directory ${shown} can be ${who} by other accounts of this machine (mode ${octal(info.mode)}); run: chmod 700 ${shown}`,
    };
  }
  for (let folder = path.dirname(real); ; folder = path.dirname(folder)) {
    const above = await stat(folder).catch(() => undefined);
    const sticky = above ? (above.mode & 0o1000) !== 0 : false;
    if (above && uid !== undefined && above.uid === uid && (above.mode & 0o022) !== 0 && !sticky) {
      return {
        path: shown,
        private: false,
        problem: `${folder}, which holds the data directory ${shown}, can be written by other accounts of this machine (mode ${octal(above.mode)}), so they could replace the data directory; run: chmod go-w ${folder}`,
      };
    }
    if (path.dirname(folder) === folder) break;
  }
  return { path: shown, private: true };
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}
