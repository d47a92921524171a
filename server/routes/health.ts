import type { FastifyInstance } from 'fastify';
import { ping } from '../db/client';
import { serviceUnavailable } from '../http/errors';

export async function healthRoutes(api: FastifyInstance) {
  api.get('/health', { config: { public: true } }, async () => {
    try {
      await ping(api.ctx.db);
    } catch {
      throw serviceUnavailable('The database is unavailable');
    }
    return { message: 'ok' };
  });
}
