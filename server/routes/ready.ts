import type { FastifyInstance } from 'fastify';
import { readyAnswer } from '../../common/contract/answers/health';
import { serviceUnavailable } from '../http/errors';
import { databaseProbeOf, PROBE_TIME_LIMIT_MS, withTimeLimit } from '../http/probes';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable';
export const JOB_QUEUE_UNAVAILABLE_MESSAGE = 'The job queue is unavailable';

/**
 * Readiness, for load balancers and orchestrators: whether this server should be sent requests
 * now. /health stays the liveness probe (the process and its database answer); /ready also asks
 * that the database holds every migration this server ships (a server started against a database
 * still being migrated, or an older one, is not ready) and that the job queue's tables answer.
 * The queue is checked the same whether this process works it (RUN_WORKER=true, where the server
 * only starts listening once its workers run) or leaves it to `npm run worker` processes: runs
 * queued through this server are then taken as soon as a worker is up. A server that could not
 * open the queue at its start listens all the same and tries again (server/jobs/queue-opening.ts):
 * it is not ready until the queue opens.
 */
export async function readyRoutes(api: FastifyInstance) {
  // The probe's own connection to the queue's owner (PostgreSQL) ends with the server.
  api.addHook('onClose', () => databaseProbeOf(api.ctx).close());
  api.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        summary: 'Check that this server is ready for requests: database, migrations and job queue',
        tags: ['Health'],
        response: { 200: readyAnswer },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const probe = databaseProbeOf(api.ctx);
      const within = <T>(work: Promise<T>, what: string) => withTimeLimit(work, PROBE_TIME_LIMIT_MS, what);
      try {
        await within(probe.ping(), 'The database');
      } catch {
        throw serviceUnavailable(DATABASE_UNAVAILABLE_MESSAGE);
      }
      let missing: string[];
      try {
        missing = await within(probe.missingMigrations(), 'The database');
      } catch {
        throw serviceUnavailable(DATABASE_UNAVAILABLE_MESSAGE);
      }
      if (missing.length > 0) throw serviceUnavailable(`The database lacks migrations of this server: ${missing.join(', ')}`);
      // This process's own queue first: a server still opening it (server/jobs/queue-opening.ts)
      // would fail the runs it queues, whatever the tables say.
      if (api.ctx.runner.queueOpen?.() === false) throw serviceUnavailable(JOB_QUEUE_UNAVAILABLE_MESSAGE);
      try {
        await within(probe.checkQueue(), 'The job queue');
      } catch {
        throw serviceUnavailable(JOB_QUEUE_UNAVAILABLE_MESSAGE);
      }
      return { message: 'ready' };
    },
  );
}
