import { and, desc, eq } from 'drizzle-orm';
import type { UpdateWorkspaceBody } from '../../../common/schemas/workspaces';
import { workspaceMembers, workspaces } from '../../db/schema';
import { conflict } from '../../http/errors';
import { COUNT_CAP, inlined, listPage } from '../../http/lists';
import type { EntityRepository } from '../../platform/entity-routes';
import { findWorkspace, liveWorkspaces, nameTaken, selectWorkspaces, type WorkspaceRow } from '../../workspaces/records';

export const WORKSPACE_NAME_TAKEN = 'A workspace with this name already exists';

/**
 * How workspaces are kept. Their names are unique in a company, in any case. Deleting one keeps
 * its row (other areas point at it) but hides it from every answer and removes its members.
 */
export const workspaceRepository: EntityRepository<WorkspaceRow> = {
  taken: WORKSPACE_NAME_TAKEN,

  list({ db, auth }, page) {
    const where = liveWorkspaces(auth.companyId);
    return listPage(
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
      page.offset,
      Math.min(page.limit, COUNT_CAP),
    );
  },

  async one({ db, auth }, id) {
    return (await findWorkspace(db, auth.companyId, id)) ?? null;
  },

  async create({ db, auth }, body) {
    const { name, description } = body as { name: string; description: string };
    if (await nameTaken(db, auth.companyId, name)) throw conflict(WORKSPACE_NAME_TAKEN);
    const [created] = await db
      .insert(workspaces)
      .values({ companyId: auth.companyId, name, description, createdBy: auth.userId })
      .returning({ id: workspaces.id });
    return created.id;
  },

  async update({ db, auth }, id, body) {
    const wanted = body as Omit<UpdateWorkspaceBody, 'id'>;
    if (wanted.name !== undefined && (await nameTaken(db, auth.companyId, wanted.name, id))) throw conflict(WORKSPACE_NAME_TAKEN);
    await db
      .update(workspaces)
      .set({ ...wanted, updatedAt: new Date() })
      .where(liveWorkspaces(auth.companyId, eq(workspaces.id, id)));
  },

  async remove({ db, auth }, id) {
    await db
      .update(workspaces)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(liveWorkspaces(auth.companyId, eq(workspaces.id, id)));
    const members = await db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.companyId, auth.companyId), eq(workspaceMembers.workspaceId, id)))
      .returning({ userId: workspaceMembers.userId });
    return { memberIds: members.map((member) => member.userId) };
  },

  audited: ({ name, description, isActive }) => ({ name, description, isActive }),
};
