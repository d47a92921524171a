import { z } from 'zod';
import { card, choice, timestamp } from './answers';
import { assignPoliciesBody, rolePagesBody } from '../schemas/roles';
import { policyCatalogue } from './answers/authorization';
import { defineAction, defineContract, everyAction, PAGE_GROUPS, POLICY_ACTIONS, type PageGroup } from './define';

/** `system` roles come with the company (Admin, Member); `custom` ones are made by it. */
export const ROLE_TYPES = ['system', 'custom'] as const;
/** The roles filter's statuses: an inactive role is kept but may not be given to anyone. */
export const ROLE_STATUSES = ['active', 'inactive'] as const;

/** A role as the lists answer it (docs/api/roles.md). */
export const roleRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(ROLE_TYPES),
  /** An admin role may do everything and has every page. */
  isAdmin: z.boolean(),
  isActive: z.boolean(),
  /** Every user holding the role, invited and deactivated ones too. */
  userCount: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Null for the system roles. */
  createdBy: z.string().nullable(),
  /** The creator's name, else their email; null for the system roles or when the creator is gone. */
  createdByName: z.string().nullable(),
});
export type Role = z.infer<typeof roleRow>;

/** What a role allows on one resource. */
export const rolePolicy = z.object({ resource: z.string(), actions: z.array(z.enum(POLICY_ACTIONS)) });

/** A console page as the policy editor shows it. */
export const rolePage = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  group: z.enum(Object.keys(PAGE_GROUPS) as [PageGroup, ...PageGroup[]]),
  /** A Material icon name. */
  icon: z.string(),
  /** Only admin roles may be given it. */
  adminOnly: z.boolean(),
});

/** `GET /role/{id}` and the answers of the changes: a row with what the role allows and its pages. */
export const roleDetail = roleRow.extend({
  /** An admin role's are the whole catalogue. */
  policies: z.array(rolePolicy),
  /** Its pages' ids, in menu order. */
  pageIds: z.array(z.string()),
});
export type RoleDetail = z.infer<typeof roleDetail>;

/** `GET /roles/active`: the pickers' choices, by name. */
export const activeRole = roleRow.pick({ id: true, name: true, description: true, type: true, isAdmin: true });

/** `GET /roles/filter/props` */
export const roleFilterProps = z.object({ type: z.array(choice), user: z.array(choice), status: z.array(choice) });

/** `GET /roles/cards`: `total`, `active`, `inactive`, `custom`, `system`. */
export const roleCards = z.object({ cards: z.array(card) });

/** `GET /policies/{id}` and `PUT /policies/assign/{id}` */
export const rolePolicies = z.object({ roleId: z.string(), roleName: z.string(), isAdmin: z.boolean(), policies: z.array(rolePolicy) });

/** `GET /roles/policies/pages/{id}` and the page changes: the role's pages afterwards. */
export const rolePages = z.object({ roleId: z.string(), roleName: z.string(), pageIds: z.array(z.string()), pages: z.array(rolePage) });

/** `GET /roles/policies/pages`: the page catalogue, in menu order. */
export const cataloguePage = rolePage.extend({ groupTitle: z.string() });

/** `GET /roles/policy/{id}` */
export const roleWithPolicies = z.object({ role: roleRow, policies: z.array(rolePolicy), pages: z.array(rolePage) });

export const rolesContract = defineContract({
  name: 'roles',
  row: roleRow,
  /** The fields the filter route may order by (its `{field}`). */
  fields: [
    { source: 'name', type: 'text', sortable: true },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true },
    { source: 'type', type: 'status', sortable: true },
  ],
  routes: {
    list: '/roles/{offset}/{limit}',
    filter: { path: '/roles/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'updatedAt', order: 'DESC' } },
    search: { path: '/roles/search/{offset}/{limit}', pagingInBody: true },
    filterProps: '/roles/filter/props/',
    cards: '/roles/cards',
    one: '/role/{id}',
    create: '/roles',
    update: '/roles/{id}',
    activate: { path: '/roles/activate/{id}', body: { isActive: true } },
    deactivate: { path: '/roles/activate/{id}', body: { isActive: false } },
    delete: '/roles/{id}',
  },
  policy: everyAction('roles', 'Roles and policies', 1),
  page: { id: 'roles', title: 'Roles and policies', url: '/roles', group: 'access', icon: 'admin_panel_settings', order: 8 },
  audit: { model: 'role' },
  activation: { field: 'isActive' },
  actions: {
    /** The resources and actions a policy can speak of: every signed-in user may read it (to read their own policies by it). */
    policyCatalogue: defineAction({
      path: '/authorization/policies',
      method: 'GET',
      summary: 'The policy catalogue: resources and actions',
      data: policyCatalogue,
    }),
    /** The pickers' choices (invitation, user edit): every signed-in user may read them. */
    active: defineAction({ path: '/roles/active', method: 'GET', summary: 'List the active roles', data: z.array(activeRole) }),
    policies: defineAction({ path: '/policies/{id}', method: 'GET', summary: "Read a role's policies", data: rolePolicies }),
    assignPolicies: defineAction({
      path: '/policies/assign/{id}',
      method: 'PUT',
      summary: "Replace a role's policies",
      body: assignPoliciesBody,
      data: rolePolicies,
    }),
    pageCatalogue: defineAction({
      path: '/roles/policies/pages',
      method: 'GET',
      summary: 'List the console pages a role may show',
      data: z.array(cataloguePage),
    }),
    pages: defineAction({ path: '/roles/policies/pages/{id}', method: 'GET', summary: "Read a role's pages", data: rolePages }),
    addPages: defineAction({
      path: '/roles/policies/pages/assign/{id}',
      method: 'PUT',
      summary: 'Add pages to a role',
      body: rolePagesBody,
      data: rolePages,
    }),
    removePages: defineAction({
      path: '/roles/policies/pages/unassign/{id}',
      method: 'PUT',
      summary: 'Take pages from a role',
      body: rolePagesBody,
      data: rolePages,
    }),
    withPolicies: defineAction({
      path: '/roles/policy/{id}',
      method: 'GET',
      summary: 'Read a role with its policies and pages',
      data: roleWithPolicies,
    }),
  },
});
