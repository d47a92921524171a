import fs from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBranches, listFilesAt, openGitConnector, readFileAt, resolveCommit } from '../../../server/connectors/git';
import { ConnectorError, type ConnectionConfig } from '../../../server/connectors/types';
import { gitHttpBackend, hasGitHttpBackend } from './fixtures-remote/git-http';
import { startLocalServer, type LocalServer } from './fixtures-remote/local-server';
import { TEST_COMPANY_ID } from './test-context';

/**
 * A repository made here with isomorphic-git: on main, a first commit and a second one that
 * changes queries/daily.sql; a feature branch with a file of its own; an annotated tag v1 on the
 * first commit. It is read as a working copy, as a bare copy, and (where git is installed) over
 * smart HTTP from git's own http-backend behind basic auth.
 */

let base: string;
let workingCopy: string;
let bareCopy: string;
const commits: { first: string; second: string; feature: string } = { first: '', second: '', feature: '' };

const config = (url: string, settings: Record<string, unknown> = {}, secrets: Record<string, string> = {}): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'git',
  settings: { url, ...settings },
  secrets,
});

async function failure(work: Promise<unknown>): Promise<ConnectorError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}

async function commitFiles(dir: string, files: Record<string, string>, message: string, minute: number): Promise<string> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
    await git.add({ fs, dir, filepath: file });
  }
  const author = { name: 'Ana', email: 'ana@example.com', timestamp: 1_718_000_000 + minute * 60, timezoneOffset: 0 };
  return git.commit({ fs, dir, message, author });
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'git-connector-'));
  workingCopy = path.join(base, 'sql');
  bareCopy = path.join(base, 'served', 'sql.git');
  await git.init({ fs, dir: workingCopy, defaultBranch: 'main' });
  commits.first = await commitFiles(workingCopy, { 'README.md': '# SQL\n', 'queries/daily.sql': 'select 1;\n' }, 'First queries', 1);
  commits.second = await commitFiles(workingCopy, { 'queries/daily.sql': 'select count(*) from orders;\n' }, 'Count orders', 2);
  await git.branch({ fs, dir: workingCopy, ref: 'feature', checkout: true });
  commits.feature = await commitFiles(workingCopy, { 'queries/weekly.sql': 'select 7;\n' }, 'Weekly query', 3);
  await git.checkout({ fs, dir: workingCopy, ref: 'main' });
  await git.annotatedTag({ fs, dir: workingCopy, ref: 'v1', object: commits.first, message: 'First release', tagger: { name: 'Ana', email: 'ana@example.com', timestamp: 1_718_000_600, timezoneOffset: 0 } });

  await cp(path.join(workingCopy, '.git'), bareCopy, { recursive: true });
  await git.setConfig({ fs, gitdir: bareCopy, path: 'core.bare', value: true });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.each([
  ['a working copy', () => workingCopy],
  ['a bare repository', () => bareCopy],
])('%s on the server', (_kind, location) => {
  it('tests by listing the branches, naming the default one', async () => {
    expect((await openGitConnector(config(location())).test()).detail).toBe('Default branch main, 2 branches');
  });

  it('lists its branches as endpoints', async () => {
    expect(await openGitConnector(config(location())).endpoints()).toEqual([
      { id: 'feature', name: 'feature', kind: 'branch' },
      { id: 'main', name: 'main', kind: 'branch' },
    ]);
    expect(await listBranches(config(location()))).toEqual({
      defaultBranch: 'main',
      branches: [
        { name: 'feature', commit: commits.feature },
        { name: 'main', commit: commits.second },
      ],
    });
  });

  it('resolves branches, tags and commit ids to commits', async () => {
    const repository = config(location());
    expect(await resolveCommit(repository, 'main')).toBe(commits.second);
    expect(await resolveCommit(repository, 'refs/heads/feature')).toBe(commits.feature);
    expect(await resolveCommit(repository, 'v1')).toBe(commits.first);
    expect(await resolveCommit(repository, commits.first.slice(0, 7))).toBe(commits.first);
    expect(await resolveCommit(repository, commits.feature)).toBe(commits.feature);
  });

  it('reads a file as it is at a branch, and as it was at an older commit', async () => {
    const repository = config(location());
    expect(await readFileAt(repository, 'main', 'queries/daily.sql')).toBe('select count(*) from orders;\n');
    expect(await readFileAt(repository, commits.first, 'queries/daily.sql')).toBe('select 1;\n');
    expect(await readFileAt(repository, 'v1', '/queries/daily.sql')).toBe('select 1;\n');
    expect(await readFileAt(repository, 'feature', 'queries/weekly.sql')).toBe('select 7;\n');
  });

  it('says clearly when a file or a ref is missing', async () => {
    const repository = config(location());
    const missingFile = await failure(readFileAt(repository, 'main', 'queries/weekly.sql'));
    expect(missingFile.kind).toBe('not_found');
    expect(missingFile.message).toBe(`"queries/weekly.sql" does not exist at main (${commits.second.slice(0, 7)}) of ${location()}`);
    const missingRef = await failure(readFileAt(repository, 'release-9', 'queries/daily.sql'));
    expect(missingRef.kind).toBe('not_found');
    expect(missingRef.message).toBe(`"release-9" is not a branch, tag or commit of ${location()}`);
    expect((await failure(resolveCommit(repository, 'abcdef1234'))).message).toBe(`"abcdef1234" is not a branch, tag or commit of ${location()}`);
    expect((await failure(readFileAt(repository, 'main', 'queries'))).message).toBe(`"queries" is a folder, not a file, at main (${commits.second.slice(0, 7)}) of ${location()}`);
    expect((await failure(readFileAt(repository, 'main', '../outside.sql'))).kind).toBe('invalid');
  });

  it('lists the files at a ref, in the whole tree or one folder', async () => {
    const repository = config(location());
    expect(await listFilesAt(repository, 'main')).toEqual(['README.md', 'queries/daily.sql']);
    expect(await listFilesAt(repository, 'feature', 'queries')).toEqual(['queries/daily.sql', 'queries/weekly.sql']);
    expect((await failure(listFilesAt(repository, 'main', 'reports'))).message).toBe(`The folder "reports" does not exist at main (${commits.second.slice(0, 7)}) of ${location()}`);
  });
});

describe('settings', () => {
  it('refuses a relative path and an ssh address', () => {
    expect(() => openGitConnector(config('repos/sql'))).toThrow('settings.url: "repos/sql" is neither an http(s) URL nor an absolute path on the server');
    expect(() => openGitConnector(config('git@bitbucket.org:acme/sql.git'))).toThrow(/ssh and git:\/\/ addresses are not supported/);
  });

  it('says a missing path does not exist, and a plain folder is not a repository', async () => {
    const missing = await failure(openGitConnector(config(path.join(base, 'nowhere'))).test());
    expect(missing.kind).toBe('not_found');
    expect(missing.message).toBe(`The repository ${path.join(base, 'nowhere')} does not exist`);
    expect((await failure(openGitConnector(config(path.join(workingCopy, 'queries'))).test())).message).toBe(`${path.join(workingCopy, 'queries')} is not a git repository`);
  });
});

describe.skipIf(!hasGitHttpBackend)('a repository over HTTP', () => {
  let server: LocalServer;
  let cacheDir: string;
  const remote = (password = 's3cret') => config(`${server.url}/sql.git`, { username: 'ana' }, { password });
  const uploadPackPosts = () => server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/git-upload-pack')).length;

  beforeAll(async () => {
    server = await startLocalServer(gitHttpBackend(path.dirname(bareCopy), 'ana', 's3cret', base));
    cacheDir = path.join(base, 'cache');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('tests and lists branches from the server itself, without a cache', async () => {
    expect((await openGitConnector(remote()).test()).detail).toBe('Default branch main, 2 branches');
    expect((await openGitConnector(remote()).endpoints()).map((endpoint) => endpoint.id)).toEqual(['feature', 'main']);
  });

  it('turns refused credentials into an auth failure', async () => {
    const error = await failure(openGitConnector(remote('wrong')).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(`git: ${server.url}/sql.git did not accept the credentials (HTTP 401)`);
  });

  it('fetches a branch shallow into the cache, reads from it, and reuses it', async () => {
    expect(await readFileAt(remote(), 'main', 'queries/daily.sql', { cacheDir })).toBe('select count(*) from orders;\n');
    expect(await readdir(cacheDir)).toHaveLength(1);
    const [cached] = await readdir(cacheDir);
    expect(fs.existsSync(path.join(cacheDir, cached!, 'shallow'))).toBe(true);
    // A commit the first fetch already brought needs no fetch at all.
    const posts = uploadPackPosts();
    expect(await readFileAt(remote(), commits.second, 'README.md', { cacheDir })).toBe('# SQL\n');
    expect(uploadPackPosts()).toBe(posts);
  });

  it('fetches the whole history once for an older commit', async () => {
    expect(await readFileAt(remote(), commits.first, 'queries/daily.sql', { cacheDir })).toBe('select 1;\n');
    const posts = uploadPackPosts();
    expect(await resolveCommit(remote(), commits.first.slice(0, 8), { cacheDir })).toBe(commits.first);
    expect(await listFilesAt(remote(), 'v1', undefined, { cacheDir })).toEqual(['README.md', 'queries/daily.sql']);
    expect(await listFilesAt(remote(), 'feature', 'queries', { cacheDir })).toEqual(['queries/daily.sql', 'queries/weekly.sql']);
    // The tag and the branch were fetched again (to see whether they moved), the old commit was not.
    expect(uploadPackPosts()).toBe(posts + 2);
  });

  it('does not serve what one set of credentials fetched to another', async () => {
    const error = await failure(readFileAt(remote('wrong'), commits.first, 'queries/daily.sql', { cacheDir }));
    expect(error.kind).toBe('auth');
  });

  it('says a ref the server does not have is missing', async () => {
    const error = await failure(readFileAt(remote(), 'release-9', 'queries/daily.sql', { cacheDir }));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`"release-9" is not a branch, tag or commit of ${server.url}/sql.git`);
  });

  it('needs a cache folder to read files', async () => {
    expect((await failure(readFileAt(remote(), 'main', 'README.md'))).message).toBe('Reading files of a remote repository needs a cache folder on the server');
  });
});
