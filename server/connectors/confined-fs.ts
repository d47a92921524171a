import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isInside } from './company-places';

/**
 * A file system for isomorphic-git that reaches nothing outside one folder. isomorphic-git opens
 * whatever paths a repository's files lead it to — a `.git` file's pointer, a `refs` or `objects`
 * folder that is a symbolic link — so every call resolves its path again (links followed, since
 * they can change between calls) and answers a path that leads out of the folder as a missing
 * one. A read-only one refuses every write; a writable one (a cache the server fills) never writes
 * through a link and never makes one.
 */

export interface ConfinedFs {
  readFile(file: string, options?: unknown): Promise<Buffer | string>;
  writeFile(file: string, data: Uint8Array | string, options?: unknown): Promise<void>;
  mkdir(folder: string, options?: unknown): Promise<void>;
  rmdir(folder: string): Promise<void>;
  rm(target: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  unlink(file: string): Promise<void>;
  stat(target: string): Promise<import('node:fs').Stats>;
  lstat(target: string): Promise<import('node:fs').Stats>;
  readdir(folder: string): Promise<string[]>;
  readlink(link: string): Promise<string>;
  symlink(target: string, link: string): Promise<void>;
}

function fsError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** `root` must be a real path (links already followed). */
export function confinedFs(root: string, { writable }: { writable: boolean }): ConfinedFs {
  /** A folder's real path; a missing one is its nearest existing parent's real path and the names below it. */
  const realFolder = async (folder: string): Promise<string> => {
    try {
      return await fsp.realpath(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const parent = path.dirname(folder);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === folder) throw error;
      return path.join(await realFolder(parent), path.basename(folder));
    }
  };
  const outside = (target: unknown) => fsError('ENOENT', `${String(target)} lies outside the folder the repository may use`);

  /** The path with the links of its folders followed and its last name kept: for lstat, unlink, and writes. */
  const unfollowed = async (target: unknown): Promise<string> => {
    const full = path.resolve(String(target));
    const resolved = path.join(await realFolder(path.dirname(full)), path.basename(full));
    if (!isInside(root, resolved)) throw outside(target);
    return resolved;
  };
  /** The path with every link followed: for reads. */
  const followed = async (target: unknown): Promise<string> => {
    const real = await fsp.realpath(await unfollowed(target));
    if (!isInside(root, real)) throw outside(target);
    return real;
  };
  /** Where a write may go: inside, and not through a link at its last name. */
  const writableTarget = async (target: unknown): Promise<string> => {
    if (!writable) throw fsError('EROFS', `${String(target)} is in a repository the server only reads`);
    const resolved = await unfollowed(target);
    const existing = await fsp.lstat(resolved).catch(() => undefined);
    if (existing?.isSymbolicLink()) throw outside(target);
    return resolved;
  };

  return {
    async readFile(file, options) {
      return fsp.readFile(await followed(file), options as Parameters<typeof fsp.readFile>[1]);
    },
    async writeFile(file, data, options) {
      await fsp.writeFile(await writableTarget(file), data, options as Parameters<typeof fsp.writeFile>[2]);
    },
    async mkdir(folder) {
      await fsp.mkdir(await writableTarget(folder));
    },
    async rmdir(folder) {
      await fsp.rmdir(await writableTarget(folder));
    },
    async rm(target, options) {
      await fsp.rm(await writableTarget(target), options);
    },
    async unlink(file) {
      await fsp.unlink(await writableTarget(file));
    },
    async stat(target) {
      return fsp.stat(await followed(target));
    },
    async lstat(target) {
      return fsp.lstat(await unfollowed(target));
    },
    async readdir(folder) {
      return fsp.readdir(await followed(folder));
    },
    async readlink(link) {
      return fsp.readlink(await unfollowed(link));
    },
    async symlink(_target, link) {
      throw fsError('EACCES', `${String(link)}: the server makes no links in a repository`);
    },
  };
}
