import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isRunning } from '../../db/lock';
import { ConnectorError } from '../types';

/**
 * One process at a time opens an embedded database's folder. PGlite opens one folder from two
 * processes without a word and corrupts it; with several servers and workers on one DATA_DIR (a
 * cluster) two of them may want the same company database. A process holds `<folder>.lock` while
 * its thread has the folder open, and renews it every few seconds; another process waits for it,
 * and takes it over once its holder has gone (a process of this machine no longer running) or
 * has not renewed it for a while (a process of another machine sharing the folder, which stopped).
 */

/** How often a held lock is renewed. */
const RENEW_MS = 5_000;
/** A lock not renewed for this long is left by a process that stopped. */
const STALE_MS = 30_000;
/** How often a waiting process looks again. */
const POLL_MS = 200;

interface Holder {
  host: string;
  pid: number;
}

export interface FolderLock {
  release(): void;
}

const lockPathOf = (folder: string) => `${folder}.lock`;

function readHolder(file: string): Holder | undefined {
  try {
    const [host, pid] = fs.readFileSync(file, 'utf8').trim().split(' ');
    return { host, pid: Number(pid) };
  } catch {
    return undefined;
  }
}

/** Whether the lock at `file` is left by a process that stopped. */
function abandoned(file: string, holder: Holder | undefined, now: number): boolean {
  if (!holder || !Number.isInteger(holder.pid)) return true;
  if (holder.host === os.hostname()) return holder.pid !== process.pid && !isRunning(holder.pid);
  try {
    return now - fs.statSync(file).mtimeMs > STALE_MS;
  } catch {
    return true;
  }
}

function tryTake(file: string): boolean {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(file, 'wx', 0o600);
    fs.writeSync(fd, `${os.hostname()} ${process.pid}`);
    fs.closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * Takes the folder's lock, waiting up to `waitMs` for another process to let it go. `label`
 * names the database in the message of a lock not freed in time.
 */
export async function lockFolder(folder: string, label: string, waitMs: number): Promise<FolderLock> {
  const file = lockPathOf(folder);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (tryTake(file)) break;
    const holder = readHolder(file);
    if (abandoned(file, holder, Date.now())) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      // The operator reads which process holds it; the company, who sees the message, is not told the servers' names.
      console.warn(`${folder} stays locked by ${holder ? `pid ${holder.pid} on ${holder.host}` : 'another process'}`);
      throw new ConnectorError(
        `${label} is open in another server process; it is closed there once unused (EMBEDDED_IDLE_SECONDS). Try again in a moment.`,
        'failed',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const renew = setInterval(() => {
    const now = new Date();
    fs.promises.utimes(file, now, now).catch(() => {});
  }, RENEW_MS);
  renew.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(renew);
      const holder = readHolder(file);
      if (holder?.host === os.hostname() && holder.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}
