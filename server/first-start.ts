import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';
import type { BootstrapResult } from './tenancy/bootstrap';

/**
 * The first start on a new embedded database runs its set-up in a process of its own: initdb,
 * the migrations, the first company and its sample databases. PGlite's memory only ever grows
 * (initdb alone takes it to some 600 MB) and threads that end leave the process's heap larger,
 * so the server that did the set-up would hold several hundred MB more for as long as it runs
 * than the same server started again. The set-up process exits, giving all of it back, and the
 * server then opens the database as a restart does (docs/operations.md, "Memory").
 */

const SETTING_UP = 'DATAOPS_FIRST_START_SET_UP';

/** Whether this server is about to make its embedded database (none in DATA_DIR yet). */
export function makesNewEmbeddedDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): boolean {
  return !config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'));
}

/** Whether this process is the set-up process of a first start: it stops once the set-up is done. */
export function isSetUpProcess(): boolean {
  return process.env[SETTING_UP] === '1';
}

/** In the set-up process: hands the first company it made (if it made one) to the server. */
export function handOver(created: BootstrapResult | null): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send({ created }, () => resolve());
  });
}

export class SetUpFailed extends Error {
  constructor(readonly exitCode: number) {
    super(`the set-up of the new embedded database stopped (exit code ${exitCode})`);
  }
}

/**
 * Runs this same program (same Node options, such as tsx's loader) as the set-up process, and
 * resolves with the first company it made. The set-up process says itself why it failed, if it
 * does: SetUpFailed then carries its exit code.
 */
export function setUpInOwnProcess(): Promise<BootstrapResult | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      env: { ...process.env, [SETTING_UP]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let created: BootstrapResult | null = null;
    child.on('message', (message: { created?: BootstrapResult | null }) => {
      created = message.created ?? null;
    });
    // Stopping the server while it sets up stops the set-up too.
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (code === 0) resolve(created);
      else reject(new SetUpFailed(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
    });
  });
}
