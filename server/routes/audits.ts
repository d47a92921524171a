import type { FastifyInstance } from 'fastify';

/** System audits and security access events. */
export async function auditRoutes(_app: FastifyInstance) {}
