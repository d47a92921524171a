import crypto from 'node:crypto';
import os from 'node:os';
import { and, asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { expect } from 'vitest';
import type { TaskType } from '../../../common/schemas/workflows';
import { createSecrets, type Secrets } from '../../../server/auth/secrets';
import { migrateDatabase, openDatabase, openOperatorView, selectRows, type Database, type Db } from '../../../server/db/client';
import { jobRunSteps, jobRuns, workflows } from '../../../server/db/schema';
import { createLocalRunner, type LocalRunner, type LocalRunnerOptions } from '../../../server/jobs/local-runner';
import type { RunnerLimits } from '../../../server/jobs/limits';
import { dropQueueSchema, queueSchemaOf } from '../../../server/jobs/queue';
import type { TaskContext, TaskDefinition, TaskExecutor, TaskOutcome } from '../../../server/jobs/types';
import { createMailer, type Mailer } from '../../../server/mail/mailer';
import { provisionCompany, type ProvisionedCompany } from '../../../server/tenancy/provision';
import { TEST_HTTP } from '../connectors/test-context';

/**
 * What the runner tests share: a migrated database with one company (in-memory PGlite, or a
 * schema of its own on the PostgreSQL of DATABASE_URL, dropped with its queue schema afterwards),
 * workflows written straight into it, tasks whose behaviour each test chooses, and readers of the
 * run rows as the API answers them.
 */

export interface RunnerWorld {
  database: Database;
  db: Db;
  company: ProvisionedCompany;
  secrets: Secrets;
  mailer: Mailer;
  tasks: TaskScript;
  /** A runner over this database with the tasks of `tasks`; stopped by close(). */
  runner(overrides?: Partial<LocalRunnerOptions> & { limits?: Partial<RunnerLimits> }): LocalRunner;
  close(): Promise<void>;
}

/** Short timings: a workflow's minute lasts 600 ms, heartbeats every 100 ms. */
export const FAST_LIMITS: Partial<RunnerLimits> = {
  heartbeatMs: 100,
  staleAfterMs: 1_500,
  sweepMs: 500,
  abortGraceMs: 400,
  stopGraceMs: 300,
  secondMs: 10,
};

export async function openRunnerWorld(options: { databaseUrl?: string } = {}): Promise<RunnerWorld> {
  const databaseUrl = options.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  const schema = databaseUrl ? `t_${crypto.randomBytes(6).toString('hex')}` : 'public';
  const database = await openDatabase({ databaseUrl, schema });
  await migrateDatabase(database, schema);
  // The test writes and reads as the tables' owner; the runner works through the server's connections.
  const operator = openOperatorView(database);
  const company = await provisionCompany(operator.db, {
    name: 'Acme',
    hostname: `acme-${crypto.randomBytes(3).toString('hex')}`,
    admin: { email: 'admin@acme.test', password: 'Correct-horse-42', firstName: 'Ada', lastName: 'Admin' },
  });
  const secrets = createSecrets(crypto.randomBytes(32).toString('base64url'));
  const mailer = createMailer(database.db, { from: 'DataOps Console <no-reply@dataops.test>' });
  const tasks = new TaskScript();
  const runners: LocalRunner[] = [];
  return {
    database,
    db: operator.db,
    company,
    secrets,
    mailer,
    tasks,
    runner(overrides = {}) {
      const runner = createLocalRunner({
        database,
        secrets,
        mailer,
        executors: tasks.executors,
        databricksEngine: tasks.databricksEngine,
        config: { publicUrl: undefined, port: 8080, dataDir: os.tmpdir() },
        slack: { http: TEST_HTTP },
        log: () => {},
        ...overrides,
        limits: { ...FAST_LIMITS, ...overrides.limits },
      });
      runners.push(runner);
      return runner;
    },
    async close() {
      for (const runner of runners) await runner.stop();
      await operator.close();
      await database.close();
      if (database.postgres) {
        await dropQueueSchema(database.postgres);
        const client = new pg.Client({ connectionString: database.postgres.url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
  };
}

// ---- Tasks whose behaviour a test chooses --------------------------------------------------------

export type Behaviour = (task: TaskDefinition, context: TaskContext) => Promise<TaskOutcome>;

/**
 * Every task type's executor looks the task's id up here, so each test says what its tasks do;
 * the Databricks engine does what `databricks` says.
 */
export class TaskScript {
  private readonly behaviours = new Map<string, Behaviour>();
  /** The tasks that saw their signal abort, by id. */
  readonly aborted = new Set<string>();
  readonly executors: Record<TaskType, TaskExecutor>;
  databricks: Behaviour = async () => {
    throw new Error('No Databricks behaviour was given');
  };
  readonly databricksEngine: TaskExecutor = (task, context) => this.databricks(task, context);

  constructor() {
    const route: TaskExecutor = (task, context) => {
      const behaviour = this.behaviours.get(task.id);
      if (!behaviour) throw new Error(`No behaviour for task ${task.id}`);
      context.signal.addEventListener('abort', () => this.aborted.add(task.id), { once: true });
      return behaviour(task, context);
    };
    this.executors = { copy: route, sql: route, quality: route, notify: route };
  }

  /** A task id of its own (or the one given), doing `behaviour`. */
  define(behaviour: Behaviour, id = `task-${crypto.randomBytes(4).toString('hex')}`): string {
    this.behaviours.set(id, behaviour);
    return id;
  }
}

/** A door a task waits at until the test opens it. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Waits for the gate, or throws the signal's reason when the run is stopped first (as a well-behaved task does). */
export async function waitUnlessStopped(door: { opened: Promise<void> }, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  await new Promise<void>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    door.opened.then(resolve);
  });
}

// ---- Workflows --------------------------------------------------------------------------------------

export interface WorkflowSetup {
  name?: string;
  /** Task ids from TaskScript.define, run in this order as `copy` tasks. */
  taskIds: string[];
  maxRetries?: number;
  retryBackoffSeconds?: number;
  timeoutMinutes?: number;
  concurrency?: number;
  scheduleCron?: string | null;
  scheduleTimezone?: string;
  databricksConnectionId?: string | null;
  notifyOnFailure?: { inApp: boolean; slackConnectionId?: string | null; emails?: string[] };
  createdBy?: string | null;
  isActive?: boolean;
}

/** Writes a workflow as the workflows routes store one (tasks as the API takes them). */
export async function insertWorkflow(world: RunnerWorld, setup: WorkflowSetup): Promise<string> {
  const [row] = await world.db
    .insert(workflows)
    .values({
      companyId: world.company.companyId,
      name: setup.name ?? `Workflow ${crypto.randomBytes(4).toString('hex')}`,
      pairId: crypto.randomUUID(),
      tasks: setup.taskIds.map((id, index) => ({
        id,
        name: `Step ${index + 1}`,
        type: 'copy',
        from: { table: `public.source_${index + 1}` },
        to: { table: `public.target_${index + 1}`, mode: 'replace' },
      })),
      maxRetries: setup.maxRetries ?? 0,
      retryBackoffSeconds: setup.retryBackoffSeconds ?? 10,
      timeoutMinutes: setup.timeoutMinutes ?? 60,
      concurrency: setup.concurrency ?? 1,
      scheduleCron: setup.scheduleCron ?? null,
      scheduleTimezone: setup.scheduleTimezone ?? 'UTC',
      databricksConnectionId: setup.databricksConnectionId ?? null,
      notifyOnFailure: setup.notifyOnFailure ?? { inApp: true },
      createdBy: setup.createdBy === undefined ? world.company.adminUserId : setup.createdBy,
      isActive: setup.isActive ?? true,
    })
    .returning({ id: workflows.id });
  return row.id;
}

// ---- Reading runs as a client sees them -----------------------------------------------------------

export type RunRow = typeof jobRuns.$inferSelect & { steps: Array<typeof jobRunSteps.$inferSelect> };

export async function readRun(world: RunnerWorld, runId: string): Promise<RunRow> {
  const [run] = await world.db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.companyId, world.company.companyId), eq(jobRuns.id, runId)));
  expect(run, `run ${runId}`).toBeDefined();
  const steps = await world.db.select().from(jobRunSteps).where(eq(jobRunSteps.runId, runId)).orderBy(asc(jobRunSteps.position));
  return { ...run, steps };
}

/** The workflow's runs, oldest attempt first. */
export async function runsOf(world: RunnerWorld, workflowId: string): Promise<RunRow[]> {
  const rows = await world.db
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .where(eq(jobRuns.workflowId, workflowId))
    .orderBy(asc(jobRuns.attempt), asc(jobRuns.queuedAt));
  return Promise.all(rows.map((row) => readRun(world, row.id)));
}

/** Polls until `check` answers something other than undefined (or false), as a client polling the run would. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function runReaches(world: RunnerWorld, runId: string, status: string | string[], timeoutMs?: number): Promise<RunRow> {
  const wanted = Array.isArray(status) ? status : [status];
  return eventually(
    async () => {
      const run = await readRun(world, runId);
      return wanted.includes(run.status) ? run : undefined;
    },
    `run ${runId} to be ${wanted.join(' or ')}`,
    timeoutMs,
  );
}

/** The queue's own tables, read as the test's proof of what the runner asked of pg-boss. */
export const queueTable = (world: RunnerWorld, table: string) =>
  sql`${sql.identifier(queueSchemaOf(world.database.postgres?.schema ?? 'public'))}.${sql.identifier(table)}`;

/** How many queue jobs were ever sent for a run (the queue keys them by the run's id). */
export async function queueJobsOf(world: RunnerWorld, runId: string): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    world.db,
    sql`select count(*)::int as n from ${queueTable(world, 'job')} where singleton_key = ${runId}`,
  );
  return rows[0].n;
}

/** The schedules the queue keeps for workflows: key, cron and time zone. */
export async function queueSchedules(world: RunnerWorld): Promise<Array<{ key: string; cron: string; timezone: string }>> {
  return selectRows(
    world.db,
    sql`select key, cron, timezone from ${queueTable(world, 'schedule')} where name = 'workflow-schedules' order by key`,
  );
}
