import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/guard';
import { isAllowed } from '../auth/policies';
import { tableWatchOf, type Mark } from '../db/table-watch';
import { withTenant } from '../db/tenant-scope';
import type { AuthContext } from '../platform/auth-context';
import { LiveHub, type LiveEvent } from './hub';

/**
 * One signed-in session's live streams: Server-Sent Events over a response that stays open. Each
 * stream is held to what its session may see (its company; runs only with the right to read
 * workflows), beats every heartbeatMs with a comment line so that proxies keep it open, and ends
 * when its session does: signed out, ended from the sessions list, expired, or its user
 * deactivated. The session is read again when this server writes the tables it comes from, and
 * at every heartbeat for writes made by another process.
 */

export interface LiveLimits {
  /** A comment line this often keeps the stream open through proxies. */
  heartbeatMs: number;
  /** How often this server's own writes to the session tables are looked for (in memory, no query). */
  sessionWatchMs: number;
  /** Streams one session may hold at once (one per open tab). */
  perSession: number;
  /** A client that reads nothing while this much waits for it is dropped. */
  maxBufferedBytes: number;
}

export const LIVE_LIMITS: LiveLimits = {
  heartbeatMs: 15_000,
  sessionWatchMs: 1_000,
  perSession: 5,
  maxBufferedBytes: 1024 * 1024,
};

/** The tables a session's validity and rights come from. */
const SESSION_TABLES = ['sessions', 'users', 'roles', 'companies', 'user_policies', 'role_policies'];

export type EndReason = 'session' | 'shutdown';

interface OpenStream {
  end(reason: EndReason): void;
  /** Resolves when the response has gone out (or the client left): its connection is idle then. */
  readonly done: Promise<void>;
}

/** How long a stopping server waits for the ended streams' last bytes to leave. */
const DRAIN_MS = 2_000;

async function seesRuns(app: FastifyInstance, auth: AuthContext): Promise<boolean> {
  return withTenant(auth.companyId, () => isAllowed(app.ctx.db, auth, 'workflows', 'read'));
}

export class LiveStreams {
  readonly hub: LiveHub;
  private readonly open = new Set<OpenStream>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly limits: LiveLimits = LIVE_LIMITS,
  ) {
    this.hub = new LiveHub(app.ctx.db);
  }

  /** Whether another stream would pass the session's limit. */
  full(sessionId: string): boolean {
    return this.hub.countFor(sessionId) >= this.limits.perSession;
  }

  /** Opens a stream for an authenticated request; answers the body to send. */
  async start(request: FastifyRequest, response: ServerResponse, auth: AuthContext): Promise<PassThrough> {
    const { app, limits } = this;
    const body = new PassThrough();
    const write = (text: string) => {
      if (body.writableEnded) return;
      if (body.writableLength > limits.maxBufferedBytes) return finish();
      body.write(text);
    };
    const send = ({ event, data }: LiveEvent | { event: string; data: unknown }) =>
      write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

    const subscriber = {
      companyId: auth.companyId,
      userId: auth.userId,
      sessionId: auth.sessionId,
      seesRuns: await seesRuns(app, auth),
      deliver: (event: LiveEvent) => send(event),
    };

    const watch = tableWatchOf(app.ctx.db);
    let mark: Mark | undefined = watch?.mark(SESSION_TABLES);
    let checking = false;
    /** Reads the session (and the user's rights) again; ends the stream when it no longer holds. */
    const check = async () => {
      if (checking) return;
      checking = true;
      mark = watch?.mark(SESSION_TABLES);
      try {
        const now = await authenticate(app, request);
        if (now.sessionId !== auth.sessionId || now.stage !== 'full') return stream.end('session');
        subscriber.seesRuns = await seesRuns(app, now);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 401) stream.end('session');
        // Anything else (the database unavailable for a moment) is tried again at the next beat.
      } finally {
        checking = false;
      }
    };

    const heartbeat = setInterval(() => {
      write(': ping\n\n');
      void check();
    }, limits.heartbeatMs);
    const sessionWatch = setInterval(() => {
      if (watch && mark && !watch.unchanged(mark)) void check();
    }, limits.sessionWatchMs);

    let unsubscribe = () => {};
    let ended = false;
    function finish() {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearInterval(sessionWatch);
      unsubscribe();
      openStreams.delete(stream);
      if (!body.writableEnded) body.end();
    }
    const openStreams = this.open;
    const stream: OpenStream = {
      end(reason) {
        send({ event: 'end', data: { reason } });
        finish();
      },
      done: new Promise<void>((resolve) => {
        response.once('finish', resolve);
        response.once('close', resolve);
      }),
    };
    this.open.add(stream);
    request.raw.once('close', finish);
    body.once('error', finish);

    // The client waits this long before trying again (the console keeps its own backoff).
    write(`retry: ${limits.heartbeatMs}\n`);
    send({ event: 'ready', data: { heartbeatMs: limits.heartbeatMs } });
    unsubscribe = await this.hub.subscribe(subscriber);
    if (ended) unsubscribe();
    return body;
  }

  /**
   * Ends every stream (the server is stopping): each client hears why and falls back to polling.
   * Resolves when their responses have gone out, so that their connections are idle, and closed
   * at once, when the server closes (a connection still writing then would hold the close until
   * the keep-alive timeout, a minute and more); never later than DRAIN_MS.
   */
  async endAll(reason: EndReason): Promise<void> {
    const streams = [...this.open];
    for (const stream of streams) stream.end(reason);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)));
    await Promise.race([Promise.all(streams.map((stream) => stream.done)), late]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    await this.endAll('shutdown');
    await this.hub.stop();
  }
}
