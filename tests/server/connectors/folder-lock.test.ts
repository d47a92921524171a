import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFolder } from '../../../server/connectors/pglite-host/folder-lock';
import { PgliteTurns } from '../../../server/connectors/pglite-host';

/**
 * An embedded database's folder is opened by one process at a time (folder-lock.ts): the servers
 * and workers of a cluster share the companies' folders, and PGlite corrupts a folder two
 * processes open.
 */
const made: string[] = [];
const children: ChildProcess[] = [];

function folder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-lock-'));
  made.push(root);
  return path.join(root, 'sales');
}

/** Another live process of this machine, as the lock's holder. */
function anotherProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const root of made.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe('the folder lock of an embedded database', () => {
  it('waits for another live process, then refuses without naming the server or its process', async () => {
    const dir = folder();
    const other = anotherProcess();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.lock`, `${os.hostname()} ${other.pid}`);
    const refused = lockFolder(dir, 'The embedded database "sales"', 500);
    await expect(refused).rejects.toThrow('The embedded database "sales" is open in another server process');
    // The company reading it is not told the server's name or its processes.
    await expect(refused.catch((error: Error) => error.message)).resolves.not.toMatch(new RegExp(`${os.hostname()}|${other.pid}`));
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${os.hostname()} ${other.pid}`);
  });

  it('is taken as soon as the other process lets it go', async () => {
    const dir = folder();
    const other = anotherProcess();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.lock`, `${os.hostname()} ${other.pid}`);
    const taking = lockFolder(dir, 'sales', 10_000);
    setTimeout(() => fs.rmSync(`${dir}.lock`), 300);
    const lock = await taking;
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${os.hostname()} ${process.pid}`);
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over the lock of a process that no longer runs', async () => {
    const dir = folder();
    const other = anotherProcess();
    const pid = other.pid!;
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.lock`, `${os.hostname()} ${pid}`);
    const lock = await lockFolder(dir, 'sales', 500);
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${os.hostname()} ${process.pid}`);
    lock.release();
  });

  it("respects another machine's lock while it is renewed, and takes it over once it is not", async () => {
    const dir = folder();
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(`${dir}.lock`, 'another-machine 4242');
    await expect(lockFolder(dir, 'sales', 300)).rejects.toThrow('sales is open in another server process');
    const long = new Date(Date.now() - 120_000);
    fs.utimesSync(`${dir}.lock`, long, long);
    const lock = await lockFolder(dir, 'sales', 300);
    lock.release();
  });

  it('is held while the database is open, and let go when it closes', async () => {
    const dir = folder();
    const turns = new PgliteTurns({ directory: dir, label: 'The embedded database "sales"' });
    await turns.turn((session) => session.exec('create table t (n int)'));
    expect(fs.readFileSync(`${dir}.lock`, 'utf8')).toBe(`${os.hostname()} ${process.pid}`);
    await turns.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    // Opened again by the next turn, and its lock with it.
    await turns.turn((session) => session.query('select count(*) from t', []));
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
    await turns.close();
  }, 60_000);
});
