import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInside, realPlace, REPOSITORY_FOLDER } from '../company-places';
import { confinedFs } from '../confined-fs';
import { ConnectorError } from '../types';
import { missingRef } from './errors';
import { describe, type GitOptions, type Location, type Opened } from './location';
import { loadGit } from './library';

/** A repository on the server: its git directory found and kept in the company's place, and a ref resolved to its commit. */

/**
 * The git directory of a working copy (its .git, or where a .git file points) or of a bare
 * repository, checked at every use to stay in the company's place, with a file system that
 * reads nothing outside that place and writes nothing.
 */
export async function openLocal(location: Extract<Location, { kind: 'local' }>, options: GitOptions): Promise<Opened> {
  const { place, companyId } = location;
  const shown = place.shown;
  let repository: string;
  let within: string;
  try {
    repository = await realPlace(options.places, companyId, place, REPOSITORY_FOLDER);
    within = await realpath(place.within);
    if (!(await stat(repository)).isDirectory()) throw new ConnectorError(`${shown} is not a folder`, 'invalid');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ConnectorError(`The repository ${shown} does not exist`, 'not_found');
    throw error instanceof ConnectorError ? error : new ConnectorError(`${shown} could not be read`, 'failed');
  }
  const fs = confinedFs(within, { writable: false });
  const dotGit = path.join(repository, '.git');
  const dotGitStat = await fs.stat(dotGit).catch(() => undefined);
  if (dotGitStat?.isDirectory()) return { gitdir: dotGit, fs };
  if (dotGitStat?.isFile()) {
    const pointer = /^gitdir:\s*(.+)$/m.exec(String(await fs.readFile(dotGit, 'utf8')));
    if (pointer) {
      const gitdir = await realpath(path.resolve(repository, pointer[1]!.trim())).catch(() => undefined);
      if (gitdir && isInside(within, gitdir)) return { gitdir, fs };
      throw new ConnectorError(`${shown} is not a git repository (its .git file points to a folder it may not use)`, 'invalid');
    }
  }
  const [head, objects] = await Promise.all([
    fs.stat(path.join(repository, 'HEAD')).catch(() => undefined),
    fs.stat(path.join(repository, 'objects')).catch(() => undefined),
  ]);
  if (head?.isFile() && objects?.isDirectory()) return { gitdir: repository, fs };
  throw new ConnectorError(`${shown} is not a git repository`, 'invalid');
}

export const COMMIT_ID = /^[0-9a-f]{4,40}$/i;

export async function resolveLocal({ gitdir, fs }: Opened, ref: string, location: Location): Promise<string> {
  const git = await loadGit();
  let oid: string | undefined;
  try {
    oid = await git.resolveRef({ fs, gitdir, ref });
  } catch {
    if (COMMIT_ID.test(ref)) oid = await git.expandOid({ fs, gitdir, oid: ref.toLowerCase() }).catch(() => undefined);
  }
  if (!oid) throw missingRef(ref, location);
  return peelToCommit({ gitdir, fs }, oid, ref, location);
}

/** An annotated tag names a tag object; the commit is what it points to. */
export async function peelToCommit({ gitdir, fs }: Opened, oid: string, ref: string, location: Location): Promise<string> {
  const git = await loadGit();
  let current = oid;
  for (let depth = 0; depth < 10; depth += 1) {
    let object: Awaited<ReturnType<typeof git.readObject>>;
    try {
      object = await git.readObject({ fs, gitdir, oid: current, format: 'parsed' });
    } catch {
      throw missingRef(ref, location);
    }
    if (object.type === 'commit') return current;
    if (object.type !== 'tag') break;
    current = (object.object as { object: string }).object;
  }
  throw new ConnectorError(`"${ref}" of ${describe(location)} does not name a commit`, 'invalid');
}
