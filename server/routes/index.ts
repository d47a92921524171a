import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health';
import { authRoutes } from './auth';
import { sessionRoutes } from './sessions';
import { userRoutes } from './users';
import { companyRoutes } from './company';
import { outboxRoutes } from './outbox';
import { dashboardRoutes } from './dashboard';
import { roleRoutes } from './roles';
import { listColumnRoutes } from './list-columns';
import { authorizationRoutes } from './authorization';
import { workspaceRoutes } from './workspaces';
import { apiKeyRoutes } from './apikeys';
import { openApiRoutes } from './openapi';
import { notificationRoutes } from './notifications';
import { auditRoutes } from './audits';
import { connectionRoutes } from './connections';
import { tableRoutes } from './tables';
import { workflowRoutes } from './workflows';

/** Every area's routes, registered under /api/v1. */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(healthRoutes);
  await api.register(authRoutes);
  await api.register(sessionRoutes);
  await api.register(userRoutes);
  await api.register(companyRoutes);
  await api.register(outboxRoutes);
  await api.register(dashboardRoutes);
  await api.register(roleRoutes);
  await api.register(listColumnRoutes);
  await api.register(authorizationRoutes);
  await api.register(workspaceRoutes);
  await api.register(apiKeyRoutes);
  await api.register(openApiRoutes);
  await api.register(notificationRoutes);
  await api.register(auditRoutes);
  await api.register(connectionRoutes);
  await api.register(tableRoutes);
  await api.register(workflowRoutes);
}
