import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { asSystem, withoutTenant, withTenant } from '../db/tenant-scope';

/**
 * Every route handler runs in the tenant scope of its caller (server/db/tenant-scope.ts): the
 * company of the session or API key the guard accepted; on a public route none, or the system
 * scope where the route says why it must look across companies (`acrossCompanies`: signing in
 * by host name, a mailed link's token). Registered
 * before the routes, on the plugin that holds them.
 */
export function registerRequestScope(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function scopedHandler(request, reply) {
      const companyId = request.auth?.companyId;
      const across = request.routeOptions.config?.acrossCompanies;
      const run = () => handler.call(this, request, reply);
      if (companyId) return withTenant(companyId, run);
      return across ? asSystem(across, run) : withoutTenant(run);
    };
  });
}
