import type { FastifyInstance, FastifyRequest } from 'fastify';
import { healthAnswer } from '../../common/contract/answers/health';
import { authenticate, TOKEN_HEADER } from '../auth/guard';
import { dataDirectoryPrivacy } from '../data-directory';
import { ping } from '../db/client';
import { serviceUnavailable } from '../http/errors';

export async function healthRoutes(api: FastifyInstance) {
  api.get(
    '/health',
    {
      config: { public: true },
      schema: { summary: 'Check that the server and its database are up', tags: ['Health'], response: { 200: healthAnswer } },
    },
    async (request, reply) => {
      try {
        await ping(api.ctx.db);
      } catch {
        throw serviceUnavailable('The database is unavailable');
      }
      // The answer depends on who asks: a cache must not hand an admin's to anyone else.
      reply.header('vary', TOKEN_HEADER).header('cache-control', 'no-store');
      if (!(await isSignedInAdmin(api, request))) return { message: 'ok' };
      return { message: 'ok', details: { dataDirectory: await dataDirectoryPrivacy(api.ctx.config.dataDir) } };
    },
  );
}

/** Health stays public: a missing, wrong or expired token is an anonymous caller, never a refusal. */
async function isSignedInAdmin(api: FastifyInstance, request: FastifyRequest): Promise<boolean> {
  if (!request.headers[TOKEN_HEADER]) return false;
  try {
    const auth = await authenticate(api, request);
    return auth.stage === 'full' && auth.isAdmin;
  } catch {
    return false;
  }
}
