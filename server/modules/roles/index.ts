import type { FastifyInstance } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { answer, messageAnswer } from '../../../common/contract/answers';
import type { PolicyAction } from '../../../common/contract/define';
import {
  roleCards,
  roleDetail as roleDetailRow,
  roleFilterProps as roleFilterChoices,
  rolesContract,
} from '../../../common/contract/roles';
import { activateRoleBody, createRoleBody, updateRoleBody } from '../../../common/schemas/roles';
import { PAGE_CATALOGUE, PAGE_GROUPS } from '../../auth/pages-catalogue';
import { roles } from '../../db/schema';
import { uuidParam } from '../../http/schemas';
import { actionRoute } from '../../platform/action-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import type { EntityModule } from '../../platform/entity-routes';
import { registerReadRoute } from '../../platform/list-routes';
import { changeRolePages, createRole, deleteRole, replaceRolePolicies, setRoleActive, updateRole } from '../../roles/changes';
import { roleFilterBody, roleFilterProps, roleSearchBody } from '../../roles/list';
import { findRole, pageIdsOfRole, pageView, policiesOfRole, roleDetail, type RoleRow } from '../../roles/records';
import { roleRepository } from './repository';

const TAGS = ['Roles and policies'];
const { actions } = rolesContract;
const idParams = z.object({ id: uuidParam });
const roleAnswer = answer(roleDetailRow);
const may = (action: PolicyAction): RouteBase => ({ config: { policy: [rolesContract.policy.resource, action] }, tags: TAGS });

/**
 * Roles of the company: what each allows (policies) and which console pages make its menu.
 * Served from their contract: the list `/roles/{offset}/{limit}`, the filter
 * `/roles/filter/{offset}/{limit}/{order}/{field}`, the cards `/roles/cards` and one role
 * `/role/{id}` with its policies and pages, the search `/roles/search/{offset}/{limit}` (its text in
 * the body). Served here: the filter choices `/roles/filter/props`, and the changes, whose answers
 * give the role with its policies and pages. Served from the contract's actions: the pickers'
 * `/roles/active`; a role's policies `/policies/{id}` and their change `/policies/assign/{id}`;
 * the page catalogue `/roles/policies/pages`, a role's pages `/roles/policies/pages/{id}` and their
 * changes `/roles/policies/pages/assign/{id}` and `/roles/policies/pages/unassign/{id}`; the role
 * with both `/roles/policy/{id}`. The guard reads policies on every call, so a change applies to
 * the role's users from their next call; the menu (navItems) is built at sign-in, so page changes
 * show from their next sign-in.
 */
export const rolesModule: EntityModule<RoleRow> = {
  contract: rolesContract,
  repository: roleRepository,
  bodies: { filter: roleFilterBody, search: roleSearchBody },
  tag: TAGS[0],
  calls: {
    filter: { summary: 'Filter and sort the roles' },
    cards: { summary: 'Counts of roles', message: 'Role cards', data: roleCards },
    one: { summary: 'Read a role', message: 'Role', data: roleDetailRow },
  },
  own: ['filterProps', 'create', 'update', 'activate', 'deactivate', 'delete'],
  routes(app: FastifyInstance) {
    const { db } = app.ctx;
    const read = may('read');
    const update = may('update');

    // Pickers (invitation, user edit) list these; every signed-in user may.
    actionRoute(app, { config: {}, tags: TAGS }, actions.active, async ({ auth }) => {
      const rows = await db
        .select({ id: roles.id, name: roles.name, description: roles.description, type: roles.type, isAdmin: roles.isAdmin })
        .from(roles)
        .where(and(eq(roles.companyId, auth.companyId), eq(roles.isActive, true)))
        .orderBy(asc(roles.name));
      return { message: 'Active roles', data: rows };
    });

    // The contract's path ends in a slash; the route answers both ways (ignoreTrailingSlash).
    registerReadRoute(app, read, {
      path: '/roles/filter/props',
      summary: 'Choices of the role filters',
      answer: answer(roleFilterChoices),
      message: 'Role filters',
      data: (companyId) => roleFilterProps(db, companyId),
    });

    answerRoute(
      app,
      may('create'),
      { method: 'POST', path: '/roles', summary: 'Create a role', body: createRoleBody, answer: roleAnswer, status: 201 },
      async ({ auth, body, request }) => {
        const role = await createRole(db, request, auth, body);
        return { message: `The role ${role.name} has been created`, data: role };
      },
    );

    answerRoute(
      app,
      update,
      { method: 'PUT', path: '/roles/:id', summary: 'Edit a role', params: idParams, body: updateRoleBody, answer: roleAnswer },
      async ({ auth, params, body, request }) => {
        const role = await updateRole(db, request, auth, params.id, body);
        return { message: `The role ${role.name} has been saved`, data: role };
      },
    );

    answerRoute(
      app,
      update,
      {
        method: 'PUT',
        path: '/roles/activate/:id',
        summary: 'Activate or deactivate a role',
        params: idParams,
        body: activateRoleBody,
        answer: roleAnswer,
      },
      async ({ auth, params, body, request }) => {
        const role = await setRoleActive(db, request, auth, params.id, body.isActive);
        return { message: `The role ${role.name} is ${role.isActive ? 'active' : 'deactivated'}`, data: role };
      },
    );

    answerRoute(
      app,
      may('delete'),
      { method: 'DELETE', path: '/roles/:id', summary: 'Delete a role', params: idParams, answer: messageAnswer },
      async ({ auth, params, request }) => {
        const role = await deleteRole(db, request, auth, params.id);
        return { message: `The role ${role.name} has been deleted` };
      },
    );

    // ---- Policies ------------------------------------------------------------------------------

    actionRoute(app, read, actions.policies, async ({ auth: { companyId }, params }) => {
      const role = await findRole(db, companyId, params.id);
      const policies = await policiesOfRole(db, role, companyId);
      return { message: 'Role policies', data: { roleId: role.id, roleName: role.name, isAdmin: role.isAdmin, policies } };
    });

    actionRoute(app, update, actions.assignPolicies, async ({ auth, params, body, request }) => {
      const { role, policies } = await replaceRolePolicies(db, request, auth, params.id, body.policies);
      return {
        message: `The policies of ${role.name} have been saved`,
        data: { roleId: role.id, roleName: role.name, isAdmin: role.isAdmin, policies },
      };
    });

    // ---- Pages ---------------------------------------------------------------------------------

    actionRoute(app, read, actions.pageCatalogue, async () => ({
      message: 'Pages',
      data: PAGE_CATALOGUE.map((p) => ({
        id: p.id,
        title: p.title,
        url: p.url,
        group: p.group,
        groupTitle: PAGE_GROUPS[p.group]?.title ?? p.group,
        icon: p.icon,
        adminOnly: p.adminOnly ?? false,
      })),
    }));

    actionRoute(app, read, actions.pages, async ({ auth: { companyId }, params }) => {
      const role = await findRole(db, companyId, params.id);
      const pageIds = await pageIdsOfRole(db, companyId, role.id);
      return { message: 'Role pages', data: { roleId: role.id, roleName: role.name, pageIds, pages: pageView(pageIds) } };
    });

    for (const [operation, action] of [
      ['assign', actions.addPages],
      ['unassign', actions.removePages],
    ] as const) {
      actionRoute(app, update, action, async ({ auth, params, body, request }) => {
        const { role, pageIds } = await changeRolePages(db, request, auth, params.id, operation, body.pageIds);
        return {
          message: `The pages of ${role.name} have been saved; its users see them from their next sign-in`,
          data: { roleId: role.id, roleName: role.name, pageIds, pages: pageView(pageIds) },
        };
      });
    }

    actionRoute(app, read, actions.withPolicies, async ({ auth: { companyId }, params }) => {
      const { policies, pageIds, ...role } = await roleDetail(db, companyId, params.id);
      return { message: 'Role, policies and pages', data: { role, policies, pages: pageView(pageIds) } };
    });
  },
};
