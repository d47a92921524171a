import type { FastifyInstance } from 'fastify';

/** Authorization: the policy catalogue, a user's policies and the caller's own. */
export async function authorizationRoutes(_app: FastifyInstance) {}
