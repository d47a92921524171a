import type { FastifyInstance } from 'fastify';

/** In-app notifications. */
export async function notificationRoutes(_app: FastifyInstance) {}
