import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * What the server announces to the live streams (server/live/hub.ts), as PostgreSQL notifications:
 * `pg_notify` on the statement's own connection, so an announcement made inside a transaction
 * goes out at its commit (and never, if it rolls back), and one made by another process on the
 * same database (a worker, another server) reaches every server's streams. The embedded database
 * delivers its notifications the same way, to the one process that holds it.
 *
 * A signal names only what changed, never a record's content beyond a run's status and counts:
 * the console reads the records again through the API, with the caller's rights.
 */

/** Where a run's step stands, as far as a live page needs it. */
export interface StepSignal {
  id: string;
  status?: string;
  rowsRead?: number;
  rowsWritten?: number;
  /** How many rows the step expects to read, where the source keeps a count (an estimate). */
  rowsTotal?: number;
}

export type LiveSignal =
  | {
      kind: 'run';
      companyId: string;
      runId: string;
      workflowId?: string;
      /** The run's status when it changed (queued, running, succeeded, ...). */
      status?: string;
      step?: StepSignal;
    }
  | {
      kind: 'notification';
      companyId: string;
      /** The recipients; absent when there were too many to name (everyone of the company reads their bell again). */
      userIds?: string[];
    };

/** PostgreSQL refuses payloads of 8000 bytes or more: past this many recipients a signal names none. */
const MAX_NAMED_RECIPIENTS = 100;

/** The channel of this database schema: servers on other schemas of the same PostgreSQL never hear it. */
export const CHANNEL_PREFIX = 'dataops_live_';

/** Sends a signal to every live stream of the company, at the commit of `db`'s transaction if it is one. */
export async function announce(db: Db, signal: LiveSignal): Promise<void> {
  const trimmed =
    signal.kind === 'notification' && signal.userIds && signal.userIds.length > MAX_NAMED_RECIPIENTS
      ? { kind: signal.kind, companyId: signal.companyId }
      : signal;
  await db.execute(sql`select pg_notify(${CHANNEL_PREFIX} || current_schema(), ${JSON.stringify(trimmed)})`);
}

/**
 * Announces without letting a failure reach the caller: the work the signal tells of is done and
 * stored, and the console still reads it by polling.
 */
export async function announceQuietly(db: Db, signal: LiveSignal): Promise<void> {
  try {
    await announce(db, signal);
  } catch {
    // Nothing to undo: a missed signal only delays the console to its next poll.
  }
}

/** A signal read back from a notification's payload; undefined for anything else on the channel. */
export function parseSignal(payload: string): LiveSignal | undefined {
  try {
    const value = JSON.parse(payload) as Partial<LiveSignal> | null;
    if (!value || typeof value.companyId !== 'string') return undefined;
    if (value.kind === 'run' && typeof value.runId === 'string') return value as LiveSignal;
    if (value.kind === 'notification') return value as LiveSignal;
    return undefined;
  } catch {
    return undefined;
  }
}
