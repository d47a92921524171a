import fs from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import net, { type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyGitCache, companyRoot } from '../../../server/connectors/company-places';
import { listBranches, listFilesAt, openGitConnector, readFileAt, resolveCommit, type GitOptions } from '../../../server/connectors/git';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { repositoryFile } from '../../../server/jobs/tasks/repository';
import { createReach } from '../../../server/reach/reach';
import { gitHttpBackend, hasGitHttpBackend } from './fixtures-remote/git-http';
import { closedPort, startLocalServer, type LocalServer } from './fixtures-remote/local-server';
import { connectorFailure as failure, TEST_COMPANY_ID, testReach } from './test-context';

/**
 * A repository made here with isomorphic-git: on main, a first commit and a second one that
 * changes queries/daily.sql; a feature branch with a file of its own; an annotated tag v1 on the
 * first commit. It is read as a working copy, as a bare copy (both in the company's sub-folder of
 * a granted root), and (where git is installed) over smart HTTP from git's own http-backend behind
 * basic auth.
 */

const OTHER_COMPANY_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

let base: string;
/** A folder the operator grants (FILES_ROOTS): each company reads its own sub-folder. */
let granted: string;
let dataDir: string;
let workingCopy: string;
let bareCopy: string;
let options: GitOptions;
const commits: { first: string; second: string; feature: string } = { first: '', second: '', feature: '' };

const config = (
  url: string,
  settings: Record<string, unknown> = {},
  secrets: Record<string, string> = {},
  companyId = TEST_COMPANY_ID,
): ConnectionConfig => ({
  companyId,
  type: 'git',
  settings: { url, ...settings },
  secrets,
});

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
  granted = path.join(base, 'granted');
  dataDir = path.join(base, 'data');
  options = { places: { dataDir, filesRoots: [granted] }, reach: testReach() };
  workingCopy = path.join(granted, TEST_COMPANY_ID, 'sql');
  bareCopy = path.join(granted, TEST_COMPANY_ID, 'served', 'sql.git');
  await git.init({ fs, dir: workingCopy, defaultBranch: 'main' });
  commits.first = await commitFiles(workingCopy, { 'README.md': '# SQL\n', 'queries/daily.sql': 'select 1;\n' }, 'First queries', 1);
  commits.second = await commitFiles(workingCopy, { 'queries/daily.sql': 'select count(*) from orders;\n' }, 'Count orders', 2);
  await git.branch({ fs, dir: workingCopy, ref: 'feature', checkout: true });
  commits.feature = await commitFiles(workingCopy, { 'queries/weekly.sql': 'select 7;\n' }, 'Weekly query', 3);
  await git.checkout({ fs, dir: workingCopy, ref: 'main' });
  await git.annotatedTag({
    fs,
    dir: workingCopy,
    ref: 'v1',
    object: commits.first,
    message: 'First release',
    tagger: { name: 'Ana', email: 'ana@example.com', timestamp: 1_718_000_600, timezoneOffset: 0 },
  });

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
    expect((await openGitConnector(config(location()), options).test()).detail).toBe('Default branch main, 2 branches');
  });

  it('lists its branches as endpoints', async () => {
    expect(await openGitConnector(config(location()), options).endpoints()).toEqual([
      { id: 'feature', name: 'feature', kind: 'branch' },
      { id: 'main', name: 'main', kind: 'branch' },
    ]);
    expect(await listBranches(config(location()), options)).toEqual({
      defaultBranch: 'main',
      branches: [
        { name: 'feature', commit: commits.feature },
        { name: 'main', commit: commits.second },
      ],
    });
  });

  it('resolves branches, tags and commit ids to commits', async () => {
    const repository = config(location());
    expect(await resolveCommit(repository, 'main', options)).toBe(commits.second);
    expect(await resolveCommit(repository, 'refs/heads/feature', options)).toBe(commits.feature);
    expect(await resolveCommit(repository, 'v1', options)).toBe(commits.first);
    expect(await resolveCommit(repository, commits.first.slice(0, 7), options)).toBe(commits.first);
    expect(await resolveCommit(repository, commits.feature, options)).toBe(commits.feature);
  });

  it('reads a file as it is at a branch, and as it was at an older commit', async () => {
    const repository = config(location());
    expect(await readFileAt(repository, 'main', 'queries/daily.sql', options)).toBe('select count(*) from orders;\n');
    expect(await readFileAt(repository, commits.first, 'queries/daily.sql', options)).toBe('select 1;\n');
    expect(await readFileAt(repository, 'v1', '/queries/daily.sql', options)).toBe('select 1;\n');
    expect(await readFileAt(repository, 'feature', 'queries/weekly.sql', options)).toBe('select 7;\n');
  });

  it('says clearly when a file or a ref is missing', async () => {
    const repository = config(location());
    const missingFile = await failure(readFileAt(repository, 'main', 'queries/weekly.sql', options));
    expect(missingFile.kind).toBe('not_found');
    expect(missingFile.message).toBe(`"queries/weekly.sql" does not exist at main (${commits.second.slice(0, 7)}) of ${location()}`);
    const missingRef = await failure(readFileAt(repository, 'release-9', 'queries/daily.sql', options));
    expect(missingRef.kind).toBe('not_found');
    expect(missingRef.message).toBe(`"release-9" is not a branch, tag or commit of ${location()}`);
    expect((await failure(resolveCommit(repository, 'abcdef1234', options))).message).toBe(
      `"abcdef1234" is not a branch, tag or commit of ${location()}`,
    );
    expect((await failure(readFileAt(repository, 'main', 'queries', options))).message).toBe(
      `"queries" is a folder, not a file, at main (${commits.second.slice(0, 7)}) of ${location()}`,
    );
    expect((await failure(readFileAt(repository, 'main', '../outside.sql', options))).kind).toBe('invalid');
  });

  it('lists the files at a ref, in the whole tree or one folder', async () => {
    const repository = config(location());
    expect(await listFilesAt(repository, 'main', undefined, options)).toEqual(['README.md', 'queries/daily.sql']);
    expect(await listFilesAt(repository, 'feature', 'queries', options)).toEqual(['queries/daily.sql', 'queries/weekly.sql']);
    expect((await failure(listFilesAt(repository, 'main', 'reports', options))).message).toBe(
      `The folder "reports" does not exist at main (${commits.second.slice(0, 7)}) of ${location()}`,
    );
  });
});

describe('settings', () => {
  it('refuses an ssh address', () => {
    expect(() => openGitConnector(config('git@bitbucket.org:acme/sql.git'), options)).toThrow(
      /ssh and git:\/\/ addresses are not supported/,
    );
  });

  it('says a missing path does not exist, and a plain folder is not a repository', async () => {
    const nowhere = path.join(granted, TEST_COMPANY_ID, 'nowhere');
    const missing = await failure(openGitConnector(config(nowhere), options).test());
    expect(missing.kind).toBe('not_found');
    expect(missing.message).toBe(`The repository ${nowhere} does not exist`);
    expect((await failure(openGitConnector(config(path.join(workingCopy, 'queries')), options).test())).message).toBe(
      `${path.join(workingCopy, 'queries')} is not a git repository`,
    );
  });
});

describe('where a repository on the server may be', () => {
  const grantedFolder = () => `${path.join(granted, TEST_COMPANY_ID)}/`;
  const elsewhere = (what: string) =>
    `settings.url: this server does not let companies read ${what}. Give a path relative to this company's data folder, or one under ${grantedFolder()} (FILES_ROOTS)`;

  it("reads a file:// URL of the company's granted sub-folder as its path", async () => {
    expect(await readFileAt(config(pathToFileURL(bareCopy).href), 'main', 'queries/daily.sql', options)).toBe(
      'select count(*) from orders;\n',
    );
  });

  it("reads a relative path from the company's repositories folder", async () => {
    const relative = path.join(companyRoot(dataDir, TEST_COMPANY_ID), 'repositories', 'team', 'sql.git');
    await cp(bareCopy, relative, { recursive: true });
    expect(await listFilesAt(config('team/sql.git'), 'main', undefined, options)).toEqual(['README.md', 'queries/daily.sql']);
    // Without a data directory, a relative path names nothing.
    const error = await failure(
      Promise.resolve().then(() => openGitConnector(config('team/sql.git'), { ...options, places: { filesRoots: [granted] } })),
    );
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(
      `settings.url: this server keeps no data folder, so "team/sql.git" names nothing. Give one under ${grantedFolder()} (FILES_ROOTS)`,
    );
  });

  it("refuses a file:// URL or an absolute path elsewhere, the server's own folders included, before reading anything", async () => {
    const outside = path.join(base, 'outside.git');
    await cp(bareCopy, outside, { recursive: true });
    for (const [url, shown] of [
      [outside, outside],
      [pathToFileURL(outside).href, outside],
      ['/', '/'],
      [process.cwd(), process.cwd()],
      [granted, granted],
    ]) {
      const error = await failure(Promise.resolve().then(() => openGitConnector(config(url!), options)));
      expect(error.kind).toBe('refused');
      expect(error.message).toBe(elsewhere(shown!));
    }
    const climbing = await failure(
      Promise.resolve().then(() => listBranches(config(`${grantedFolder()}../${OTHER_COMPANY_ID}/sql`), options)),
    );
    expect(climbing.message).toMatch(/^settings\.url: this server does not let companies use "\.\." in a path/);
    expect((await failure(Promise.resolve().then(() => listBranches(config('repositories/../../x'), options)))).kind).toBe('refused');
  });

  it("refuses another company's cached repositories, and answers its granted sub-folder as missing", async () => {
    const theirCache = path.join(companyGitCache(dataDir, OTHER_COMPANY_ID), 'abc.git');
    await cp(bareCopy, theirCache, { recursive: true });
    const legacyCache = path.join(dataDir, 'git-cache', 'abc.git');
    await cp(bareCopy, legacyCache, { recursive: true });
    for (const url of [theirCache, pathToFileURL(theirCache).href, legacyCache]) {
      const error = await failure(Promise.resolve().then(() => listBranches(config(url), options)));
      expect(error.kind).toBe('refused');
      expect(error.message).toBe(elsewhere(url.startsWith('file:') ? theirCache : url));
    }
    const theirs = path.join(granted, OTHER_COMPANY_ID, 'sql.git');
    await cp(bareCopy, theirs, { recursive: true });
    const existing = await failure(Promise.resolve().then(() => listBranches(config(theirs), options)));
    const missing = await failure(
      Promise.resolve().then(() => listBranches(config(path.join(granted, OTHER_COMPANY_ID, 'none.git')), options)),
    );
    expect(existing.kind).toBe('not_found');
    expect(existing.message).toBe(`settings.url: the repository ${theirs} does not exist`);
    expect(missing.message).toBe(`settings.url: the repository ${path.join(granted, OTHER_COMPANY_ID, 'none.git')} does not exist`);
    // Their company reads it.
    expect((await listBranches(config(theirs, {}, {}, OTHER_COMPANY_ID), options)).defaultBranch).toBe('main');
  });

  it("refuses a link, or a .git file, that leads out of the company's folder", async () => {
    const outside = path.join(base, 'linked-outside.git');
    await cp(bareCopy, outside, { recursive: true });
    const link = path.join(granted, TEST_COMPANY_ID, 'linked.git');
    await symlink(outside, link);
    const linked = await failure(listBranches(config(link), options));
    expect(linked.kind).toBe('refused');
    expect(linked.message).toBe(
      `settings.url: ${link} leads through a symbolic link out of the folders this company may read. Give a path relative to this company's data folder, or one under ${grantedFolder()} (FILES_ROOTS)`,
    );

    const pointing = path.join(granted, TEST_COMPANY_ID, 'pointing');
    await mkdir(pointing, { recursive: true });
    await writeFile(path.join(pointing, '.git'), `gitdir: ${outside}\n`);
    expect((await failure(listBranches(config(pointing), options))).message).toBe(
      `${pointing} is not a git repository (its .git file points to a folder it may not use)`,
    );

    // Inside a repository, a folder of refs that leads out is not read: its branches are not there.
    const partly = path.join(granted, TEST_COMPANY_ID, 'partly.git');
    await cp(bareCopy, partly, { recursive: true });
    await rm(path.join(partly, 'refs', 'heads'), { recursive: true });
    await rm(path.join(partly, 'packed-refs'), { force: true });
    await symlink(path.join(outside, 'refs', 'heads'), path.join(partly, 'refs', 'heads'));
    expect((await listBranches(config(partly), options)).branches).toEqual([]);
  });
});

describe.skipIf(!hasGitHttpBackend)('a repository over HTTP', () => {
  let server: LocalServer;
  let cacheDir: string;
  const remote = (password = 's3cret', companyId = TEST_COMPANY_ID) =>
    config(`${server.url}/sql.git`, { username: 'ana' }, { password }, companyId);
  const uploadPackPosts = () =>
    server.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/git-upload-pack')).length;

  beforeAll(async () => {
    server = await startLocalServer(gitHttpBackend(path.dirname(bareCopy), 'ana', 's3cret', base));
    cacheDir = companyGitCache(dataDir, TEST_COMPANY_ID);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('tests and lists branches from the server itself, without a cache', async () => {
    expect((await openGitConnector(remote(), options).test()).detail).toBe('Default branch main, 2 branches');
    expect((await openGitConnector(remote(), options).endpoints()).map((endpoint) => endpoint.id)).toEqual(['feature', 'main']);
  });

  it('turns refused credentials into an auth failure', async () => {
    const error = await failure(openGitConnector(remote('wrong'), options).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(`git: ${server.url}/sql.git did not accept the credentials (HTTP 401)`);
  });

  it("fetches a branch shallow into the company's cache, reads from it, and reuses it", async () => {
    expect(await readFileAt(remote(), 'main', 'queries/daily.sql', options)).toBe('select count(*) from orders;\n');
    expect(await readdir(cacheDir)).toHaveLength(1);
    const [cached] = await readdir(cacheDir);
    expect(fs.existsSync(path.join(cacheDir, cached!, 'shallow'))).toBe(true);
    // A commit the first fetch already brought needs no fetch at all.
    const posts = uploadPackPosts();
    expect(await readFileAt(remote(), commits.second, 'README.md', options)).toBe('# SQL\n');
    expect(uploadPackPosts()).toBe(posts);
  });

  it('fetches the whole history once for an older commit', async () => {
    expect(await readFileAt(remote(), commits.first, 'queries/daily.sql', options)).toBe('select 1;\n');
    const posts = uploadPackPosts();
    expect(await resolveCommit(remote(), commits.first.slice(0, 8), options)).toBe(commits.first);
    expect(await listFilesAt(remote(), 'v1', undefined, options)).toEqual(['README.md', 'queries/daily.sql']);
    expect(await listFilesAt(remote(), 'feature', 'queries', options)).toEqual(['queries/daily.sql', 'queries/weekly.sql']);
    // The tag and the branch were fetched again (to see whether they moved), the old commit was not.
    expect(uploadPackPosts()).toBe(posts + 2);
  });

  it('keeps one cache per company: another company with the same URL and credentials fetches into its own', async () => {
    const posts = uploadPackPosts();
    expect(await readFileAt(remote('s3cret', OTHER_COMPANY_ID), 'main', 'queries/daily.sql', options)).toBe(
      'select count(*) from orders;\n',
    );
    // Nothing the first company fetched served it: it asked the remote itself.
    expect(uploadPackPosts()).toBeGreaterThan(posts);
    const theirs = await readdir(companyGitCache(dataDir, OTHER_COMPANY_ID));
    expect(theirs.filter((name) => name !== 'abc.git')).toHaveLength(1);
    expect(await readdir(cacheDir)).toHaveLength(1);
    expect(
      fs.existsSync(
        path.join(
          dataDir,
          'git-cache',
          theirs.find((name) => name !== 'abc.git')!,
        ),
      ),
    ).toBe(false);
  });

  it('does not serve what one set of credentials fetched to another', async () => {
    const error = await failure(readFileAt(remote('wrong'), commits.first, 'queries/daily.sql', options));
    expect(error.kind).toBe('auth');
  });

  it('says a ref the server does not have is missing', async () => {
    const error = await failure(readFileAt(remote(), 'release-9', 'queries/daily.sql', options));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`"release-9" is not a branch, tag or commit of ${server.url}/sql.git`);
  });

  it('needs a cache folder to read files', async () => {
    expect((await failure(readFileAt(remote(), 'main', 'README.md', { ...options, places: { filesRoots: [] } }))).message).toBe(
      'Reading files of a remote repository needs a cache folder on the server',
    );
  });

  it("is refused by the server's host policy before anything is sent", async () => {
    const guarded: GitOptions = { ...options, reach: createReach({ allowed: [], denied: [], manyCompanies: async () => true }) };
    const asked = server.requests.length;
    for (const work of [openGitConnector(remote(), guarded).test(), readFileAt(remote(), 'main', 'README.md', guarded)]) {
      const error = await failure(work);
      expect(error.kind).toBe('refused');
      expect(error.message).toBe(
        'This server does not let companies connect to 127.0.0.1 (a loopback address). An operator can allow it with CONNECTION_ALLOWED_HOSTS.',
      );
    }
    expect(server.requests.length).toBe(asked);
  });
});

describe.skipIf(!hasGitHttpBackend)("a Bitbucket workspace's repository over https", () => {
  // Git's fixed user name for an Atlassian API token (Atlassian's "Using API tokens"), with the token as the password.
  const GIT_USER = 'x-bitbucket-api-token-auth';
  const TOKEN = 'ATATT3x-api-token';
  let server: LocalServer;
  const bitbucket = (settings: Record<string, unknown>, secrets: Record<string, string>): ConnectionConfig => ({
    companyId: TEST_COMPANY_ID,
    type: 'bitbucket',
    settings: { workspace: 'acme', apiUrl: `${server.url}/2.0`, ...settings },
    secrets,
  });

  beforeAll(async () => {
    // The workspace's repositories where the connection's API points (its origin, as bitbucket.org's own).
    const root = path.join(base, 'bitbucket');
    await cp(bareCopy, path.join(root, 'acme', 'sql.git'), { recursive: true });
    server = await startLocalServer(gitHttpBackend(root, GIT_USER, TOKEN, base));
  });

  afterAll(async () => {
    await server?.close();
  });

  it("signs in with git's user name for API tokens and the token, not the account's email", async () => {
    const { repository, filePath } = repositoryFile(bitbucket({ email: 'ana@example.com' }, { apiToken: TOKEN }), 'sql/queries/daily.sql');
    expect(await readFileAt(repository, 'main', filePath, options)).toBe('select count(*) from orders;\n');
    const signed = server.requests.filter((request) => request.headers.authorization);
    expect(signed.length).toBeGreaterThan(0);
    for (const request of signed) {
      const [scheme, encoded] = String(request.headers.authorization).split(' ');
      expect(scheme).toBe('Basic');
      expect(Buffer.from(encoded!, 'base64').toString()).toBe(`${GIT_USER}:${TOKEN}`);
    }
  });

  it('refuses a connection saved with an app password before anything is sent', () => {
    const asked = server.requests.length;
    expect(() => repositoryFile(bitbucket({ username: 'ana' }, { appPassword: 'ATBB-app-password' }), 'sql/queries/daily.sql')).toThrow(
      'Bitbucket no longer accepts app passwords (they were removed on 28 July 2026): edit this connection and give the email of your Atlassian account and an API token with the scope read:repository:bitbucket',
    );
    expect(server.requests.length).toBe(asked);
  });
});

describe('what a remote says, and what it does not tell', () => {
  it('keeps at most 200 characters of a status line', async () => {
    const said = `Teapot ${'x'.repeat(1000)}`;
    const remote = await startLocalServer((_request, response) => {
      response.writeHead(500, said, { 'content-type': 'text/plain' }).end('y'.repeat(5000));
    });
    try {
      const error = await failure(listBranches(config(`${remote.url}/sql.git`), options));
      expect(error.message).toBe(`git: ${remote.url}/sql.git answered HTTP 500 ${said.slice(0, 199)}…`);
    } finally {
      await remote.close();
    }
  });

  it('words a refused port, a closed connection and a port that does not speak HTTP alike', async () => {
    const listen = async (onConnection: (socket: Socket) => void) => {
      const sockets = new Set<Socket>();
      const listener = net.createServer((socket) => {
        sockets.add(socket);
        onConnection(socket);
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      const close = () => {
        for (const socket of sockets) socket.destroy();
        return new Promise<void>((resolve) => listener.close(() => resolve()));
      };
      return { port: (listener.address() as AddressInfo).port, close };
    };
    const closing = await listen((socket) => socket.destroy());
    const ssh = await listen((socket) => {
      socket.end('SSH-2.0-OpenSSH_9.2\r\nProtocol mismatch.\r\n');
    });
    try {
      for (const port of [await closedPort(), closing.port, ssh.port]) {
        const error = await failure(listBranches(config(`http://127.0.0.1:${port}/sql.git`), options));
        expect(error.kind).toBe('unreachable');
        expect(error.message).toBe(`git could not reach the service at 127.0.0.1:${port}`);
      }
    } finally {
      await closing.close();
      await ssh.close();
    }
  });
});
