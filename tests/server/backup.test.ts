import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { startControlSocket } from '../../server/control-socket';
import { knownMigrations, restoreBackup, takeBackup } from '../../server/db/backup';
import { migrateDatabase, openDatabase, pgliteExtensions } from '../../server/db/client';
import { acquireDataDirLock } from '../../server/db/lock';
import { freePort, ROOT, runScript, type Outcome } from './processes';

/*
 * `npm run backup` and `npm run restore` as an operator runs them: the real server process on its
 * own data directory, written to through the API while the backup is taken, then stopped, and the
 * backup restored into a fresh directory and opened as the server opens it.
 */

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-backup-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** `npm run backup` or `npm run restore`, in the operator's environment: the data directory, no PostgreSQL. */
function command(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Outcome> {
  return runScript(name, args, { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), DATABASE_URL: '', ...env });
}

function startServer(dataDir: string, port: number) {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CONSOLE_DIR: path.join(scratch, 'no-console'),
      BOOTSTRAP_COMPANY_HOSTNAME: 'backed',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@backed.test',
      BOOTSTRAP_ADMIN_PASSWORD: 'Backed-up-password-1',
      BOOTSTRAP_SAMPLE_DATA: 'false',
      // The writers below call as fast as the server answers.
      RATE_LIMIT_SESSION_PER_MINUTE: '0',
    },
  });
  running.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitFor(check: () => boolean, what: () => string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every file under a folder with a hash of its bytes: what "left untouched" means. */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(folder, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) visit(child);
      else
        out[child] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(folder, child)))
          .digest('hex');
    }
  };
  visit('');
  return out;
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

const serverDir = path.join(scratch, 'server');
const restoredDir = path.join(scratch, 'restored');
const backupFile = path.join(scratch, 'backups', 'console.backup');

describe('backups of the embedded database', { timeout: 600_000 }, () => {
  it('takes a backup from the running server while writes go on, and restores every write acknowledged before it', async () => {
    fs.mkdirSync(path.dirname(backupFile));
    const port = await freePort();
    const server = startServer(serverDir, port);
    await waitFor(
      () => server.output().includes('is running at'),
      () => server.output(),
    );
    const socketPath = path.join(serverDir, 'control.sock');
    expect(fs.statSync(socketPath).isSocket()).toBe(true);
    expect(mode(socketPath)).toBe(0o600);

    const base = `http://127.0.0.1:${port}/api/v1`;
    const signin = await fetch(`${base}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@backed.test', password: 'Backed-up-password-1', companyHostname: 'backed' }),
    });
    expect(signin.status).toBe(200);
    const token = (await signin.json()).user.accessToken as string;

    // Writers that keep creating workspaces (a row and its audit entry, in one transaction).
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let writing = true;
    let sequence = 0;
    const writer = async () => {
      while (writing) {
        const name = `Workspace ${++sequence}`;
        const res = await fetch(`${base}/workspaces`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-access-token': token },
          body: JSON.stringify({ name }),
        });
        if (res.status === 201) acknowledged.push(name);
        else failures.push(`${res.status} ${await res.text()}`);
      }
    };
    const writers = Array.from({ length: 4 }, writer);
    await waitFor(
      () => acknowledged.length >= 20,
      () => `writes: ${acknowledged.length}, failures: ${failures.join('; ')}`,
    );

    const beforeBackup = [...acknowledged];
    const backup = await command('backup', [backupFile], { DATA_DIR: serverDir });
    const duringBackup = acknowledged.length - beforeBackup.length;
    writing = false;
    await Promise.all(writers);

    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      /^Backup written to .*console\.backup \(\d+\.\d MB, taken by the running server, as of .*\); the database was held \d+ ms\.\n$/,
    );
    expect(failures).toEqual([]);
    // The server went on answering writes while the backup was asked for and taken.
    expect(duringBackup).toBeGreaterThan(0);
    expect(mode(backupFile)).toBe(0o600);
    expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);
    expect(fs.readdirSync(serverDir).filter((name) => name.startsWith('backup-in-progress-'))).toEqual([]);
    expect(server.output()).toMatch(/A backup of the embedded database was taken \(\d+\.\d MB\); statements waited \d+ ms for it\./);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(socketPath)).toBe(false);

    const restore = await command('restore', [backupFile], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toContain(`Restored ${backupFile} into ${path.join(restoredDir, 'pglite')}`);
    expect(mode(path.join(restoredDir, 'pglite'))).toBe(0o700);
    expect(mode(path.join(restoredDir, 'pglite', 'PG_VERSION'))).toBe(0o600);
    // The database's sealed secrets (two-factor, connections) need the secret of the server it came from.
    expect(fs.readFileSync(path.join(restoredDir, 'instance.secret'), 'utf8')).toBe(
      fs.readFileSync(path.join(serverDir, 'instance.secret'), 'utf8'),
    );
    expect(mode(path.join(restoredDir, 'instance.secret'))).toBe(0o600);
    expect(fs.existsSync(path.join(restoredDir, 'server.lock'))).toBe(false);

    // Opened as the server opens it at start: nothing left to migrate, every acknowledged write there.
    const database = await openDatabase({ dataDir: restoredDir, lock: true });
    try {
      const pglite = database.pglite!;
      const countMigrations = async () =>
        (await pglite.query<{ n: number }>('select count(*)::int as n from public.__drizzle_migrations')).rows[0]!.n;
      const applied = await countMigrations();
      expect(applied).toBe(knownMigrations().length);
      await migrateDatabase(database);
      expect(await countMigrations()).toBe(applied);

      const { rows } = await pglite.query<{ name: string; audited: boolean }>(
        `select w.name, exists (select 1 from system_audits a where a.record_id = w.id::text and a.model = 'workspace' and a.operation = 'create') as audited
           from workspaces w`,
      );
      const restoredNames = new Set(rows.map((row) => row.name));
      expect(beforeBackup.filter((name) => !restoredNames.has(name))).toEqual([]);
      // Each write is there whole or not at all: no workspace without the audit entry of its transaction.
      expect(rows.filter((row) => !row.audited)).toEqual([]);
      // Nothing was written after the server stopped: the backup holds at most what was acknowledged.
      expect(rows.length).toBeLessThanOrEqual(acknowledged.length);
    } finally {
      await database.close();
    }
  });

  it('refuses to restore while a server holds the data directory, and leaves it as it was', async () => {
    const before = snapshot(restoredDir);
    const release = acquireDataDirLock(restoredDir);
    try {
      const refused = await command('restore', [backupFile], { DATA_DIR: restoredDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `A server process (pid ${process.pid}) is running on ${restoredDir}: stop it first, then restore.`,
      );
    } finally {
      release();
    }
    expect(snapshot(restoredDir)).toEqual(before);
  });

  it('refuses a truncated, damaged, foreign or newer backup with a clear message, touching nothing', async () => {
    const whole = fs.readFileSync(backupFile);
    const headerEnd = whole.indexOf(0x0a, whole.indexOf(0x0a) + 1);
    const header = JSON.parse(whole.subarray(whole.indexOf(0x0a) + 1, headerEnd).toString('utf8'));
    const variant = (name: string, bytes: Buffer) => {
      const file = path.join(scratch, 'backups', name);
      fs.writeFileSync(file, bytes);
      return file;
    };
    const truncated = variant('truncated.backup', whole.subarray(0, Math.floor(whole.length / 2)));
    const flipped = Buffer.from(whole);
    const middle = headerEnd + Math.floor((whole.length - headerEnd) / 2);
    flipped[middle] = flipped[middle]! ^ 0xff;
    const damaged = variant('damaged.backup', flipped);
    const foreign = variant('foreign.tar.gz', Buffer.from('not a backup at all\n'));
    const newerHeader = { ...header, productVersion: '99.0.0', lastMigration: { tag: '9999_from_the_future', when: 4102444800000 } };
    const newer = variant(
      'newer.backup',
      Buffer.concat([whole.subarray(0, whole.indexOf(0x0a) + 1), Buffer.from(JSON.stringify(newerHeader)), whole.subarray(headerEnd)]),
    );

    const before = snapshot(restoredDir);
    const expectations: Array<[string, string]> = [
      [truncated, `${truncated} is truncated or damaged: it lacks the end mark a complete backup has`],
      [damaged, `${damaged} is damaged: `],
      [foreign, `${foreign} is not a backup of the DataOps Console`],
      [newer, `${newer} comes from version 99.0.0 of the DataOps Console, whose database has a migration (9999_from_the_future)`],
    ];
    for (const [file, message] of expectations) {
      const refused = await command('restore', [file], { DATA_DIR: restoredDir });
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr).toContain(message);
      expect(refused.stdout).toBe('');
    }
    expect(snapshot(restoredDir)).toEqual(before);
  });

  it('says why it cannot take a backup: a server without the control socket, PostgreSQL, no database', async () => {
    const target = path.join(scratch, 'backups', 'not-taken.backup');
    const release = acquireDataDirLock(restoredDir);
    try {
      const noSocket = await command('backup', [target], { DATA_DIR: restoredDir });
      expect(noSocket.code).toBe(1);
      expect(noSocket.stderr).toContain(
        `A server process (pid ${process.pid}) holds ${restoredDir} but does not answer on its control socket ${path.join(restoredDir, 'control.sock')}`,
      );
    } finally {
      release();
    }
    const postgres = await command('backup', [target], { DATA_DIR: restoredDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain('The server runs on PostgreSQL (DATABASE_URL): back it up with pg_dump');
    const empty = await command('backup', [target], { DATA_DIR: path.join(scratch, 'empty') });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`There is no embedded database in ${path.join(scratch, 'empty')}`);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(`${target}.partial`)).toBe(false);

    // With no server running, the command opens the database itself.
    const stopped = await command('backup', [target], { DATA_DIR: restoredDir });
    expect(stopped.stderr).toBe('');
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('taken from the stopped database');
    expect(fs.existsSync(path.join(restoredDir, 'server.lock'))).toBe(false);
    expect(mode(target)).toBe(0o600);
  });

  it('waits for a transaction in progress, whether begun by PGlite or by a bare BEGIN, and copies what it committed', async () => {
    const dataDir = path.join(scratch, 'in-process');
    fs.mkdirSync(dataDir);
    const pglite = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: pgliteExtensions });
    const events: string[] = [];
    try {
      await pglite.exec('create table public.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
      await pglite.exec('create table written (step text primary key)');

      let finish!: () => void;
      const finishing = new Promise<void>((resolve) => (finish = resolve));
      const transaction = pglite.transaction(async (tx) => {
        await tx.query(`insert into written values ('first of the transaction')`);
        await finishing;
        await tx.query(`insert into written values ('last of the transaction')`);
        events.push('transaction committing');
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const first = takeBackup(pglite, dataDir).then((backup) => {
        events.push('first backup copied');
        return backup;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push('transaction told to finish');
      finish();
      await transaction;
      const firstBackup = await first;
      await firstBackup.discard();

      // A transaction PGlite does not know of: BEGIN sent as a statement of its own.
      await pglite.exec(`begin; insert into written values ('bare begin')`);
      const second = takeBackup(pglite, dataDir).then((backup) => {
        events.push('second backup copied');
        return backup;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push('bare transaction committing');
      await pglite.exec('commit');
      const secondBackup = await second;
      const file = path.join(dataDir, 'second.backup');
      const out = fs.openSync(file, 'w');
      for await (const chunk of secondBackup.file) fs.writeSync(out, chunk);
      fs.closeSync(out);
      await secondBackup.discard();

      expect(events).toEqual([
        'transaction told to finish',
        'transaction committing',
        'first backup copied',
        'bare transaction committing',
        'second backup copied',
      ]);
      const restoredInto = path.join(scratch, 'in-process-restored');
      await restoreBackup(restoredInto, file);
      const restored = await PGlite.create(path.join(restoredInto, 'pglite'), { extensions: pgliteExtensions });
      try {
        expect((await restored.query<{ step: string }>('select step from written order by step')).rows.map((row) => row.step)).toEqual([
          'bare begin',
          'first of the transaction',
          'last of the transaction',
        ]);
      } finally {
        await restored.close();
      }
    } finally {
      await pglite.close();
    }
  });

  it('answers anything but a backup request on the control socket with a message, and goes on serving', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'socket-'));
    const said: string[] = [];
    const control = await startControlSocket(
      dataDir,
      {
        backup: async () => {
          throw new Error('There is nothing to back up here.');
        },
      },
      { log: (message) => said.push(message), warn: (message) => said.push(message) },
    );
    expect(control).toBeDefined();
    const ask = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.createConnection(control!.path);
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(request);
      });
    try {
      expect(JSON.parse(await ask('null\n'))).toEqual({ ok: false, message: 'The request is not a JSON object with a "command".' });
      expect(JSON.parse(await ask('"backup"\n'))).toEqual({ ok: false, message: 'The request is not a JSON object with a "command".' });
      expect(JSON.parse(await ask('{not json\n'))).toEqual({ ok: false, message: 'The request is not a line of JSON.' });
      expect(JSON.parse(await ask('{"command":"drop"}\n'))).toEqual({ ok: false, message: 'Unknown command "drop".' });
      expect(JSON.parse(await ask('{"command":"backup"}\n'))).toEqual({ ok: false, message: 'There is nothing to back up here.' });
      expect(said).toEqual([]);
    } finally {
      await control!.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'control.sock'))).toBe(false);
  });
});
