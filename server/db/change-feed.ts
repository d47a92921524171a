import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TableWatch, WriteFeed } from './table-watch';
import { announcementPayloads, EVERYTHING, parseAnnouncements, writesChannel, type Announcement } from './write-announcements';

/**
 * Hears the writes other processes announce on the database (write-announcements.ts) for this
 * process's table watch (table-watch.ts), and announces this process's own.
 *
 * On PostgreSQL: one connection of its own, outside the pool, that listens on the schema's
 * channel, and again after a loss, with a growing pause; while it is down the watch keeps nothing,
 * and when it is back everything kept before is dropped. The same connection sends this process's
 * announcements and the barriers that reads wait for before using a kept answer; its transactions
 * commit without waiting for the disk (they only notify). It needs a direct or session-mode
 * connection: a pooler in transaction mode does not keep a LISTEN (DATABASE_LISTEN_URL).
 *
 * On the embedded database there is no other process: the watch sees every statement as it runs.
 */
export interface ChangeFeed extends WriteFeed {
  stop(): Promise<void>;
}

/** Sends each payload on the channel, in one statement (and so one transaction). */
export const NOTIFY_ALL = 'select pg_notify($1, payload) from unnest($2::text[]) as payload';

/** The work's outcome, or a failure once `ms` have passed. */
function withinLimit<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Payloads of one process start with its own mark, so that it does not apply its own writes twice. */
function senderPrefix(): string {
  return `${randomBytes(6).toString('hex')}|`;
}

interface Waiting {
  token: string;
  promise: Promise<boolean>;
  resolve(caughtUp: boolean): void;
  timer?: NodeJS.Timeout;
}

function waiting(): Waiting {
  let resolve!: (caughtUp: boolean) => void;
  const promise = new Promise<boolean>((done) => (resolve = done));
  return { token: '', promise, resolve };
}

/**
 * Barriers through the listening connection. A barrier is a notification the connection sends
 * itself: PostgreSQL delivers notifications in commit order, so when it comes back every write
 * committed before it was sent has been heard. A read needs one sent after it began; every read
 * that begins while one is out waits for the next, which goes out when the first comes back: one
 * in flight and one gathering at most, whatever the number of reads.
 */
export class Barriers {
  private inFlight: Waiting | undefined;
  private next: Waiting | undefined;
  private sequence = 0;

  constructor(
    private readonly send: (token: string) => void,
    private readonly timeoutMs: number,
    private readonly onTimeout: () => void,
  ) {}

  /** Resolves true once a barrier sent after this call has come back; false if the connection failed first. */
  wait(): Promise<boolean> {
    if (!this.inFlight) {
      const barrier = waiting();
      this.launch(barrier);
      return barrier.promise;
    }
    this.next ??= waiting();
    return this.next.promise;
  }

  /** A notification on the barrier channel came back. */
  arrived(token: string): void {
    const barrier = this.inFlight;
    if (!barrier || barrier.token !== token) return;
    clearTimeout(barrier.timer);
    this.inFlight = undefined;
    const next = this.next;
    this.next = undefined;
    if (next) this.launch(next);
    barrier.resolve(true);
  }

  /** The connection is gone: everyone waiting goes without. */
  fail(): void {
    for (const barrier of [this.inFlight, this.next]) {
      if (!barrier) continue;
      clearTimeout(barrier.timer);
      barrier.resolve(false);
    }
    this.inFlight = this.next = undefined;
  }

  private launch(barrier: Waiting): void {
    barrier.token = String(++this.sequence);
    this.inFlight = barrier;
    barrier.timer = setTimeout(() => {
      if (this.inFlight === barrier) this.onTimeout();
    }, this.timeoutMs);
    barrier.timer.unref();
    this.send(barrier.token);
  }
}

export interface PostgresFeedOptions {
  /** Where to listen: a direct or session-mode connection to the database the pool serves. */
  connectionString: string;
  schema: string;
  /** A barrier not back after this long means the connection is lost (a silent network). */
  barrierTimeoutMs?: number;
  /**
   * Sends announcements while the listening connection is down (through the pool), so that the
   * other servers still hear of this one's writes.
   */
  fallback?: (channel: string, payloads: string[]) => Promise<unknown>;
  /** Told when an announcement could not be sent at all. */
  onAnnounceFailure?: (error: Error) => void;
  /** The first pause before connecting again; it doubles up to maxPauseMs. */
  minPauseMs?: number;
  maxPauseMs?: number;
}

/** Listens on PostgreSQL for this process. */
export class PostgresChangeFeed implements ChangeFeed {
  /** The connection being opened or listening; events of any other are old news. */
  private current: pg.Client | undefined;
  /** Set once the current connection listens. */
  private barriers: Barriers | undefined;
  private stopped = false;
  private pause: number;
  private retry: NodeJS.Timeout | undefined;
  private readonly channel: string;
  private readonly sender = senderPrefix();
  /** Announcements waiting for the one in flight to be sent: they go together next. */
  private queued: Array<Announcement | typeof EVERYTHING> = [];
  private queuedSent: Promise<void> | undefined;
  private sending: Promise<void> | undefined;
  /** Settles when the first attempt to listen has succeeded or failed (a failure is tried again later). */
  readonly started: Promise<void>;

  constructor(
    private readonly watch: TableWatch,
    private readonly options: PostgresFeedOptions,
  ) {
    this.channel = writesChannel(options.schema);
    this.pause = options.minPauseMs ?? 100;
    this.started = this.connect();
  }

  caughtUp(): Promise<boolean> | boolean {
    return this.barriers?.wait() ?? false;
  }

  /**
   * Tells every server of writes this process committed; resolves once the announcement is
   * committed, so that any barrier sent after it comes back after it. One announcement is sent at
   * a time, and what comes meanwhile goes together in the next. Never rejects: an announcement
   * that cannot be sent is reported, and the other servers catch up within their time limits.
   */
  announce(writes: ReadonlyArray<Announcement | typeof EVERYTHING>): Promise<void> {
    this.queued.push(...writes);
    this.queuedSent ??= (this.sending ?? Promise.resolve()).then(() => {
      const batch = this.queued;
      this.queued = [];
      this.queuedSent = undefined;
      const sent = this.send(announcementPayloads(batch).map((payload) => this.sender + payload));
      this.sending = sent;
      return sent.finally(() => {
        if (this.sending === sent) this.sending = undefined;
      });
    });
    return this.queuedSent;
  }

  private async send(payloads: string[]): Promise<void> {
    const client = this.barriers ? this.current : undefined;
    try {
      if (!client) throw new Error('the change feed is not connected');
      await withinLimit(client.query(NOTIFY_ALL, [this.channel, payloads]), this.options.barrierTimeoutMs ?? 2_000);
      return;
    } catch (error) {
      // A connection that does not answer is lost: the watch keeps nothing until the next one listens.
      if (client) this.drop(client);
      try {
        if (!this.options.fallback) throw error;
        await this.options.fallback(this.channel, payloads);
      } catch (failure) {
        this.options.onAnnounceFailure?.(failure as Error);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.current;
    this.drop(client);
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      application_name: 'dataops change feed',
    });
    this.current = client;
    let barrierChannel = '';
    let barriers: Barriers | undefined;
    client.on('error', () => this.drop(client));
    client.on('end', () => this.drop(client));
    client.on('notification', (message) => {
      if (message.channel === this.channel) {
        const payload = message.payload ?? '';
        if (payload.startsWith(this.sender)) return;
        const bar = payload.indexOf('|');
        for (const write of parseAnnouncements(bar < 0 ? payload : payload.slice(bar + 1))) this.watch.apply(write);
      } else if (message.channel === barrierChannel) barriers?.arrived(message.payload ?? '');
    });
    try {
      await client.connect();
      // Announcements and barriers write nothing that must outlive a crash (a crash ends every
      // server's feed, and with it everything kept): their commits need not wait for the disk.
      await client.query('SET synchronous_commit = off');
      // A channel of this connection's own for its barriers: the other servers never hear them.
      barrierChannel = `dataops_barrier_${randomBytes(8).toString('hex')}`;
      await client.query(`LISTEN "${this.channel}"; LISTEN "${barrierChannel}"`);
      barriers = new Barriers(
        (token) => void client.query(`NOTIFY "${barrierChannel}", '${token}'`).catch(() => this.drop(client)),
        this.options.barrierTimeoutMs ?? 2_000,
        () => this.drop(client),
      );
      if (this.current !== client) return;
      this.barriers = barriers;
      // Listening is proved by a barrier that comes back (through a pooler in transaction mode it would not).
      if (!(await barriers.wait()) || this.current !== client) return;
      this.pause = this.options.minPauseMs ?? 100;
      this.watch.resume(this);
    } catch {
      this.drop(client);
    }
  }

  /** The connection failed or ended: the watch keeps nothing until the next one listens. */
  private drop(client: pg.Client | undefined): void {
    if (!client || client !== this.current) return;
    this.current = undefined;
    this.barriers?.fail();
    this.barriers = undefined;
    this.watch.lose();
    client.end().catch(() => {});
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, this.pause);
    this.retry.unref();
    this.pause = Math.min(this.pause * 2, this.options.maxPauseMs ?? 10_000);
  }
}

/** On the embedded database every write is applied as its statement runs: nothing to wait for. */
export const AT_ONCE: WriteFeed = { caughtUp: () => true };
