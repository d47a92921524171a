import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z, type ZodObject, type ZodType } from 'zod';
import type { EntityContract, PolicyAction } from '../../common/contract/define';
import { routeSpec, type HttpMethod, type ListSort, type Route, type RouteKind } from '../../common/contract/routes';
import { recordAudit } from '../audit';
import { requireAuth } from '../auth/guard';
import type { Db } from '../db/client';
import { badRequest, notFound } from '../http/errors';
import type { ListAnswer } from '../http/lists';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import type { AuthContext } from './auth-context';

/**
 * An entity's standard routes, registered from its contract and a repository: the list, filter,
 * search, props, cards, one, create, update, (de)activation, delete and related-list calls the
 * contract names, at the paths it names, guarded by its policy, validated by its bodies, described
 * in the OpenAPI document by its row, and audited under its model. Only the entity's real rules
 * are written by hand, in its repository (how rows are read and kept, what a name clash is).
 */

/** What a repository is given for one call: the caller, and the database (the call's transaction when it writes). */
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
  cards?(scope: EntityScope): Promise<unknown[]>;
  one(scope: EntityScope, id: string): Promise<Row | null>;
  /** Keeps a new record and gives its id; a refusal is an HttpError (409 for a name taken, say). */
  create?(scope: EntityScope, body: Record<string, unknown>): Promise<string>;
  update?(scope: EntityScope, id: string, body: Record<string, unknown>): Promise<void>;
  setActive?(scope: EntityScope, id: string, active: boolean): Promise<void>;
  remove?(scope: EntityScope, id: string): Promise<void>;
  /** The lists of the contract's related routes, by target: the rows that belong to record `id`. */
  related?: Record<string, (scope: EntityScope, id: string, page: PageRequest) => Promise<ListAnswer<Row>>>;
}

/** An entity the server serves from its contract: what `buildApp`'s `modules` take. */
export interface EntityModule<Row extends EntityRow = EntityRow> {
  contract: EntityContract;
  repository: EntityRepository<Row>;
}

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
export function routeTemplate(path: string): { url: string; pathNames: string[]; queryNames: string[] } {
  const [pathPart, queryPart = ''] = path.split('?');
  const pathNames = [...pathPart.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const queryNames = [...queryPart.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  return { url: pathPart.replace(/\{(\w+)\}/g, ':$1'), pathNames, queryNames };
}

/** Answers are plain JSON: the row schemas describe them in the OpenAPI document, the handlers build them. */
const plainJson = () => (data: unknown) => JSON.stringify(data);

export async function registerEntityRoutes(app: FastifyInstance, module: EntityModule): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { contract, repository } = module;
  const one = contract.noun?.one ?? contract.name;
  const many = contract.noun?.many ?? contract.name;
  const tags = [capitalised(many)];
  const row: ZodType = contract.row ?? z.object({ id: z.string() }).loose();
  const listAnswer = z.object({ message: z.string(), data: z.object({ rows: z.array(row), count: z.number(), countExact: z.boolean() }) });
  const recordAnswer = z.object({ message: z.string(), data: row });
  const sortable = (contract.fields ?? []).filter((field) => field.sortable).map((field) => field.source);
  const defaultSort: ListSort = contract.routes.filter?.sort ?? { field: '', order: 'ASC' };

  const placeholder = (name: string): ZodType => {
    switch (name) {
      case 'offset':
        return offsetParam;
      case 'limit':
        return limitParam;
      case 'id':
        return uuidParam;
      case 'order':
        return z.preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(['ASC', 'DESC']));
      case 'field':
        return sortable.length > 0
          ? z.enum(sortable as [string, ...string[]], { error: `must be one of ${sortable.join(', ')}` })
          : z.string();
      case 'search':
        return z.string().trim().max(200, 'must be at most 200 characters');
      default:
        throw new Error(`The contract of ${contract.name} names {${name}}, which the server cannot fill`);
    }
  };
  const schemaOf = (names: string[]): ZodObject | undefined =>
    names.length > 0 ? z.object(Object.fromEntries(names.map((name) => [name, placeholder(name)]))) : undefined;

  const scopeOf = (request: FastifyRequest, db: Db): EntityScope => ({ db, auth: requireAuth(request), request });
  const pageOf = (values: Record<string, unknown>): PageRequest => ({
    offset: Number(values.offset ?? 0),
    limit: Number(values.limit ?? 10),
    sort: values.field ? { field: String(values.field), order: values.order === 'ASC' ? 'ASC' : 'DESC' } : defaultSort,
  });
  const mustFind = async (scope: EntityScope, id: string) => {
    const found = await repository.one(scope, id);
    if (!found) throw notFound(capitalised(one));
    return found;
  };
  /** Runs a change in one transaction with its audit entry. */
  const change = async (
    request: FastifyRequest,
    work: (scope: EntityScope) => Promise<{ id: string; operation: string; changes: object }>,
  ) => {
    const { db } = app.ctx;
    return db.transaction(async (tx) => {
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
      return done.id;
    });
  };

  interface Call {
    kind: string;
    action: PolicyAction;
    route: Route;
    summary: string;
    body?: ZodType;
    answer: ZodType;
    status?: number;
    handle: (
      request: FastifyRequest,
      values: Record<string, unknown>,
      body: Record<string, unknown>,
    ) => Promise<{ message: string; data?: unknown }>;
  }

  const calls: Call[] = [];
  const routes = contract.routes;
  const listCall = (kind: RouteKind, summary: string, body: ZodType | undefined, read: Call['handle']) => {
    const route = routes[kind];
    if (route) calls.push({ kind, action: ACTIONS[kind], route, summary, body, answer: listAnswer, handle: read });
  };

  listCall('list', `List the ${many}`, undefined, async (request, values) => ({
    message: capitalised(many),
    data: await repository.list(scopeOf(request, app.ctx.db), pageOf(values)),
  }));
  if (repository.filter) {
    const filter = repository.filter.bind(repository);
    listCall('filter', `Filter the ${many}`, contract.bodies?.filter, async (request, values, body) => ({
      message: capitalised(many),
      data: await filter(scopeOf(request, app.ctx.db), filledFields(body), pageOf(values)),
    }));
  }
  if (repository.search) {
    const search = repository.search.bind(repository);
    listCall('search', `Search the ${many}`, undefined, async (request, values) => ({
      message: capitalised(many),
      data: await search(scopeOf(request, app.ctx.db), String(values.search ?? ''), pageOf(values)),
    }));
  }
  if (routes.filterProps && repository.filterProps) {
    const props = repository.filterProps.bind(repository);
    calls.push({
      kind: 'filterProps',
      action: 'read',
      route: routes.filterProps,
      summary: `The filter choices of the ${many}`,
      answer: z.object({ message: z.string(), data: z.record(z.string(), z.unknown()) }),
      handle: async (request) => ({ message: 'Filter choices', data: await props(scopeOf(request, app.ctx.db)) }),
    });
  }
  if (routes.cards && repository.cards) {
    const cards = repository.cards.bind(repository);
    calls.push({
      kind: 'cards',
      action: 'read',
      route: routes.cards,
      summary: `The summary cards of the ${many}`,
      answer: z.object({ message: z.string(), data: z.array(z.unknown()) }),
      handle: async (request) => ({ message: 'Cards', data: await cards(scopeOf(request, app.ctx.db)) }),
    });
  }
  if (routes.one) {
    calls.push({
      kind: 'one',
      action: 'read',
      route: routes.one,
      summary: `Read a ${one}`,
      answer: recordAnswer,
      handle: async (request, values) => ({ message: capitalised(one), data: await mustFind(scopeOf(request, app.ctx.db), idOf(values)) }),
    });
  }
  if (routes.create && repository.create) {
    const create = repository.create.bind(repository);
    calls.push({
      kind: 'create',
      action: 'create',
      route: routes.create,
      summary: `Create a ${one}`,
      body: contract.bodies?.create,
      answer: recordAnswer,
      status: 201,
      handle: async (request, _values, body) => {
        const id = await change(request, async (scope) => {
          const created = await create(scope, body);
          return { id: created, operation: 'create', changes: { after: await repository.one(scope, created) } };
        });
        return { message: `${capitalised(one)} created`, data: await mustFind(scopeOf(request, app.ctx.db), id) };
      },
    });
  }
  if (routes.update && repository.update) {
    const update = repository.update.bind(repository);
    calls.push({
      kind: 'update',
      action: 'update',
      route: routes.update,
      summary: `Change a ${one}`,
      body: contract.bodies?.update,
      answer: recordAnswer,
      handle: async (request, values, body) => {
        const id = idOf(values, body, routes.update);
        await change(request, async (scope) => {
          const before = await mustFind(scope, id);
          const wanted = withoutId(body, routes.update);
          await update(scope, id, wanted);
          const after = await mustFind(scope, id);
          return { id, operation: 'update', changes: changedFields(before, after, Object.keys(wanted)) };
        });
        return { message: `${capitalised(one)} saved`, data: await mustFind(scopeOf(request, app.ctx.db), id) };
      },
    });
  }
  if (routes.activate && routes.deactivate && repository.setActive && contract.activation) {
    const setActive = repository.setActive.bind(repository);
    const field = contract.activation.field;
    const flip = (active: boolean) => async (request: FastifyRequest, values: Record<string, unknown>, body: Record<string, unknown>) => {
      const id = idOf(values, body, active ? routes.activate : routes.deactivate);
      await change(request, async (scope) => {
        const before = (await mustFind(scope, id)) as unknown as Record<string, unknown>;
        await setActive(scope, id, active);
        return {
          id,
          operation: active ? 'activate' : 'deactivate',
          changes: { before: { [field]: before[field] }, after: { [field]: active } },
        };
      });
      return {
        message: `${capitalised(one)} ${active ? 'activated' : 'deactivated'}`,
        data: await mustFind(scopeOf(request, app.ctx.db), id),
      };
    };
    const activate = routeSpec(routes.activate, 'activate');
    const deactivate = routeSpec(routes.deactivate, 'deactivate');
    if (activate.path === deactivate.path && activate.method === deactivate.method) {
      // One path for both, the wanted state in the body (`PUT /roles/activate/{id} { isActive }`).
      calls.push({
        kind: 'activate',
        action: 'update',
        route: routes.activate,
        summary: `Activate or deactivate a ${one}`,
        body: z.object({ [field]: z.boolean({ error: 'must be true or false' }) }),
        answer: recordAnswer,
        handle: (request, values, body) => flip(body[field] === true)(request, values, body),
      });
    } else {
      calls.push({
        kind: 'activate',
        action: 'update',
        route: routes.activate,
        summary: `Activate a ${one}`,
        answer: recordAnswer,
        handle: flip(true),
      });
      calls.push({
        kind: 'deactivate',
        action: 'update',
        route: routes.deactivate,
        summary: `Deactivate a ${one}`,
        answer: recordAnswer,
        handle: flip(false),
      });
    }
  }
  if (routes.delete && repository.remove) {
    const remove = repository.remove.bind(repository);
    calls.push({
      kind: 'delete',
      action: 'delete',
      route: routes.delete,
      summary: `Delete a ${one}`,
      answer: z.object({ message: z.string() }),
      handle: async (request, values, body) => {
        const id = idOf(values, body, routes.delete);
        await change(request, async (scope) => {
          const before = await mustFind(scope, id);
          await remove(scope, id);
          return { id, operation: 'delete', changes: { before } };
        });
        return { message: `${capitalised(one)} deleted` };
      },
    });
  }
  for (const [target, route] of Object.entries(contract.related ?? {})) {
    const read = repository.related?.[target];
    if (!read) throw new Error(`The contract of ${contract.name} lists them by ${target}, but its repository cannot`);
    calls.push({
      kind: `related ${target}`,
      action: 'read',
      route,
      summary: `List the ${many} of a ${target}`,
      answer: listAnswer,
      handle: async (request, values) => ({
        message: capitalised(many),
        data: await read(scopeOf(request, app.ctx.db), idOf(values), pageOf(values)),
      }),
    });
  }

  for (const call of calls) {
    const spec = routeSpec(call.route, call.kind in ACTIONS ? (call.kind as RouteKind) : 'list');
    const { url, pathNames, queryNames } = routeTemplate(spec.path);
    const idInBody = spec.idField ? z.object({ [spec.idField]: uuidParam }) : undefined;
    const body = bodySchema(call.body, idInBody, spec.method);
    api.route({
      method: spec.method as HttpMethod,
      url,
      config: { policy: [contract.policy.resource, call.action] },
      schema: {
        summary: call.summary,
        tags,
        params: schemaOf(pathNames),
        querystring: schemaOf(queryNames),
        body,
        response: { [call.status ?? 200]: call.answer },
      },
      serializerCompiler: plainJson,
      handler: async (request, reply) => {
        const values = { ...(request.params as object), ...(request.query as object) } as Record<string, unknown>;
        const answer = await call.handle(request, values, (request.body ?? {}) as Record<string, unknown>);
        return reply.code(call.status ?? 200).send(answer);
      },
    });
  }
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
