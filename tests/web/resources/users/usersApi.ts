import { usersContract } from '../../../../common/contract/users';
import type { PolicyEntry, User } from '../../../../resources/users/types';
import { answered, contractFake, type ContractFake } from '../../contractFake';

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

export const CATALOGUE = {
  resources: [
    { resource: 'users', label: 'Users', actions: ['read', 'create', 'update', 'delete'] },
    { resource: 'roles', label: 'Roles and policies', actions: ['read', 'create', 'update', 'delete'] },
    { resource: 'audits', label: 'System audits', actions: ['read'] },
    { resource: 'sessions', label: 'Sessions', actions: ['read', 'delete'] },
  ],
  actions: ['read', 'create', 'update', 'delete'],
};

export interface UsersApi extends ContractFake<User> {
  takenUsernames: Set<string>;
  /** The users' own policies and their roles' policies, per user id. */
  policies: Record<string, { role: PolicyEntry[]; user: PolicyEntry[] }>;
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);

/**
 * A server honouring the users contract (docs/api/users.md) over an in-memory table, with the
 * username checks, the demo-user creation, a user's policies and profile cards, and the pickers'
 * roles and workspaces beside it.
 */
export function usersApi(initial: User[] = people()): UsersApi {
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => answered('User not found', undefined, 404);
  const policiesOf = (id: string) => {
    const row = find(id)!;
    const own = api.policies[id] ?? { role: [], user: [] };
    return { userId: id, roleId: row.roleId, roleName: row.roleName, isAdmin: row.isAdmin, role: own.role, user: own.user, effective: [] };
  };
  const count = (rows: readonly User[], status: string) => rows.filter((row) => row.status === status).length;
  const api: UsersApi = Object.assign(
    contractFake<User>(usersContract, initial, {
      // An invitation: the user signs in once they accept it.
      created: (body) =>
        user({
          id: `u-new-${api.rows.length}`,
          email: String(body.email),
          firstName: String(body.firstName),
          lastName: String(body.lastName ?? ''),
          status: 'invited',
          lastLoginAt: null,
        }),
      data: { create: (row) => ({ id: row.id, email: row.email, status: 'invited' }) },
      searchIn: ['email', 'firstName', 'lastName'],
      filterBy: {
        role: (row, wanted) => anyOf(wanted).includes(row.roleId),
        workspace: (row, wanted) => row.workspaces.some((workspace) => anyOf(wanted).includes(workspace.id)),
      },
      applied: ({ workspaceIds, ...rest }, row) => ({
        ...rest,
        ...(Array.isArray(workspaceIds) ? { workspaces: WORKSPACES.filter((workspace) => workspaceIds.includes(workspace.id)) } : {}),
        ...(rest.roleId ? { roleName: ROLES.find((role) => role.id === rest.roleId)?.name ?? row.roleName } : {}),
        ...(rest.isActive === undefined ? {} : { status: rest.isActive ? 'active' : 'inactive' }),
      }),
      filterProps: {
        workspace: WORKSPACES,
        role: ROLES.map(({ id, name }) => ({ id, name })),
        status: [
          { id: 'active', name: 'Active' },
          { id: 'invited', name: 'Invited' },
          { id: 'inactive', name: 'Inactive' },
        ],
      },
      cards: (rows) => ({
        cards: [
          { key: 'total', label: 'Total', value: rows.length },
          { key: 'active', label: 'Active', value: count(rows, 'active'), link: '/users?filter=%7B%22status%22%3A%5B%22active%22%5D%7D' },
          { key: 'invited', label: 'Invited', value: count(rows, 'invited') },
          { key: 'inactive', label: 'Inactive', value: count(rows, 'inactive') },
          { key: 'twoFactor', label: 'Two-factor', value: rows.filter((row) => row.otpEnabled).length },
        ],
      }),
      messages: {
        one: () => 'User',
        create: (row) => `An invitation has been sent to ${row.email}`,
        update: (row) => `${row.email} has been saved`,
        delete: (row) => `${row.email} has been deleted`,
      },
      more: {
        'GET /users/username/check/{name}?userId={userId}': ({ name = '', userId }) => {
          const holder = api.rows.find((row) => row.username === name.toLowerCase());
          const available = !api.takenUsernames.has(name.toLowerCase()) || (holder !== undefined && holder.id === userId);
          return answered(available ? 'This username is available' : 'This username is taken', { available });
        },
        'GET /client/checkDuplicateUserName/{name}': ({ name = '' }) => {
          const duplicate = api.takenUsernames.has(name.toLowerCase());
          return answered(duplicate ? 'This username is taken' : 'This username is free', { duplicate });
        },
        // A demo company's user: made at once, able to sign in.
        'POST /client/createUser': (_, body) => {
          const row = user({
            id: `u-demo-${api.rows.length}`,
            email: String(body.email),
            username: String(body.username),
            firstName: String(body.firstName),
            lastName: String(body.lastName ?? ''),
          });
          api.rows.unshift(row);
          return answered(`${row.email} has been created and can sign in now`, row, 201);
        },
        'GET /roles/active': () => answered('Roles', ROLES),
        'GET /workspaces/active': () => answered('Workspaces', WORKSPACES),
        'GET /authorization/policies': () => answered('Policy catalogue', CATALOGUE),
        'GET /authorization/policies/{id}': ({ id = '' }) => (find(id) ? answered('User policies', policiesOf(id)) : notFound()),
        'POST /authorization/policies/{id}': ({ id = '' }, body) => {
          api.policies[id] = { role: api.policies[id]?.role ?? [], user: body.policies as PolicyEntry[] };
          return answered('The user policies have been saved; they apply from the user’s next action', policiesOf(id));
        },
        'GET /user/profile/cards/{id}/{days}': () =>
          answered('Profile cards', {
            cards: [
              { key: 'signins', label: 'Sign-ins', value: 12 },
              { key: 'failedSignins', label: 'Failed sign-ins', value: 3 },
              { key: 'changes', label: 'Changes', value: 1234 },
              { key: 'openSessions', label: 'Open sessions', value: 2 },
            ],
          }),
        'POST /user/token/resend': () => answered('If this account is waiting for activation, a new activation email is on its way'),
      },
    }),
    {
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
      } as UsersApi['policies'],
    },
  );
  return api;
}
