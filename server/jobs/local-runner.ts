import crypto from 'node:crypto';
import os from 'node:os';
import type { Clock } from 'pg-boss';
import type { TaskType } from '../../common/schemas/workflows';
import type { Secrets } from '../auth/secrets';
import type { SlackOptions } from '../connectors/slack';
import type { Database } from '../db/client';
import { badRequest, notFound } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import type { PlanSettings } from '../subscription/config';
import { assertWithinPlan, reportSkippedScheduledRun } from '../subscription/limits';
import { createDispatcher } from './dispatch';
import { DEFAULT_LIMITS, type RunnerLimits } from './limits';
import { JobQueue, type RunMessage, type ScheduleMessage } from './queue';
import { recoverRuns } from './recovery';
import { createRunFinisher, INTERRUPTED } from './run-ending';
import { CANCELED_MESSAGE, executeRun, RunControl } from './run-execution';
import {
  cancelQueuedRun,
  claimRun,
  findRun,
  findWorkflow,
  insertQueuedRun,
  requestCancel,
  type RunRecord,
  type WorkflowForRun,
} from './run-store';
import { scheduleKey, syncAllSchedules, syncSchedule } from './schedule';
import type { TaskDeps } from './tasks/deps';
import { runLink } from './tasks/run-link';
import type { JobRunner, RunRequest, TaskExecutor } from './types';
import { asSystem, withTenant } from '../db/tenant-scope';

export { nextRunAt } from './schedule';

/**
 * The local runner: workflow runs queued in the server's own database (pg-boss) and worked in
 * this process, by the server (unless RUN_WORKER=false) or by `npm run worker` on PostgreSQL.
 * Several runners may work one PostgreSQL database; on the embedded database only the server's.
 */
export interface LocalRunnerOptions {
  /** The server's database: the queue lives in it (the same PGlite instance, or a schema `<schema>_jobs` beside the server's on PostgreSQL). */
  database: Database;
  /** Opens the Slack connection a failure notice goes to. */
  secrets: Secrets;
  /** Sends (or keeps in the outbox) the mails of failure notices. */
  mailer: Mailer;
  /** The executor of each task type (server/jobs/tasks/), built with the connectors they need. */
  executors: Record<TaskType, TaskExecutor>;
  /** Works a workflow bound to a Databricks job, as its one step "Databricks job". Without it such runs fail saying so. */
  databricksEngine?: TaskExecutor;
  /** The server's configuration as the task executors take it; links to a run in Slack messages and mails use PUBLIC_URL, else this machine's port. */
  config: TaskDeps['config'];
  /** How Slack is called for notices (the reach guard, time limit, retries). */
  slack: SlackOptions;
  /** Names this runner on the runs it works; host, process and a random tag unless given. */
  workerId?: string;
  /** Timings and sizes (limits.ts); tests shorten them. */
  limits?: Partial<RunnerLimits>;
  /** pg-boss's clock; tests pass its TestClock to move schedules forward by hand. */
  clock?: Clock;
  /** Where the runner's own troubles go; console.warn unless given. */
  log?: (message: string) => void;
  /** Counts runs against each company's plan (server/subscription/limits.ts); without it runs are not limited. */
  plans?: Pick<PlanSettings, 'defaultPlan'>;
}

export interface LocalRunner extends JobRunner {
  readonly workerId: string;
  /** Looks for runs to recover now (start() does, then every limits.sweepMs). */
  recover(): Promise<void>;
  /**
   * Opens the queue without working it, for a server that leaves runs to `npm run worker`
   * (RUN_WORKER=false): on a new database that makes the queue's tables, so the server is ready
   * (its readiness probe asks for them) and can queue runs before any worker has started.
   */
  openQueue(): Promise<void>;
}

const SERVER_STOPPING = 'The server is stopping';

export function createLocalRunner(options: LocalRunnerOptions): LocalRunner {
  const { database } = options;
  const db = database.db;
  const limits: RunnerLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const workerId = options.workerId ?? `${os.hostname()}/${process.pid}/${crypto.randomBytes(3).toString('hex')}`;
  const log = options.log ?? ((message: string) => console.warn(`Job runner: ${message}`));

  let opening: Promise<JobQueue> | undefined;
  /** Whether the queue is open in this process now (readiness asks). */
  let open = false;
  const queue = () =>
    (opening ??= JobQueue.open(database, { clock: options.clock, onError: (error) => log(`queue: ${error.message}`) }).then(
      (jobs) => {
        open = true;
        return jobs;
      },
      (error: Error) => {
        // The next call tries again (the database may be back).
        opening = undefined;
        throw new Error(`The job queue could not be opened: ${error.message}`);
      },
    ));

  const dispatch = createDispatcher({ db, queue, limits });
  const notices = {
    db,
    secrets: options.secrets,
    mailer: options.mailer,
    runLink: (runId: string) => runLink(options.config, runId),
    slack: options.slack,
  };
  const finishRun = createRunFinisher({ db, dispatch, notices, log });
  const execution = { db, executors: options.executors, databricksEngine: options.databricksEngine, workerId, limits, log };

  /** The runs this process works, to stop them (a cancel asked here, the runner stopping). */
  const working = new Map<string, RunControl>();
  const handlers = new Set<Promise<void>>();
  let started = false;
  /** No new runs are taken. */
  let stopping = false;
  /** The grace is over: runs under way are interrupted, and one taken meanwhile is interrupted at once. */
  let interrupting = false;
  let sweepTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  // Stale runs may be any company's: the sweep looks across them, and ends each by its own id.
  const recover = () =>
    asSystem('the recovery sweep looks for stale runs of every company', () =>
      recoverRuns({ db, dispatch, finishRun, staleAfterMs: limits.staleAfterMs, isWorking: (runId) => working.has(runId), log }),
    );

  // The runner's own calls name the company they are for, and work as it (row-level security).
  function enqueue(request: RunRequest): Promise<string> {
    return withTenant(request.companyId, () => enqueueRun(request));
  }

  async function enqueueRun(request: RunRequest): Promise<string> {
    const workflow = await findWorkflow(db, request.companyId, request.workflowId);
    if (!workflow) throw notFound('Workflow');
    if (!workflow.isActive) throw badRequest(`The workflow "${workflow.name}" is deactivated; activate it first`);
    const run = await db.transaction(async (tx) => {
      if (options.plans) await assertWithinPlan(tx, options.plans, request.companyId, 'runsPerMonth');
      return insertQueuedRun(tx, {
        workflow,
        trigger: request.trigger,
        userId: request.userId,
        apiKeyId: request.apiKeyId ?? null,
        attempt: 1,
      });
    });
    // The run is written: if its job cannot be sent now, the next recovery sweep sends it.
    await dispatch
      .send(run, workflow)
      .catch((error: Error) => log(`Run ${run.id} is queued but its job was not sent yet: ${error.message}`));
    return run.id;
  }

  function cancel(companyId: string, runId: string): Promise<void> {
    return withTenant(companyId, () => cancelRun(companyId, runId));
  }

  async function cancelRun(companyId: string, runId: string): Promise<void> {
    if (await cancelQueuedRun(db, companyId, runId)) {
      await queue()
        .then((jobs) => jobs.dropWaitingRunJobs(runId))
        .catch((error: Error) => log(`The queue job of canceled run ${runId} stays, to be ignored: ${error.message}`));
      return;
    }
    if (await requestCancel(db, companyId, runId)) {
      // Worked here: stop it now. Elsewhere its runner sees the request at its next heartbeat.
      working.get(runId)?.stop('canceled', CANCELED_MESSAGE);
      return;
    }
    if (!(await findRun(db, companyId, runId))) throw notFound('Run');
  }

  /** Works one run job: takes the run unless its workflow has no room, works it, and ends it. */
  function workRunMessage(message: RunMessage): Promise<void> {
    return withTenant(message.companyId, () => workRunOf(message));
  }

  async function workRunOf(message: RunMessage): Promise<void> {
    if (stopping) return; // left queued: the next sweep (here or in another runner) sends it again
    const claim = await claimRun(db, message.companyId, message.runId, workerId);
    if (claim.outcome === 'claimed') await workRun(claim.run, claim.workflow);
    else if (claim.outcome === 'ended') await dispatch.releaseWaiting(claim.run.companyId, claim.run.workflowId);
  }

  async function workRun(run: RunRecord, workflow: WorkflowForRun): Promise<void> {
    const control = new RunControl();
    working.set(run.id, control);
    if (interrupting) control.stop('stopping', SERVER_STOPPING);
    const handled = (async () => {
      try {
        const result = await executeRun(execution, run, workflow, control);
        if (result.kind === 'ended') await finishRun(run, workflow, { worker: workerId }, result.ending);
        else if (result.reason === 'stopping') await finishRun(run, workflow, { worker: workerId }, INTERRUPTED);
        // 'lost': another runner recovered the run and wrote its end.
      } catch (error) {
        log(`Run ${run.id} failed in the runner: ${(error as Error).message}`);
        await finishRun(
          run,
          workflow,
          { worker: workerId },
          { status: 'failed', error: `The runner failed: ${(error as Error).message}` },
        ).catch(
          // Left running: its heartbeat has stopped, so a recovery sweep ends it.
          (again: Error) => log(`Run ${run.id} could not be ended: ${again.message}`),
        );
      } finally {
        working.delete(run.id);
      }
    })();
    handlers.add(handled);
    await handled.finally(() => handlers.delete(handled));
  }

  /** A schedule fired: queue a run, unless the schedule is a leftover of an edit the queue missed. */
  function workScheduleMessage(message: ScheduleMessage): Promise<void> {
    return withTenant(message.companyId, () => workScheduleOf(message));
  }

  async function workScheduleOf(message: ScheduleMessage): Promise<void> {
    const workflow = await findWorkflow(db, message.companyId, message.workflowId);
    if (!workflow || !workflow.isActive || !workflow.scheduleCron) {
      await (await queue()).unschedule(scheduleKey(message.companyId, message.workflowId));
      return;
    }
    await enqueueRun({ companyId: message.companyId, workflowId: message.workflowId, trigger: 'schedule', userId: null }).catch(
      (error: unknown) => reportSkippedScheduledRun(db, error, workflow),
    );
  }

  /** Until no run is being worked here, including one a worker took while waiting. */
  async function handlersSettled(): Promise<void> {
    while (handlers.size > 0) await Promise.allSettled([...handlers]);
  }

  function sweepLater(): void {
    sweepTimer = setTimeout(() => {
      sweeping = recover()
        .catch((error: Error) => log(`Recovery sweep failed: ${error.message}`))
        .finally(() => {
          sweeping = undefined;
          if (!stopping) sweepLater();
        });
    }, limits.sweepMs);
    sweepTimer.unref();
  }

  async function start(): Promise<void> {
    if (started) return;
    started = true;
    stopping = false;
    try {
      const jobs = await queue();
      await recover();
      await asSystem('the schedules of every company are matched with the queue', () => syncAllSchedules(db, jobs, log));
      await jobs.workRuns(limits.parallelRuns, workRunMessage);
      await jobs.workSchedules(workScheduleMessage);
    } catch (error) {
      started = false;
      throw error;
    }
    sweepLater();
  }

  async function stop(): Promise<void> {
    stopping = true;
    clearTimeout(sweepTimer);
    await sweeping;
    const jobs = await opening?.catch(() => undefined);
    if (!jobs) return;
    await jobs.stopWorking();
    const graceOver = new Promise((resolve) => setTimeout(resolve, limits.stopGraceMs).unref());
    await Promise.race([handlersSettled(), graceOver]);
    interrupting = true;
    for (const control of working.values()) control.stop('stopping', SERVER_STOPPING);
    await handlersSettled();
    open = false;
    await jobs.close();
    opening = undefined;
    started = false;
    interrupting = false;
  }

  return {
    workerId,
    enqueue,
    cancel,
    async syncSchedule(companyId, workflowId) {
      const jobs = await queue();
      await withTenant(companyId, () => syncSchedule(db, jobs, companyId, workflowId));
    },
    start,
    stop,
    recover,
    openQueue: async () => {
      await queue();
    },
    queueOpen: () => open,
  };
}
