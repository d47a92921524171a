import crypto from 'node:crypto';
import pg from 'pg';
import { PgBoss, fromPglite, type Clock, type ConstructorOptions, type Job } from 'pg-boss';
import type { Database } from '../db/client';

/**
 * The job queue of the local runner: pg-boss in the server's own database. On the embedded
 * database it shares the server's PGlite instance (one connection for everything), on PostgreSQL
 * it opens a small pool of its own into a schema beside the server's. The queue only carries
 * "work this run" and "this schedule fired": the run rows (job_runs) stay the truth about a run.
 */

export const RUNS_QUEUE = 'workflow-runs';
export const SCHEDULES_QUEUE = 'workflow-schedules';

export interface RunMessage {
  companyId: string;
  runId: string;
}

export interface ScheduleMessage {
  companyId: string;
  workflowId: string;
}

export interface SendRunOptions {
  /** Not before this time (a retry's backoff). */
  startAfter?: Date;
  /** How long a worker may hold the job: longer than the run may last. */
  expireInSeconds: number;
}

/** pg-boss refuses longer holds; a run that long has reached its own time limit anyway. */
export const MAX_HOLD_SECONDS = 24 * 60 * 60;

export interface QueueOptions {
  /** pg-boss's clock; tests pass its TestClock to move schedules forward by hand. */
  clock?: Clock;
  /** Where the queue's own troubles go (a lost connection, a failed maintenance pass). */
  onError(error: Error): void;
}

/**
 * pg-boss limits schema names to 50 bytes. The queue's schema is the server's plus `_jobs`, with
 * a digest of the whole name when it has to be shortened, so that two long schemas stay apart.
 */
export function queueSchemaOf(serverSchema: string): string {
  const plain = `${serverSchema}_jobs`;
  if (plain.length <= 50) return plain;
  const digest = crypto.createHash('sha256').update(serverSchema).digest('hex').slice(0, 8);
  return `${serverSchema.slice(0, 36)}_${digest}_jobs`;
}

/** Drops the queue's schema on PostgreSQL (tests drop it with their own schema). */
export async function dropQueueSchema(postgres: { url: string; schema: string }): Promise<void> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${queueSchemaOf(postgres.schema)}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * What pg-boss does in the background, chosen for PGlite, which runs one statement at a time for
 * the whole server: no index rebuilds or vacuum checks (it has neither), supervision and
 * statistics every 5 minutes, flow resolution (unused here) rarely. Schedules keep pg-boss's
 * cadence (a cron pass every 30 s, forwarded within 10 s), and workers are woken by NOTIFY, polling
 * only as a backstop. On PostgreSQL the pool is small: the runner's own statements go through the
 * server's pool.
 */
function bossOptions(database: Database, options: QueueOptions): ConstructorOptions {
  const shared: ConstructorOptions = {
    useListenNotify: true,
    cronMonitorIntervalSeconds: 30,
    cronWorkerIntervalSeconds: 10,
    flowIntervalSeconds: 300,
    bamIntervalSeconds: 600,
    persistWarnings: false,
    ...(options.clock ? { clock: options.clock } : {}),
  };
  if (database.pglite) {
    return {
      ...shared,
      db: fromPglite(database.pglite),
      backend: 'pglite',
      schema: queueSchemaOf('public'),
      superviseIntervalSeconds: 300,
      monitorIntervalSeconds: 300,
      queueCacheIntervalSeconds: 300,
      reindex: false,
      monitorVacuum: false,
    };
  }
  if (!database.postgres) throw new Error('The job queue needs the embedded database or a PostgreSQL server');
  return {
    ...shared,
    connectionString: database.postgres.url,
    schema: queueSchemaOf(database.postgres.schema),
    max: 4,
    application_name: 'dataops-jobs',
  };
}

/** Base poll of a worker when NOTIFY is not available, and its backstop when it is. */
const POLL_SECONDS = 2;
const NOTIFY_BACKSTOP_SECONDS = 30;
/** How long after a worker took a run's job that job still counts as being taken (hasPendingRunJob). */
const TAKING_MS = 10_000;
/** Finished queue jobs are kept a day for inspection; the run rows keep the history. */
const KEEP_FINISHED_SECONDS = 24 * 60 * 60;

export class JobQueue {
  /** Wake-ups of this process's run workers for deferred jobs (retries), cleared at close. */
  private readonly wakeUps = new Set<NodeJS.Timeout>();

  private constructor(private readonly boss: PgBoss) {}

  static async open(database: Database, options: QueueOptions): Promise<JobQueue> {
    const boss = new PgBoss(bossOptions(database, options));
    boss.on('error', options.onError);
    await boss.start();
    // retryLimit 0: the runner decides about retries itself, as new runs.
    const queueOptions = { notify: true, retryLimit: 0, deleteAfterSeconds: KEEP_FINISHED_SECONDS };
    await boss.createQueue(RUNS_QUEUE, queueOptions);
    await boss.createQueue(SCHEDULES_QUEUE, queueOptions);
    return new JobQueue(boss);
  }

  /** The run's key in the queue is its id, so its jobs can be found again. */
  async sendRun(message: RunMessage, options: SendRunOptions): Promise<void> {
    await this.boss.send(
      RUNS_QUEUE,
      { ...message },
      {
        singletonKey: message.runId,
        expireInSeconds: Math.min(MAX_HOLD_SECONDS, Math.max(1, Math.ceil(options.expireInSeconds))),
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      },
    );
    if (options.startAfter) this.wakeRunWorkersAt(options.startAfter);
  }

  /**
   * NOTIFY wakes workers when a job is sent, not when a deferred one comes due, and their backstop
   * poll is slow: so this process wakes its own idle run workers when the job is due.
   */
  private wakeRunWorkersAt(due: Date): void {
    const timer = setTimeout(
      () => {
        this.wakeUps.delete(timer);
        for (const worker of this.boss.getWipData()) if (worker.name === RUNS_QUEUE) this.boss.notifyWorker(worker.id);
      },
      Math.max(0, due.getTime() - Date.now()),
    );
    timer.unref();
    this.wakeUps.add(timer);
  }

  /**
   * Whether the run has a job that no worker has taken yet (due now or later), or one a worker took
   * within `takingMs`: that worker is claiming the run (or giving the job up, for want of room) at
   * this moment, so sending another would only make a second job for the same start. A job taken
   * longer ago whose run is still queued belongs to a worker that died while taking it.
   */
  async hasPendingRunJob(runId: string, takingMs = TAKING_MS): Promise<boolean> {
    const jobs = await this.boss.findJobs(RUNS_QUEUE, { key: runId });
    const since = Date.now() - takingMs;
    return jobs.some(
      (job) => job.state === 'created' || job.state === 'retry' || (job.state === 'active' && job.startedOn.getTime() >= since),
    );
  }

  /** Removes the run's jobs that no worker has taken (a canceled queued run). */
  async dropWaitingRunJobs(runId: string): Promise<void> {
    const jobs = await this.boss.findJobs(RUNS_QUEUE, { key: runId, queued: true });
    if (jobs.length > 0)
      await this.boss.cancel(
        RUNS_QUEUE,
        jobs.map((job) => job.id),
      );
  }

  /** Works run jobs, `parallel` at a time in this process; a handler holds its job until the run has ended. */
  async workRuns(parallel: number, handler: (message: RunMessage) => Promise<void>): Promise<void> {
    await this.boss.work<RunMessage>(
      RUNS_QUEUE,
      { localConcurrency: parallel, pollingIntervalSeconds: POLL_SECONDS, notifyPollingIntervalSeconds: NOTIFY_BACKSTOP_SECONDS },
      async ([job]: Job<RunMessage>[]) => handler(job.data),
    );
  }

  async workSchedules(handler: (message: ScheduleMessage) => Promise<void>): Promise<void> {
    await this.boss.work<ScheduleMessage>(
      SCHEDULES_QUEUE,
      { pollingIntervalSeconds: POLL_SECONDS, notifyPollingIntervalSeconds: NOTIFY_BACKSTOP_SECONDS },
      async ([job]: Job<ScheduleMessage>[]) => handler(job.data),
    );
  }

  /** Stops fetching jobs; handlers under way go on. */
  async stopWorking(): Promise<void> {
    await this.boss.offWork(RUNS_QUEUE, { wait: false });
    await this.boss.offWork(SCHEDULES_QUEUE, { wait: false });
  }

  async schedule(key: string, cron: string, timezone: string, message: ScheduleMessage): Promise<void> {
    await this.boss.schedule(SCHEDULES_QUEUE, cron, { ...message }, { tz: timezone, key });
  }

  async unschedule(key: string): Promise<void> {
    await this.boss.unschedule(SCHEDULES_QUEUE, key);
  }

  async schedules(): Promise<Array<{ key: string; cron: string; timezone: string }>> {
    return (await this.boss.getSchedules(SCHEDULES_QUEUE)).map(({ key, cron, timezone }) => ({ key, cron, timezone }));
  }

  /** Stops pg-boss (and closes its own pool on PostgreSQL; the PGlite instance stays the server's). */
  async close(): Promise<void> {
    for (const timer of this.wakeUps) clearTimeout(timer);
    await this.boss.stop({ graceful: true, timeout: 5_000 });
  }
}
