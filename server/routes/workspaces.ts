import type { FastifyInstance } from 'fastify';

/** Workspaces. */
export async function workspaceRoutes(_app: FastifyInstance) {}
