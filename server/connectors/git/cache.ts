import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FetchResult } from 'isomorphic-git';
import { companyGitCache } from '../company-places';
import { confinedFs } from '../confined-fs';
import { HTTP_TIMEOUT_MS } from '../http';
import { ConnectorError } from '../types';
import { missingRef } from './errors';
import { COMMIT_ID, peelToCommit, resolveLocal } from './local';
import type { GitOptions, Opened, Remote } from './location';
import { remoteCall } from './remote';
import { loadGit } from './library';

/** The cache of remote repositories. */

/** One operation at a time per cached repository: two fetches into one folder would spoil it. */
const cacheQueues = new Map<string, Promise<void>>();
/** A fetch its caller stopped waiting for goes on writing; the next operation on the folder waits for it. */
const unfinishedFetches = new Map<string, Promise<void>>();

export async function withCache<T>(location: Remote, options: GitOptions, work: (opened: Opened) => Promise<T>): Promise<T> {
  if (!options.places.dataDir)
    throw new ConnectorError('Reading files of a remote repository needs a cache folder on the server', 'invalid');
  // The company's own cache: another company naming the same URL fetches into a folder of its own.
  const cacheDir = companyGitCache(options.places.dataDir, location.companyId);
  const gitdir = path.join(cacheDir, `${location.cacheKey}.git`);
  const run = (cacheQueues.get(gitdir) ?? Promise.resolve())
    .then(() => unfinishedFetches.get(gitdir))
    .then(async () => {
      await mkdir(cacheDir, { recursive: true, mode: 0o700 });
      return work({ gitdir, fs: confinedFs(await realpath(cacheDir), { writable: true }) });
    });
  cacheQueues.set(
    gitdir,
    run.then(
      () => undefined,
      () => undefined,
    ),
  );
  return run;
}

export async function fetchAndResolve(opened: Opened, ref: string, location: Remote, options: GitOptions): Promise<string> {
  const fetchTimeoutMs = (options.timeoutMs ?? HTTP_TIMEOUT_MS) * 8;
  await ensureCache(opened, location);
  if (COMMIT_ID.test(ref)) {
    const known = await resolveLocal(opened, ref, location).catch(() => undefined);
    if (known) return known;
    // A commit that is not here may lie below the shallow history kept so far: fetch it all, once.
    if (await isShallow(opened.gitdir)) {
      await rm(opened.gitdir, { recursive: true, force: true });
      await ensureCache(opened, location);
    }
    await fetchInto(opened, location, options, 'Fetching the repository', fetchTimeoutMs, { ref: 'HEAD', singleBranch: false, tags: true });
    return resolveLocal(opened, ref, location);
  }
  const depth = (await isShallow(opened.gitdir)) || !(await hasFetched(opened)) ? 1 : undefined;
  const fetched = await fetchInto(
    opened,
    location,
    options,
    `Fetching ${ref}`,
    fetchTimeoutMs,
    { ref, singleBranch: true, depth, tags: false },
    () => missingRef(ref, location),
  );
  if (!fetched.fetchHead) throw missingRef(ref, location);
  return peelToCommit(opened, fetched.fetchHead, ref, location);
}

async function fetchInto(
  { gitdir, fs }: Opened,
  location: Remote,
  options: GitOptions,
  what: string,
  timeoutMs: number,
  wanted: { ref: string; singleBranch: boolean; depth?: number; tags: boolean },
  missing?: () => ConnectorError,
): Promise<FetchResult> {
  const git = await loadGit();
  return remoteCall(
    location,
    options,
    what,
    timeoutMs,
    (http) => {
      const fetching = git.fetch({ fs, http, gitdir, url: location.url, onAuth: location.onAuth, ...wanted });
      unfinishedFetches.set(
        gitdir,
        fetching.then(
          () => undefined,
          () => undefined,
        ),
      );
      return fetching;
    },
    missing,
  );
}

async function ensureCache({ gitdir, fs }: Opened, location: Remote): Promise<void> {
  if (await stat(path.join(gitdir, 'HEAD')).catch(() => undefined)) return;
  const git = await loadGit();
  await mkdir(gitdir, { recursive: true, mode: 0o700 });
  await git.init({ fs, gitdir, bare: true });
  await git.addRemote({ fs, gitdir, remote: 'origin', url: location.url, force: true });
}

async function isShallow(gitdir: string): Promise<boolean> {
  return (await stat(path.join(gitdir, 'shallow')).catch(() => undefined)) !== undefined;
}

async function hasFetched({ gitdir, fs }: Opened): Promise<boolean> {
  const git = await loadGit();
  return (await git.listBranches({ fs, gitdir, remote: 'origin' }).catch(() => [])).length > 0;
}
