import type { FastifyInstance } from 'fastify';

export async function sessionRoutes(_api: FastifyInstance) {}
