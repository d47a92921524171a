import type { FastifyInstance } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { roles } from '../db/schema';
import { requireAuth } from '../auth/guard';

/** Roles of the company. The roles area (policies, pages, CRUD) builds on this. */
export async function roleRoutes(app: FastifyInstance) {
  app.get('/roles/active', async (request) => {
    const { companyId } = requireAuth(request);
    const rows = await app.ctx.db
      .select({ id: roles.id, name: roles.name, description: roles.description, type: roles.type, isAdmin: roles.isAdmin })
      .from(roles)
      .where(and(eq(roles.companyId, companyId), eq(roles.isActive, true)))
      .orderBy(asc(roles.name));
    return { message: 'Active roles', data: rows };
  });
}
