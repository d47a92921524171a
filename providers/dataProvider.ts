import type { DataProvider, GetListParams, GetListResult, GetManyReferenceParams, Identifier, RaRecord, SortPayload } from 'react-admin';
import {
  DATE_RANGE_SOURCES,
  routeSpec,
  type Choice,
  type ListSort,
  type RelatedRoutes,
  type ResourceRoutes,
  type RouteKind,
  type RouteSpec,
} from '../common/contract/routes';
import { ACTIVE_USERS_PATH, DASHBOARD_CARD_PATHS, type DashboardCardScope } from './dashboardPaths';
import { ApiError, apiRequest, startAhead } from './http';
import { callAction, fillPath } from './actions';

export { callAction, fillPath, type ActionAnswer, type ActionCall } from './actions';

/**
 * react-admin's dataProvider over the spec's REST routes. It knows the contract's conventions
 * (offset/limit paging in the path, filter POSTs, the list and record answers) and nothing else
 * about a server: each resource's paths, methods, body encodings and body fields come from its
 * `ResourceCalls`, which the console derives from its declarations (src/framework/declaration.ts).
 */

/** What the provider needs to know of a resource to call it. */
export interface ResourceCalls {
  /** react-admin's resource name. */
  name: string;
  routes: ResourceRoutes;
  /** Its lists that belong to another record, by that record's field (getManyReference's `target`). */
  related: RelatedRoutes;
  /** The filter route's body fields; anything else in react-admin's filter is not sent. */
  filterFields: string[];
  /** The fields a create or an update sends; null: whatever the caller gives. */
  createFields: string[] | null;
  editFields: string[] | null;
  updateSends: 'changed' | 'all';
  /** The boolean field the activate/deactivate routes flip, when they are offered. */
  activationField: string | null;
  paged: boolean;
  /** Fields a sort may name: the sortable ones and the default's. */
  sortFields: Set<string>;
  /** The order the list starts in (the server's own when its field is empty). */
  defaultSort: ListSort;
  /** Rows on the list's first page. */
  perPage: number;
}

export type RouteMap = Record<string, ResourceCalls>;

function isDefaultSort(calls: ResourceCalls, sort: ListSort | undefined): boolean {
  if (!sort?.field) return true;
  return sort.field === calls.defaultSort.field && sort.order === calls.defaultSort.order;
}

/** The spec pages by offset and limit; react-admin by page and perPage. Defaults 0/10. */
export function pageToOffset(pagination: GetListParams['pagination'] | undefined): { offset: number; limit: number } {
  const page = pagination?.page ?? 1;
  const perPage = pagination?.perPage ?? 10;
  return { offset: (page - 1) * perPage, limit: perPage };
}

export type PathValues = Partial<Record<'offset' | 'limit' | 'order' | 'field' | 'id' | 'search', string | number>>;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** The filter body: the declared filter fields that hold a value (empty ones are "no filter"). */
export function filterBody(filterFields: readonly string[], filter: Record<string, unknown> | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of filterFields) {
    const value = filter?.[field];
    if (!isEmpty(value)) body[field] = value;
  }
  return body;
}

/**
 * A form body: arrays as repeated fields, objects as JSON, files as they are. A form has no null:
 * a field cleared in an edit (null) is sent empty, so that the server clears it rather than never
 * hearing of it and keeping the old value.
 */
export function toFormData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  const append = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null) form.append(key, '');
    else if (value instanceof Blob) form.append(key, value);
    else if (value instanceof Date) form.append(key, value.toISOString());
    else if (typeof value === 'object') form.append(key, JSON.stringify(value));
    else form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) value.forEach((item) => append(key, item));
    else append(key, value);
  }
  return form;
}

function field(value: unknown, name: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

export interface ListAnswer {
  rows: RaRecord[];
  count?: number;
  countExact?: boolean;
}

/** A list answer: `{ data: { rows, count, countExact } }`, or for unpaged lists `{ data: [...] }` or a bare array. */
export function readList(answer: unknown): ListAnswer {
  if (Array.isArray(answer)) return { rows: answer as RaRecord[] };
  const data = field(answer, 'data');
  if (Array.isArray(data)) return { rows: data as RaRecord[] };
  const rows = field(data, 'rows');
  if (!Array.isArray(rows)) throw new Error('The server answered a list without data.rows');
  const count = field(data, 'count');
  const countExact = field(data, 'countExact');
  return {
    rows: rows as RaRecord[],
    count: typeof count === 'number' ? count : count === undefined || count === null ? undefined : Number(count),
    countExact: countExact === false ? false : countExact === true ? true : undefined,
  };
}

/** A record answer `{ message, data: { … } }`. */
export function readRecord(answer: unknown): RaRecord {
  const data = field(answer, 'data');
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('The server answered without data');
  return data as RaRecord;
}

function messageOf(answer: unknown): string | undefined {
  const message = field(answer, 'message');
  return typeof message === 'string' && message ? message : undefined;
}

function optionalRecord(answer: unknown): RaRecord | null {
  const data = field(answer, 'data');
  return data && typeof data === 'object' && !Array.isArray(data) && 'id' in data ? (data as RaRecord) : null;
}

/** Choices from any list-shaped answer: `{ id, name }` rows, or rows named by `optionText`. */
export function readChoices(answer: unknown, optionText = 'name'): Choice[] {
  const rows = readList(answer).rows;
  return rows.map((row) => ({ id: row.id as Choice['id'], name: String(row[optionText] ?? row.name ?? row.id) }));
}

/** A card of a list's summary (`…/cards`), the same shape as the dashboard's. */
export interface DashboardCard {
  key: string;
  label: string;
  value: number;
  link?: string;
}

export type ColumnScope = 'user' | 'tenant';

export interface ColumnChoice {
  hidden: string[];
  order?: string[] | null;
}

export type ColumnChoices = Record<string, { tenant: ColumnChoice | null; user: ColumnChoice | null }>;

export interface ActivationResult {
  data: RaRecord | null;
  message?: string;
}

/** Calls beyond react-admin's CRUD that every declared list may use. */
export interface DeclaredMethods {
  /** `…/filter/props`: the filter bar's choices per filter field. */
  getFilterProps(resource: string): Promise<Record<string, Choice[]>>;
  /** `…/cards`: the summary above the list. */
  getCards(resource: string): Promise<DashboardCard[]>;
  /** The activation switch: activate or deactivate one record. */
  activate(resource: string, params: { id: Identifier; active: boolean }): Promise<ActivationResult>;
  /** Choices for a select from any route answering a list. */
  getChoices(path: string, optionText?: string): Promise<Choice[]>;
  /** One of a contract's actions, its calls beyond the standard ones (`rolesContract.actions.assignPolicies`). */
  call: typeof callAction;
  /**
   * Starts the calls a list page makes as it opens (its first page, cards and filter choices),
   * for a page the user is about to open: the page then takes their answers.
   */
  prepareList(resource: string): void;
}

export type DeclaredDataProvider = DataProvider & DeclaredMethods;

interface Call {
  spec: RouteSpec;
  values: PathValues;
  body?: Record<string, unknown>;
}

function send({ spec, values, body }: Call, signal?: AbortSignal): Promise<unknown> {
  const path = fillPath(spec.path, values);
  const withFixed = spec.body ? { ...body, ...spec.body } : body;
  const withId = spec.idField && values.id !== undefined ? { ...withFixed, [spec.idField]: values.id } : withFixed;
  const payload = withId && spec.encoding === 'form' ? toFormData(withId) : withId;
  return apiRequest(path, { method: spec.method, body: payload, signal });
}

/** Starts a GET call ahead of the view that will make it (providers/http.ts); other calls wait for the view. */
function sendAhead({ spec, values, body }: Call): void {
  if ((spec.method ?? 'GET') !== 'GET' || body !== undefined || spec.body) return;
  startAhead(fillPath(spec.path, values));
}

/** A page of a list as react-admin takes it: its total, or (past the server's count cap) whether more follow. */
export function listResult(answer: ListAnswer, offset: number, limit: number): GetListResult {
  if (answer.countExact === false || answer.count === undefined) {
    // Past the server's count cap (or without a count) the pages themselves say whether more follow.
    return {
      data: answer.rows,
      pageInfo: { hasNextPage: answer.rows.length >= limit, hasPreviousPage: offset > 0 },
      meta: { count: answer.count, countExact: false },
    };
  }
  return { data: answer.rows, total: answer.count, meta: { count: answer.count, countExact: true } };
}

function notDeclared(resource: string, method: string): Error {
  return new Error(`The console cannot ${method} "${resource}": no route is declared for it`);
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b));
}

/** An unpaged list is filtered, sorted and paged here, the way the filter route would on the server. */
function clientSide(rows: RaRecord[], body: Record<string, unknown>, sort: SortPayload | null): RaRecord[] {
  const [startField, endField] = DATE_RANGE_SOURCES;
  let result = rows.filter((row) =>
    Object.entries(body).every(([name, wanted]) => {
      if (name === 'search') {
        const needle = String(wanted).toLowerCase();
        return Object.values(row).some((value) => typeof value === 'string' && value.toLowerCase().includes(needle));
      }
      if (name === startField) return String(row.createdAt ?? '') >= String(wanted);
      if (name === endField) return String(row.createdAt ?? '').slice(0, String(wanted).length) <= String(wanted);
      const values = Array.isArray(wanted) ? wanted : [wanted];
      return values.some((value) => String(value) === String(row[name]));
    }),
  );
  if (sort?.field) {
    const direction = sort.order === 'DESC' ? -1 : 1;
    result = [...result].sort((a, b) => direction * compare(a[sort.field], b[sort.field]));
  }
  return result;
}

/** Reading past this many rows to find a record or several needs a one-route. */
const FIND_IN_LIST_LIMIT = 1000;

function changedFields(
  data: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
  fields: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of fields) {
    if (!(name in data)) continue;
    if (previous && JSON.stringify(data[name] ?? null) === JSON.stringify(previous[name] ?? null)) continue;
    body[name] = data[name] === undefined ? null : data[name];
  }
  return body;
}

function pick(data: Record<string, unknown>, fields: readonly string[] | null, dropEmpty: boolean): Record<string, unknown> {
  const names = fields ?? Object.keys(data).filter((name) => name !== 'id');
  const body: Record<string, unknown> = {};
  for (const name of names) {
    if (!(name in data)) continue;
    if (dropEmpty && isEmpty(data[name])) continue;
    body[name] = data[name];
  }
  return body;
}

export function createDataProvider(resources: readonly ResourceCalls[]): DeclaredDataProvider {
  const routeMap: RouteMap = Object.fromEntries(resources.map((calls) => [calls.name, calls]));

  const entry = (resource: string, method: string): ResourceCalls => {
    const found = routeMap[resource];
    if (!found) throw notDeclared(resource, method);
    return found;
  };
  const route = (resource: string, kind: RouteKind, method: string) => {
    const declared = entry(resource, method).routes[kind];
    if (!declared) throw notDeclared(resource, method);
    return routeSpec(declared as NonNullable<typeof declared>, kind);
  };

  /** The call a list page asks for, and whether the page is cut from the whole list here. */
  function listCall(resource: string, params: Partial<GetListParams>) {
    const map = entry(resource, 'getList');
    const { offset, limit } = pageToOffset(params.pagination);
    const body = filterBody(map.filterFields, params.filter);
    const filtering = Object.keys(body).length > 0;
    // A sort on a field the declaration does not sort by (react-admin's own `id` default, say) is no sort.
    const wanted = params.sort?.field && map.sortFields.has(params.sort.field) ? params.sort : undefined;
    const sorted = !isDefaultSort(map, wanted);
    const sort = wanted ?? map.routes.filter?.sort;
    const paging = { offset, limit };
    // The list's own order is asked for only where the path needs it: a sort in the query is sent when chosen.
    const sortInPath = (map.routes.filter?.path ?? '').split('?')[0].includes('{field}');
    const sortValues = sort?.field && (sorted || sortInPath) ? { order: sort.order, field: sort.field } : {};
    const onlySearch = filtering && Object.keys(body).every((name) => name === 'search');

    let call: Call;
    let local = false;
    if (!filtering && !sorted) {
      call = { spec: route(resource, 'list', 'getList'), values: paging };
      local = !map.paged;
    } else if (onlySearch && !sorted && map.routes.search) {
      const spec = route(resource, 'search', 'getList');
      const search = String(body.search);
      call = {
        spec,
        values: { ...paging, search },
        body: spec.method === 'GET' ? undefined : { search, ...(spec.pagingInBody ? paging : {}) },
      };
    } else if (map.routes.filter) {
      const spec = route(resource, 'filter', 'getList');
      call = { spec, values: { ...paging, ...sortValues }, body: spec.pagingInBody ? { ...body, ...paging } : body };
    } else if (!map.paged) {
      call = { spec: route(resource, 'list', 'getList'), values: {} };
      local = true;
    } else {
      throw notDeclared(resource, 'filter or sort');
    }
    return { call, local, body, sorted, wanted, offset, limit };
  }

  async function getList(resource: string, params: Partial<GetListParams>): Promise<GetListResult> {
    const { call, local, body, sorted, wanted, offset, limit } = listCall(resource, params);
    const answer = readList(await send(call, params.signal));
    if (local) {
      const rows = clientSide(answer.rows, body, sorted ? (wanted ?? null) : null);
      return { data: rows.slice(offset, offset + limit), total: rows.length };
    }
    return listResult(answer, offset, limit);
  }

  /**
   * The records that belong to another one: its related route when the entity declares one for
   * that target, else the list filtered by the target when the filter takes it.
   */
  async function getManyReference(resource: string, params: GetManyReferenceParams): Promise<GetListResult> {
    const map = entry(resource, 'getManyReference');
    const related = map.related[params.target];
    if (related) {
      const { offset, limit } = pageToOffset(params.pagination);
      const answer = readList(await send({ spec: routeSpec(related, 'list'), values: { id: params.id, offset, limit } }, params.signal));
      return listResult(answer, offset, limit);
    }
    if (map.filterFields.includes(params.target)) {
      return getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
    }
    throw new Error(`The resource "${resource}" declares no list by "${params.target}" (related route or filter field)`);
  }

  async function findInList(resource: string, ids: readonly Identifier[], signal?: AbortSignal): Promise<RaRecord[]> {
    const spec = route(resource, 'list', 'getOne');
    const { rows } = readList(await send({ spec, values: { offset: 0, limit: FIND_IN_LIST_LIMIT } }, signal));
    const wanted = new Set(ids.map(String));
    return rows.filter((row) => wanted.has(String(row.id)));
  }

  async function getOne(resource: string, id: Identifier, signal?: AbortSignal): Promise<RaRecord> {
    const map = entry(resource, 'getOne');
    if (map.routes.one) {
      return readRecord(await send({ spec: route(resource, 'one', 'getOne'), values: { id } }, signal));
    }
    const [record] = await findInList(resource, [id], signal);
    if (!record) throw new ApiError('Record not found', 404, null);
    return record;
  }

  async function activate(resource: string, { id, active }: { id: Identifier; active: boolean }): Promise<ActivationResult> {
    const map = entry(resource, 'activate');
    if (!map.activationField) throw notDeclared(resource, 'activate');
    const answer = await send({ spec: route(resource, active ? 'activate' : 'deactivate', 'activate'), values: { id } });
    return { data: optionalRecord(answer), message: messageOf(answer) };
  }

  async function update(resource: string, id: Identifier, data: Record<string, unknown>, previousData?: Record<string, unknown>) {
    const map = entry(resource, 'update');
    const spec = route(resource, 'update', 'update');
    const fields = map.editFields ?? Object.keys(data).filter((name) => name !== 'id');
    const body = map.updateSends === 'changed' && previousData ? changedFields(data, previousData, fields) : pick(data, fields, false);
    const answer = await send({ spec, values: { id }, body });
    const record = optionalRecord(answer) ?? ({ ...previousData, ...data, id } as RaRecord);
    return { data: record, meta: { message: messageOf(answer) } };
  }

  async function remove(resource: string, id: Identifier, previousData?: RaRecord) {
    const answer = await send({ spec: route(resource, 'delete', 'delete'), values: { id } });
    return { data: (previousData ?? { id }) as RaRecord, meta: { message: messageOf(answer) } };
  }

  /** One call per record, in turn (the server has no batch routes); the first failure is reported after all were tried. */
  async function eachOf<T>(ids: readonly Identifier[], run: (id: Identifier) => Promise<T>) {
    const done: Identifier[] = [];
    let failure: unknown = null;
    for (const id of ids) {
      try {
        await run(id);
        done.push(id);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure) throw failure;
    return { data: done };
  }

  return {
    getList: (resource, params) => getList(resource, params) as never,
    async getOne(resource, params) {
      return { data: (await getOne(resource, params.id, params.signal)) as never };
    },
    async getMany(resource, params) {
      const map = entry(resource, 'getMany');
      if (map.routes.one) {
        const records = await Promise.all(params.ids.map((id) => getOne(resource, id, params.signal)));
        return { data: records as never[] };
      }
      return { data: (await findInList(resource, params.ids, params.signal)) as never[] };
    },
    getManyReference: (resource, params) => getManyReference(resource, params) as never,
    async create(resource, params) {
      const map = entry(resource, 'create');
      const spec = route(resource, 'create', 'create');
      const data = params.data as Record<string, unknown>;
      const answer = await send({ spec, values: {}, body: pick(data, map.createFields, true) });
      const record = optionalRecord(answer) ?? ({ ...data, id: field(field(answer, 'data'), 'id') } as RaRecord);
      return { data: record as never, meta: { message: messageOf(answer) } };
    },
    update: (resource, params) =>
      update(
        resource,
        params.id,
        params.data as Record<string, unknown>,
        params.previousData as Record<string, unknown> | undefined,
      ) as never,
    async updateMany(resource, params) {
      const map = entry(resource, 'updateMany');
      const data = params.data as Record<string, unknown>;
      const keys = Object.keys(data);
      // Flipping the activation flag of several records goes through the activation routes.
      if (map.activationField && keys.length === 1 && keys[0] === map.activationField) {
        return eachOf(params.ids, (id) => activate(resource, { id, active: Boolean(data[keys[0]]) }));
      }
      return eachOf(params.ids, (id) => update(resource, id, data));
    },
    delete: (resource, params) => remove(resource, params.id, params.previousData) as never,
    deleteMany: (resource, params) => eachOf(params.ids, (id) => remove(resource, id)),

    prepareList(resource) {
      const map = routeMap[resource];
      if (!map) return;
      // The list page as it first opens: its first page in the default order, unfiltered.
      const { call } = listCall(resource, {
        pagination: { page: 1, perPage: map.perPage },
        sort: map.defaultSort,
        filter: {},
      });
      sendAhead(call);
      if (map.routes.cards) sendAhead({ spec: route(resource, 'cards', 'getCards'), values: {} });
      if (map.routes.filterProps) sendAhead({ spec: route(resource, 'filterProps', 'getFilterProps'), values: {} });
    },
    async getFilterProps(resource) {
      const answer = await send({ spec: route(resource, 'filterProps', 'getFilterProps'), values: {} });
      const data = field(answer, 'data');
      const props: Record<string, Choice[]> = {};
      if (data && typeof data === 'object') {
        for (const [name, choices] of Object.entries(data)) {
          if (Array.isArray(choices))
            props[name] = choices.map((choice) => (typeof choice === 'object' ? choice : { id: choice, name: String(choice) }));
        }
      }
      return props;
    },
    async getCards(resource) {
      const answer = await send({ spec: route(resource, 'cards', 'getCards'), values: {} });
      const cards = field(field(answer, 'data'), 'cards');
      return Array.isArray(cards) ? (cards as DashboardCard[]) : [];
    },
    activate,
    async getChoices(path, optionText) {
      return readChoices(await apiRequest(path), optionText);
    },
    call: callAction,
  };
}

export type { DashboardCardScope };

/** An active user of the company (`GET /users/active`). */
export interface ActiveUser {
  id: string;
  email: string;
  firstName?: string;
  lastName?: string;
  roleName?: string;
  isAdmin?: boolean;
}

/** The cards of a dashboard card call's answer. */
export const readDashboardCards = (answer: unknown): DashboardCard[] =>
  (answer as { data?: { cards?: DashboardCard[] } } | null)?.data?.cards ?? [];

/** The users of `GET /users/active`'s answer. */
export const readActiveUsers = (answer: unknown): ActiveUser[] => (answer as { users?: ActiveUser[] } | null)?.users ?? [];

/** Calls that are not a resource's CRUD, as react-admin's custom dataProvider methods. */
export const consoleMethods = {
  async getDashboardCards(scope: DashboardCardScope): Promise<DashboardCard[]> {
    return readDashboardCards(await apiRequest(DASHBOARD_CARD_PATHS[scope]));
  },
  async getActiveUsers(): Promise<ActiveUser[]> {
    return readActiveUsers(await apiRequest(ACTIVE_USERS_PATH));
  },
  /** Column choices of every list, the tenant's default and the caller's own (`GET /lists/columns`). */
  async getColumnChoices(): Promise<ColumnChoices> {
    const answer = await apiRequest<{ data?: ColumnChoices }>('/lists/columns');
    return answer?.data ?? {};
  },
  async saveColumnChoice(listKey: string, scope: ColumnScope, choice: ColumnChoice): Promise<string | undefined> {
    const answer = await apiRequest(`/lists/${encodeURIComponent(listKey)}/columns`, {
      method: 'PUT',
      body: { scope, hidden: choice.hidden, order: choice.order ?? null },
    });
    return messageOf(answer);
  },
  async deleteColumnChoice(listKey: string, scope: ColumnScope): Promise<string | undefined> {
    const answer = await apiRequest(`/lists/${encodeURIComponent(listKey)}/columns`, { method: 'DELETE', query: { scope } });
    return messageOf(answer);
  },
};

export type ConsoleMethods = typeof consoleMethods;
export type ConsoleDataProvider = DeclaredDataProvider & ConsoleMethods;

/** A console dataProvider over some declarations (the registry in the app; a test's own in tests). */
export function createConsoleDataProvider(resources: readonly ResourceCalls[]): ConsoleDataProvider {
  return { ...createDataProvider(resources), ...consoleMethods };
}
