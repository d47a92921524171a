import { http, HttpResponse } from 'msw';
import type { PageEntry, PolicyCatalogue, PolicyEntry, RoleDetail } from '../../../../resources/roles/types';
import { API } from '../../framework/harness';
import { server } from '../../msw';

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

const ALL_POLICIES: PolicyEntry[] = CATALOGUE.resources.map((entry) => ({ resource: entry.resource, actions: [...entry.actions] }));

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

export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

export interface RolesApi {
  rows: RoleDetail[];
  calls: Call[];
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string): void;
}

function row({ policies: _policies, pageIds: _pageIds, ...rest }: RoleDetail) {
  return rest;
}

/**
 * A server honouring the roles routes of docs/api/roles.md over an in-memory table, with the
 * refusals that matter to the console (system roles, roles users hold, admin policies). Every
 * call is recorded with its JSON body.
 */
export function rolesApi(initial: RoleDetail[] = someRoles()): RolesApi {
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  const api: RolesApi = {
    rows: initial.map((entry) => structuredClone(entry)),
    calls: [],
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message) => failures.push({ pattern, status, message }),
  };
  const find = (id: unknown) => api.rows.find((candidate) => candidate.id === id);
  const notFound = () => HttpResponse.json({ message: 'Role not found' }, { status: 404 });
  const refuse = (message: string) => HttpResponse.json({ message }, { status: 400 });
  const list = (rows: RoleDetail[], offset: number, limit: number) =>
    HttpResponse.json({
      message: 'Roles',
      data: { rows: rows.slice(offset, offset + limit).map(row), count: rows.length, countExact: true },
    });
  const byUpdated = (rows: RoleDetail[]) => [...rows].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  const touch = (target: RoleDetail) => (target.updatedAt = new Date(Date.UTC(2026, 5, 1, 0, 0, api.calls.length)).toISOString());

  server.use(
    http.all(/\/api\/v1\/(roles?|policies|authorization|users)(\/|$)/, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length);
      const body =
        request.method === 'GET' || request.method === 'DELETE'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined);
      api.calls.push({ method: request.method, path, body });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/authorization/policies`, () => HttpResponse.json({ message: 'Policies', data: CATALOGUE })),
    http.get(`${API}/roles/policies/pages`, () => HttpResponse.json({ message: 'Pages', data: PAGES })),
    http.get(`${API}/roles/cards`, () =>
      HttpResponse.json({
        message: 'Cards',
        data: {
          cards: [
            { key: 'total', label: 'Total', value: api.rows.length },
            { key: 'active', label: 'Active', value: api.rows.filter((entry) => entry.isActive).length },
            { key: 'system', label: 'System', value: api.rows.filter((entry) => entry.type === 'system').length },
          ],
        },
      }),
    ),
    http.get(`${API}/roles/filter/props/`, () =>
      HttpResponse.json({
        message: 'Props',
        data: {
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
      }),
    ),
    http.get(`${API}/roles/policy/:id`, ({ params }) => {
      const found = find(params.id);
      if (!found) return notFound();
      return HttpResponse.json({
        message: 'Role, policies and pages',
        data: {
          role: row(found),
          policies: found.policies,
          pages: PAGES.filter((page) => found.pageIds.includes(page.id)).map(({ groupTitle: _title, ...page }) => page),
        },
      });
    }),
    http.get(`${API}/roles/:offset/:limit`, ({ params }) => list(byUpdated(api.rows), Number(params.offset), Number(params.limit))),
    http.post(`${API}/roles/filter/:offset/:limit/:order/:field`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
      const rows = api.rows.filter(
        (entry) =>
          (filter.type === undefined || anyOf(filter.type).includes(entry.type)) &&
          (filter.user === undefined || anyOf(filter.user).includes(String(entry.createdBy))) &&
          (filter.status === undefined || anyOf(filter.status).includes(entry.isActive ? 'active' : 'inactive')) &&
          (filter.search === undefined || entry.name.toLowerCase().includes(String(filter.search).toLowerCase())) &&
          (filter.startDate === undefined || entry.createdAt.slice(0, 10) >= String(filter.startDate)) &&
          (filter.endDate === undefined || entry.createdAt.slice(0, 10) <= String(filter.endDate)),
      );
      const field = String(params.field) as keyof RoleDetail;
      const direction = params.order === 'ASC' ? 1 : -1;
      const sorted = [...rows].sort((a, b) => direction * String(a[field]).localeCompare(String(b[field])));
      return list(sorted, Number(params.offset), Number(params.limit));
    }),
    http.post(`${API}/roles/search/:offset/:limit`, async ({ params, request }) => {
      const { search } = (await request.json()) as { search: string };
      const rows = byUpdated(api.rows).filter((entry) => entry.name.toLowerCase().includes(search.toLowerCase()));
      return list(rows, Number(params.offset), Number(params.limit));
    }),
    http.get(`${API}/role/:id`, ({ params }) => {
      const found = find(params.id);
      return found ? HttpResponse.json({ message: 'Role', data: found }) : notFound();
    }),
    http.post(`${API}/roles`, async ({ request }) => {
      const body = (await request.json()) as { name: string; description?: string; policies?: PolicyEntry[]; pageIds?: string[] };
      if (api.rows.some((entry) => entry.name.toLowerCase() === body.name.toLowerCase())) {
        return HttpResponse.json({ message: `A role named "${body.name}" already exists` }, { status: 409 });
      }
      const created = role({
        id: `r-new-${api.rows.length}`,
        name: body.name,
        description: body.description ?? '',
        policies: body.policies ?? [],
        pageIds: body.pageIds ?? ['dashboard'],
      });
      api.rows.push(created);
      return HttpResponse.json({ message: `The role ${created.name} has been created`, data: created }, { status: 201 });
    }),
    http.put(`${API}/roles/activate/:id`, async ({ params, request }) => {
      const found = find(params.id);
      if (!found) return notFound();
      const { isActive } = (await request.json()) as { isActive: boolean };
      if (!isActive && found.type === 'system') return refuse(`isActive: ${found.name} is a system role and cannot be deactivated`);
      if (!isActive && found.userCount > 0) return refuse(`${found.userCount} users have this role; give them another role first`);
      found.isActive = isActive;
      touch(found);
      return HttpResponse.json({ message: `The role ${found.name} has been ${isActive ? 'activated' : 'deactivated'}`, data: found });
    }),
    http.put(`${API}/roles/policies/pages/:operation/:id`, async ({ params, request }) => {
      const found = find(params.id);
      if (!found) return notFound();
      const { pageIds } = (await request.json()) as { pageIds: string[] };
      if (pageIds.length === 0) return refuse('pageIds: choose at least one page');
      if (params.operation === 'assign') {
        const adminOnly = PAGES.filter((page) => page.adminOnly && pageIds.includes(page.id));
        if (!found.isAdmin && adminOnly.length > 0)
          return refuse(`pageIds: ${adminOnly[0].title} (${adminOnly[0].id}) is for admin roles only`);
        found.pageIds = PAGES.filter((page) => found.pageIds.includes(page.id) || pageIds.includes(page.id)).map((page) => page.id);
      } else {
        found.pageIds = found.pageIds.filter((id) => !pageIds.includes(id));
      }
      touch(found);
      return HttpResponse.json({
        message: `The pages of ${found.name} have been saved; its users see them from their next sign-in`,
        data: { roleId: found.id, pageIds: found.pageIds },
      });
    }),
    http.put(`${API}/roles/:id`, async ({ params, request }) => {
      const found = find(params.id);
      if (!found) return notFound();
      const body = (await request.json()) as { name?: string; description?: string };
      if (body.name === undefined && body.description === undefined) return refuse('give a name or a description to change');
      if (body.name !== undefined && body.name !== found.name && found.type === 'system')
        return refuse(`name: ${found.name} is a system role and cannot be renamed`);
      Object.assign(found, body);
      touch(found);
      return HttpResponse.json({ message: `The role ${found.name} has been saved`, data: found });
    }),
    http.delete(`${API}/roles/:id`, ({ params }) => {
      const found = find(params.id);
      if (!found) return notFound();
      if (found.type === 'system') return refuse(`id: ${found.name} is a system role and cannot be deleted`);
      if (found.userCount > 0) return refuse(`${found.userCount} users have this role; give them another role first`);
      api.rows = api.rows.filter((entry) => entry !== found);
      return HttpResponse.json({ message: `The role ${found.name} has been deleted` });
    }),
    http.put(`${API}/policies/assign/:id`, async ({ params, request }) => {
      const found = find(params.id);
      if (!found) return notFound();
      if (found.isAdmin) return refuse(`id: ${found.name} is an admin role: it holds every policy`);
      const { policies } = (await request.json()) as { policies: PolicyEntry[] };
      found.policies = policies;
      touch(found);
      return HttpResponse.json({ message: `The policies of ${found.name} have been saved`, data: { roleId: found.id, policies } });
    }),
    http.post(`${API}/users/filter/:limit/:offset/:order/:field`, async ({ request }) => {
      const { role: roleId } = (await request.json()) as { role: string };
      const holders = Array.from({ length: find(roleId)?.userCount ?? 0 }, (_, index) => ({
        id: `u-${roleId}-${index}`,
        email: `holder${index + 1}@acme.test`,
        firstName: `Holder`,
        lastName: String(index + 1),
      }));
      return HttpResponse.json({ message: 'Users', data: { rows: holders, count: holders.length, countExact: true } });
    }),
  );
  return api;
}
