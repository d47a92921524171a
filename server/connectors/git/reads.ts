import { HTTP_TIMEOUT_MS } from '../http';
import { ConnectorError, type ConnectionConfig } from '../types';
import { fetchAndResolve, withCache } from './cache';
import { gitError } from './errors';
import { openLocal, resolveLocal } from './local';
import { describe, locationOf, type GitOptions, type Location, type Opened } from './location';
import { remoteCall } from './remote';
import { loadGit } from './library';

/** What is read of a repository: its branches, the commit a ref names, a file's text, the files of a folder. */

export interface BranchList {
  /** The branch HEAD names; undefined for a repository without one (empty, or a detached HEAD). */
  defaultBranch: string | undefined;
  branches: Array<{ name: string; commit: string }>;
}

export async function listBranches(config: ConnectionConfig, options: GitOptions): Promise<BranchList> {
  const git = await loadGit();
  const location = locationOf(config, options);
  if (location.kind === 'local') {
    const { gitdir, fs } = await openLocal(location, options);
    try {
      const names = await git.listBranches({ fs, gitdir });
      const branches = await Promise.all(
        names.sort().map(async (name) => ({ name, commit: await git.resolveRef({ fs, gitdir, ref: `refs/heads/${name}` }) })),
      );
      const current = await git.currentBranch({ fs, gitdir, test: true });
      return { defaultBranch: current && names.includes(current) ? current : undefined, branches };
    } catch (error) {
      throw gitError(error, location);
    }
  }
  const refs = await remoteCall(location, options, 'Listing the branches', options.timeoutMs ?? HTTP_TIMEOUT_MS, (http) =>
    git.listServerRefs({ http, url: location.url, onAuth: location.onAuth, symrefs: true }),
  );
  const branches = refs
    .filter((ref) => ref.ref.startsWith('refs/heads/'))
    .map((ref) => ({ name: ref.ref.slice('refs/heads/'.length), commit: ref.oid }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const head = refs.find((ref) => ref.ref === 'HEAD')?.target;
  return { defaultBranch: head?.startsWith('refs/heads/') ? head.slice('refs/heads/'.length) : undefined, branches };
}

/** A branch, tag or commit id (full or abbreviated) as the id of its commit. */
export async function resolveCommit(config: ConnectionConfig, ref: string, options: GitOptions): Promise<string> {
  const location = locationOf(config, options);
  if (location.kind === 'local') return resolveLocal(await openLocal(location, options), ref, location);
  return withCache(location, options, (opened) => fetchAndResolve(opened, ref, location, options));
}

/** The text of a file at a branch, tag or commit. */
export async function readFileAt(config: ConnectionConfig, ref: string, filePath: string, options: GitOptions): Promise<string> {
  const filepath = repositoryPath(filePath);
  return atCommit(config, ref, options, async ({ gitdir, fs }, oid, location) => {
    const git = await loadGit();
    try {
      const { blob } = await git.readBlob({ fs, gitdir, oid, filepath });
      return new TextDecoder().decode(blob);
    } catch (error) {
      const code = (error as { code?: string }).code;
      const at = `at ${ref} (${oid.slice(0, 7)}) of ${describe(location)}`;
      if (code === 'NotFoundError') throw new ConnectorError(`"${filepath}" does not exist ${at}`, 'not_found');
      if (code === 'ObjectTypeError') throw new ConnectorError(`"${filepath}" is a folder, not a file, ${at}`, 'invalid');
      throw gitError(error, location);
    }
  });
}

/** The files at a branch, tag or commit, in the whole tree or under one folder (undefined: the whole tree), as paths from the root. */
export async function listFilesAt(config: ConnectionConfig, ref: string, dir: string | undefined, options: GitOptions): Promise<string[]> {
  const folder = dir === undefined || dir.replace(/^\/+|\/+$/g, '') === '' ? '' : repositoryPath(dir);
  return atCommit(config, ref, options, async ({ gitdir, fs }, oid, location) => {
    const git = await loadGit();
    let files: string[];
    try {
      files = await git.listFiles({ fs, gitdir, ref: oid });
    } catch (error) {
      throw gitError(error, location);
    }
    const found = folder ? files.filter((file) => file.startsWith(`${folder}/`)) : files;
    if (folder && found.length === 0)
      throw new ConnectorError(
        `The folder "${folder}" does not exist at ${ref} (${oid.slice(0, 7)}) of ${describe(location)}`,
        'not_found',
      );
    return found.sort();
  });
}

/** A path inside the repository, from its root; one that climbs out is refused. */
function repositoryPath(filePath: string): string {
  const trimmed = filePath.replace(/^\/+/, '');
  const parts = trimmed.split('/');
  if (trimmed === '' || parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new ConnectorError(`"${filePath}" is not a path inside the repository`, 'invalid');
  }
  return trimmed;
}

async function atCommit<T>(
  config: ConnectionConfig,
  ref: string,
  options: GitOptions,
  read: (opened: Opened, oid: string, location: Location) => Promise<T>,
): Promise<T> {
  const location = locationOf(config, options);
  if (location.kind === 'local') {
    const opened = await openLocal(location, options);
    return read(opened, await resolveLocal(opened, ref, location), location);
  }
  return withCache(location, options, async (opened) => read(opened, await fetchAndResolve(opened, ref, location, options), location));
}
