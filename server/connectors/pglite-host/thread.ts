import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { serverFilePath } from '../../server-files';
import { DATE_TYPE_OIDS } from '../postgresql';
import { ConnectorError } from '../types';

/** The worker threads (pglite-worker.mjs): one holding one PGlite, and the one that makes the template of new databases. */

// The worker is a file of its own, server/connectors/pglite-worker.mjs (copied beside the compiled server).
const WORKER_URL = pathToFileURL(serverFilePath('connectors/pglite-worker.mjs'));

/**
 * The shared buffers of a thread's database, in MB, unless told (EMBEDDED_BUFFERS_MB): a source
 * database read now and then, and the files' scratch database, need few; PostgreSQL's 128 MB
 * default would be held in memory by every one open.
 */
export const THREAD_BUFFERS_MB = 16;

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
export class PgliteThread {
  readonly generation = ++threadsStarted;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Why the thread is gone, once it is: every call still waiting, and every later one, fails with it. */
  private gone: Error | undefined;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;

  constructor(
    directory: string | undefined,
    template: ArrayBuffer | undefined,
    stopped: (reason: string) => Error,
    buffersMb = THREAD_BUFFERS_MB,
  ) {
    // No --import tsx (or other loader) in the thread: it runs plain JavaScript and starts faster without.
    this.worker = new Worker(WORKER_URL, { workerData: { directory, template, textTypeIds: DATE_TYPE_OIDS, buffersMb }, execArgv: [] });
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

let newDatabaseFiles: Promise<ArrayBuffer | undefined> | undefined;

/**
 * A new database's files (gzipped tar), made once per process by initdb in a thread of its own;
 * undefined when that failed (the database is then made by initdb itself, and the next one tries again).
 */
export function newDatabaseTemplate(): Promise<ArrayBuffer | undefined> {
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
