import type { FastifyInstance } from 'fastify';

/** The open API explorer: the operations an API key may be granted. */
export async function openApiRoutes(_app: FastifyInstance) {}
