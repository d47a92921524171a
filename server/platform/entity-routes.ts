import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z, type ZodObject, type ZodType } from 'zod';
import { answer, cardsAnswer, listAnswer as listAnswerOf, messageAnswer } from '../../common/contract/answers';
import type { EntityContract, PolicyAction } from '../../common/contract/define';
import { hasPlaceholder, routeSpec, type HttpMethod, type ListSort, type Route, type RouteKind } from '../../common/contract/routes';
import { recordAudit } from '../audit';
import { requireAuth } from '../auth/guard';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../http/database-errors';
import { badRequest, conflict, notFound } from '../http/errors';
import { COUNT_CAP, searchFilter, type ListAnswer } from '../http/lists';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import type { AuthContext } from './auth-context';
import { acceptFormBodies } from './form-body';

/**
 * An entity's standard routes, registered from its contract and a repository: the list, filter,
 * search, props, cards, one, create, update, (de)activation, delete and related-list calls the
 * contract names, at the paths it names, guarded by its policy, validated by its bodies, described
 * in the OpenAPI document by its row, and audited under its model. Only the entity's real rules
 * are written by hand, in its repository (how rows are read and kept, what a name clash is).
 */

/** What a repository is given for one call: the caller, and the database (the call's transaction when it writes). */
/** What a change tells its audit entry. */
interface Audited {
  operation: string;
  changes: object;
}

export interface EntityScope {
  db: Db;
  auth: AuthContext;
  request: FastifyRequest;
}

export interface PageRequest {
  offset: number;
  limit: number;
  /** The order asked for: the path's `{order}`/`{field}`, else the filter route's default. */
  sort: ListSort;
}

export interface EntityRow {
  id: string;
}

export interface EntityRepository<Row extends EntityRow = EntityRow> {
  list(scope: EntityScope, page: PageRequest): Promise<ListAnswer<Row>>;
  /** The filter route: `body` holds only the filled fields of the contract's filter body. */
  filter?(scope: EntityScope, body: Record<string, unknown>, page: PageRequest): Promise<ListAnswer<Row>>;
  search?(scope: EntityScope, text: string, page: PageRequest): Promise<ListAnswer<Row>>;
  filterProps?(scope: EntityScope): Promise<Record<string, unknown>>;
  /** The cards, as a list unless the module declares another shape for their answer (`{ cards }`, say). */
  cards?(scope: EntityScope): Promise<unknown>;
  /** One record; an entity whose contract names no call on one record (a read-only log) needs none. */
  one?(scope: EntityScope, id: string): Promise<Row | null>;
  /** Keeps a new record and gives its id; a refusal is an HttpError (409 for a name taken, say). */
  create?(scope: EntityScope, body: Record<string, unknown>): Promise<string>;
  update?(scope: EntityScope, id: string, body: Record<string, unknown>): Promise<void>;
  setActive?(scope: EntityScope, id: string, active: boolean): Promise<void>;
  /** Removes the record; what it gives back joins the audit entry's `before` (the members it let go, say). */
  remove?(scope: EntityScope, id: string): Promise<Record<string, unknown> | void>;
  /** What an audit entry keeps of a row that is created or deleted (the whole row unless it says). */
  audited?(row: Row): Record<string, unknown>;
  /** The answer (409) when a create or change breaks one of the table's unique keys. */
  taken?: string;
  /** The lists of the contract's related routes, by target: the rows that belong to record `id`. */
  related?: Record<string, (scope: EntityScope, id: string, page: PageRequest) => Promise<ListAnswer<Row>>>;
}

/** What a standard call says where the defaults do not fit. */
export interface CallDescription {
  /** Its summary in the OpenAPI document (`List the labels` unless it says). */
  summary?: string;
  /** Its answer's message (`Labels`, `Filter choices`, `Cards` unless it says). */
  message?: string;
  /** The schema of its answer's data: filter choices and cards of the entity's own shape. */
  data?: ZodType;
}

/** An entity the server serves from its contract: what `buildApp`'s `modules` take. */
export interface EntityModule<Row extends EntityRow = EntityRow> {
  contract: EntityContract;
  repository: EntityRepository<Row>;
  /**
   * Bodies the server checks beside the contract's, for a call whose contract gives none (a
   * filter body made of the server's own list filters); the contract's win where both say.
   */
  bodies?: EntityContract['bodies'];
  /**
   * Who may make the standard calls: holders of the contract's policy (the default), or every
   * signed-in user when the policy only widens what the answers hold (everyone's notifications
   * rather than one's own), which the repository then asks itself.
   */
  access?: 'policy' | 'signed-in';
  /** The tag its calls are listed under in the OpenAPI document (the plural noun, capitalised, unless it says). */
  tag?: string;
  /** What its standard calls say where the defaults do not fit, by the contract's route kind. */
  calls?: Partial<Record<RouteKind, CallDescription>>;
  /**
   * The URL parameter a placeholder of the contract's paths is served as, where clients and
   * API-key grants know it by another name (`{ search: 'searchText' }`): the path and its
   * operation id stay what they were.
   */
  params?: Readonly<Record<string, string>>;
  /**
   * The filter route also answers without its `{order}/{field}`, in the filter route's default sort
   * (clients written before the sort was in the path call it so).
   */
  unsortedFilter?: boolean;
  /**
   * The contract's calls the module serves itself in `routes` (a list answered in its own order,
   * a change whose answer says more than the record): the standard ones are not registered, the
   * contract still names them for the console, the policy catalogue and the docs.
   */
  own?: readonly RouteKind[];
  /**
   * The contract's related lists the module serves itself in `routes`, by target: one whose access
   * is not the policy's (one's own without it, anyone's with it), say.
   */
  ownRelated?: readonly string[];
  /** Whether API keys may be granted its standard calls: not the keys' own, so that no key makes keys. */
  apiKeys?: false;
  /** The entity's calls that are not standard ones (a picker, say), registered after them. */
  routes?(api: FastifyInstance): Promise<void> | void;
}

/** The body types a form-encoded create or change accepts (the console posts forms; JSON is accepted too). */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'];

const ACTIONS: Record<RouteKind, PolicyAction> = {
  list: 'read',
  filter: 'read',
  filterProps: 'read',
  cards: 'read',
  one: 'read',
  search: 'read',
  create: 'create',
  update: 'update',
  activate: 'update',
  deactivate: 'update',
  delete: 'delete',
};

/** `/labels/filter/{offset}/{limit}?q={search}` → the Fastify url and the placeholders of its path and query. */
export function routeTemplate(path: string): {
  url: string;
  pathNames: string[];
  queryNames: string[];
  /** The query parameter each query placeholder is sent as (`?searchText={search}`: search → searchText). */
  queryKeys: Record<string, string>;
} {
  const [pathPart, queryPart = ''] = path.split('?');
  const pathNames = [...pathPart.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const queryNames = [...queryPart.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const queryKeys = Object.fromEntries([...queryPart.matchAll(/(\w+)=\{(\w+)\}/g)].map((match) => [match[2], match[1]]));
  return { url: pathPart.replace(/\{(\w+)\}/g, ':$1'), pathNames, queryNames, queryKeys };
}

export async function registerEntityRoutes(app: FastifyInstance, module: EntityModule): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { contract, repository } = module;
  const one = contract.noun?.one ?? contract.name;
  const many = contract.noun?.many ?? contract.name;
  const tags = [module.tag ?? capitalised(many)];
  const bodies = { ...module.bodies, ...contract.bodies };
  const row: ZodType = contract.row ?? z.object({ id: z.string() }).loose();
  const listAnswer = listAnswerOf(row);
  const recordAnswer = answer(row);
  const sortable = (contract.fields ?? []).filter((field) => field.sortable).map((field) => field.source);
  const defaultSort: ListSort = contract.routes.filter?.sort ?? { field: '', order: 'ASC' };
  refuseIncomplete(contract, bodies, sortable, repository, module.own ?? []);
  const title = contract.noun?.title;
  /** `Workspace "Finance"`, or `Label` when the contract names no title field. */
  const named = (row: unknown) => (title ? `${capitalised(one)} "${String((row as Record<string, unknown>)[title])}"` : capitalised(one));
  const audited = (row: EntityRow) => (repository.audited ? repository.audited(row) : row);

  const placeholder = (name: string): ZodType => {
    switch (name) {
      case 'offset':
        return offsetParam;
      case 'limit':
        return limitParam;
      case 'id':
        return uuidParam;
      case 'order':
        return z.preprocess(
          (value) => (typeof value === 'string' ? value.toUpperCase() : value),
          z.enum(['ASC', 'DESC'], { error: 'must be ASC or DESC' }),
        );
      case 'field':
        return sortable.length > 0
          ? z.enum(sortable as [string, ...string[]], { error: `must be one of ${sortable.join(', ')}` })
          : z.string();
      case 'search':
        return z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
      default:
        throw new Error(`The contract of ${contract.name} names {${name}}, which the server cannot fill`);
    }
  };
  /** The URL parameter a placeholder is served as. */
  const paramOf = (name: string) => module.params?.[name] ?? name;
  /**
   * A placeholder's check where it stands: a search text in the query may be missing or blank
   * (every row), and a sort in the query may be left out (the filter route's default order).
   */
  const checkOf = (name: string, where: 'path' | 'query'): ZodType => {
    if (where === 'query' && name === 'search') return searchFilter;
    if (where === 'query' && (name === 'order' || name === 'field')) return placeholder(name).optional();
    return placeholder(name);
  };
  const schemaOf = (names: string[], where: 'path' | 'query', nameOf: (name: string) => string): ZodObject | undefined =>
    names.length > 0 ? z.object(Object.fromEntries(names.map((name) => [nameOf(name), checkOf(name, where)]))) : undefined;

  const scopeOf = (request: FastifyRequest, db: Db): EntityScope => ({ db, auth: requireAuth(request), request });
  const pageOf = (values: Record<string, unknown>): PageRequest => ({
    offset: Number(values.offset ?? 0),
    // A list path without `{limit}` answers the whole list, up to the count cap.
    limit: values.limit === undefined ? COUNT_CAP : Number(values.limit),
    sort: values.field ? { field: String(values.field), order: values.order === 'ASC' ? 'ASC' : 'DESC' } : defaultSort,
  });
  const readOne = (scope: EntityScope, id: string) => {
    if (!repository.one) throw new Error(`The repository of ${contract.name} cannot read one record`);
    return repository.one(scope, id);
  };
  const mustFind = async (scope: EntityScope, id: string) => {
    const found = await readOne(scope, id);
    if (!found) throw notFound(capitalised(one));
    return found;
  };
  /**
   * Runs a change in one transaction with its audit entry, and reads the record as it then is
   * (null once deleted). A unique key broken by a concurrent change is the repository's 409.
   */
  const change = async (request: FastifyRequest, work: (scope: EntityScope) => Promise<Audited & { id: string }>) => {
    const { db } = app.ctx;
    try {
      return await db.transaction(async (tx) => {
        const scope = scopeOf(request, tx as unknown as Db);
        const done = await work(scope);
        if (contract.audit) {
          await recordAudit(tx as unknown as Db, request, {
            companyId: scope.auth.companyId,
            model: contract.audit.model,
            operation: done.operation,
            recordId: done.id,
            changes: done.changes as Record<string, unknown>,
          });
        }
        return done.operation === 'delete' ? null : readOne(scope, done.id);
      });
    } catch (err) {
      if (repository.taken && isUniqueViolation(err)) throw conflict(repository.taken);
      throw err;
    }
  };

  type Handle = (
    request: FastifyRequest,
    values: Record<string, unknown>,
    body: Record<string, unknown>,
  ) => Promise<{ message: string; data?: unknown }>;

  interface Call {
    /** The route kind (its default method and policy action), or a related list's. */
    kind: RouteKind | 'related';
    route: Route;
    summary: string;
    answer: ZodType;
    handle: Handle;
    body?: ZodType;
    status?: number;
  }

  const calls: Call[] = [];
  const routes = contract.routes;
  /** A call with what the module says of its kind over the defaults. */
  const described = (call: Call): Call => {
    const said = call.kind === 'related' ? undefined : module.calls?.[call.kind];
    if (!said) return call;
    const { message } = said;
    return {
      ...call,
      summary: said.summary ?? call.summary,
      answer: said.data ? answer(said.data) : call.answer,
      handle: message ? async (...args) => ({ ...(await call.handle(...args)), message }) : call.handle,
    };
  };
  const own = new Set<RouteKind>(module.own ?? []);
  const add = (call: Call) => {
    if (call.kind === 'related' || !own.has(call.kind)) calls.push(described(call));
  };
  const scoped = (request: FastifyRequest) => scopeOf(request, app.ctx.db);
  const listed = (data: Promise<ListAnswer<EntityRow>>) => data.then((rows) => ({ message: capitalised(many), data: rows }));
  /** A change in its transaction with its audit entry, answered with the record as it now is. */
  const changed = async (request: FastifyRequest, id: string, message: string, work: (scope: EntityScope) => Promise<Audited>) => {
    const row = await change(request, async (scope) => ({ id, ...(await work(scope)) }));
    if (!row) throw notFound(capitalised(one));
    return { message: `${named(row)} ${message}`, data: row };
  };

  if (routes.list) {
    add({
      kind: 'list',
      route: routes.list,
      summary: `List the ${many}`,
      answer: listAnswer,
      handle: (request, values) => listed(repository.list(scoped(request), pageOf(values))),
    });
  }
  const { filter, search, filterProps, cards, create, update, setActive, remove } = repository;
  if (routes.search && search) {
    // The text is the path's `{search}`, else the search body's `search` (the path's paging wins over the body's).
    const inPath = routeSpec(routes.search, 'search').path.includes('{search}');
    add({
      kind: 'search',
      route: routes.search,
      summary: `Search the ${many}`,
      answer: listAnswer,
      ...(inPath ? {} : { body: bodies.search ?? z.object({ search: placeholder('search') }) }),
      handle: (request, values, body) =>
        listed(search.call(repository, scoped(request), String((inPath ? values.search : body.search) ?? ''), pageOf(values))),
    });
  }
  if (routes.filter && filter) {
    const filterCall: Call = {
      kind: 'filter',
      route: routes.filter,
      summary: module.unsortedFilter || hasPlaceholder(routes.filter, 'field') ? `Filter and sort the ${many}` : `Filter the ${many}`,
      body: bodies.filter,
      answer: listAnswer,
      handle: (request, values, body) => listed(filter.call(repository, scoped(request), filledFields(body), pageOf(values))),
    };
    add(filterCall);
    if (module.unsortedFilter && !own.has('filter')) {
      calls.push({ ...described({ ...filterCall, route: withoutSort(routes.filter, contract.name) }), summary: `Filter the ${many}` });
    }
  }
  if (routes.filterProps && filterProps) {
    add({
      kind: 'filterProps',
      route: routes.filterProps,
      summary: `The filter choices of the ${many}`,
      answer: answer(z.record(z.string(), z.unknown())),
      handle: async (request) => ({ message: 'Filter choices', data: await filterProps.call(repository, scoped(request)) }),
    });
  }
  if (routes.cards && cards) {
    add({
      kind: 'cards',
      route: routes.cards,
      summary: `The summary cards of the ${many}`,
      answer: cardsAnswer,
      handle: async (request) => ({ message: 'Cards', data: await cards.call(repository, scoped(request)) }),
    });
  }
  if (routes.one) {
    add({
      kind: 'one',
      route: routes.one,
      summary: `Read a ${one}`,
      answer: recordAnswer,
      handle: async (request, values) => ({ message: capitalised(one), data: await mustFind(scoped(request), idOf(values)) }),
    });
  }
  if (routes.create && create) {
    add({
      kind: 'create',
      route: routes.create,
      summary: `Create a ${one}`,
      body: bodies.create,
      answer: recordAnswer,
      status: 201,
      handle: async (request, _values, body) => {
        const row = await change(request, async (scope) => {
          const created = await create.call(repository, scope, body);
          return { id: created, operation: 'create', changes: { after: audited(await mustFind(scope, created)) } };
        });
        if (!row) throw notFound(capitalised(one));
        return { message: `${named(row)} created`, data: row };
      },
    });
  }
  const updateRoute = routes.update;
  if (updateRoute && update) {
    add({
      kind: 'update',
      route: updateRoute,
      summary: `Change a ${one}`,
      body: bodies.update,
      answer: recordAnswer,
      handle: async (request, values, body) => {
        const id = idOf(values, body, updateRoute);
        const wanted = withoutId(body, updateRoute);
        const current = await mustFind(scoped(request), id);
        // A change that asks for what is already there writes nothing and leaves no audit entry.
        if (!differs(current, wanted)) return { message: 'Nothing to change', data: current };
        return changed(request, id, contract.noun?.updated ?? 'saved', async (scope) => {
          const before = await mustFind(scope, id);
          await update.call(repository, scope, id, wanted);
          return { operation: 'update', changes: changedFields(before, await mustFind(scope, id), Object.keys(wanted)) };
        });
      },
    });
  }
  const { activate, deactivate } = routes;
  /** An activation sent as a change (`PUT /workspace { id, isActive }`) is the update route's to answer. */
  const isUpdateCall = (route: Route, kind: RouteKind) => {
    if (!updateRoute) return false;
    const spec = routeSpec(route, kind);
    const updating = routeSpec(updateRoute, 'update');
    return spec.path === updating.path && spec.method === updating.method;
  };
  if (activate && deactivate && setActive && contract.activation && !isUpdateCall(activate, 'activate')) {
    const field = contract.activation.field;
    const flip =
      (active: boolean): Handle =>
      (request, values, body) => {
        const id = idOf(values, body, active ? activate : deactivate);
        return changed(request, id, active ? 'activated' : 'deactivated', async (scope) => {
          const before = (await mustFind(scope, id)) as unknown as Record<string, unknown>;
          await setActive.call(repository, scope, id, active);
          return {
            operation: active ? 'activate' : 'deactivate',
            changes: { before: { [field]: before[field] }, after: { [field]: active } },
          };
        });
      };
    const on = routeSpec(activate, 'activate');
    const off = routeSpec(deactivate, 'deactivate');
    if (on.path === off.path && on.method === off.method) {
      // One path for both, the wanted state in the body (`PUT /roles/activate/{id} { isActive }`).
      add({
        kind: 'activate',
        route: activate,
        summary: `Activate or deactivate a ${one}`,
        body: z.object({ [field]: z.boolean({ error: 'must be true or false' }) }),
        answer: recordAnswer,
        handle: (request, values, body) => flip(body[field] === true)(request, values, body),
      });
    } else {
      add({ kind: 'activate', route: activate, summary: `Activate a ${one}`, answer: recordAnswer, handle: flip(true) });
      add({ kind: 'deactivate', route: deactivate, summary: `Deactivate a ${one}`, answer: recordAnswer, handle: flip(false) });
    }
  }
  const deleteRoute = routes.delete;
  if (deleteRoute && remove) {
    add({
      kind: 'delete',
      route: deleteRoute,
      summary: `Delete a ${one}`,
      answer: messageAnswer,
      handle: async (request, values, body) => {
        const id = idOf(values, body, deleteRoute);
        let gone: EntityRow | undefined;
        await change(request, async (scope) => {
          gone = await mustFind(scope, id);
          const released = await remove.call(repository, scope, id);
          return { id, operation: 'delete', changes: { before: { ...audited(gone), ...(released ?? {}) } } };
        });
        return { message: `${named(gone)} deleted` };
      },
    });
  }
  for (const [target, route] of Object.entries(contract.related ?? {})) {
    if (module.ownRelated?.includes(target)) continue;
    const read = repository.related?.[target];
    if (!read) throw new Error(`The contract of ${contract.name} lists them by ${target}, but its repository cannot`);
    add({
      kind: 'related',
      route,
      summary: `List the ${many} of a ${target}`,
      answer: listAnswer,
      handle: (request, values) => listed(read(scoped(request), idOf(values), pageOf(values))),
    });
  }

  if (calls.some((call) => routeSpec(call.route, call.kind === 'related' ? 'list' : call.kind).encoding === 'form')) {
    await acceptFormBodies(app);
  }
  for (const call of calls) {
    const spec = routeSpec(call.route, call.kind === 'related' ? 'list' : call.kind);
    const action: PolicyAction = call.kind === 'related' ? 'read' : ACTIONS[call.kind];
    const { url: template, pathNames, queryNames, queryKeys } = routeTemplate(spec.path);
    const queryKeyOf = (name: string) => queryKeys[name] ?? paramOf(name);
    const url = template.replace(/:(\w+)/g, (_, name: string) => `:${paramOf(name)}`);
    const idInBody = spec.idField ? z.object({ [spec.idField]: uuidParam }) : undefined;
    const body = bodySchema(call.body, idInBody, spec.method);
    api.route({
      method: spec.method as HttpMethod,
      url,
      config: {
        ...(module.access === 'signed-in' ? {} : { policy: [contract.policy.resource, action] }),
        ...(module.apiKeys === false ? { apiKeys: false } : {}),
      },
      schema: {
        summary: call.summary,
        tags,
        ...(spec.encoding === 'form' ? { consumes: FORM_TYPES } : {}),
        // Only the parts the call has: Fastify warns of a part declared without a schema.
        ...definedOnly({ params: schemaOf(pathNames, 'path', paramOf), querystring: schemaOf(queryNames, 'query', queryKeyOf), body }),
        response: { [call.status ?? 200]: call.answer },
      },
      handler: async (request, reply) => {
        // Each placeholder from where the contract puts it: a query it does not name (`?limit=1e309`
        // beside a path's `{limit}`) is ignored, not read over the checked path.
        const valuesOf = (names: string[], given: unknown, nameOf: (name: string) => string) => {
          const from = (given ?? {}) as Record<string, unknown>;
          return names.filter((name) => nameOf(name) in from).map((name) => [name, from[nameOf(name)]] as const);
        };
        const values = Object.fromEntries([
          ...valuesOf(pathNames, request.params, paramOf),
          ...valuesOf(queryNames, request.query, queryKeyOf),
        ]);
        const answer = await call.handle(request, values, (request.body ?? {}) as Record<string, unknown>);
        return reply.code(call.status ?? 200).send(answer);
      },
    });
  }
  await module.routes?.(app);
}

/** The filter route without its `{order}/{field}`. */
function withoutSort(filter: Route, entity: string): Route {
  const spec = routeSpec(filter, 'filter');
  if (!spec.path.includes('/{order}/{field}')) {
    throw new Error(`The contract of ${entity} has no {order}/{field} in its filter path to serve it without`);
  }
  return { ...spec, path: spec.path.replace('/{order}/{field}', '') };
}

function definedOnly<T extends Record<string, unknown>>(parts: T): Partial<T> {
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function bodySchema(declared: ZodType | undefined, idInBody: ZodObject | undefined, method: string): ZodType | undefined {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (declared && idInBody) {
    if (!(declared instanceof z.ZodObject)) throw new Error('A body with the id in it must be an object schema');
    return declared.extend(idInBody.shape);
  }
  return declared ?? idInBody;
}

function idOf(values: Record<string, unknown>, body: Record<string, unknown> = {}, route?: Route): string {
  const idField = route && typeof route !== 'string' ? route.idField : undefined;
  const id = idField ? body[idField] : values.id;
  if (typeof id !== 'string') throw badRequest('id: is required');
  return id;
}

function withoutId(body: Record<string, unknown>, route?: Route): Record<string, unknown> {
  const idField = route && typeof route !== 'string' ? route.idField : undefined;
  if (!idField) return body;
  const { [idField]: _id, ...rest } = body;
  return rest;
}

/**
 * A contract the server cannot serve as written: a filter without its body, an order by `{field}`
 * with nothing to order by, a call on one record that the repository cannot read.
 */
function refuseIncomplete(
  contract: EntityContract,
  bodies: EntityContract['bodies'],
  sortable: string[],
  repository: EntityRepository,
  own: readonly RouteKind[],
) {
  const paths = Object.entries(contract.routes).map(([kind, route]) => routeSpec(route, kind as RouteKind).path);
  if (contract.routes.filter && !own.includes('filter') && !bodies?.filter) {
    throw new Error(`The contract of ${contract.name} has a filter route but no filter body`);
  }
  if (sortable.length === 0 && paths.some((path) => path.includes('{field}'))) {
    throw new Error(`The contract of ${contract.name} orders by {field}, but none of its fields is sortable`);
  }
  const onOne: RouteKind[] = ['one', 'create', 'update', 'delete', 'activate', 'deactivate'];
  if (!repository.one && onOne.some((kind) => contract.routes[kind] && !own.includes(kind))) {
    throw new Error(`The contract of ${contract.name} names calls on one record, but its repository cannot read one`);
  }
}

/** Whether a change asks for any value the row does not already hold. */
function differs(row: object, wanted: Record<string, unknown>): boolean {
  const current = row as Record<string, unknown>;
  return Object.entries(wanted).some(([key, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(current[key]));
}

/** A filter body's filled fields: empty strings, empty lists and nulls say "any". */
function filledFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body).filter(
      ([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0),
    ),
  );
}

/** What an update changed, for its audit entry: the fields asked for whose value is now different. */
function changedFields(
  before: object,
  after: object,
  asked: string[],
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of asked) {
    const previous = (before as Record<string, unknown>)[key];
    const next = (after as Record<string, unknown>)[key];
    if (JSON.stringify(previous) !== JSON.stringify(next)) {
      was[key] = previous;
      now[key] = next;
    }
  }
  return { before: was, after: now };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
