import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { count, ne } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database, Db } from '../db/client';
import { jobRuns, mailOutbox } from '../db/schema';
import { asSystem } from '../db/tenant-scope';
import type { RunStatus } from '../jobs/types';
import { API_PREFIX } from '../platform/context';
import { HttpError, unauthorized } from './errors';
import { databaseProbeOf, PROBE_TIME_LIMIT_MS, withTimeLimit, type QueueDepth } from './probes';

/**
 * The server's Prometheus metrics (docs/operations.md, "Metrics, logs and probes"): requests by
 * route, the database pool, the job queue and runs, refused sign-ins, the mail outbox, and the
 * process's own (memory, CPU, event loop). Off unless the operator protects them: with
 * METRICS_TOKEN they are served at /api/v1/metrics to a scraper that sends the token, with
 * METRICS_PORT on a port of their own (bound to METRICS_HOST, 127.0.0.1 by default) at /metrics,
 * where the token is asked too when set.
 */

export const METRICS_TOKEN_MESSAGE = 'Metrics need the token of METRICS_TOKEN, sent as Authorization: Bearer <token>';

const RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out'];
/** Mail not sent: kept because no SMTP server is configured, or refused by it. */
const UNSENT_MAIL_STATUSES = ['stored', 'failed'] as const;

/** Refused sign-in answers, by route and status: what was wrong. A malformed body (400 on /signin) is no attempt. */
const SIGNIN_REFUSALS: Record<string, { step: string; reasons: Record<number, string> }> = {
  [`POST ${API_PREFIX}/signin`]: { step: 'password', reasons: { 401: 'credentials', 403: 'account', 429: 'throttled' } },
  [`POST ${API_PREFIX}/user/otp/verify`]: { step: 'code', reasons: { 400: 'code', 429: 'throttled' } },
};

/** Request durations from a fast cached answer to a slow export. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface DatabaseFigures {
  runs: Map<string, number>;
  unsentMail: Map<string, number>;
  queues: QueueDepth[];
}

export interface MetricsOptions {
  /** The PostgreSQL pool's use (server/db/client.ts); absent on the embedded database. */
  poolStats?: Database['poolStats'];
  /** The embedded database's memory (server/db/client.ts); absent on PostgreSQL. */
  embeddedMemoryBytes?: Database['embeddedMemoryBytes'];
}

/** The separate metrics listener of each app (METRICS_PORT), to find its address. */
const listeners = new WeakMap<FastifyInstance, FastifyInstance>();

/** Where the metrics port listens, once the app is ready; null without METRICS_PORT. */
export function metricsAddress(app: FastifyInstance): AddressInfo | null {
  const listener = listeners.get(app);
  const address = listener?.server.address();
  return address && typeof address === 'object' ? address : null;
}

/** Sets up the metrics on the root app, before its routes; does nothing when they are off. */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions = {}): void {
  const { token, port, host } = app.ctx.config.metrics;
  if (token === undefined && port === undefined) return;
  const registry = createRegistry(app, options);
  const requests = requestMetrics(registry);
  app.addHook('onResponse', async (request, reply) => requests.observe(request, reply));

  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    if (token !== undefined && !presentsToken(request, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized(METRICS_TOKEN_MESSAGE);
    }
    const text = await registry.metrics();
    return reply.type(registry.contentType).header('cache-control', 'no-store').send(text);
  };

  app.addHook('onClose', () => databaseProbeOf(app.ctx).close());
  if (port === undefined) {
    // Outside the API's guard: the scraper has no session, the token is its credential.
    app.get(`${API_PREFIX}/metrics`, { config: { public: true }, schema: { hide: true } }, answer);
    return;
  }
  const listener = Fastify({ logger: false });
  listener.setErrorHandler((error, _request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ message: error.message });
    return reply.code(500).send({ message: 'The metrics could not be read' });
  });
  listener.get('/metrics', answer);
  listener.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ message: `Not found: ${request.url.split('?')[0]} (this port serves /metrics only)` }),
  );
  listeners.set(app, listener);
  // Bound with the app, so a port already taken stops the start like the main port does.
  app.addHook('onReady', async () => {
    await listener.listen({ port, host });
  });
  app.addHook('onClose', () => listener.close());
}

/** Compared as digests, in constant time: the answer tells nothing of how much of a token was right. */
function presentsToken(request: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest();
  return crypto.timingSafeEqual(digest(match[1]), digest(token));
}

function requestMetrics(registry: Registry) {
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route pattern ("unmatched" when no route) and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const signinFailures = new Counter({
    name: 'dataops_signin_failures_total',
    help: 'Sign-ins refused, by step (password or code) and reason (credentials, account, code, throttled).',
    labelNames: ['step', 'reason'] as const,
    registers: [registry],
  });
  return {
    observe(request: FastifyRequest, reply: FastifyReply) {
      // The route's pattern, never the URL: ids and garbage in paths would make a series each.
      const route = request.routeOptions.url ?? 'unmatched';
      durations.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
      const refusal = SIGNIN_REFUSALS[`${request.method} ${route}`];
      const reason = refusal?.reasons[reply.statusCode];
      if (refusal && reason) signinFailures.inc({ step: refusal.step, reason });
    },
  };
}

function createRegistry(app: FastifyInstance, options: MetricsOptions): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { db } = app.ctx;
  const probe = databaseProbeOf(app.ctx);

  if (options.poolStats) {
    const stats = options.poolStats;
    const poolGauge = (name: string, help: string, pick: (s: ReturnType<typeof stats>) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(pick(stats()));
        },
      });
    poolGauge('dataops_database_pool_connections', 'Connections the server holds open to PostgreSQL.', (s) => s.total);
    poolGauge('dataops_database_pool_idle_connections', 'Of those, connections no statement uses now.', (s) => s.idle);
    poolGauge('dataops_database_pool_waiting_requests', 'Statements waiting for a free connection.', (s) => s.waiting);
  }

  if (options.embeddedMemoryBytes) {
    const bytes = options.embeddedMemoryBytes;
    new Gauge({
      name: 'dataops_embedded_database_memory_bytes',
      help: "The embedded database's WebAssembly memory, part of the process's resident memory: it grows to what its most demanding statement needed and never shrinks.",
      registers: [registry],
      collect() {
        this.set(bytes());
      },
    });
  }

  // Read at scrape time, once for all the gauges below, and never for longer than the probes' limit.
  let underWay: Promise<DatabaseFigures> | undefined;
  let thisScrape: Promise<DatabaseFigures | null> | undefined;
  const figures = () => {
    if (!thisScrape) {
      underWay ??= readFigures(db, probe).finally(() => (underWay = undefined));
      thisScrape = withTimeLimit(underWay, PROBE_TIME_LIMIT_MS, 'The database')
        .catch((error: Error) => {
          app.log.warn(`Metrics: the database figures could not be read: ${error.message}`);
          return null;
        })
        .finally(() => (thisScrape = undefined));
    }
    return thisScrape;
  };
  const databaseGauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    fill: (gauge: Gauge<L>, read: DatabaseFigures) => void,
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const read = await figures();
        // A figure that could not be read is left out, not reported as the last one or as zero.
        this.reset();
        if (read) fill(this, read);
      },
    });

  new Gauge({
    name: 'dataops_metrics_database_up',
    help: 'Whether the database answered the figures of this scrape within the time limit (1) or not (0).',
    registers: [registry],
    async collect() {
      this.set((await figures()) ? 1 : 0);
    },
  });
  databaseGauge(
    'dataops_job_queue_depth',
    'Jobs waiting in the queue for a worker, due now or later, by queue.',
    ['queue'],
    (gauge, read) => {
      for (const queue of read.queues) gauge.set({ queue: queue.queue }, queue.queued);
    },
  );
  databaseGauge('dataops_job_queue_active', 'Jobs a worker holds now, by queue.', ['queue'], (gauge, read) => {
    for (const queue of read.queues) gauge.set({ queue: queue.queue }, queue.active);
  });
  databaseGauge('dataops_job_runs', 'Workflow runs of every company, by status.', ['status'], (gauge, read) => {
    for (const status of RUN_STATUSES) gauge.set({ status }, read.runs.get(status) ?? 0);
  });
  databaseGauge(
    'dataops_mail_outbox_unsent',
    'Mails of the outbox not sent: stored (no SMTP server configured) or failed, by status.',
    ['status'],
    (gauge, read) => {
      for (const status of UNSENT_MAIL_STATUSES) gauge.set({ status }, read.unsentMail.get(status) ?? 0);
    },
  );
  return registry;
}

/** Operator figures: they count every company's rows, as system work. */
async function readFigures(db: Db, probe: ReturnType<typeof databaseProbeOf>): Promise<DatabaseFigures> {
  const counted = (rows: Array<{ status: string; count: number }>) => new Map(rows.map((row) => [row.status, Number(row.count)]));
  const [runs, unsentMail, queues] = await asSystem('the metrics count the runs and the unsent mail of every company', () =>
    Promise.all([
      db.select({ status: jobRuns.status, count: count() }).from(jobRuns).groupBy(jobRuns.status),
      db
        .select({ status: mailOutbox.status, count: count() })
        .from(mailOutbox)
        .where(ne(mailOutbox.status, 'sent'))
        .groupBy(mailOutbox.status),
      probe.queueDepth(),
    ]),
  );
  return { runs: counted(runs), unsentMail: counted(unsentMail), queues };
}
