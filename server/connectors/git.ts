import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import git, { type AuthCallback } from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { connectionTypeOf, parseSettings } from '../../common/connections';
import { HTTP_TIMEOUT_MS, unreachableError, withDeadline } from './http';
import { ConnectorError, type ConnectionConfig, type Connector, type Endpoint } from './types';

/**
 * The `git` type: any git repository, by http(s) URL or by a path on the server (a working copy
 * or a bare repository), read with isomorphic-git. Its endpoints are its branches; workflows
 * read their SQL files from it at a branch, a tag or a commit (`readFileAt`, `listFilesAt`).
 *
 * A remote repository is fetched into a cache folder the caller names (`cacheDir`), one folder
 * per URL and credentials, and reused: a branch or tag is fetched alone and shallow (its newest commit) while
 * the cache holds nothing deeper; a commit id not yet in the cache makes it fetch the whole
 * history once. Listing branches asks the server directly and needs no cache.
 */

export interface GitOptions {
  /** Where remote repositories are fetched to and kept; needed to read files of a remote repository. */
  cacheDir?: string;
  /** Asking a remote for its branches stops after this long (15 s unless told); a fetch gets eight times as long. */
  timeoutMs?: number;
}

export interface BranchList {
  /** The branch HEAD names; undefined for a repository without one (empty, or a detached HEAD). */
  defaultBranch: string | undefined;
  branches: Array<{ name: string; commit: string }>;
}

type Location =
  | { kind: 'local'; path: string }
  /** `cacheKey` tells cached copies apart by URL and credentials: what one set of credentials fetched is not served to another. */
  | { kind: 'remote'; url: string; onAuth: AuthCallback | undefined; cacheKey: string };

function locationOf(config: ConnectionConfig): Location {
  const parsed = parseSettings(connectionTypeOf('git')!, { ...config.settings, ...config.secrets });
  if (!parsed.ok) throw new ConnectorError(parsed.problems.join('; '), 'invalid');
  const { settings, secrets } = parsed.value;
  const url = String(settings.url).trim();
  if (/^https?:\/\//i.test(url)) {
    const username = String(settings.username ?? '').trim();
    const password = secrets.password;
    const onAuth: AuthCallback | undefined = username || password ? () => ({ username, password }) : undefined;
    const cacheKey = createHash('sha256').update([url, username, password ?? ''].join('\0')).digest('hex').slice(0, 32);
    return { kind: 'remote', url, onAuth, cacheKey };
  }
  if (url.startsWith('file://')) return { kind: 'local', path: fileURLToPath(url) };
  if (path.isAbsolute(url)) return { kind: 'local', path: path.normalize(url) };
  if (/^(ssh:\/\/|git@|git:\/\/)/i.test(url)) {
    throw new ConnectorError('settings.url: ssh and git:// addresses are not supported; give the repository\'s https URL', 'invalid');
  }
  throw new ConnectorError(`settings.url: "${url}" is neither an http(s) URL nor an absolute path on the server`, 'invalid');
}

/** How the repository is named in messages: a path, or a URL without credentials. */
function describe(location: Location): string {
  if (location.kind === 'local') return location.path;
  const url = new URL(location.url);
  url.username = '';
  url.password = '';
  return url.href;
}

export async function listBranches(config: ConnectionConfig, options: GitOptions = {}): Promise<BranchList> {
  const location = locationOf(config);
  if (location.kind === 'local') {
    const gitdir = await localGitdir(location.path);
    try {
      const names = await git.listBranches({ fs, gitdir });
      const branches = await Promise.all(names.sort().map(async (name) => ({ name, commit: await git.resolveRef({ fs, gitdir, ref: `refs/heads/${name}` }) })));
      const current = await git.currentBranch({ fs, gitdir, test: true });
      return { defaultBranch: current && names.includes(current) ? current : undefined, branches };
    } catch (error) {
      throw gitError(error, location);
    }
  }
  const refs = await remoteCall(location, 'Listing the branches', options.timeoutMs ?? HTTP_TIMEOUT_MS, () =>
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
export async function resolveCommit(config: ConnectionConfig, ref: string, options: GitOptions = {}): Promise<string> {
  const location = locationOf(config);
  if (location.kind === 'local') return resolveLocal(await localGitdir(location.path), ref, location);
  return withCache(location, options, (gitdir) => fetchAndResolve(gitdir, ref, location, options));
}

/** The text of a file at a branch, tag or commit. */
export async function readFileAt(config: ConnectionConfig, ref: string, filePath: string, options: GitOptions = {}): Promise<string> {
  const filepath = repositoryPath(filePath);
  return atCommit(config, ref, options, async (gitdir, oid, location) => {
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

/** The files at a branch, tag or commit, in the whole tree or under one folder, as paths from the root. */
export async function listFilesAt(config: ConnectionConfig, ref: string, dir?: string, options: GitOptions = {}): Promise<string[]> {
  const folder = dir === undefined || dir.replace(/^\/+|\/+$/g, '') === '' ? '' : repositoryPath(dir);
  return atCommit(config, ref, options, async (gitdir, oid, location) => {
    let files: string[];
    try {
      files = await git.listFiles({ fs, gitdir, ref: oid });
    } catch (error) {
      throw gitError(error, location);
    }
    const found = folder ? files.filter((file) => file.startsWith(`${folder}/`)) : files;
    if (folder && found.length === 0) throw new ConnectorError(`The folder "${folder}" does not exist at ${ref} (${oid.slice(0, 7)}) of ${describe(location)}`, 'not_found');
    return found.sort();
  });
}

export function openGitConnector(config: ConnectionConfig, options: GitOptions = {}): Connector {
  // Settings are checked now, so that a wrong one fails at once.
  locationOf(config);
  return {
    async test() {
      const started = performance.now();
      const { defaultBranch, branches } = await listBranches(config, options);
      const count = `${branches.length} branch${branches.length === 1 ? '' : 'es'}`;
      return { latencyMs: Math.round(performance.now() - started), detail: defaultBranch ? `Default branch ${defaultBranch}, ${count}` : count };
    },
    async endpoints(): Promise<Endpoint[]> {
      return (await listBranches(config, options)).branches.map((branch) => ({ id: branch.name, name: branch.name, kind: 'branch' }));
    },
    async close() {},
  };
}

// ---------------------------------------------------------------------------------------------

/** A path inside the repository, from its root; one that climbs out is refused. */
function repositoryPath(filePath: string): string {
  const trimmed = filePath.replace(/^\/+/, '');
  const parts = trimmed.split('/');
  if (trimmed === '' || parts.some((part) => part === '' || part === '.' || part === '..')) {
    throw new ConnectorError(`"${filePath}" is not a path inside the repository`, 'invalid');
  }
  return trimmed;
}

async function atCommit<T>(config: ConnectionConfig, ref: string, options: GitOptions, read: (gitdir: string, oid: string, location: Location) => Promise<T>): Promise<T> {
  const location = locationOf(config);
  if (location.kind === 'local') {
    const gitdir = await localGitdir(location.path);
    return read(gitdir, await resolveLocal(gitdir, ref, location), location);
  }
  return withCache(location, options, async (gitdir) => read(gitdir, await fetchAndResolve(gitdir, ref, location, options), location));
}

/** The git directory of a working copy (its .git, or where a .git file points) or of a bare repository. */
async function localGitdir(repository: string): Promise<string> {
  try {
    if (!(await stat(repository)).isDirectory()) throw new ConnectorError(`${repository} is not a folder`, 'invalid');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ConnectorError(`The repository ${repository} does not exist`, 'not_found');
    throw error instanceof ConnectorError ? error : new ConnectorError(`${repository} could not be read: ${messageOf(error)}`, 'failed');
  }
  const dotGit = path.join(repository, '.git');
  const dotGitStat = await stat(dotGit).catch(() => undefined);
  if (dotGitStat?.isDirectory()) return dotGit;
  if (dotGitStat?.isFile()) {
    const pointer = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8'));
    if (pointer) return path.resolve(repository, pointer[1]!.trim());
  }
  const [head, objects] = await Promise.all([stat(path.join(repository, 'HEAD')).catch(() => undefined), stat(path.join(repository, 'objects')).catch(() => undefined)]);
  if (head?.isFile() && objects?.isDirectory()) return repository;
  throw new ConnectorError(`${repository} is not a git repository`, 'invalid');
}

const COMMIT_ID = /^[0-9a-f]{4,40}$/i;

async function resolveLocal(gitdir: string, ref: string, location: Location): Promise<string> {
  let oid: string | undefined;
  try {
    oid = await git.resolveRef({ fs, gitdir, ref });
  } catch {
    if (COMMIT_ID.test(ref)) oid = await git.expandOid({ fs, gitdir, oid: ref.toLowerCase() }).catch(() => undefined);
  }
  if (!oid) throw missingRef(ref, location);
  return peelToCommit(gitdir, oid, ref, location);
}

/** An annotated tag names a tag object; the commit is what it points to. */
async function peelToCommit(gitdir: string, oid: string, ref: string, location: Location): Promise<string> {
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

function missingRef(ref: string, location: Location): ConnectorError {
  return new ConnectorError(`"${ref}" is not a branch, tag or commit of ${describe(location)}`, 'not_found');
}

// ---------------------------------------------------------------------------------------------
// The cache of remote repositories

/** One operation at a time per cached repository: two fetches into one folder would spoil it. */
const cacheQueues = new Map<string, Promise<void>>();
/** A fetch its caller stopped waiting for goes on writing; the next operation on the folder waits for it. */
const unfinishedFetches = new Map<string, Promise<void>>();

async function withCache<T>(location: Extract<Location, { kind: 'remote' }>, options: GitOptions, work: (gitdir: string) => Promise<T>): Promise<T> {
  if (!options.cacheDir) throw new ConnectorError('Reading files of a remote repository needs a cache folder on the server', 'invalid');
  const gitdir = path.join(options.cacheDir, `${location.cacheKey}.git`);
  const run = (cacheQueues.get(gitdir) ?? Promise.resolve()).then(() => unfinishedFetches.get(gitdir)).then(() => work(gitdir));
  cacheQueues.set(
    gitdir,
    run.then(
      () => undefined,
      () => undefined,
    ),
  );
  return run;
}

async function fetchAndResolve(gitdir: string, ref: string, location: Extract<Location, { kind: 'remote' }>, options: GitOptions): Promise<string> {
  const fetchTimeoutMs = (options.timeoutMs ?? HTTP_TIMEOUT_MS) * 8;
  await ensureCache(gitdir, location);
  if (COMMIT_ID.test(ref)) {
    const known = await resolveLocal(gitdir, ref, location).catch(() => undefined);
    if (known) return known;
    // A commit that is not here may lie below the shallow history kept so far: fetch it all, once.
    if (await isShallow(gitdir)) {
      await rm(gitdir, { recursive: true, force: true });
      await ensureCache(gitdir, location);
    }
    await fetchInto(gitdir, location, 'Fetching the repository', fetchTimeoutMs, { ref: 'HEAD', singleBranch: false, tags: true });
    return resolveLocal(gitdir, ref, location);
  }
  const depth = (await isShallow(gitdir)) || !(await hasFetched(gitdir)) ? 1 : undefined;
  const fetched = await fetchInto(gitdir, location, `Fetching ${ref}`, fetchTimeoutMs, { ref, singleBranch: true, depth, tags: false }, () => missingRef(ref, location));
  if (!fetched.fetchHead) throw missingRef(ref, location);
  return peelToCommit(gitdir, fetched.fetchHead, ref, location);
}

async function fetchInto(
  gitdir: string,
  location: Extract<Location, { kind: 'remote' }>,
  what: string,
  timeoutMs: number,
  wanted: { ref: string; singleBranch: boolean; depth?: number; tags: boolean },
  missing?: () => ConnectorError,
): Promise<Awaited<ReturnType<typeof git.fetch>>> {
  const fetching = git.fetch({ fs, http, gitdir, url: location.url, onAuth: location.onAuth, ...wanted });
  unfinishedFetches.set(
    gitdir,
    fetching.then(
      () => undefined,
      () => undefined,
    ),
  );
  return remoteCall(location, what, timeoutMs, () => fetching, missing);
}

async function ensureCache(gitdir: string, location: Extract<Location, { kind: 'remote' }>): Promise<void> {
  if (await stat(path.join(gitdir, 'HEAD')).catch(() => undefined)) return;
  await mkdir(gitdir, { recursive: true });
  await git.init({ fs, gitdir, bare: true });
  await git.addRemote({ fs, gitdir, remote: 'origin', url: location.url, force: true });
}

async function isShallow(gitdir: string): Promise<boolean> {
  return (await stat(path.join(gitdir, 'shallow')).catch(() => undefined)) !== undefined;
}

async function hasFetched(gitdir: string): Promise<boolean> {
  return (await git.listBranches({ fs, gitdir, remote: 'origin' }).catch(() => [])).length > 0;
}

/** A call to the remote, bounded in time; `missing` words a NotFoundError (a ref the remote does not have). */
async function remoteCall<T>(
  location: Extract<Location, { kind: 'remote' }>,
  what: string,
  timeoutMs: number,
  call: () => Promise<T>,
  missing?: () => ConnectorError,
): Promise<T> {
  try {
    return await withDeadline(call(), timeoutMs, `${what} of ${describe(location)}`);
  } catch (error) {
    if (missing && (error as { code?: string }).code === 'NotFoundError') throw missing();
    throw gitError(error, location);
  }
}

/** isomorphic-git's and the network's failures, in words naming the repository. */
function gitError(error: unknown, location: Location): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = describe(location);
  const failure = error as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string } };
  switch (failure.code) {
    case 'HttpError': {
      const status = failure.data?.statusCode ?? 0;
      if (status === 401 || status === 403) return new ConnectorError(`git: ${where} did not accept the credentials (HTTP ${status})`, 'auth');
      if (status === 404) return new ConnectorError(`git: there is no repository at ${where} (HTTP 404)`, 'not_found');
      return new ConnectorError(`git: ${where} answered HTTP ${status} ${failure.data?.statusMessage ?? ''}`.trim(), 'failed');
    }
    case 'NotFoundError':
      return new ConnectorError(failure.message ?? 'Not found', 'not_found');
    case 'SmartHttpError':
      return new ConnectorError(`git: ${where} does not answer as a git server`, 'failed');
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ECONNRESET':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
      return unreachableError('git', location.kind === 'remote' ? new URL(location.url) : where, error);
    default:
      return new ConnectorError(`git: ${messageOf(error)}`, 'failed');
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
