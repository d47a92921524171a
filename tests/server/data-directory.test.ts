import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirectoryPrivacy, prepareDataDirectory, tightenPermissions } from '../../server/data-directory';

/** The data directory is the server's alone: what is in it is tightened at start, and a directory open to others is reported. */

let base: string;
const modeOf = async (target: string) => (await lstat(target)).mode & 0o777;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'data-directory-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('tightening what is in the data directory', () => {
  it("takes group and other rights from folders and files, keeps the owner's, and neither changes nor follows links", async () => {
    const dataDir = path.join(base, 'tighten', 'data');
    const outside = path.join(base, 'tighten', 'outside');
    await mkdir(path.join(dataDir, 'pglite', 'base'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(path.join(dataDir, 'pglite', 'base', 'wal'), 'password hashes');
    await writeFile(path.join(dataDir, 'run.sh'), '#!/bin/sh\n');
    await writeFile(path.join(outside, 'theirs.txt'), "not the server's");
    await symlink(outside, path.join(dataDir, 'link-out'));
    await chmod(path.join(dataDir, 'pglite', 'base', 'wal'), 0o666);
    await chmod(path.join(dataDir, 'run.sh'), 0o755);
    await chmod(path.join(outside, 'theirs.txt'), 0o644);
    for (const folder of [outside, path.join(dataDir, 'pglite', 'base'), path.join(dataDir, 'pglite'), dataDir]) await chmod(folder, 0o777);

    const { changed, failed } = await tightenPermissions(dataDir);
    expect(failed).toEqual([]);
    expect(changed).toBe(5);
    expect(await modeOf(path.join(dataDir, 'pglite', 'base', 'wal'))).toBe(0o600);
    expect(await modeOf(path.join(dataDir, 'run.sh'))).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'pglite', 'base'))).toBe(0o700);
    expect(await modeOf(path.join(dataDir, 'pglite'))).toBe(0o700);
    expect(await modeOf(dataDir)).toBe(0o700);
    // What the link leads to is not the server's to change.
    expect(await modeOf(outside)).toBe(0o777);
    expect(await modeOf(path.join(outside, 'theirs.txt'))).toBe(0o644);
    // A second start finds nothing to change.
    expect((await tightenPermissions(dataDir)).changed).toBe(0);
  });
});

describe('preparing the data directory at start', () => {
  it('creates it for the server alone and removes the cache of repositories every company shared', async () => {
    const dataDir = path.join(base, 'fresh', 'data');
    const warnings: string[] = [];
    await prepareDataDirectory(dataDir, (message) => warnings.push(message));
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(warnings).toEqual([]);

    await mkdir(path.join(dataDir, 'git-cache', 'abc.git', 'objects'), { recursive: true });
    await mkdir(path.join(dataDir, 'companies', 'c1', 'git-cache', 'def.git'), { recursive: true });
    await prepareDataDirectory(dataDir, (message) => warnings.push(message));
    expect(await readdir(dataDir)).toEqual(['companies']);
    expect(await readdir(path.join(dataDir, 'companies', 'c1', 'git-cache'))).toEqual(['def.git']);
  });

  it('warns when the data directory can be read by other accounts', async () => {
    const dataDir = path.join(base, 'open', 'data');
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
    expect(await dataDirectoryPrivacy(dataDir)).toEqual({
      path: dataDir,
      private: false,
      problem: `the data directory ${dataDir} can be read by other accounts of this machine (mode 0755); run: chmod 700 ${dataDir}`,
    });
    await chmod(dataDir, 0o700);
    expect(await dataDirectoryPrivacy(dataDir)).toEqual({ path: dataDir, private: true });
  });

  it("warns when a folder of the server's account that holds it can be written by others", async () => {
    const parent = path.join(base, 'shared-parent');
    const dataDir = path.join(parent, 'data');
    await mkdir(dataDir, { recursive: true });
    await chmod(parent, 0o777);
    const warnings: string[] = [];
    await prepareDataDirectory(dataDir, (message) => warnings.push(message));
    // The directory itself was made private; its parent is not the server's to change.
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(warnings).toEqual([
      `Warning: ${parent}, which holds the data directory ${dataDir}, can be written by other accounts of this machine (mode 0777), so they could replace the data directory; run: chmod go-w ${parent}`,
    ]);
    expect((await stat(parent)).mode & 0o777).toBe(0o777);
    await chmod(parent, 0o755);
    expect((await dataDirectoryPrivacy(dataDir)).private).toBe(true);
  });
});

describe('the server process', () => {
  /** Every folder and file under the directory that grants anything to group or others; links are not followed. */
  async function openToOthers(folder: string): Promise<string[]> {
    const found: string[] = [];
    if (((await lstat(folder)).mode & 0o077) !== 0) found.push(folder);
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) found.push(...(await openToOthers(full)));
      else if (((await lstat(full)).mode & 0o077) !== 0) found.push(full);
    }
    return found;
  }

  it('keeps its data directory to itself: what it writes, and what an older version left open', async () => {
    const dataDir = path.join(base, 'process', 'data');
    await mkdir(path.join(dataDir, 'git-cache', 'abc.git'), { recursive: true });
    await writeFile(path.join(dataDir, 'left-open.txt'), 'from an older version');
    await chmod(path.join(dataDir, 'left-open.txt'), 0o666);
    await chmod(dataDir, 0o777);
    const { spawn } = await import('node:child_process');
    const net = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as import('node:net').AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: {
        ...process.env,
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        CONSOLE_DIR: path.join(base, 'no-console'),
        BOOTSTRAP_SAMPLE_DATA: 'false',
        BOOTSTRAP_ADMIN_PASSWORD: 'Chosen-password-1',
      },
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('the value of BOOTSTRAP_ADMIN_PASSWORD') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(output).toContain('is running at');
      expect(output).not.toContain('Warning: the data directory');
      expect(await openToOthers(dataDir)).toEqual([]);
      expect(await readdir(dataDir)).not.toContain('git-cache');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // What it wrote while stopping (the database's checkpoint) too.
    expect(await openToOthers(dataDir)).toEqual([]);
  }, 120_000);
});
