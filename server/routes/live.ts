import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAuth } from '../auth/guard';
import { HttpError, tooManyRequests } from '../http/errors';
import { LIVE_LIMITS, LiveStreams } from '../live/streams';

/** The one route that answers with a stream rather than JSON; an addition to the spec's contract. */
export const LIVE_EVENTS_PATH = '/events';

const EVENT_STREAM = 'text/event-stream';

/**
 * `GET /events`: the session's live stream (Server-Sent Events). Authenticated like every call,
 * with the x-access-token header: the console reads it with a streaming fetch, so the token never
 * travels in a URL (where logs, proxies and the browser's history would keep it).
 *
 * Events, each `data` a JSON object with `resources`, the lists to read again:
 * - `ready` once at the start, with the heartbeat period;
 * - `run`: a run's status or progress changed (`id`, `workflowId`, `status`, `step`);
 * - `notification`: the user has a new notification;
 * - `resync`: signals may have been missed, read everything again;
 * - `end`: the stream ends (`reason`: `session` when the session ended, `shutdown`).
 * A comment line (`: ping`) every heartbeat.
 */
export async function liveRoutes(app: FastifyInstance) {
  const streams = new LiveStreams(app, LIVE_LIMITS);
  // Before the server stops taking connections: open streams would otherwise hold it open.
  app.addHook('preClose', async () => streams.endAll('shutdown'));
  app.addHook('onClose', async () => streams.stop());

  app.get(
    LIVE_EVENTS_PATH,
    {
      // Only a signed-in session streams; `stages` names it (the default) so that the rule is read here.
      config: { stages: ['full'], apiKeys: false },
      schema: {
        summary: "Follow the company's runs and your notifications as they change (Server-Sent Events)",
        description:
          'Answers text/event-stream: `run`, `notification`, `resync` and `end` events whose data names the lists to read again, and a comment line every 15 seconds. Ask with `Accept: text/event-stream`.',
        tags: ['Live'],
        response: { 200: z.string().describe('An event stream (text/event-stream)') },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const accept = String(request.headers.accept ?? '');
      if (!accept.toLowerCase().includes(EVENT_STREAM)) {
        throw new HttpError(406, `This route answers a stream of events: ask for it with "Accept: ${EVENT_STREAM}"`);
      }
      if (streams.full(auth.sessionId)) {
        throw tooManyRequests(`This session already has ${LIVE_LIMITS.perSession} live streams open; close a tab and try again`, 30);
      }
      const body = await streams.start(request, reply.raw, auth);
      return (
        reply
          .header('content-type', `${EVENT_STREAM}; charset=utf-8`)
          .header('cache-control', 'no-store')
          // Proxies that buffer answers (nginx) pass this one through as it is written.
          .header('x-accel-buffering', 'no')
          .send(body)
      );
    },
  );
}
