import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health';
import { readyRoutes } from './ready';
import { cspReportRoutes } from './csp-reports';
import { authRoutes } from './auth';
import { companyRoutes } from './company';
import { companyProfileRoutes } from './company-profile';
import { outboxRoutes } from './outbox';
import { dashboardRoutes } from './dashboard';
import { listColumnRoutes } from './list-columns';
import { authorizationRoutes } from './authorization';
import { marketplaceRoutes } from './marketplace';
import { settingsRoutes } from './settings';
import { subscriptionRoutes } from './subscription';
import { reportRoutes } from './reports';
import { liveRoutes } from './live';

/** Every area's routes, registered under /api/v1. */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(healthRoutes);
  await api.register(readyRoutes);
  await api.register(cspReportRoutes);
  await api.register(authRoutes);
  await api.register(companyRoutes);
  await api.register(companyProfileRoutes);
  await api.register(outboxRoutes);
  await api.register(dashboardRoutes);
  await api.register(listColumnRoutes);
  await api.register(authorizationRoutes);
  await api.register(marketplaceRoutes);
  await api.register(settingsRoutes);
  await api.register(subscriptionRoutes);
  await api.register(reportRoutes);
  await api.register(liveRoutes);
}
