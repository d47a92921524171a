import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { apiRequest, type RequestOptions } from './http';

/**
 * react-admin's dataProvider over the spec's REST routes.
 *
 * The API has no uniform REST shape (lists are `/things/{offset}/{limit}`, filters are POSTs to
 * odd paths), so each resource declares its routes in a small table: how to build the request
 * and how to read the answer. A new resource adds an entry; the provider itself does not change.
 */
export interface ApiCall {
  path: string;
  method?: RequestOptions['method'];
  body?: unknown;
  query?: RequestOptions['query'];
}

export interface ListResult<R extends RaRecord = RaRecord> {
  data: R[];
  total: number;
}

export interface ListRoute {
  request: (params: GetListParams) => ApiCall;
  read: (answer: unknown) => ListResult;
}

export interface OneRoute {
  request: (id: Identifier) => ApiCall;
  read: (answer: unknown) => RaRecord;
}

export interface ResourceRoutes {
  list?: ListRoute;
  one?: OneRoute;
}

export type RouteMap = Record<string, ResourceRoutes>;

/** The spec pages by offset and limit; react-admin by page and perPage. */
export function pageToOffset(pagination: GetListParams['pagination']): { offset: number; limit: number } {
  const page = pagination?.page ?? 1;
  const perPage = pagination?.perPage ?? 10;
  return { offset: (page - 1) * perPage, limit: perPage };
}

function field(answer: unknown, name: string): unknown {
  return answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[name] : undefined;
}

/** Reads the API's list answer `{ data: { rows, count } }`. */
export function readRowsAndCount(answer: unknown): ListResult {
  const data = field(answer, 'data');
  const rows = field(data, 'rows');
  const count = field(data, 'count');
  if (!Array.isArray(rows)) throw new Error('The server answered a list without data.rows');
  return { data: rows as RaRecord[], total: typeof count === 'number' ? count : Number(count ?? rows.length) };
}

/** Reads the API's single-record answer `{ data: { … } }`. */
export function readData(answer: unknown): RaRecord {
  const data = field(answer, 'data');
  if (!data || typeof data !== 'object') throw new Error('The server answered without data');
  return data as RaRecord;
}

/** The common case: `GET {base}/{offset}/{limit}` and `GET {base}/{id}`. */
export function offsetLimitRoutes(listBase: string, oneBase: string = listBase): ResourceRoutes {
  return {
    list: {
      request: ({ pagination }) => {
        const { offset, limit } = pageToOffset(pagination);
        return { path: `${listBase}/${offset}/${limit}` };
      },
      read: readRowsAndCount,
    },
    one: {
      request: (id) => ({ path: `${oneBase}/${encodeURIComponent(String(id))}` }),
      read: readData,
    },
  };
}

export const routes: RouteMap = {
  outbox: offsetLimitRoutes('/mail/outbox'),
};

function call({ path, ...options }: ApiCall, signal?: AbortSignal): Promise<unknown> {
  return apiRequest(path, { ...options, signal });
}

function unsupported(resource: string, method: string): Promise<never> {
  return Promise.reject(new Error(`The console cannot ${method} "${resource}": no route is declared for it`));
}

export function createDataProvider(routeMap: RouteMap): DataProvider {
  const route = <K extends keyof ResourceRoutes>(resource: string, kind: K): ResourceRoutes[K] | undefined => routeMap[resource]?.[kind];

  const getOne = async (resource: string, id: Identifier, signal?: AbortSignal) => {
    const one = route(resource, 'one');
    if (!one) return unsupported(resource, 'getOne');
    return one.read(await call(one.request(id), signal));
  };

  return {
    async getList(resource, params) {
      const list = route(resource, 'list');
      if (!list) return unsupported(resource, 'getList');
      return list.read(await call(list.request(params), params.signal)) as never;
    },
    async getOne(resource, params) {
      return { data: (await getOne(resource, params.id, params.signal)) as never };
    },
    // References need getMany; without a batch route it is one getOne per id.
    async getMany(resource, params) {
      const records = await Promise.all(params.ids.map((id) => getOne(resource, id, params.signal)));
      return { data: records as never[] };
    },
    getManyReference: (resource) => unsupported(resource, 'getManyReference'),
    create: (resource) => unsupported(resource, 'create'),
    update: (resource) => unsupported(resource, 'update'),
    updateMany: (resource) => unsupported(resource, 'updateMany'),
    delete: (resource) => unsupported(resource, 'delete'),
    deleteMany: (resource) => unsupported(resource, 'deleteMany'),
  };
}

/** Dashboard cards: `GET /dashboard/topCards`, and `GET /admin/dashboard/cards` for admins. */
export interface DashboardCard {
  key: string;
  label: string;
  value: number;
  link?: string;
}

export type DashboardCardScope = 'top' | 'admin';

const DASHBOARD_CARD_PATHS: Record<DashboardCardScope, string> = {
  top: '/dashboard/topCards',
  admin: '/admin/dashboard/cards',
};

/** An active user of the company (`GET /users/active`). */
export interface ActiveUser {
  id: string;
  email: string;
  firstName?: string;
  lastName?: string;
  roleName?: string;
  isAdmin?: boolean;
}

/** Calls that are not a resource's CRUD, as react-admin's custom dataProvider methods. */
export const consoleMethods = {
  async getDashboardCards(scope: DashboardCardScope): Promise<DashboardCard[]> {
    const answer = await apiRequest<{ data?: { cards?: DashboardCard[] } }>(DASHBOARD_CARD_PATHS[scope]);
    return answer?.data?.cards ?? [];
  },
  async getActiveUsers(): Promise<ActiveUser[]> {
    const answer = await apiRequest<{ users?: ActiveUser[] }>('/users/active');
    return answer?.users ?? [];
  },
};

export type ConsoleDataProvider = DataProvider & typeof consoleMethods;

export const dataProvider: ConsoleDataProvider = { ...createDataProvider(routes), ...consoleMethods };
