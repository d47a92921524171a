import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { answer, listAnswer, messageAnswer } from '../../common/contract/answers';
import { sent } from '../platform/answers';
import {
  activeRole,
  cataloguePage,
  roleCards as roleCardsAnswer,
  roleDetail as roleDetailAnswer,
  roleFilterProps as roleFilterPropsAnswer,
  rolePages,
  rolePolicies,
  roleRow,
  roleWithPolicies,
} from '../../common/contract/roles';
import { activateRoleBody, assignPoliciesBody, createRoleBody, rolePagesBody, updateRoleBody } from '../../common/schemas/roles';
import { roles } from '../db/schema';
import { requireAuth } from '../auth/guard';
import { PAGE_CATALOGUE, PAGE_GROUPS } from '../auth/pages-catalogue';
import { pageParams } from '../http/lists';
import { uuidParam } from '../http/schemas';
import { changeRolePages, createRole, deleteRole, replaceRolePolicies, setRoleActive, updateRole } from '../roles/changes';
import { DEFAULT_ROLE_SORT, listRoles, roleCards, roleFilterBody, roleFilterParams, roleFilterProps, roleSearchBody } from '../roles/list';
import { findRole, pageIdsOfRole, pageView, policiesOfRole, roleDetail } from '../roles/records';

const TAGS = ['Roles and policies'];
const idParams = z.object({ id: uuidParam });

const read = { policy: ['roles', 'read'] } as const;
const create = { policy: ['roles', 'create'] } as const;
const update = { policy: ['roles', 'update'] } as const;
const remove = { policy: ['roles', 'delete'] } as const;

const roleList = sent(listAnswer(roleRow));
const roleAnswer = sent(answer(roleDetailAnswer));

/**
 * Roles of the company: what each allows (policies) and which console pages make its menu.
 * The guard reads policies on every call, so a change applies to the role's users from their next
 * call; the menu (navItems) is built at sign-in, so page changes show from their next sign-in.
 */
export async function roleRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  // Pickers (invitation, user edit) list these; every signed-in user may.
  api.get(
    '/roles/active',
    { schema: { summary: 'List the active roles', tags: TAGS, response: { 200: sent(answer(z.array(activeRole))) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const rows = await db
        .select({ id: roles.id, name: roles.name, description: roles.description, type: roles.type, isAdmin: roles.isAdmin })
        .from(roles)
        .where(and(eq(roles.companyId, companyId), eq(roles.isActive, true)))
        .orderBy(asc(roles.name));
      return { message: 'Active roles', data: rows };
    },
  );

  // ---- Lists -----------------------------------------------------------------------------------

  api.get(
    '/roles/:offset/:limit',
    { config: read, schema: { summary: 'List the roles', tags: TAGS, params: pageParams, response: { 200: roleList } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Roles', data: await listRoles(db, companyId, {}, DEFAULT_ROLE_SORT, offset, limit) };
    },
  );

  api.post(
    '/roles/filter/:offset/:limit/:order/:field',
    {
      config: read,
      schema: {
        summary: 'Filter and sort the roles',
        tags: TAGS,
        params: roleFilterParams,
        body: roleFilterBody,
        response: { 200: roleList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit, order, field } = request.params;
      return { message: 'Roles', data: await listRoles(db, companyId, request.body, { field, order }, offset, limit) };
    },
  );

  api.post(
    '/roles/search/:offset/:limit',
    {
      config: read,
      schema: { summary: 'Search the roles', tags: TAGS, params: pageParams, body: roleSearchBody, response: { 200: roleList } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      // The path's offset and limit win over the body's.
      const { offset, limit } = request.params;
      return { message: 'Roles', data: await listRoles(db, companyId, { search: request.body.search }, DEFAULT_ROLE_SORT, offset, limit) };
    },
  );

  api.get(
    '/roles/cards',
    { config: read, schema: { summary: 'Counts of roles', tags: TAGS, response: { 200: sent(answer(roleCardsAnswer)) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Role cards', data: { cards: await roleCards(db, companyId) } };
    },
  );

  api.get(
    '/roles/filter/props',
    {
      config: read,
      schema: { summary: 'Choices of the role filters', tags: TAGS, response: { 200: sent(answer(roleFilterPropsAnswer)) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Role filters', data: await roleFilterProps(db, companyId) };
    },
  );

  // ---- One role --------------------------------------------------------------------------------

  api.get(
    '/role/:id',
    { config: read, schema: { summary: 'Read a role', tags: TAGS, params: idParams, response: { 200: roleAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Role', data: await roleDetail(db, companyId, request.params.id) };
    },
  );

  api.post(
    '/roles',
    { config: create, schema: { summary: 'Create a role', tags: TAGS, body: createRoleBody, response: { 201: roleAnswer } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const role = await createRole(db, request, auth, request.body);
      return reply.code(201).send({ message: `The role ${role.name} has been created`, data: role });
    },
  );

  api.put(
    '/roles/:id',
    {
      config: update,
      schema: { summary: 'Edit a role', tags: TAGS, params: idParams, body: updateRoleBody, response: { 200: roleAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const role = await updateRole(db, request, auth, request.params.id, request.body);
      return { message: `The role ${role.name} has been saved`, data: role };
    },
  );

  api.put(
    '/roles/activate/:id',
    {
      config: update,
      schema: {
        summary: 'Activate or deactivate a role',
        tags: TAGS,
        params: idParams,
        body: activateRoleBody,
        response: { 200: roleAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const role = await setRoleActive(db, request, auth, request.params.id, request.body.isActive);
      return { message: `The role ${role.name} is ${role.isActive ? 'active' : 'deactivated'}`, data: role };
    },
  );

  api.delete(
    '/roles/:id',
    { config: remove, schema: { summary: 'Delete a role', tags: TAGS, params: idParams, response: { 200: messageAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      const role = await deleteRole(db, request, auth, request.params.id);
      return { message: `The role ${role.name} has been deleted` };
    },
  );

  // ---- Policies --------------------------------------------------------------------------------

  api.get(
    '/policies/:id',
    {
      config: read,
      schema: { summary: "Read a role's policies", tags: TAGS, params: idParams, response: { 200: sent(answer(rolePolicies)) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const role = await findRole(db, companyId, request.params.id);
      const policies = await policiesOfRole(db, role, companyId);
      return { message: 'Role policies', data: { roleId: role.id, roleName: role.name, isAdmin: role.isAdmin, policies } };
    },
  );

  api.put(
    '/policies/assign/:id',
    {
      config: update,
      schema: {
        summary: "Replace a role's policies",
        tags: TAGS,
        params: idParams,
        body: assignPoliciesBody,
        response: { 200: sent(answer(rolePolicies)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { role, policies } = await replaceRolePolicies(db, request, auth, request.params.id, request.body.policies);
      return {
        message: `The policies of ${role.name} have been saved`,
        data: { roleId: role.id, roleName: role.name, isAdmin: role.isAdmin, policies },
      };
    },
  );

  // ---- Pages -----------------------------------------------------------------------------------

  api.get(
    '/roles/policies/pages',
    {
      config: read,
      schema: { summary: 'List the console pages a role may show', tags: TAGS, response: { 200: sent(answer(z.array(cataloguePage))) } },
    },
    async () => {
      const data = PAGE_CATALOGUE.map((p) => ({
        id: p.id,
        title: p.title,
        url: p.url,
        group: p.group,
        groupTitle: PAGE_GROUPS[p.group]?.title ?? p.group,
        icon: p.icon,
        adminOnly: p.adminOnly ?? false,
      }));
      return { message: 'Pages', data };
    },
  );

  api.get(
    '/roles/policies/pages/:id',
    { config: read, schema: { summary: "Read a role's pages", tags: TAGS, params: idParams, response: { 200: sent(answer(rolePages)) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const role = await findRole(db, companyId, request.params.id);
      const pageIds = await pageIdsOfRole(db, companyId, role.id);
      return { message: 'Role pages', data: { roleId: role.id, roleName: role.name, pageIds, pages: pageView(pageIds) } };
    },
  );

  for (const [operation, path, summary] of [
    ['assign', '/roles/policies/pages/assign/:id', 'Add pages to a role'],
    ['unassign', '/roles/policies/pages/unassign/:id', 'Take pages from a role'],
  ] as const) {
    api.put(
      path,
      {
        config: update,
        schema: { summary, tags: TAGS, params: idParams, body: rolePagesBody, response: { 200: sent(answer(rolePages)) } },
      },
      async (request) => {
        const auth = requireAuth(request);
        const { role, pageIds } = await changeRolePages(db, request, auth, request.params.id, operation, request.body.pageIds);
        return {
          message: `The pages of ${role.name} have been saved; its users see them from their next sign-in`,
          data: { roleId: role.id, roleName: role.name, pageIds, pages: pageView(pageIds) },
        };
      },
    );
  }

  api.get(
    '/roles/policy/:id',
    {
      config: read,
      schema: {
        summary: 'Read a role with its policies and pages',
        tags: TAGS,
        params: idParams,
        response: { 200: sent(answer(roleWithPolicies)) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { policies, pageIds, ...role } = await roleDetail(db, companyId, request.params.id);
      return { message: 'Role, policies and pages', data: { role, policies, pages: pageView(pageIds) } };
    },
  );
}
