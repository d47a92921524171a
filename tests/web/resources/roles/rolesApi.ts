import { rolesContract } from '../../../../common/contract/roles';
import type { PageEntry, PolicyCatalogue, RoleDetail } from '../../../../resources/roles/types';
import { answered, contractFake, type ContractFake } from '../../contractFake';

export const CATALOGUE: PolicyCatalogue = {
  actions: ['read', 'create', 'update', 'delete'],
  resources: [
    { resource: 'users', label: 'Users', actions: ['read', 'create', 'update', 'delete'] },
    { resource: 'roles', label: 'Roles and policies', actions: ['read', 'create', 'update', 'delete'] },
    { resource: 'audits', label: 'System audits', actions: ['read'] },
    { resource: 'sessions', label: 'Sessions', actions: ['read', 'delete'] },
  ],
};

export const PAGES: PageEntry[] = [
  {
    id: 'dashboard',
    title: 'Dashboard',
    url: '/dashboard',
    group: 'overview',
    groupTitle: 'Overview',
    icon: 'dashboard',
    adminOnly: false,
  },
  {
    id: 'notifications',
    title: 'Notifications',
    url: '/notifications',
    group: 'overview',
    groupTitle: 'Overview',
    icon: 'notifications',
    adminOnly: false,
  },
  { id: 'users', title: 'Users', url: '/users', group: 'access', groupTitle: 'Access control', icon: 'people', adminOnly: false },
  {
    id: 'roles',
    title: 'Roles and policies',
    url: '/roles',
    group: 'access',
    groupTitle: 'Access control',
    icon: 'admin_panel_settings',
    adminOnly: false,
  },
  {
    id: 'outbox',
    title: 'Mail outbox',
    url: '/outbox',
    group: 'administration',
    groupTitle: 'Administration',
    icon: 'outgoing_mail',
    adminOnly: true,
  },
];

const ALL_POLICIES = CATALOGUE.resources.map((entry) => ({
  resource: entry.resource,
  actions: [...entry.actions],
})) as RoleDetail['policies'];

function role(overrides: Partial<RoleDetail> & Pick<RoleDetail, 'id' | 'name'>): RoleDetail {
  return {
    description: '',
    type: 'custom',
    isAdmin: false,
    isActive: true,
    userCount: 0,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    createdBy: 'u-ada',
    createdByName: 'Ada Admin',
    policies: [],
    pageIds: ['dashboard'],
    ...overrides,
  };
}

export function someRoles(): RoleDetail[] {
  return [
    role({
      id: 'r-admin',
      name: 'Admin',
      description: 'Everything',
      type: 'system',
      isAdmin: true,
      userCount: 1,
      createdBy: null,
      createdByName: null,
      policies: ALL_POLICIES,
      pageIds: PAGES.map((page) => page.id),
    }),
    role({
      id: 'r-member',
      name: 'Member',
      description: 'The dashboard',
      type: 'system',
      userCount: 3,
      createdBy: null,
      createdByName: null,
      pageIds: ['dashboard', 'notifications'],
    }),
    role({
      id: 'r-analyst',
      name: 'Analyst',
      description: 'Reads users',
      policies: [{ resource: 'users', actions: ['read'] }],
      pageIds: ['dashboard', 'users'],
      updatedAt: '2026-02-01T09:00:00.000Z',
    }),
    role({ id: 'r-auditor', name: 'Auditor', isActive: false, policies: [{ resource: 'audits', actions: ['read'] }] }),
    role({
      id: 'r-ops',
      name: 'Operators',
      description: 'Sessions',
      userCount: 2,
      createdBy: 'u-bob',
      createdByName: 'Bob Builder',
      policies: [{ resource: 'sessions', actions: ['read', 'delete'] }],
    }),
  ];
}

export type RolesApi = ContractFake<RoleDetail>;

/** A role as the lists show it: without what it allows and its pages. */
function row({ policies: _policies, pageIds: _pageIds, ...rest }: RoleDetail) {
  return rest;
}

const notFound = () => answered('Role not found', undefined, 404);
const holdersOf = (found: RoleDetail) => `${found.userCount} users have this role; give them another role first`;

/**
 * A server honouring the roles contract (docs/api/roles.md) over an in-memory table, with the
 * refusals that matter to the console (system roles, roles users hold, admin policies) and the
 * calls on a role's policies and pages beside the contract's.
 */
export function rolesApi(initial: RoleDetail[] = someRoles()): RolesApi {
  const find = (id: unknown) => api.rows.find((candidate) => candidate.id === id);
  const touch = (target: RoleDetail) => (target.updatedAt = new Date(Date.UTC(2026, 5, 1, 0, 0, api.calls.length)).toISOString());
  const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
  const api: RolesApi = contractFake<RoleDetail>(rolesContract, structuredClone(initial), {
    created: (body) =>
      role({
        id: `r-new-${api.rows.length}`,
        name: String(body.name),
        description: String(body.description ?? ''),
        policies: (body.policies as RoleDetail['policies'] | undefined) ?? [],
        pageIds: (body.pageIds as string[] | undefined) ?? ['dashboard'],
      }),
    listed: row,
    searchIn: ['name'],
    filterBy: {
      user: (entry, wanted) => anyOf(wanted).includes(String(entry.createdBy)),
      status: (entry, wanted) => anyOf(wanted).includes(entry.isActive ? 'active' : 'inactive'),
    },
    touched: touch,
    cards: (rows) => ({
      cards: [
        { key: 'total', label: 'Total', value: rows.length },
        { key: 'active', label: 'Active', value: rows.filter((entry) => entry.isActive).length },
        { key: 'system', label: 'System', value: rows.filter((entry) => entry.type === 'system').length },
      ],
    }),
    filterProps: {
      type: [
        { id: 'system', name: 'System' },
        { id: 'custom', name: 'Custom' },
      ],
      user: [
        { id: 'u-ada', name: 'Ada Admin' },
        { id: 'u-bob', name: 'Bob Builder' },
      ],
      status: [
        { id: 'active', name: 'Active' },
        { id: 'inactive', name: 'Inactive' },
      ],
    },
    refuse: {
      create: (_, body) =>
        api.rows.some((entry) => entry.name.toLowerCase() === String(body.name).toLowerCase())
          ? answered(`A role named "${String(body.name)}" already exists`, undefined, 409)
          : undefined,
      update: (found, body) => {
        if (body.name === undefined && body.description === undefined) return 'give a name or a description to change';
        if (found && body.name !== undefined && body.name !== found.name && found.type === 'system')
          return `name: ${found.name} is a system role and cannot be renamed`;
        return undefined;
      },
      deactivate: (found) => {
        if (found?.type === 'system') return `isActive: ${found.name} is a system role and cannot be deactivated`;
        return found && found.userCount > 0 ? holdersOf(found) : undefined;
      },
      delete: (found) => {
        if (found?.type === 'system') return `id: ${found.name} is a system role and cannot be deleted`;
        return found && found.userCount > 0 ? holdersOf(found) : undefined;
      },
    },
    messages: {
      one: () => 'Role',
      create: (found) => `The role ${found.name} has been created`,
      update: (found) => `The role ${found.name} has been saved`,
      activate: (found) => `The role ${found.name} has been activated`,
      deactivate: (found) => `The role ${found.name} has been deactivated`,
      delete: (found) => `The role ${found.name} has been deleted`,
    },
    more: {
      'GET /authorization/policies': () => answered('Policies', CATALOGUE),
      'GET /roles/policies/pages': () => answered('Pages', PAGES),
      'GET /roles/policy/{id}': ({ id }) => {
        const found = find(id);
        if (!found) return notFound();
        return answered('Role, policies and pages', {
          role: row(found),
          policies: found.policies,
          pages: PAGES.filter((page) => found.pageIds.includes(page.id)).map(({ groupTitle: _title, ...page }) => page),
        });
      },
      'PUT /roles/policies/pages/{operation}/{id}': ({ operation, id }, body) => {
        const found = find(id);
        if (!found) return notFound();
        const pageIds = body.pageIds as string[];
        if (pageIds.length === 0) return answered('pageIds: choose at least one page', undefined, 400);
        if (operation === 'assign') {
          const adminOnly = PAGES.filter((page) => page.adminOnly && pageIds.includes(page.id));
          if (!found.isAdmin && adminOnly.length > 0)
            return answered(`pageIds: ${adminOnly[0].title} (${adminOnly[0].id}) is for admin roles only`, undefined, 400);
          found.pageIds = PAGES.filter((page) => found.pageIds.includes(page.id) || pageIds.includes(page.id)).map((page) => page.id);
        } else {
          found.pageIds = found.pageIds.filter((pageId) => !pageIds.includes(pageId));
        }
        touch(found);
        return answered(`The pages of ${found.name} have been saved; its users see them from their next sign-in`, {
          roleId: found.id,
          pageIds: found.pageIds,
        });
      },
      'PUT /policies/assign/{id}': ({ id }, body) => {
        const found = find(id);
        if (!found) return notFound();
        if (found.isAdmin) return answered(`id: ${found.name} is an admin role: it holds every policy`, undefined, 400);
        found.policies = body.policies as RoleDetail['policies'];
        touch(found);
        return answered(`The policies of ${found.name} have been saved`, { roleId: found.id, policies: found.policies });
      },
      // The holders of a role, as the role's page lists them.
      'POST /users/filter/{limit}/{offset}/{order}/{field}': (_, body) => {
        const roleId = String(body.role);
        const holders = Array.from({ length: find(roleId)?.userCount ?? 0 }, (_, index) => ({
          id: `u-${roleId}-${index}`,
          email: `holder${index + 1}@acme.test`,
          firstName: `Holder`,
          lastName: String(index + 1),
        }));
        return answered('Users', { rows: holders, count: holders.length, countExact: true });
      },
    },
  });
  return api;
}
