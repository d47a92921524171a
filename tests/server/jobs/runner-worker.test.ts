import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, workflows } from '../../../server/db/schema';
import { POSTGRES_URL, skipPostgres } from '../connectors/db-helpers';
import { eventually, openRunnerWorld, runReaches, type RunnerWorld } from './runner-fixture';

/** `npm run worker` (server/worker.ts) as a real process: what it refuses, and a run it works on PostgreSQL. */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

interface Worker {
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  kill(signal: NodeJS.Signals): void;
}

function startWorker(env: Record<string, string>): Worker {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-worker-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', APP_SECRET: '', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  return { ended, output: () => output, kill: (signal) => child.kill(signal) };
}

describe('the worker process', () => {
  it('refuses the embedded database, saying why', async () => {
    const worker = startWorker({});
    expect(await worker.ended).toEqual({ code: 1, signal: null });
    expect(worker.output()).toContain('The worker needs PostgreSQL: set DATABASE_URL to the database of the servers.');
    expect(worker.output()).toContain('start the server alone (npm start)');
  });

  it('refuses to start without the servers’ secret rather than make one of its own', async () => {
    const worker = startWorker({ DATABASE_URL: POSTGRES_URL });
    expect(await worker.ended).toEqual({ code: 1, signal: null });
    expect(worker.output()).toContain('set APP_SECRET to the value the servers use');
  });
});

describe.skipIf(skipPostgres)('the worker process on PostgreSQL', () => {
  let world: RunnerWorld;

  beforeAll(async () => {
    world = await openRunnerWorld({ databaseUrl: POSTGRES_URL });
  });

  afterAll(async () => {
    await world?.close();
  });

  it('works a queued run with the real task executors, and stops on SIGTERM', async () => {
    const [workflow] = await world.db
      .insert(workflows)
      .values({
        companyId: world.company.companyId,
        name: 'Tell the team',
        pairId: crypto.randomUUID(),
        tasks: [{ id: 'tell', name: 'Tell the team', type: 'notify', message: 'The nightly load is done', emails: ['team@acme.test'] }],
      })
      .returning({ id: workflows.id });
    const worker = startWorker({
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: world.database.postgres!.schema,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
    });
    const workerId = await eventually(
      async () => /worker (\S+) is working the job queue/.exec(worker.output())?.[1],
      'the worker to start',
      30_000,
    );

    // The server (RUN_WORKER=false) only queues.
    const runId = await world
      .runner()
      .enqueue({ companyId: world.company.companyId, workflowId: workflow.id, trigger: 'manual', userId: world.company.adminUserId });
    const run = await runReaches(world, runId, 'succeeded');

    expect(run.worker).toBe(workerId);
    expect(run.steps[0].log).toContain('Mailed team@acme.test');
    const [mail] = await world.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'team@acme.test'));
    expect(mail).toMatchObject({ kind: 'workflow_notification', subject: 'Tell the team: The nightly load is done' });

    worker.kill('SIGTERM');
    expect(await worker.ended).toEqual({ code: 0, signal: null });
  });
});
