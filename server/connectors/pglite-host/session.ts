import type { PostgresSession } from '../postgresql';

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
