import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { keepOpeningQueue } from '../../server/jobs/queue-opening';
import { queueSchemaOf } from '../../server/jobs/queue';
import { dropTestSchema } from './harness';
import { freePort, ROOT } from './processes';

/**
 * A server that leaves runs to workers (RUN_WORKER=false) and cannot open the job queue at its
 * start: it listens, is not ready, and tries again until the queue opens.
 */

describe('opening the queue again and again', () => {
  it('waits twice as long after each failure, up to the ceiling, until the queue opens', async () => {
    const said: string[] = [];
    let calls = 0;
    const opening = keepOpeningQueue(
      async () => {
        calls++;
        if (calls <= 4) throw new Error(`The job queue could not be opened: refused ${calls}`);
      },
      { firstDelayMs: 5, maxDelayMs: 15, log: (message) => said.push(message) },
    );
    expect(await opening.opened).toBe(true);
    expect(calls).toBe(5);
    expect(said).toEqual([
      'The job queue could not be opened: refused 1; trying again in 5 ms (attempt 1).',
      'The job queue could not be opened: refused 2; trying again in 10 ms (attempt 2).',
      'The job queue could not be opened: refused 3; trying again in 15 ms (attempt 3).',
      'The job queue could not be opened: refused 4; trying again in 15 ms (attempt 4).',
      'The job queue is open (attempt 5).',
    ]);
  });

  it('says nothing when the first attempt opens it, and stops trying once stopped', async () => {
    const said: string[] = [];
    expect(await keepOpeningQueue(async () => {}, { log: (message) => said.push(message) }).opened).toBe(true);
    expect(said).toEqual([]);

    let calls = 0;
    const failing = keepOpeningQueue(
      async () => {
        calls++;
        throw new Error('The job queue could not be opened: refused');
      },
      { firstDelayMs: 60_000, log: (message) => said.push(message) },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    failing.stop();
    expect(await failing.opened).toBe(false);
    expect(calls).toBe(1);
  });
});

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(Boolean(databaseUrl))('a server without workers whose queue cannot open at first', () => {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-queue-opening-'));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await dropTestSchema(databaseUrl!, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function asOwner(text: string) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  it('listens, answers 503 on readiness, and is ready once the queue opens', async () => {
    // The queue's schema as a half-made one leaves it: pg-boss finds its version, not its functions.
    const queueSchema = queueSchemaOf(schema);
    await asOwner(
      `create schema "${queueSchema}"; create table "${queueSchema}".version (version int primary key, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz); insert into "${queueSchema}".version values (9999)`,
    );
    const port = await freePort();
    let output = '';
    child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: schema,
        RUN_WORKER: 'false',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        CONSOLE_DIR: path.join(dataDir, 'no-console'),
        BOOTSTRAP_COMPANY_HOSTNAME: 'queueco',
        BOOTSTRAP_ADMIN_EMAIL: 'admin@queueco.test',
        BOOTSTRAP_ADMIN_PASSWORD: 'Queue-admin-pass-1',
        BOOTSTRAP_SAMPLE_DATA: 'false',
      },
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}/api/v1`;
    const waitFor = async (what: string, check: () => Promise<boolean>) => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (await check().catch(() => false)) return;
        if (child!.exitCode !== null) throw new Error(`the server exited (${child!.exitCode}) before ${what}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error(`timed out waiting for ${what}; output so far:\n${output}`);
    };

    await waitFor('it listened', async () => (await fetch(`${base}/health`)).ok);
    await waitFor('an attempt failed', async () =>
      /The job queue could not be opened: .*; trying again in \d+ s \(attempt \d+\)/.test(output),
    );
    const notReady = await fetch(`${base}/ready`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ message: 'The job queue is unavailable' });
    // Signing in works meanwhile: only the runs wait for the queue.
    const signin = await fetch(`${base}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@queueco.test', password: 'Queue-admin-pass-1', companyHostname: 'queueco' }),
    });
    expect(signin.status).toBe(200);

    await asOwner(`drop schema "${queueSchema}" cascade`);
    await waitFor('it was ready', async () => (await fetch(`${base}/ready`)).status === 200);
    expect(output).toMatch(/The job queue is open \(attempt \d+\)\./);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
