import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../db/client';
import { CHANNEL_PREFIX, parseSignal, type LiveSignal } from './signals';

/**
 * The live streams of one server process and the one listener that feeds them: every signal
 * announced on the database (server/live/signals.ts), by this process or another, is handed to
 * the streams of its company that may see it. On the embedded database the listener is PGlite's
 * own; on PostgreSQL it is one connection of its own, opened at the first stream, that comes
 * back after a loss (the streams are then told to read everything again, since signals were missed).
 */

/** What a stream is sent: an event name and its data (always JSON with the resources to read again). */
export interface LiveEvent {
  event: 'run' | 'notification' | 'resync';
  data: { resources: string[] } & Record<string, unknown>;
}

export interface LiveSubscriber {
  companyId: string;
  userId: string;
  sessionId: string;
  /** Whether the user may read the company's workflows and runs (their policy, read at the start and at each check). */
  seesRuns: boolean;
  deliver(event: LiveEvent): void;
}

export const RUN_RESOURCES = ['job-runs', 'workflows'];
export const NOTIFICATION_RESOURCES = ['notifications'];

/** What a signal becomes for one subscriber; nothing when it is not theirs to see. */
export function eventFor(subscriber: LiveSubscriber, signal: LiveSignal): LiveEvent | undefined {
  if (signal.companyId !== subscriber.companyId) return undefined;
  if (signal.kind === 'run') {
    if (!subscriber.seesRuns) return undefined;
    return {
      event: 'run',
      data: {
        resources: RUN_RESOURCES,
        id: signal.runId,
        ...(signal.workflowId ? { workflowId: signal.workflowId } : {}),
        ...(signal.status ? { status: signal.status } : {}),
        ...(signal.step ? { step: signal.step } : {}),
      },
    };
  }
  if (signal.userIds && !signal.userIds.includes(subscriber.userId)) return undefined;
  return { event: 'notification', data: { resources: NOTIFICATION_RESOURCES } };
}

interface Listener {
  stop(): Promise<void>;
}

type SignalHandler = (payload: string) => void;

/** The schema the connection works in: its channel's name (a server on another schema has its own). */
async function channelOf(query: (text: string) => Promise<{ rows: Array<{ schema: string }> }>): Promise<string> {
  const { rows } = await query('select current_schema() as schema');
  return `${CHANNEL_PREFIX}${rows[0]?.schema ?? 'public'}`;
}

async function listenPglite(client: PGlite, onPayload: SignalHandler): Promise<Listener> {
  const channel = await channelOf((text) => client.query<{ schema: string }>(text));
  // PGlite names the channel unquoted: schema names of the embedded database are plain (public).
  const unlisten = await client.listen(channel, onPayload);
  return {
    async stop() {
      if (!client.closed) await unlisten();
    },
  };
}

/** A connection of its own that listens, and listens again after a loss (with a growing pause). */
function listenPostgres(pool: pg.Pool, onPayload: SignalHandler, onResumed: () => void): Listener {
  const { connectionString, options } = pool.options as pg.PoolConfig;
  let stopped = false;
  let client: pg.Client | undefined;
  let pause = 500;
  let retry: NodeJS.Timeout | undefined;
  let everConnected = false;

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString, options });
    next.on('error', () => {});
    next.on('notification', (message) => {
      if (message.payload) onPayload(message.payload);
    });
    next.on('end', () => {
      if (client === next) client = undefined;
      if (!stopped) schedule();
    });
    try {
      await next.connect();
      const channel = await channelOf((text) => next.query(text));
      await next.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
      client = next;
      pause = 500;
      if (everConnected) onResumed();
      everConnected = true;
    } catch {
      await next.end().catch(() => {});
      schedule();
    }
  };
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, pause);
    pause = Math.min(pause * 2, 30_000);
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

function isPglite(client: unknown): client is PGlite {
  return typeof client === 'object' && client !== null && typeof (client as PGlite).listen === 'function' && 'closed' in client;
}

export class LiveHub {
  private readonly subscribers = new Set<LiveSubscriber>();
  private listener: Promise<Listener | undefined> | undefined;

  constructor(private readonly db: Db) {}

  /** Streams open for a session now. */
  countFor(sessionId: string): number {
    let count = 0;
    for (const subscriber of this.subscribers) if (subscriber.sessionId === sessionId) count += 1;
    return count;
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Adds a stream; the listener starts with the first. Answers the function that removes it. */
  async subscribe(subscriber: LiveSubscriber): Promise<() => void> {
    await this.listen();
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Hands a signal to the streams that may see it. */
  dispatch(signal: LiveSignal): void {
    for (const subscriber of this.subscribers) {
      const event = eventFor(subscriber, signal);
      if (event) subscriber.deliver(event);
    }
  }

  private resync(): void {
    for (const subscriber of this.subscribers) {
      subscriber.deliver({
        event: 'resync',
        data: { resources: [...(subscriber.seesRuns ? RUN_RESOURCES : []), ...NOTIFICATION_RESOURCES] },
      });
    }
  }

  private listen(): Promise<Listener | undefined> {
    if (!this.listener) {
      const onPayload = (payload: string) => {
        const signal = parseSignal(payload);
        if (signal) this.dispatch(signal);
      };
      const client = (this.db as unknown as { $client?: unknown }).$client;
      if (isPglite(client)) this.listener = listenPglite(client, onPayload);
      else if (client instanceof pg.Pool) this.listener = Promise.resolve(listenPostgres(client, onPayload, () => this.resync()));
      else this.listener = Promise.resolve(undefined);
      // A listener that could not start is tried again with the next stream.
      this.listener.catch(() => (this.listener = undefined));
    }
    return this.listener;
  }

  /** Stops listening (the streams have been ended before). */
  async stop(): Promise<void> {
    const listener = await this.listener?.catch(() => undefined);
    this.listener = undefined;
    await listener?.stop();
  }
}
