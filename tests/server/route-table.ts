import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import { API_PREFIX } from '../../server/platform/context';
import { apiRoutes } from '../../server/routes';
import { ENTITY_MODULES } from '../../server/modules';
import { registerEntityRoutes, type EntityModule } from '../../server/platform/entity-routes';

/** One route of the API as the server registers it. */
export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, Fastify style: `/users/:id`. */
  url: string;
  /** The path parameters, in the order they appear in the url. */
  pathParams: string[];
  schema: {
    params?: ZodType;
    querystring?: ZodType;
    body?: ZodType;
    /** Anything else the route declares (summary, tags, consumes, response, ...). */
    [key: string]: unknown;
  };
  config: NonNullable<RouteOptions['config']>;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** `:id` and `:id(^\\d+$)` both name `id`. */
export function pathParamsOf(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);
}

/** `/users/:id` with `{ id: 'x' }` → `/users/x`; every parameter must be given. */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No value for :${name} in ${url}`);
    return encodeURIComponent(values[name]);
  });
}

/**
 * Every route of the API with its schemas and config, sorted by url then method.
 *
 * A running app does not hand out its routes, so the server's own route plugin is registered
 * again on a scratch Fastify instance that records each route as it is added (with `live`'s
 * context, which plugins read while registering; no route is ever called there). The result is
 * (and the entity modules the live app was built with) then checked against the live app: each route must exist there and the live app must have no
 * other route, so a route added outside the plugin cannot slip past the callers of this.
 */
export async function collectRouteTable(live: FastifyInstance, modules: readonly EntityModule[] = []): Promise<RouteEntry[]> {
  const routes: RouteEntry[] = [];
  const scratch = Fastify({ logger: false });
  scratch.setValidatorCompiler(validatorCompiler);
  scratch.setSerializerCompiler(serializerCompiler);
  scratch.decorate('ctx', live.ctx);
  scratch.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // HEAD routes are Fastify's shadows of GET routes.
      if (!METHODS.has(method)) continue;
      const url = route.url.startsWith(API_PREFIX) ? route.url.slice(API_PREFIX.length) : route.url;
      routes.push({
        method: method as RouteEntry['method'],
        url,
        pathParams: pathParamsOf(url),
        schema: (route.schema ?? {}) as RouteEntry['schema'],
        config: route.config ?? {},
      });
    }
  });
  try {
    await scratch.register(
      async (api) => {
        await api.register(apiRoutes);
        for (const module of [...ENTITY_MODULES, ...modules]) await api.register((scoped) => registerEntityRoutes(scoped, module));
      },
      { prefix: API_PREFIX },
    );
    await scratch.ready();
  } finally {
    await scratch.close();
  }
  routes.sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  assertSameAsLive(live, routes);
  return routes;
}

/** The routes of `live` are exactly `routes`: none missing there, none more there. */
function assertSameAsLive(live: FastifyInstance, routes: RouteEntry[]) {
  const missing = routes.filter((route) => !live.hasRoute({ method: route.method, url: `${API_PREFIX}${route.url}` }));
  if (missing.length > 0) {
    throw new Error(`Routes collected but not in the live app: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`);
  }
  // printRoutes shows one line per path node with the methods that end there: one route each.
  const liveCount = live
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .map((line) => /\(([A-Z, ]+)\)\s*$/.exec(line)?.[1] ?? '')
    .flatMap((methods) => methods.split(',').map((m) => m.trim()))
    .filter((method) => METHODS.has(method)).length;
  if (liveCount !== routes.length) {
    throw new Error(`The live app has ${liveCount} routes but ${routes.length} were collected from the route plugin`);
  }
}

/**
 * The top-level field names a params, querystring or body schema takes (of every branch, for a
 * union), or [] when it takes none or cannot be expressed as JSON schema.
 */
export function fieldsOf(schema: ZodType | undefined): string[] {
  if (!schema) return [];
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  } catch {
    return [];
  }
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const { properties, anyOf, oneOf, allOf } = node as Record<string, unknown>;
    if (properties && typeof properties === 'object') for (const name of Object.keys(properties)) names.add(name);
    for (const branch of [anyOf, oneOf, allOf]) if (Array.isArray(branch)) branch.forEach(visit);
  };
  visit(json);
  return [...names];
}
