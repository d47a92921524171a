import fs from 'node:fs';
import path from 'node:path';
import { tightenPermissions } from '../../data-directory';
import { abortReason, ConnectorError } from '../types';
import type { ThreadSession, TurnOwner } from './session';
import { newDatabaseTemplate, PgliteThread } from './thread';
import { lockFolder, type FolderLock } from './folder-lock';

/** The database's work, taking turns on its thread within time limits; the thread opened again after it ended. */

/** Node's largest timer: a limit beyond it is no limit. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface PgliteTurnsOptions {
  /** The database's directory; undefined keeps it in memory (it is lost with its thread). */
  directory?: string;
  /** How the database is named in messages: `The embedded database "sales"`. */
  label: string;
  /** Closes the thread (after a checkpoint) once unused for this long; on-disk databases only. */
  idleMs?: number;
  /** Called when the thread is stopped or closed: what it held in memory is gone. */
  onThreadEnd?(): void;
  /** How long opening waits for another process to let the folder go (folder-lock.ts); 10 s by default. */
  lockWaitMs?: number;
  /** The database's shared buffers in MB (thread.ts THREAD_BUFFERS_MB when absent). */
  buffersMb?: number;
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
  /** The folder's lock of each thread that has it open, let go once the thread has exited. */
  private readonly locks = new Map<PgliteThread, FolderLock>();

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
      // Nor two processes: a cluster's servers and workers share the companies' folders.
      const lock = directory ? await lockFolder(directory, this.options.label, this.options.lockWaitMs ?? 10_000) : undefined;
      let thread: PgliteThread;
      let isNew: boolean;
      try {
        isNew = !directory || !fs.existsSync(path.join(directory, 'PG_VERSION'));
        const template = isNew ? await newDatabaseTemplate() : undefined;
        thread = new PgliteThread(
          directory,
          template,
          (why) => new ConnectorError(`${this.options.label} stopped: ${why}`, 'failed'),
          this.options.buffersMb,
        );
        if (lock) this.locks.set(thread, lock);
        try {
          await thread.ready;
        } catch (error) {
          this.forget(thread, thread.stop(error as Error));
          throw new ConnectorError(`${this.options.label} could not be opened: ${(error as Error).message}`, 'failed');
        }
      } catch (error) {
        if (lock && ![...this.locks.values()].includes(lock)) lock.release();
        throw error;
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
    const lock = this.locks.get(thread);
    if (lock) {
      this.locks.delete(thread);
      void exited.then(() => lock.release());
    }
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
