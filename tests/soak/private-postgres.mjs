import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL server of the soak's own, to restart under load without touching the machine's
 * shared one: initdb into a fresh directory, trust authentication on loopback, its socket in the
 * same temporary directory. PostgreSQL refuses to run as root, so as root its programs run as
 * the `postgres` OS user (runuser); as any other user they run as that user.
 */

const BIN = process.env.SOAK_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why a private PostgreSQL cannot be made here, or undefined when it can. */
export function privatePostgresUnavailable() {
  if (!fs.existsSync(path.join(BIN, 'initdb'))) return `no PostgreSQL programs in ${BIN} (set SOAK_PG_BIN)`;
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'running as root, and there is no postgres OS user to run PostgreSQL as';
  return undefined;
}

export function createPrivatePostgres({ port = Number(process.env.SOAK_PG_PORT || 55432) } = {}) {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (asRoot) spawnSync('chown', ['-R', 'postgres:', dir]);

  /** The end of the server's own log, for a start that failed (the log is deleted with the directory). */
  const logTail = () => {
    try {
      return `\n${fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-8).join('\n')}`;
    } catch {
      return '';
    }
  };
  const run = (program, args, { check = true } = {}) => {
    const command = asRoot ? 'runuser' : path.join(BIN, program);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(BIN, program), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (check && result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${result.stderr || result.stdout}${logTail()}`);
    return result;
  };
  /** The same, without blocking this process: the soak's clients keep calling while PostgreSQL stops and starts. */
  const runAsync = (program, args) =>
    new Promise((resolve, reject) => {
      const command = asRoot ? 'runuser' : path.join(BIN, program);
      const argv = asRoot ? ['-u', 'postgres', '--', path.join(BIN, program), ...args] : args;
      execFile(command, argv, { cwd: dir }, (error, stdout, stderr) =>
        error ? reject(new Error(`${program} ${args.join(' ')} failed: ${stderr || stdout || error.message}`)) : resolve(stdout),
      );
    });
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`;

  return {
    url: (database = 'soak') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    port,
    logFile,
    init() {
      run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
      run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
      run('createdb', ['-h', dir, '-p', String(port), '-U', 'postgres', 'soak']);
    },
    start() {
      return runAsync('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
    },
    /** `-m fast`: every session is ended at once (their statements fail), as an operator's restart does. */
    stop() {
      return runAsync('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    /** Stops it for good and deletes its files. */
    destroy() {
      if (fs.existsSync(path.join(dataDir, 'postmaster.pid')))
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], { check: false });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
