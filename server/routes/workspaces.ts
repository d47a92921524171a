import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { createWorkspaceBody, updateWorkspaceBody } from '../../common/schemas/workspaces';
import { recordAudit } from '../audit';
import { requireAuth } from '../auth/guard';
import { workspaceMembers, workspaces } from '../db/schema';
import { conflict, notFound } from '../http/errors';
import { COUNT_CAP, listPage, inlined } from '../http/lists';
import { uuidParam } from '../http/schemas';
import { acceptFormBodies } from '../workspaces/form-body';
import { findWorkspace, liveWorkspaces, nameTaken, selectWorkspaces, type WorkspaceRow } from '../workspaces/records';
import { isUniqueViolation } from '../http/database-errors';

export const WORKSPACE_NAME_TAKEN = 'A workspace with this name already exists';

const TAGS = ['Workspaces'];
/** The create and edit calls take form bodies (the console posts forms); JSON is accepted too. */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'];

/** The fields of `after` whose value differs from `before`: an update's audit names only what changed. */
function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as Array<keyof T>) {
    if (after[key] !== undefined && after[key] !== before[key]) {
      was[key] = before[key];
      now[key] = after[key];
    }
  }
  return { was, now, any: Object.keys(now).length > 0 };
}

/**
 * Workspaces group the users of a company. Deleting one keeps its row (later areas point at it)
 * but hides it from every answer and removes its members.
 */
export async function workspaceRoutes(app: FastifyInstance) {
  await acceptFormBodies(app);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  const mustFind = async (companyId: string, id: string): Promise<WorkspaceRow> => {
    const row = await findWorkspace(db, companyId, id);
    if (!row) throw notFound('Workspace');
    return row;
  };

  api.get(
    '/workspaces',
    { config: { policy: ['workspaces', 'read'] }, schema: { summary: 'List the workspaces', tags: TAGS } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const where = liveWorkspaces(companyId);
      const data = await listPage(
        db,
        {
          page: (offset, limit) =>
            selectWorkspaces(db)
              .where(where)
              .orderBy(desc(workspaces.createdAt), desc(workspaces.id))
              .offset(inlined(offset))
              .limit(inlined(limit)),
          countFrom: workspaces,
          where,
        },
        0,
        COUNT_CAP,
      );
      return { message: 'Workspaces', data };
    },
  );

  // A picker for every signed-in user (the user forms and the users filter offer workspaces), like /roles/active.
  api.get('/workspaces/active', { schema: { summary: 'List the active workspaces (id and name)', tags: TAGS } }, async (request) => {
    const { companyId } = requireAuth(request);
    const rows = await db
      .select({ id: workspaces.id, name: workspaces.name })
      .from(workspaces)
      .where(liveWorkspaces(companyId, eq(workspaces.isActive, true)))
      .orderBy(asc(workspaces.name));
    return { message: 'Active workspaces', data: rows };
  });

  api.post(
    '/workspaces',
    {
      config: { policy: ['workspaces', 'create'] },
      schema: { summary: 'Create a workspace', tags: TAGS, consumes: FORM_TYPES, body: createWorkspaceBody },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { name, description } = request.body;
      if (await nameTaken(db, auth.companyId, name)) throw conflict(WORKSPACE_NAME_TAKEN);
      let id: string;
      try {
        id = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(workspaces)
            .values({ companyId: auth.companyId, name, description, createdBy: auth.userId })
            .returning({ id: workspaces.id });
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'workspace',
            operation: 'create',
            recordId: created.id,
            changes: { after: { name, description, isActive: true } },
          });
          return created.id;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(WORKSPACE_NAME_TAKEN);
        throw err;
      }
      return reply.code(201).send({ message: `Workspace "${name}" created`, data: await mustFind(auth.companyId, id) });
    },
  );

  api.put(
    '/workspace',
    {
      config: { policy: ['workspaces', 'update'] },
      schema: { summary: 'Edit a workspace (name, description, active)', tags: TAGS, consumes: FORM_TYPES, body: updateWorkspaceBody },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id, ...wanted } = request.body;
      const current = await mustFind(auth.companyId, id);
      const { was, now, any } = changedFields({ name: current.name, description: current.description, isActive: current.isActive }, wanted);
      if (!any) return { message: 'Nothing to change', data: current };
      if (now.name !== undefined && (await nameTaken(db, auth.companyId, now.name, id))) throw conflict(WORKSPACE_NAME_TAKEN);
      try {
        await db.transaction(async (tx) => {
          const updated = await tx
            .update(workspaces)
            .set({ ...now, updatedAt: new Date() })
            .where(liveWorkspaces(auth.companyId, eq(workspaces.id, id)))
            .returning({ id: workspaces.id });
          if (updated.length === 0) throw notFound('Workspace');
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'workspace',
            operation: 'update',
            recordId: id,
            changes: { before: was, after: now },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(WORKSPACE_NAME_TAKEN);
        throw err;
      }
      return { message: `Workspace "${now.name ?? current.name}" updated`, data: await mustFind(auth.companyId, id) };
    },
  );

  api.put(
    '/workspace/:id',
    {
      config: { policy: ['workspaces', 'delete'] },
      schema: { summary: 'Delete a workspace (its members are removed from it)', tags: TAGS, params: z.object({ id: uuidParam }) },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const current = await mustFind(auth.companyId, id);
      await db.transaction(async (tx) => {
        const deleted = await tx
          .update(workspaces)
          .set({ deletedAt: new Date(), updatedAt: new Date() })
          .where(liveWorkspaces(auth.companyId, eq(workspaces.id, id)))
          .returning({ id: workspaces.id });
        if (deleted.length === 0) throw notFound('Workspace');
        const members = await tx
          .delete(workspaceMembers)
          .where(and(eq(workspaceMembers.companyId, auth.companyId), eq(workspaceMembers.workspaceId, id)))
          .returning({ userId: workspaceMembers.userId });
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'workspace',
          operation: 'delete',
          recordId: id,
          changes: {
            before: {
              name: current.name,
              description: current.description,
              isActive: current.isActive,
              memberIds: members.map((m) => m.userId),
            },
          },
        });
      });
      return { message: `Workspace "${current.name}" deleted` };
    },
  );
}
