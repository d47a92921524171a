import { http, HttpResponse, type HttpHandler } from 'msw';
import type { ZodType } from 'zod';
import type { EntityContract } from '../../common/contract/define';
import { routeSpec, type ListSort, type Route, type RouteKind } from '../../common/contract/routes';
import { server } from './msw';

/**
 * A server honouring one entity's contract, over an in-memory table, made from the contract
 * alone: each call the contract names answers at its path and method, the way the API answers
 * (docs/api.md "Lists, filters, cards"), and bodies are checked by the contract's own schemas.
 * A console test gets the entity's whole API from this instead of writing handlers by hand.
 */

export interface FakeCall {
  method: string;
  /** The path under /api/v1, with its query. */
  path: string;
  body?: unknown;
  /** The request's headers (the token, an upload's content type); not enumerable, so a call compares by method, path and body. */
  readonly headers: Record<string, string>;
}

export interface ContractFakeOptions<Row> {
  /** How a created record looks, from the create body (its id is given); needed where the contract has a create route. */
  created?: (body: Record<string, unknown>, id: string) => Row;
  /** The rows the caller may see (their own, say): lists, choices, cards and single records are of these alone. */
  visible?: (row: Row) => boolean;
  /** The filter props answer (`{ colour: [{ id, name }] }`), or how it follows from the rows the caller sees. */
  filterProps?: Record<string, unknown> | ((rows: readonly Row[]) => unknown);
  /** The summary cards answer's data, or how it follows from the rows the caller sees. */
  cards?: unknown[] | ((rows: readonly Row[]) => unknown);
  /** For each related route's target, the row field holding the other record's id. */
  relatedBy?: Record<string, keyof Row & string>;
  /** The fields the text search looks in, where the contract declares no searchable field. */
  searchIn?: readonly (keyof Row & string)[];
  /** The only fields a filter body may hold, where the server refuses others (400 `<field>: unknown filter field`). */
  filterFields?: readonly string[];
  /** The row field the date range filters (`startDate`, `endDate`) are on, where it is not `createdAt`. */
  datedBy?: keyof Row & string;
  /** Filter fields that are not a row field as such: whether a row passes the wanted value. */
  filterBy?: Record<string, (row: Row, wanted: unknown) => boolean>;
  /** How a list shows a row, where it holds less than the record (a role without its policies). */
  listed?: (row: Row) => unknown;
  /** The server's refusals of a call: an error message (answered 400), or nothing to go on. */
  refuse?: Partial<Record<RouteKind, (row: Row | undefined, body: Body) => Answer | string | undefined>>;
  /** An answer's message, by route kind, where the console shows it. */
  messages?: Partial<Record<RouteKind, (row: Row) => string>>;
  /** An answer's data, by route kind, where it holds more than the record (a new key's secret, say). */
  data?: Partial<Record<RouteKind, (row: Row) => unknown>>;
  /** How the lists order the rows their sort leaves level (the server's second sort key). */
  thenBy?: ListSort;
  /** What the lists assume where the filter body says nothing (`{ isDeleted: 'false' }`: deleted rows stay out). */
  defaults?: Body;
  /** A delete that keeps the row, marked: how it marks it. */
  softDelete?: (row: Row) => void;
  /** The row fields an update's body sets, where its fields are not the row's as such (`workspaceIds` sets `workspaces`). */
  applied?: (body: Body, row: Row) => Partial<Row>;
  /** What a change does beside its fields (moving `updatedAt`, say). */
  touched?: (row: Row) => void;
  /** The entity's calls beside its contract's, by `METHOD /path/{placeholder}?key={placeholder}`, answered in JSON or (a file, say) by a whole response; recorded and failing like the others. */
  more?: Record<string, (values: Values, body: Body) => Answer | Response>;
}

export interface ContractFake<Row> {
  rows: Row[];
  calls: FakeCall[];
  /** `METHOD path` of every call so far, optionally only those matching. */
  seen(filter?: RegExp): string[];
  /** The bodies of the calls matching `pattern` (against `METHOD path`). */
  bodiesOf(pattern: RegExp): unknown[];
  /** Makes the next calls matching `pattern` (against `METHOD path`) fail with `status` and `message`: all of them, or `times`. */
  failWith(pattern: RegExp, status: number, message: string, times?: number): void;
  /** Holds the calls matching `pattern` (against `METHOD path`) unanswered until the returned function is called. */
  hold(pattern: RegExp): () => void;
}

const API = '/api/v1';

export type Values = Record<string, string | undefined>;
export type Body = Record<string, unknown>;
export type Answer = { status?: number; json: unknown };

/** A list answer: one page of `rows` (from `offset`, `limit` of them), with their count. */
export function paged(message: string, rows: readonly unknown[], offset = 0, limit = rows.length): Answer {
  return { json: { message, data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } } };
}

/** An answer as the API gives it: `{ message, data }`, or `{ message }` alone. */
export function answered(message: string, data?: unknown, status?: number): Answer {
  return { ...(status ? { status } : {}), json: data === undefined ? { message } : { message, data } };
}

export function contractFake<Row extends { id: string }>(
  contract: EntityContract,
  initial: readonly Row[],
  options: ContractFakeOptions<Row>,
): ContractFake<Row> {
  const fake: ContractFake<Row> = {
    rows: [...initial],
    calls: [],
    seen: (filter) => fake.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => fake.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message, times = Infinity) => failures.push({ pattern, status, message, times }),
    hold: (pattern) => {
      let release!: () => void;
      holds.push({ pattern, gate: new Promise<void>((resolve) => (release = resolve)) });
      return release;
    },
  };
  const holds: { pattern: RegExp; gate: Promise<void> }[] = [];
  const failures: { pattern: RegExp; status: number; message: string; times: number }[] = [];
  const many = contract.noun?.many ?? contract.name;
  const searchable: readonly string[] =
    options.searchIn ?? (contract.fields ?? []).filter((field) => field.searchable).map((field) => field.source);
  const activation = contract.activation?.field;
  let created = 0;

  const field = (row: Row, name: string) => (row as unknown as Record<string, unknown>)[name];
  const shown = () => (options.visible ? fake.rows.filter(options.visible) : fake.rows);
  const find = (id: string | undefined) => shown().find((row) => row.id === id);
  const missing = (): Answer => ({ status: 404, json: { message: 'Record not found' } });
  const listed = (row: Row) => (options.listed ? options.listed(row) : row);
  const page = (rows: Row[], values: Values, body: Body = {}): Answer => {
    // The paging is in the path, or in the body of a route that takes it there.
    const offset = Number(values.offset ?? body.offset ?? 0);
    const limit = Number(values.limit ?? body.limit ?? rows.length);
    return paged(capitalised(many), rows.map(listed), offset, limit);
  };
  const said = (kind: RouteKind, row: Row, otherwise: string) => options.messages?.[kind]?.(row) ?? otherwise;
  const dataOf = (kind: RouteKind, row: Row) => (options.data?.[kind] ? options.data[kind](row) : row);
  const defaults = options.defaults ?? {};
  /** The module's refusal of a call, as an answer. */
  const refused = (kind: RouteKind, row: Row | undefined, body: Body): Answer | undefined => {
    const refusal = options.refuse?.[kind]?.(row, body);
    return typeof refusal === 'string' ? answered(refusal, undefined, 400) : refusal;
  };
  const compare = (a: Row, b: Row, sort: ListSort) =>
    (sort.order.toUpperCase() === 'DESC' ? -1 : 1) * String(field(a, sort.field) ?? '').localeCompare(String(field(b, sort.field) ?? ''));
  const sorted = (rows: Row[], values: Values): Row[] => {
    const sort = values.field ? { field: values.field, order: (values.order ?? 'ASC') as ListSort['order'] } : contract.routes.filter?.sort;
    if (!sort?.field) return rows;
    const then = options.thenBy;
    return [...rows].sort((a, b) => compare(a, b, sort) || (then ? compare(a, b, then) : 0));
  };
  const unknownFilter = (body: Body) => Object.keys(body).find((name) => options.filterFields && !options.filterFields.includes(name));
  const matches = (row: Row, body: Body) =>
    Object.entries(body).every(([name, wanted]) => {
      if (wanted === undefined || wanted === '' || (Array.isArray(wanted) && wanted.length === 0)) return true;
      const passes = options.filterBy?.[name];
      if (passes) return passes(row, wanted);
      // The date range of the list filters is on the creation date, unless the entity says otherwise.
      const day = () => String(field(row, options.datedBy ?? 'createdAt')).slice(0, 10);
      if (name === 'startDate') return day() >= String(wanted);
      if (name === 'endDate') return day() <= String(wanted);
      if (name === 'search') {
        const text = String(wanted).toLowerCase();
        return searchable.some((source) =>
          String(field(row, source) ?? '')
            .toLowerCase()
            .includes(text),
        );
      }
      return Array.isArray(wanted) ? wanted.includes(field(row, name)) : field(row, name) === wanted;
    });
  const checked = (schema: ZodType | undefined, body: Body): { body: Body } | Answer => {
    if (!schema) return { body };
    const result = schema.safeParse(body);
    if (result.success) return { body: result.data as Body };
    const [issue] = result.error.issues;
    return { status: 400, json: { message: `${issue.path.join('.')}: ${issue.message}` } };
  };
  const idOf = (route: Route, values: Values, body: Body) => {
    const idField = typeof route === 'string' ? undefined : route.idField;
    return idField ? String(body[idField]) : values.id;
  };
  const setActive = (id: string | undefined, active: boolean, body: Body): Answer => {
    const row = find(id);
    if (!row || !activation) return missing();
    const refusal = refused(active ? 'activate' : 'deactivate', row, body);
    if (refusal) return refusal;
    Object.assign(row, { [activation]: active });
    options.touched?.(row);
    const kind = active ? 'activate' : 'deactivate';
    return answered(said(kind, row, active ? 'Activated' : 'Deactivated'), dataOf(kind, row));
  };

  /** `query`: what the call's query holds beyond its template (filter fields, on a filter route). */
  type Answering = (values: Values, body: Body, route: Route, query: Body) => Answer | Response;
  const answers: Partial<Record<RouteKind, Answering>> = {
    list: (values) =>
      page(
        sorted(
          shown().filter((row) => matches(row, defaults)),
          {},
        ),
        values,
      ),
    filter: (values, body, _, query) => {
      const unknown = unknownFilter(body);
      if (unknown) return answered(`${unknown}: unknown filter field`, undefined, 400);
      return page(
        sorted(
          shown().filter((row) => matches(row, { ...defaults, ...query, ...body })),
          values,
        ),
        values,
      );
    },
    search: (values, body) =>
      page(
        sorted(
          shown().filter((row) => matches(row, { ...defaults, search: values.search ?? body.search })),
          {},
        ),
        values,
        body,
      ),
    filterProps: () =>
      answered('Filter choices', typeof options.filterProps === 'function' ? options.filterProps(shown()) : (options.filterProps ?? {})),
    cards: () => answered('Cards', typeof options.cards === 'function' ? options.cards(shown()) : (options.cards ?? [])),
    one: (values) => {
      const row = find(values.id);
      return row ? answered(said('one', row, 'Record'), dataOf('one', row)) : missing();
    },
    create: (_, raw) => {
      const result = checked(contract.bodies?.create, raw);
      if (!('body' in result)) return result;
      const refusal = refused('create', undefined, result.body);
      if (refusal) return refusal;
      if (!options.created) throw new Error(`contractFake: say how a created ${contract.name} row looks (created)`);
      created += 1;
      const row = options.created(result.body, `new-${created}`);
      fake.rows.unshift(row);
      return answered(said('create', row, 'Created'), dataOf('create', row), 201);
    },
    update: (values, raw, route) => {
      const row = find(idOf(route, values, raw));
      if (!row) return missing();
      const idField = typeof route === 'string' ? undefined : route.idField;
      const { [idField ?? '']: _id, ...rest } = raw;
      const result = checked(contract.bodies?.update, rest);
      if (!('body' in result)) return result;
      const refusal = refused('update', row, result.body);
      if (refusal) return refusal;
      Object.assign(row, options.applied ? options.applied(result.body, row) : result.body);
      options.touched?.(row);
      return answered(said('update', row, 'Saved'), dataOf('update', row));
    },
    delete: (values, body, route) => {
      const row = find(idOf(route, values, body));
      if (!row) return missing();
      const refusal = refused('delete', row, body);
      if (refusal) return refusal;
      if (options.softDelete) options.softDelete(row);
      else fake.rows = fake.rows.filter((other) => other !== row);
      return answered(said('delete', row, 'Deleted'));
    },
    activate: (values, body, route) => {
      const shared = contract.routes.deactivate && samePlace(route, contract.routes.deactivate, 'deactivate');
      return setActive(idOf(route, values, body), shared && activation ? body[activation] === true : true, body);
    },
    deactivate: (values, body, route) => setActive(idOf(route, values, body), false, body),
  };

  const handlers: { placeholders: number; handler: HttpHandler }[] = [];
  const seenPlaces = new Set<string>();
  const handle = (route: Route, kind: RouteKind, answer: Answering) => {
    const spec = routeSpec(route, kind);
    const place = `${spec.method} ${spec.path.split('?')[0]}`;
    // Activation on one path with the wanted state in the body is one handler.
    if (seenPlaces.has(place)) return;
    seenPlaces.add(place);
    const [pathPart, queryPart = ''] = spec.path.split('?');
    const queryNames = [...queryPart.matchAll(/(\w+)=\{(\w+)\}/g)].map((match) => [match[1], match[2]] as const);
    const method = spec.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    handlers.push({
      placeholders: pathPart.split('{').length - 1,
      handler: http[method](`${API}${pathPart.replace(/\{(\w+)\}/g, ':$1')}`, async ({ request, params }) => {
        const url = new URL(request.url);
        const sent = ['GET', 'DELETE'].includes(spec.method) ? undefined : await readBody(request);
        const body = (sent ?? {}) as Body;
        const path = `${decodeURIComponent(url.pathname.slice(API.length))}${url.search}`;
        const call = { method: spec.method, path, ...(sent === undefined ? {} : { body: sent }) };
        fake.calls.push(Object.defineProperty(call, 'headers', { value: Object.fromEntries(request.headers.entries()) }) as FakeCall);
        await holds.find((candidate) => candidate.pattern.test(`${spec.method} ${path}`))?.gate;
        const failure = failures.find((candidate) => candidate.times > 0 && candidate.pattern.test(`${spec.method} ${path}`));
        if (failure) {
          failure.times -= 1;
          return HttpResponse.json({ message: failure.message }, { status: failure.status });
        }
        const values: Values = { ...(params as Values) };
        for (const [key, name] of queryNames) values[name] = url.searchParams.get(key) ?? undefined;
        const query = Object.fromEntries([...url.searchParams].filter(([key]) => !queryNames.some(([named]) => named === key)));
        const result = answer(values, body, route, query);
        if (result instanceof Response) return result;
        return HttpResponse.json(result.json as never, { status: result.status ?? 200 });
      }),
    });
  };

  // The filter first: a list on the filter's own path is the filter with an empty body.
  const routes = Object.entries(contract.routes) as [RouteKind, Route][];
  for (const [kind, route] of [...routes.filter(([kind]) => kind === 'filter'), ...routes.filter(([kind]) => kind !== 'filter')]) {
    const answer = answers[kind];
    if (answer) handle(route, kind, answer);
  }
  for (const [target, route] of Object.entries(contract.related ?? {})) {
    const by = options.relatedBy?.[target];
    if (!by) throw new Error(`contractFake: say which field of a row holds the ${target} (relatedBy.${target})`);
    handle(route, 'list', (values) =>
      page(
        sorted(
          shown().filter((row) => String(field(row, by)) === values.id),
          {},
        ),
        values,
      ),
    );
  }
  for (const [call, answer] of Object.entries(options.more ?? {})) {
    const [method, path] = call.split(' ');
    handle({ path, method: method as 'GET' }, 'list', (values, body) => answer(values, body));
  }
  // The fixed paths first, as the server routes them: `/roles/policy/{id}` is not a page of `/roles/{offset}/{limit}`.
  server.use(...handlers.sort((a, b) => a.placeholders - b.placeholders).map((entry) => entry.handler));
  return fake;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function samePlace(a: Route, b: Route, kindOfB: RouteKind): boolean {
  const left = routeSpec(a, 'activate');
  const right = routeSpec(b, kindOfB);
  return left.path === right.path && left.method === right.method;
}

/** The body as sent; nothing when the call has none. */
async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('form')) return Object.fromEntries((await request.formData()).entries());
  const text = await request.text();
  return text ? JSON.parse(text) : undefined;
}
