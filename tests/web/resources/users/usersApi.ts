import { http, HttpResponse } from 'msw';
import type { PolicyEntry, User } from '../../../../resources/users/types';
import { server } from '../../msw';

export const API = '/api/v1';

export const ROLE_ADMIN = '0b5f7a52-1d7e-4c1a-9a43-1f6f0a9d0001';
export const ROLE_MEMBER = '0b5f7a52-1d7e-4c1a-9a43-1f6f0a9d0002';
export const ROLE_ANALYST = '0b5f7a52-1d7e-4c1a-9a43-1f6f0a9d0003';
export const WS_ANALYTICS = '7c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e401';
export const WS_FINANCE = '7c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e402';

export const ROLES = [
  { id: ROLE_ADMIN, name: 'Admin', isAdmin: true },
  { id: ROLE_MEMBER, name: 'Member', isAdmin: false },
  { id: ROLE_ANALYST, name: 'Analyst', isAdmin: false },
];
export const WORKSPACES = [
  { id: WS_ANALYTICS, name: 'Analytics' },
  { id: WS_FINANCE, name: 'Finance' },
];

export function user(overrides: Partial<User> & Pick<User, 'id' | 'email'>): User {
  return {
    username: null,
    firstName: 'First',
    lastName: 'Last',
    phone: null,
    status: 'active',
    isActive: true,
    roleId: ROLE_MEMBER,
    roleName: 'Member',
    isAdmin: false,
    workspaces: [],
    otpEnabled: false,
    otpRequired: false,
    aiNotification: false,
    hasAvatar: false,
    lastLoginAt: '2026-11-20T09:00:00.000Z',
    createdAt: '2026-10-01T08:00:00.000Z',
    updatedAt: '2026-10-01T08:00:00.000Z',
    createdBy: null,
    ...overrides,
  };
}

/** Ada (the admin signed in), Bob (a member in two workspaces), Cy (invited, never signed in). */
export function people(): User[] {
  return [
    user({
      id: 'u-ada',
      email: 'ada@acme.test',
      username: 'ada',
      firstName: 'Ada',
      lastName: 'Admin',
      roleId: ROLE_ADMIN,
      roleName: 'Admin',
      isAdmin: true,
      otpEnabled: true,
      createdAt: '2026-10-03T08:00:00.000Z',
    }),
    user({
      id: 'u-bob',
      email: 'bob@acme.test',
      username: 'bob',
      firstName: 'Bob',
      lastName: 'Builder',
      phone: '+44 20 7946 0958',
      workspaces: [
        { id: WS_ANALYTICS, name: 'Analytics' },
        { id: WS_FINANCE, name: 'Finance' },
      ],
      createdAt: '2026-10-02T08:00:00.000Z',
    }),
    user({
      id: 'u-cy',
      email: 'cy@acme.test',
      firstName: 'Cy',
      lastName: 'Newcomer',
      status: 'invited',
      lastLoginAt: null,
      createdAt: '2026-10-01T08:00:00.000Z',
    }),
  ];
}

export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

export interface UsersApi {
  rows: User[];
  calls: Call[];
  /** `METHOD path` of every call so far, optionally only those matching. */
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  /** Makes calls matching `pattern` fail with `status` and `message` (until `release`). */
  failWith(pattern: RegExp, status: number, message: string): void;
  /** Holds calls matching `pattern` until the returned function is called. */
  hold(pattern: RegExp): () => void;
  takenUsernames: Set<string>;
  /** The users' own policies and their roles' policies, per user id. */
  policies: Record<string, { role: PolicyEntry[]; user: PolicyEntry[] }>;
}

export const CATALOGUE = {
  resources: [
    { resource: 'users', label: 'Users', actions: ['read', 'create', 'update', 'delete'] },
    { resource: 'roles', label: 'Roles and policies', actions: ['read', 'create', 'update', 'delete'] },
    { resource: 'audits', label: 'System audits', actions: ['read'] },
    { resource: 'sessions', label: 'Sessions', actions: ['read', 'delete'] },
  ],
  actions: ['read', 'create', 'update', 'delete'],
};

function list(rows: User[], offset: number, limit: number) {
  return HttpResponse.json({ message: 'Users', data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } });
}

/**
 * The users routes over an in-memory table, as docs/api/users.md describes them: every call is
 * recorded (method, path with its query, JSON body).
 */
export function usersApi(initial: User[] = people()): UsersApi {
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  const holds: { pattern: RegExp; gate: Promise<void> }[] = [];
  const api: UsersApi = {
    rows: [...initial],
    calls: [],
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message) => failures.push({ pattern, status, message }),
    hold(pattern) {
      let release!: () => void;
      holds.push({ pattern, gate: new Promise<void>((resolve) => (release = resolve)) });
      return release;
    },
    takenUsernames: new Set(['taken', 'ada', 'bob']),
    policies: {
      'u-bob': {
        role: [
          { resource: 'users', actions: ['read'] },
          { resource: 'audits', actions: ['read'] },
        ],
        user: [],
      },
      'u-cy': { role: [{ resource: 'users', actions: ['read'] }], user: [{ resource: 'roles', actions: ['read'] }] },
    },
  };
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => HttpResponse.json({ message: 'User not found' }, { status: 404 });
  const policiesOf = (id: string) => {
    const row = find(id)!;
    const own = api.policies[id] ?? { role: [], user: [] };
    return { userId: id, roleId: row.roleId, roleName: row.roleName, isAdmin: row.isAdmin, role: own.role, user: own.user, effective: [] };
  };

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length) + url.search;
      const type = request.headers.get('content-type') ?? '';
      const body = type.includes('application/json') ? await request.clone().json() : undefined;
      api.calls.push({ method: request.method, path, body });
      const held = holds.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (held) await held.gate;
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/users/filter/props`, () =>
      HttpResponse.json({
        message: 'User filter choices',
        data: {
          workspace: WORKSPACES,
          role: ROLES.map(({ id, name }) => ({ id, name })),
          status: [
            { id: 'active', name: 'Active' },
            { id: 'invited', name: 'Invited' },
            { id: 'inactive', name: 'Inactive' },
          ],
        },
      }),
    ),
    http.get(`${API}/users/cards`, () => {
      const count = (status: string) => api.rows.filter((row) => row.status === status).length;
      return HttpResponse.json({
        message: 'User cards',
        data: {
          cards: [
            { key: 'total', label: 'Total', value: api.rows.length },
            { key: 'active', label: 'Active', value: count('active'), link: '/users?filter=%7B%22status%22%3A%5B%22active%22%5D%7D' },
            { key: 'invited', label: 'Invited', value: count('invited') },
            { key: 'inactive', label: 'Inactive', value: count('inactive') },
            { key: 'twoFactor', label: 'Two-factor', value: api.rows.filter((row) => row.otpEnabled).length },
          ],
        },
      });
    }),
    http.get(`${API}/users/username/check/:name`, ({ params, request }) => {
      const userId = new URL(request.url).searchParams.get('userId');
      const name = String(params.name).toLowerCase();
      const holder = api.rows.find((row) => row.username === name);
      const available = !api.takenUsernames.has(name) || (holder !== undefined && holder.id === userId);
      return HttpResponse.json({ message: available ? 'This username is available' : 'This username is taken', data: { available } });
    }),
    http.get(`${API}/client/checkDuplicateUserName/:name`, ({ params }) => {
      const duplicate = api.takenUsernames.has(String(params.name).toLowerCase());
      return HttpResponse.json({ message: duplicate ? 'This username is taken' : 'This username is free', data: { duplicate } });
    }),
    http.get(`${API}/users/:offset/:limit`, ({ params }) => list(api.rows, Number(params.offset), Number(params.limit))),
    http.post(`${API}/users/filter/:limit/:offset/:order/:field`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
      const rows = api.rows.filter(
        (row) =>
          (filter.status === undefined || anyOf(filter.status).includes(row.status)) &&
          (filter.role === undefined || anyOf(filter.role).includes(row.roleId)) &&
          (filter.workspace === undefined || row.workspaces.some((workspace) => anyOf(filter.workspace).includes(workspace.id))) &&
          (filter.search === undefined ||
            `${row.email} ${row.firstName} ${row.lastName}`.toLowerCase().includes(String(filter.search).toLowerCase())),
      );
      return list(rows, Number(params.offset), Number(params.limit));
    }),
    http.get(`${API}/users/:id`, ({ params }) => {
      const row = find(params.id);
      return row ? HttpResponse.json({ message: 'User', data: row }) : notFound();
    }),
    http.delete(`${API}/users/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      api.rows = api.rows.filter((candidate) => candidate !== row);
      return HttpResponse.json({ message: `${row.email} has been deleted` });
    }),
    http.post(`${API}/user`, async ({ request }) => {
      const body = (await request.json()) as {
        email: string;
        firstName: string;
        lastName?: string;
        roleId: string;
        workspaceIds?: string[];
      };
      const id = `u-new-${api.rows.length}`;
      api.rows.unshift(
        user({ id, email: body.email, firstName: body.firstName, lastName: body.lastName ?? '', status: 'invited', lastLoginAt: null }),
      );
      return HttpResponse.json(
        { message: `An invitation has been sent to ${body.email}`, data: { id, email: body.email, status: 'invited' } },
        { status: 201 },
      );
    }),
    http.put(`${API}/user/profile/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      const body = (await request.json()) as Partial<User> & { workspaceIds?: string[] };
      const { workspaceIds, ...rest } = body;
      Object.assign(row, rest);
      if (body.isActive !== undefined) row.status = body.isActive ? 'active' : 'inactive';
      if (workspaceIds) row.workspaces = WORKSPACES.filter((workspace) => workspaceIds.includes(workspace.id));
      if (body.roleId) row.roleName = ROLES.find((role) => role.id === body.roleId)?.name ?? row.roleName;
      return HttpResponse.json({ message: `${row.email} has been saved`, data: row });
    }),
    http.post(`${API}/client/createUser`, async ({ request }) => {
      const body = (await request.json()) as { email: string; username: string; firstName: string; lastName?: string };
      const row = user({
        id: `u-demo-${api.rows.length}`,
        email: body.email,
        username: body.username,
        firstName: body.firstName,
        lastName: body.lastName ?? '',
      });
      api.rows.unshift(row);
      return HttpResponse.json({ message: `${body.email} has been created and can sign in now`, data: row }, { status: 201 });
    }),
    http.get(`${API}/roles/active`, () => HttpResponse.json({ message: 'Roles', data: ROLES })),
    http.get(`${API}/workspaces/active`, () => HttpResponse.json({ message: 'Workspaces', data: WORKSPACES })),
    http.get(`${API}/authorization/policies`, () => HttpResponse.json({ message: 'Policy catalogue', data: CATALOGUE })),
    http.get(`${API}/authorization/policies/:id`, ({ params }) =>
      find(params.id) ? HttpResponse.json({ message: 'User policies', data: policiesOf(String(params.id)) }) : notFound(),
    ),
    http.post(`${API}/authorization/policies/:id`, async ({ params, request }) => {
      const id = String(params.id);
      const { policies } = (await request.json()) as { policies: PolicyEntry[] };
      api.policies[id] = { role: api.policies[id]?.role ?? [], user: policies };
      return HttpResponse.json({
        message: 'The user policies have been saved; they apply from the user’s next action',
        data: policiesOf(id),
      });
    }),
    http.get(`${API}/user/profile/cards/:id/:days`, () =>
      HttpResponse.json({
        message: 'Profile cards',
        data: {
          cards: [
            { key: 'signins', label: 'Sign-ins', value: 12 },
            { key: 'failedSignins', label: 'Failed sign-ins', value: 3 },
            { key: 'changes', label: 'Changes', value: 1234 },
            { key: 'openSessions', label: 'Open sessions', value: 2 },
          ],
        },
      }),
    ),
    http.post(`${API}/user/token/resend`, () =>
      HttpResponse.json({ message: 'If this account is waiting for activation, a new activation email is on its way' }),
    ),
  );
  return api;
}
