import type { FastifyInstance } from 'fastify';

/** API keys. */
export async function apiKeyRoutes(_app: FastifyInstance) {}
