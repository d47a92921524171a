import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { answer, idName } from '../../../common/contract/answers';
import { workspacesContract } from '../../../common/contract/workspaces';
import { requireAuth } from '../../auth/guard';
import { workspaces } from '../../db/schema';
import type { EntityModule } from '../../platform/entity-routes';
import { liveWorkspaces, type WorkspaceRow } from '../../workspaces/records';
import { workspaceRepository } from './repository';

/**
 * Workspaces group the users of a company. Served from their contract: the list `/workspaces`,
 * the create, the change `/workspace` (the id in the form body, activation included) and the
 * delete `/workspace/{id}`; beside them the picker of active workspaces.
 */
export const workspacesModule: EntityModule<WorkspaceRow> = {
  contract: workspacesContract,
  repository: workspaceRepository,
  routes(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    // A picker for every signed-in user (the user forms and the users filter offer workspaces), like /roles/active.
    api.get(
      '/workspaces/active',
      { schema: { summary: 'List the active workspaces (id and name)', tags: ['Workspaces'], response: { 200: answer(z.array(idName)) } } },
      async (request) => {
        const { companyId } = requireAuth(request);
        const rows = await api.ctx.db
          .select({ id: workspaces.id, name: workspaces.name })
          .from(workspaces)
          .where(liveWorkspaces(companyId, eq(workspaces.isActive, true)))
          .orderBy(asc(workspaces.name));
        return { message: 'Active workspaces', data: rows };
      },
    );
  },
};
