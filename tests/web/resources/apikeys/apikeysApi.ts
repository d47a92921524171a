import { http, HttpResponse } from 'msw';
import type { ApiKey, ApiOperation, OperationDetail } from '../../../../resources/apikeys/types';
import { server } from '../../msw';

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

export interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

export interface ApiKeysApi {
  rows: ApiKey[];
  calls: Call[];
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string): void;
}

function matches(row: ApiKey, filter: Record<string, unknown>): boolean {
  const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
  if (filter.accessUser !== undefined && !anyOf(filter.accessUser).includes(row.accessUserId)) return false;
  if (filter.createduser !== undefined && !anyOf(filter.createduser).includes(String(row.createdBy))) return false;
  if (filter.isActive !== undefined && !anyOf(filter.isActive).includes(String(row.isActive))) return false;
  const deleted = filter.isDeleted === undefined ? ['false'] : anyOf(filter.isDeleted);
  if (!deleted.includes(String(row.isDeleted))) return false;
  if (filter.startDate !== undefined && row.createdAt.slice(0, 10) < String(filter.startDate)) return false;
  if (filter.endDate !== undefined && row.createdAt.slice(0, 10) > String(filter.endDate)) return false;
  if (filter.search !== undefined) {
    const needle = String(filter.search).toLowerCase();
    if (![row.name, row.prefix, row.accessUserName ?? ''].some((text) => text.toLowerCase().includes(needle))) return false;
  }
  return true;
}

/**
 * The API-keys routes and the operation catalogue over an in-memory table, as
 * docs/api/apikeys.md describes them; every call is recorded with its JSON body and headers.
 */
export function apiKeysApi(initial: ApiKey[] = keys()): ApiKeysApi {
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  const api: ApiKeysApi = {
    rows: [...initial],
    calls: [],
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message) => failures.push({ pattern, status, message }),
  };
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => HttpResponse.json({ message: 'API key not found' }, { status: 404 });
  const list = (rows: ApiKey[], offset: number, limit: number) =>
    HttpResponse.json({ message: 'API keys', data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } });

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length) + url.search;
      if (!/^\/(apikeys?|openapi|users\/active)/.test(path)) return undefined;
      const body =
        request.method === 'GET' || request.method === 'DELETE'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined);
      api.calls.push({ method: request.method, path, body, headers: Object.fromEntries(request.headers.entries()) });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/apikeys/:offset/:limit`, ({ params }) =>
      list(
        api.rows.filter((row) => !row.isDeleted),
        Number(params.offset),
        Number(params.limit),
      ),
    ),
    http.post(`${API}/apikey/filter/:offset/:limit`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      return list(
        api.rows.filter((row) => matches(row, filter)),
        Number(params.offset),
        Number(params.limit),
      );
    }),
    http.get(`${API}/apikey/filter/props`, () =>
      HttpResponse.json({
        message: 'API-key filters',
        data: {
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
      }),
    ),
    http.get(`${API}/apikey/cards`, () => {
      const live = api.rows.filter((row) => !row.isDeleted);
      return HttpResponse.json({
        message: 'API-key cards',
        data: {
          cards: [
            { key: 'total', label: 'API keys', value: live.length },
            { key: 'active', label: 'Active', value: live.filter((row) => row.isActive).length },
            { key: 'inactive', label: 'Inactive', value: live.filter((row) => !row.isActive).length },
            { key: 'expired', label: 'Expired', value: 0 },
            { key: 'deleted', label: 'Deleted', value: api.rows.length - live.length },
            { key: 'recentlyUsed', label: 'Used in the last 7 days', value: 1 },
          ],
        },
      });
    }),
    http.post(`${API}/apikey`, async ({ request }) => {
      const body = (await request.json()) as { name: string; accessUserId?: string; expiresAt?: string | null };
      const accessUserId = body.accessUserId ?? ADA;
      const row = apiKey({
        id: `k-new-${api.rows.length}`,
        name: body.name,
        prefix: 'NeWkEy123456',
        accessUserId,
        accessUserName: accessUserId === BOB ? 'Bob Builder' : 'Ada Admin',
        expiresAt: body.expiresAt ?? null,
        createdAt: '2026-11-22T08:00:00.000Z',
      });
      api.rows.unshift(row);
      return HttpResponse.json(
        { message: `API key "${row.name}" created. Copy the key now: it is not shown again.`, data: { ...row, key: NEW_SECRET } },
        { status: 201 },
      );
    }),
    http.put(`${API}/apikey/activate/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = true;
      return HttpResponse.json({ message: `API key "${row.name}" activated`, data: row });
    }),
    http.put(`${API}/apikey/deactivate/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = false;
      return HttpResponse.json({ message: `API key "${row.name}" deactivated`, data: row });
    }),
    http.get(`${API}/apikey/:id`, ({ params }) => {
      const row = find(params.id);
      return row ? HttpResponse.json({ message: 'API key', data: row }) : notFound();
    }),
    http.put(`${API}/apikey/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      Object.assign(row, (await request.json()) as Partial<ApiKey>);
      return HttpResponse.json({ message: `API key "${row.name}" saved`, data: row });
    }),
    http.delete(`${API}/apikey/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isDeleted = true;
      row.isActive = false;
      return HttpResponse.json({ message: `API key "${row.name}" deleted` });
    }),
    http.get(`${API}/openapi`, () => HttpResponse.json({ message: 'Operations an API key may be granted', data: CATALOGUE })),
    http.get(`${API}/openapi/:id`, ({ params }) => {
      const detail = DETAILS[String(params.id)];
      return detail
        ? HttpResponse.json({ message: 'Operation', data: detail })
        : HttpResponse.json({ message: 'Operation not found' }, { status: 404 });
    }),
    http.post(`${API}/openapi/assign/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.operations = ((await request.json()) as { operations: string[] }).operations;
      const n = row.operations.length;
      return HttpResponse.json({ message: `API key "${row.name}" may call ${n} operation${n === 1 ? '' : 's'}`, data: row });
    }),
    http.get(`${API}/users/active`, () =>
      HttpResponse.json({
        message: 'Active users',
        users: [
          { id: ADA, email: 'ada@acme.test', firstName: 'Ada', lastName: 'Admin', roleName: 'Admin', isAdmin: true },
          { id: BOB, email: 'bob@acme.test', firstName: 'Bob', lastName: 'Builder', roleName: 'Member', isAdmin: false },
        ],
      }),
    ),
  );
  return api;
}
