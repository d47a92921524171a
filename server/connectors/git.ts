import { createHash } from 'node:crypto';
import { mkdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import git, { type AuthCallback, type HttpClient } from 'isomorphic-git';
import { connectionTypeOf, parseSettings } from '../../common/connections';
import type { Reach } from '../reach/reach';
import { companyGitCache, isInside, realPlace, repositoryPlace, REPOSITORY_FOLDER, type CompanyPlace, type Places } from './company-places';
import { confinedFs, type ConfinedFs } from './confined-fs';
import { HTTP_TIMEOUT_MS, withDeadline } from './http';
import { ConnectorError, type ConnectionConfig, type Connector, type Endpoint } from './types';

/**
 * The `git` type: a repository by http(s) URL, or one on the server (a working copy or a bare
 * repository) in a place the company may read (company-places.ts: relative to its data folder,
 * or in its own sub-folder of a granted root), read with isomorphic-git. Its endpoints are its
 * branches; workflows read their SQL files from it at a branch, a tag or a commit (`readFileAt`,
 * `listFilesAt`).
 *
 * Over HTTP, every connection goes through the reach guard (`options.reach`), redirects
 * included, and what a remote says is never echoed beyond a short line. On the server, every
 * file isomorphic-git opens is resolved again and must stay in the company's place (confined-fs.ts).
 *
 * A remote repository is fetched into the company's own cache folder (`DATA_DIR/companies/<id>/git-cache`),
 * one folder per URL and credentials, and reused: a branch or tag is fetched alone and shallow (its newest commit) while
 * the cache holds nothing deeper; a commit id not yet in the cache makes it fetch the whole
 * history once. Listing branches asks the server directly and needs no cache.
 */

export interface GitOptions {
  /** The data directory (the company's repositories and cache of remote ones) and the granted roots (FILES_ROOTS). */
  places: Places;
  /** The guard every connection to a remote goes through. */
  reach: Reach;
  /** Asking a remote for its branches stops after this long (15 s unless told); a fetch gets eight times as long. */
  timeoutMs?: number;
}

export interface BranchList {
  /** The branch HEAD names; undefined for a repository without one (empty, or a detached HEAD). */
  defaultBranch: string | undefined;
  branches: Array<{ name: string; commit: string }>;
}

type Location =
  | { kind: 'local'; companyId: string; place: CompanyPlace }
  /** `cacheKey` tells cached copies apart by URL and credentials: what one set of credentials fetched is not served to another. */
  | { kind: 'remote'; companyId: string; url: string; onAuth: AuthCallback | undefined; cacheKey: string };

type Remote = Extract<Location, { kind: 'remote' }>;

/** A repository ready to read: its git directory and the only file system that reaches it. */
interface Opened {
  gitdir: string;
  fs: ConfinedFs;
}

function locationOf(config: ConnectionConfig, options: GitOptions): Location {
  const parsed = parseSettings(connectionTypeOf('git')!, { ...config.settings, ...config.secrets });
  if (!parsed.ok) throw new ConnectorError(parsed.problems.join('; '), 'invalid');
  const { settings, secrets } = parsed.value;
  const url = String(settings.url).trim();
  if (/^https?:\/\//i.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new ConnectorError(`settings.url: "${url}" is not a valid URL`, 'invalid');
    }
    const username = String(settings.username ?? '').trim();
    const password = secrets.password;
    const onAuth: AuthCallback | undefined = username || password ? () => ({ username, password }) : undefined;
    const cacheKey = createHash('sha256')
      .update([url, username, password ?? ''].join('\0'))
      .digest('hex')
      .slice(0, 32);
    return { kind: 'remote', companyId: config.companyId, url, onAuth, cacheKey };
  }
  return { kind: 'local', companyId: config.companyId, place: repositoryPlace(options.places, config.companyId, url)! };
}

/** How the repository is named in messages: as the company wrote its path, or its URL without credentials. */
function describe(location: Location): string {
  if (location.kind === 'local') return location.place.shown;
  const url = new URL(location.url);
  url.username = '';
  url.password = '';
  return url.href;
}

export async function listBranches(config: ConnectionConfig, options: GitOptions): Promise<BranchList> {
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

export function openGitConnector(config: ConnectionConfig, options: GitOptions): Connector {
  // Settings are checked now, so that a wrong one (or a refused place) fails at once.
  locationOf(config, options);
  return {
    async test() {
      const started = performance.now();
      const { defaultBranch, branches } = await listBranches(config, options);
      const count = `${branches.length} branch${branches.length === 1 ? '' : 'es'}`;
      return {
        latencyMs: Math.round(performance.now() - started),
        detail: defaultBranch ? `Default branch ${defaultBranch}, ${count}` : count,
      };
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

/**
 * The git directory of a working copy (its .git, or where a .git file points) or of a bare
 * repository, checked at every use to stay in the company's place, with a file system that
 * reads nothing outside that place and writes nothing.
 */
async function openLocal(location: Extract<Location, { kind: 'local' }>, options: GitOptions): Promise<Opened> {
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

const COMMIT_ID = /^[0-9a-f]{4,40}$/i;

async function resolveLocal({ gitdir, fs }: Opened, ref: string, location: Location): Promise<string> {
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
async function peelToCommit({ gitdir, fs }: Opened, oid: string, ref: string, location: Location): Promise<string> {
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

async function withCache<T>(location: Remote, options: GitOptions, work: (opened: Opened) => Promise<T>): Promise<T> {
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

async function fetchAndResolve(opened: Opened, ref: string, location: Remote, options: GitOptions): Promise<string> {
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
): Promise<Awaited<ReturnType<typeof git.fetch>>> {
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
  await mkdir(gitdir, { recursive: true, mode: 0o700 });
  await git.init({ fs, gitdir, bare: true });
  await git.addRemote({ fs, gitdir, remote: 'origin', url: location.url, force: true });
}

async function isShallow(gitdir: string): Promise<boolean> {
  return (await stat(path.join(gitdir, 'shallow')).catch(() => undefined)) !== undefined;
}

async function hasFetched({ gitdir, fs }: Opened): Promise<boolean> {
  return (await git.listBranches({ fs, gitdir, remote: 'origin' }).catch(() => [])).length > 0;
}

/**
 * A call to the remote through the reach guard, bounded in time: at the deadline its connections
 * are dropped. `missing` words a NotFoundError (a ref the remote does not have).
 */
async function remoteCall<T>(
  location: Remote,
  options: GitOptions,
  what: string,
  timeoutMs: number,
  call: (http: HttpClient) => Promise<T>,
  missing?: () => ConnectorError,
): Promise<T> {
  const controller = new AbortController();
  try {
    return await withDeadline(call(guardedHttp(options.reach, controller.signal)), timeoutMs, `${what} of ${describe(location)}`);
  } catch (error) {
    if (missing && (error as { code?: string }).code === 'NotFoundError') throw missing();
    throw gitError(error, location);
  } finally {
    controller.abort();
  }
}

// ---------------------------------------------------------------------------------------------
// Git over HTTP, through the reach guard

/** The most of a remote's own words (an HTTP status line, an error of its own) a message carries. */
const REMOTE_WORDS_MAX = 200;

/** A remote's words as a message may carry them: one printable line, at most REMOTE_WORDS_MAX characters. */
function remoteWords(text: string | undefined): string {
  const line = (text ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > REMOTE_WORDS_MAX ? `${line.slice(0, REMOTE_WORDS_MAX - 1)}…` : line;
}

/**
 * isomorphic-git's HTTP client, on the reach guard's fetch: every connection it opens, a
 * redirect's included, is judged before it is dialled, so git over HTTP obeys the same host policy
 * as every other connector. A refusal reaches the user in the guard's words; a port that refuses,
 * closes or does not speak HTTP reads the same, so the wording maps no network.
 */
export function guardedHttp(reach: Reach, signal?: AbortSignal): HttpClient {
  return {
    async request({ url, method = 'GET', headers = {}, body }) {
      const sent = body ? await collect(body) : undefined;
      let response: Awaited<ReturnType<Reach['fetch']>>;
      try {
        response = await reach.fetch(url, { method, headers, body: sent, redirect: 'follow', signal });
      } catch (error) {
        throw networkFailure(error, url, signal);
      }
      const answer = response.body;
      return {
        url: response.url || url,
        method,
        statusCode: response.status,
        statusMessage: remoteWords(response.statusText),
        headers: Object.fromEntries(response.headers.entries()),
        body: answer ? chunksOf(answer.getReader(), url, signal) : chunksOf(undefined, url, signal),
      };
    },
  };
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

async function* chunksOf(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> } | undefined,
  url: string,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<Uint8Array> {
  if (!reader) return;
  for (;;) {
    let next: { done: boolean; value?: Uint8Array };
    try {
      next = await reader.read();
    } catch (error) {
      throw networkFailure(error, url, signal);
    }
    if (next.done) return;
    if (next.value) yield next.value;
  }
}

/** The guard's refusal as it is; an interrupted call as it is; any other failure of the network as one sentence. */
function networkFailure(error: unknown, url: string, signal: AbortSignal | undefined): Error {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof ConnectorError) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  if (signal?.aborted) return error instanceof Error ? error : new Error(String(error));
  return unreachable(url);
}

/** "git could not reach the service at HOST:PORT", whatever the network said. */
function unreachable(url: string): ConnectorError {
  let where = 'the remote';
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    /* named as "the remote" */
  }
  return new ConnectorError(`git could not reach the service at ${where}`, 'unreachable');
}

/** isomorphic-git's and the network's failures, in words naming the repository, never more than a line of what a remote said. */
function gitError(error: unknown, location: Location): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = describe(location);
  const failure = error as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string } };
  switch (failure.code) {
    case 'HttpError': {
      const status = failure.data?.statusCode ?? 0;
      if (status === 401 || status === 403)
        return new ConnectorError(`git: ${where} did not accept the credentials (HTTP ${status})`, 'auth');
      if (status === 404) return new ConnectorError(`git: there is no repository at ${where} (HTTP 404)`, 'not_found');
      return new ConnectorError(`git: ${where} answered HTTP ${status} ${remoteWords(failure.data?.statusMessage)}`.trim(), 'failed');
    }
    case 'NotFoundError':
      return new ConnectorError(remoteWords(failure.message) || 'Not found', 'not_found');
    case 'SmartHttpError':
      return new ConnectorError(`git: ${where} does not answer as a git server`, 'failed');
    default:
      return new ConnectorError(`git: ${remoteWords(messageOf(error))}`, 'failed');
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
