import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DATE_TYPE_OIDS, type PostgresSession } from './postgresql';
import { abortReason, ConnectorError } from './types';
import { tightenPermissions } from '../data-directory';

/**
 * A PGlite database that lives in a worker thread of its own (pglite-worker.mjs), for the
 * embedded databases (embedded.ts) and the files loaded for SQL (tabular/).
 *
 * PGlite runs a statement to its end on the thread that calls it: on the server's main thread
 * one company's `pg_sleep` or runaway join held every request of every company. In a worker the
 * main thread only posts statements and awaits answers, and a statement that outlives its time
 * limit is stopped by ending the thread (`Worker.terminate` stops WASM mid-instruction). The
 * database is then opened again by the next piece of work: one on disk comes back, through
 * PostgreSQL's own recovery, as of its last commit; one in memory comes back empty.
 *
 * Work takes turns, as on one connection: `turn()` queues a piece of work (its BEGIN … COMMIT
 * included) behind the last. `limited()` bounds work that takes one or more turns: when its time
 * runs out (or its signal aborts) the caller is answered at once, a turn of it still waiting is
 * never run, and a turn of it under way is stopped with its thread. Opening a database is not the
 * work of any statement and is never stopped (a database half created would be lost).
 *
 * A new database starts from a copy of one made by initdb once per process (`newDatabaseTemplate`):
 * initdb takes some ten seconds of CPU and 600 MB at its peak, unpacking the copy under one second.
 */

const WORKER_URL = new URL('./pglite-worker.mjs', import.meta.url);

/** Node's largest timer: a limit beyond it is no limit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whom a turn works for: once its time is out, its turns are not run, and one under way is stopped. */
export interface TurnOwner {
  /** Set when the work was answered by its limit: the answer it got. */
  ended?: Error;
}

/** A session on a thread: what the shared PostgreSQL code uses, and what embedded.ts and tabular/ need beyond it. */
export interface ThreadSession extends PostgresSession {
  /** One statement in a transaction that is rolled back (read-only when asked): its rows. */
  queryRolledBack<Row>(sql: string, params: readonly unknown[], readOnly: boolean): Promise<Row[]>;
  /** `COPY … FROM '/dev/blob'` fed with `data`, which is handed to the thread (it is unusable here afterwards). */
  copyFromOwned(copySql: string, data: Uint8Array<ArrayBuffer>): Promise<number>;
  /** Undoes what a script may leave on the session: an open transaction, changed settings. */
  forget(): Promise<void>;
  /** Whether the turn's thread still runs (it is stopped when the work's limit passes). */
  readonly alive: boolean;
  /** Which of the database's threads the turn runs on: a new one holds nothing a stopped one held in memory. */
  readonly generation: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** A failure as PGlite raised it in the thread: PostgreSQL's message and SQLSTATE (`code`), which sql-errors.ts reads. */
function failureFrom(said: { message: string; code?: string; detail?: string; hint?: string }): Error {
  return Object.assign(new Error(said.message), { code: said.code, detail: said.detail, hint: said.hint });
}

let threadsStarted = 0;

/** One worker thread holding one PGlite. */
class PgliteThread {
  readonly generation = ++threadsStarted;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Why the thread is gone, once it is: every call still waiting, and every later one, fails with it. */
  private gone: Error | undefined;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;

  constructor(directory: string | undefined, template: ArrayBuffer | undefined, stopped: (reason: string) => Error) {
    // No --import tsx (or other loader) in the thread: it runs plain JavaScript and starts faster without.
    this.worker = new Worker(WORKER_URL, { workerData: { directory, template, textTypeIds: DATE_TYPE_OIDS }, execArgv: [] });
    let settleReady!: { resolve(): void; reject(error: Error): void };
    this.ready = new Promise<void>((resolve, reject) => {
      settleReady = { resolve, reject };
    });
    this.exited = new Promise<void>((resolve) => {
      this.worker.once('exit', () => {
        this.end(stopped('its thread ended'));
        settleReady.reject(this.gone!);
        resolve();
      });
    });
    // The answer to a failed open is the 'failed' message, or the thread's own error.
    this.ready.catch(() => {});
    this.worker.on('error', (error) => {
      this.end(stopped(error.message));
      settleReady.reject(error);
    });
    this.worker.on(
      'message',
      (message: { ready?: true; failed?: { message: string }; id?: number; value?: unknown; error?: { message: string } }) => {
        if (message.ready) {
          settleReady.resolve();
          this.idleWhenUnused();
          return;
        }
        if (message.failed) {
          settleReady.reject(failureFrom(message.failed));
          return;
        }
        const call = this.pending.get(message.id!);
        if (!call) return;
        this.pending.delete(message.id!);
        this.idleWhenUnused();
        if (message.error) call.reject(failureFrom(message.error));
        else call.resolve(message.value);
      },
    );
  }

  get alive(): boolean {
    return this.gone === undefined;
  }

  call<T>(op: string, args: object = {}, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // A thread awaited keeps the process alive; an idle one does not (idleWhenUnused).
      this.worker.ref();
      try {
        this.worker.postMessage({ id, op, args }, transfer);
      } catch (error) {
        // A value that cannot be sent to another thread (a function, a class instance).
        this.pending.delete(id);
        this.idleWhenUnused();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Ends the thread now, whatever it is doing; answers once it has exited. */
  stop(reason: Error): Promise<void> {
    this.end(reason);
    return this.worker.terminate().then(
      () => this.exited,
      () => this.exited,
    );
  }

  /** Checkpoints and closes the database, then ends the thread. */
  async close(): Promise<void> {
    try {
      await this.call('close');
    } catch {
      // Closed or not, the thread ends here.
    }
    await this.stop(new ConnectorError('The database was closed', 'failed'));
  }

  private end(reason: Error): void {
    if (this.gone) return;
    this.gone = reason;
    for (const call of this.pending.values()) call.reject(reason);
    this.pending.clear();
  }

  private idleWhenUnused(): void {
    if (this.pending.size === 0) this.worker.unref();
  }
}

export interface PgliteTurnsOptions {
  /** The database's directory; undefined keeps it in memory (it is lost with its thread). */
  directory?: string;
  /** How the database is named in messages: `The embedded database "sales"`. */
  label: string;
  /** Closes the thread (after a checkpoint) once unused for this long; on-disk databases only. */
  idleMs?: number;
  /** Called when the thread is stopped or closed: what it held in memory is gone. */
  onThreadEnd?(): void;
}

let newDatabaseFiles: Promise<ArrayBuffer | undefined> | undefined;

/**
 * A new database's files (gzipped tar), made once per process by initdb in a thread of its own;
 * undefined when that failed (the database is then made by initdb itself, and the next one tries again).
 */
function newDatabaseTemplate(): Promise<ArrayBuffer | undefined> {
  newDatabaseFiles ??= new Promise<ArrayBuffer | undefined>((resolve) => {
    const worker = new Worker(WORKER_URL, { workerData: { makeTemplate: true }, execArgv: [] });
    worker.once('message', (message: { template?: ArrayBuffer }) => resolve(message.template));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  }).then((made) => {
    if (!made) newDatabaseFiles = undefined;
    return made;
  });
  return newDatabaseFiles;
}

/** The last thread of each directory, until it has exited: no two PGlite ever open one directory. */
const exitsByDirectory = new Map<string, Promise<void>>();

/** One PGlite database in a worker thread, opened on first use and again after its thread ended; its work takes turns. */
export class PgliteTurns {
  private thread: PgliteThread | undefined;
  private opening: Promise<PgliteThread> | undefined;
  private lastTurn: Promise<unknown> = Promise.resolve();
  /** Turns queued or under way. */
  private queued = 0;
  private running: { owner: TurnOwner | undefined; thread: PgliteThread } | undefined;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: PgliteTurnsOptions) {}

  /** The generation of the thread open now; undefined when none is. */
  get generation(): number | undefined {
    return this.thread?.alive ? this.thread.generation : undefined;
  }

  /** Whether a thread is open (it holds the database's memory). */
  get isOpen(): boolean {
    return this.thread?.alive === true;
  }

  /** Whether the database is open, opening, or has work queued: what a caller forgetting it must not cut short. */
  get inUse(): boolean {
    return this.isOpen || this.opening !== undefined || this.queued > 0;
  }

  /** Opens the database when it is not open; opening is nobody's statement and is not bounded by one's limit. */
  opened(): Promise<void> {
    return this.open().then(() => undefined);
  }

  /**
   * Runs `work` when the turns before it are done. A turn of an owner whose limit has passed is
   * not run: it fails with the owner's answer.
   */
  turn<T>(work: (session: ThreadSession) => Promise<T>, owner?: TurnOwner): Promise<T> {
    return this.enqueue(async () => {
      if (owner?.ended) throw owner.ended;
      const thread = await this.open();
      if (owner?.ended) throw owner.ended;
      this.running = { owner, thread };
      try {
        return await work(this.sessionOf(thread));
      } finally {
        this.running = undefined;
      }
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.queued += 1;
    clearTimeout(this.idleTimer);
    const run = this.lastTurn.then(work);
    this.lastTurn = run
      .catch(() => {})
      .finally(() => {
        this.queued -= 1;
        if (this.queued === 0) this.armIdle();
      });
    return run;
  }

  /**
   * Runs `work`, which takes its turns as `owner`, within `timeoutMs`: past it, or when the
   * signal aborts, the caller gets `late()` (or the signal's reason) at once and the thread is
   * stopped if one of the owner's turns is under way. `deadline` is when the time runs out.
   */
  limited<T>(
    work: (owner: TurnOwner, deadline: number) => Promise<T>,
    limits: { timeoutMs: number; late: () => Error; signal?: AbortSignal },
  ): Promise<T> {
    const { timeoutMs, late, signal } = limits;
    const owner: TurnOwner = {};
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const end = (error: Error) => {
        if (owner.ended) return;
        owner.ended = error;
        if (this.running?.owner === owner) this.stopThread(this.running.thread, error);
        reject(error);
      };
      const onAbort = () => end(abortReason(signal!));
      if (timeoutMs < MAX_TIMER_MS) {
        timer = setTimeout(() => end(late()), Math.max(0, timeoutMs));
        // Whatever the work awaits keeps the process alive; a timer alone need not.
        timer.unref();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      work(owner, Date.now() + timeoutMs)
        .then(
          (value) => {
            if (owner.ended) return;
            owner.ended = new ConnectorError('The work was already answered', 'failed');
            resolve(value);
          },
          (error: unknown) => {
            if (owner.ended) return;
            owner.ended = error instanceof Error ? error : new Error(String(error));
            reject(error);
          },
        )
        .finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        });
    });
  }

  /** Stops the thread now, whatever it is doing (the next turn opens the database again). */
  async stop(reason: Error = new ConnectorError(`${this.options.label} was stopped`, 'failed')): Promise<void> {
    const thread = this.thread ?? (await this.opening?.catch(() => undefined));
    if (thread) await this.stopThread(thread, reason);
  }

  /** Closes the database (checkpointed when on disk) after the turns queued before; a later turn opens it again. */
  close(): Promise<void> {
    clearTimeout(this.idleTimer);
    return this.enqueue(async () => {
      const thread = this.thread ?? (await this.opening?.catch(() => undefined));
      if (thread?.alive) await this.closeThread(thread);
    });
  }

  private open(): Promise<PgliteThread> {
    if (this.thread?.alive) return Promise.resolve(this.thread);
    this.opening ??= (async () => {
      const { directory } = this.options;
      // A thread stopped a moment ago may still be writing its last page: wait until it has exited.
      if (directory) await exitsByDirectory.get(directory);
      const isNew = !directory || !fs.existsSync(path.join(directory, 'PG_VERSION'));
      const template = isNew ? await newDatabaseTemplate() : undefined;
      const thread = new PgliteThread(directory, template, (why) => new ConnectorError(`${this.options.label} stopped: ${why}`, 'failed'));
      try {
        await thread.ready;
      } catch (error) {
        void thread.stop(error as Error);
        throw new ConnectorError(`${this.options.label} could not be opened: ${(error as Error).message}`, 'failed');
      }
      this.thread = thread;
      // PGlite writes a new database's files world-readable, whatever the umask: they are the company's alone.
      if (directory && isNew) await tightenPermissions(directory).catch(() => undefined);
      // A thread that ends by itself (a crash) is noticed as one stopped.
      void thread.exited.then(() => {
        if (this.thread === thread) this.forget(thread, thread.exited);
      });
      return thread;
    })().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private sessionOf(thread: PgliteThread): ThreadSession {
    return {
      exec: (sql) => thread.call('exec', { sql }),
      query: (sql, params) => thread.call('query', { sql, params }),
      queryText: (sql, params, typeIds) => thread.call('queryText', { sql, params, typeIds }),
      run: (sql) => thread.call('run', { sql }),
      copyIn: (target, data) => {
        // A view's whole buffer would be copied to the thread: hand over an exact copy of the view instead.
        const own = new Uint8Array(data);
        return thread.call('copyFrom', { sql: `copy ${target} from '/dev/blob'`, data: own }, [own.buffer]);
      },
      copyFromOwned: (copySql, data) => thread.call('copyFrom', { sql: copySql, data }, [data.buffer]),
      queryRolledBack: (sql, params, readOnly) => thread.call('queryRolledBack', { sql, params, readOnly }),
      inTransaction: () => thread.call('inTransaction'),
      forget: () => thread.call('forget'),
      // Nothing can interrupt a statement inside PGlite: stopping the thread is how it stops.
      cancel: () => this.stopThread(thread, new ConnectorError(`${this.options.label}: the statement was canceled`, 'failed')),
      get alive() {
        return thread.alive;
      },
      generation: thread.generation,
    };
  }

  private stopThread(thread: PgliteThread, reason: Error): Promise<void> {
    const exited = thread.stop(reason);
    this.forget(thread, exited);
    return exited;
  }

  private async closeThread(thread: PgliteThread): Promise<void> {
    const exited = thread.close();
    this.forget(thread, exited);
    await exited;
  }

  /** The thread is gone (or going): the next turn opens a new one once it has exited. */
  private forget(thread: PgliteThread, exited: Promise<void>): void {
    if (this.options.directory) {
      const { directory } = this.options;
      exitsByDirectory.set(directory, exited);
      void exited.then(() => {
        if (exitsByDirectory.get(directory) === exited) exitsByDirectory.delete(directory);
      });
    }
    if (this.thread !== thread) return;
    this.thread = undefined;
    this.options.onThreadEnd?.();
  }

  private armIdle(): void {
    const { idleMs, directory } = this.options;
    // A database in memory lives only in its thread: closing it would lose it.
    if (!idleMs || !directory || !this.thread) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      void this.enqueue(async () => {
        const thread = this.thread;
        // Used meanwhile, or already gone: nothing to close.
        if (this.queued > 1 || !thread?.alive) return;
        // A read between two of its turns keeps a cursor open (WITH HOLD): closing now would end it.
        if (await thread.call<boolean>('holdsCursors')) return;
        await this.closeThread(thread);
      }).catch(() => {});
    }, idleMs);
    this.idleTimer.unref();
  }
}
