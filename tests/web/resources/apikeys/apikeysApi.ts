import { apikeysContract } from '../../../../common/contract/apikeys';
import type { ApiKey, ApiOperation, OperationDetail } from '../../../../resources/apikeys/types';
import { answered, contractFake, type ContractFake } from '../../contractFake';

export const API = '/api/v1';

export const ADA = '3f1b5a9e-0c61-4d2a-9d1e-0a0000000001';
export const BOB = '3f1b5a9e-0c61-4d2a-9d1e-0a0000000002';

/** The secret the fake server makes for a new key: only the create answer holds it. */
export const NEW_SECRET = 'dok_NeWkEy123456_Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE9dC8bA7_Zz';

export function apiKey(overrides: Partial<ApiKey> & Pick<ApiKey, 'id' | 'name'>): ApiKey {
  return {
    prefix: 'AbCdEf123456',
    accessUserId: ADA,
    accessUserName: 'Ada Admin',
    createdBy: ADA,
    createdByName: 'Ada Admin',
    isActive: true,
    isDeleted: false,
    expiresAt: null,
    lastUsedAt: null,
    operations: [],
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
    ...overrides,
  };
}

/** Ada's CI key (two operations, used), Bob's reporting key (inactive, expires in 2031), an old deleted one. */
export function keys(): ApiKey[] {
  return [
    apiKey({
      id: 'k-ci',
      name: 'CI pipeline',
      prefix: 'CiPipe123456',
      operations: ['get_users_offset_limit', 'get_workspaces'],
      lastUsedAt: '2026-11-20T10:00:00.000Z',
      createdAt: '2026-11-10T08:00:00.000Z',
    }),
    apiKey({
      id: 'k-report',
      name: 'Reporting',
      prefix: 'RePort987654',
      accessUserId: BOB,
      accessUserName: 'Bob Builder',
      isActive: false,
      expiresAt: '2031-01-31T00:00:00.000Z',
      createdAt: '2026-11-05T08:00:00.000Z',
    }),
    apiKey({
      id: 'k-old',
      name: 'Old import',
      prefix: 'OldImp000000',
      isActive: false,
      isDeleted: true,
      createdAt: '2026-01-05T08:00:00.000Z',
    }),
  ];
}

export const CATALOGUE: ApiOperation[] = [
  { id: 'get_users_offset_limit', method: 'GET', path: '/users/{offset}/{limit}', summary: 'Read users by offset and limit', tag: 'Users' },
  { id: 'get_users_active', method: 'GET', path: '/users/active', summary: 'Read active users', tag: 'Users' },
  { id: 'get_workspaces', method: 'GET', path: '/workspaces', summary: 'List the workspaces', tag: 'Workspaces' },
  { id: 'put_workspace', method: 'PUT', path: '/workspace', summary: 'Edit a workspace (name, description, active)', tag: 'Workspaces' },
  { id: 'post_roles', method: 'POST', path: '/roles', summary: 'Create a role', tag: 'Roles and policies' },
];

export const DETAILS: Record<string, OperationDetail> = {
  get_users_offset_limit: {
    ...CATALOGUE[0],
    description: 'The company users, a page at a time.',
    parameters: [
      { name: 'offset', in: 'path', required: true, description: null, schema: { type: 'integer', minimum: 0, maximum: 10000000 } },
      { name: 'limit', in: 'path', required: true, description: null, schema: { type: 'integer', minimum: 1, maximum: 1000 } },
    ],
    body: null,
  },
  post_roles: {
    ...CATALOGUE[4],
    description: null,
    parameters: [],
    body: {
      required: true,
      contentTypes: ['application/json'],
      schema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1, maxLength: 60 }, description: { type: 'string', maxLength: 500 } },
        required: ['name'],
      },
    },
  },
};

export type ApiKeysApi = ContractFake<ApiKey>;

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
const notFound = () => answered('API key not found', undefined, 404);

/**
 * A server honouring the API-keys contract (docs/api/apikeys.md) over an in-memory table, with
 * the operation catalogue and the grants beside it. Deleted keys are kept, marked, and stay out
 * of the lists unless the filter asks for them.
 */
export function apiKeysApi(initial: ApiKey[] = keys()): ApiKeysApi {
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const named = (row: ApiKey, what: string) => `API key "${row.name}" ${what}`;
  const api: ApiKeysApi = contractFake<ApiKey>(apikeysContract, initial, {
    created: (body) => {
      const accessUserId = String(body.accessUserId ?? ADA);
      return apiKey({
        id: `k-new-${api.rows.length}`,
        name: String(body.name),
        prefix: 'NeWkEy123456',
        accessUserId,
        accessUserName: accessUserId === BOB ? 'Bob Builder' : 'Ada Admin',
        expiresAt: (body.expiresAt as string | null | undefined) ?? null,
        createdAt: '2026-11-22T08:00:00.000Z',
      });
    },
    searchIn: ['name', 'prefix', 'accessUserName'],
    defaults: { isDeleted: 'false' },
    filterBy: {
      accessUser: (row, wanted) => anyOf(wanted).includes(row.accessUserId),
      createduser: (row, wanted) => anyOf(wanted).includes(String(row.createdBy)),
      isActive: (row, wanted) => anyOf(wanted).includes(String(row.isActive)),
      isDeleted: (row, wanted) => anyOf(wanted).includes(String(row.isDeleted)),
    },
    softDelete: (row) => Object.assign(row, { isDeleted: true, isActive: false }),
    filterProps: {
      accessUser: [
        { id: ADA, name: 'Ada Admin' },
        { id: BOB, name: 'Bob Builder' },
      ],
      createduser: [{ id: ADA, name: 'Ada Admin' }],
      isActive: [
        { id: 'true', name: 'Active' },
        { id: 'false', name: 'Inactive' },
      ],
      isDeleted: [
        { id: 'false', name: 'Not deleted' },
        { id: 'true', name: 'Deleted' },
      ],
    },
    cards: (rows) => {
      const live = rows.filter((row) => !row.isDeleted);
      return {
        cards: [
          { key: 'total', label: 'API keys', value: live.length },
          { key: 'active', label: 'Active', value: live.filter((row) => row.isActive).length },
          { key: 'inactive', label: 'Inactive', value: live.filter((row) => !row.isActive).length },
          { key: 'expired', label: 'Expired', value: 0 },
          { key: 'deleted', label: 'Deleted', value: rows.length - live.length },
          { key: 'recentlyUsed', label: 'Used in the last 7 days', value: 1 },
        ],
      };
    },
    messages: {
      one: () => 'API key',
      create: (row) => named(row, 'created. Copy the key now: it is not shown again.'),
      update: (row) => named(row, 'saved'),
      activate: (row) => named(row, 'activated'),
      deactivate: (row) => named(row, 'deactivated'),
      delete: (row) => named(row, 'deleted'),
    },
    // Only the create answer holds the key itself.
    data: { create: (row) => ({ ...row, key: NEW_SECRET }) },
    more: {
      'GET /openapi': () => answered('Operations an API key may be granted', CATALOGUE),
      'GET /openapi/{id}': ({ id }) => {
        const detail = DETAILS[String(id)];
        return detail ? answered('Operation', detail) : answered('Operation not found', undefined, 404);
      },
      'POST /openapi/assign/{id}': ({ id }, body) => {
        const row = find(id);
        if (!row) return notFound();
        row.operations = body.operations as string[];
        const n = row.operations.length;
        return answered(named(row, `may call ${n} operation${n === 1 ? '' : 's'}`), row);
      },
      'GET /users/active': () => ({
        json: {
          message: 'Active users',
          users: [
            { id: ADA, email: 'ada@acme.test', firstName: 'Ada', lastName: 'Admin', roleName: 'Admin', isAdmin: true },
            { id: BOB, email: 'bob@acme.test', firstName: 'Bob', lastName: 'Builder', roleName: 'Member', isAdmin: false },
          ],
        },
      }),
    },
  });
  return api;
}
