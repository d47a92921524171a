import type { FastifyInstance, RouteOptions } from 'fastify';
import { operationIdOf } from '../auth/api-key-auth';
import { humanise } from '../http/lists';

/** One operation an API key may be granted, as GET /openapi lists it. */
export interface ApiOperation {
  id: string;
  method: string;
  /** Relative to /api/v1, with `{param}` placeholders. */
  path: string;
  summary: string;
  tag: string;
}

interface RouteRecord {
  method: string;
  /** The full URL the route was registered with, `:param` style. */
  url: string;
  config: RouteOptions['config'];
  schema: RouteOptions['schema'];
}

export const API_PREFIX = '/api/v1';

/**
 * Families no key may ever call, whatever their route config says: they manage a person's own
 * sign-in (sessions, passwords, two-factor, impersonation), the person's console state
 * (preferences, column choices), keys themselves (a key must not mint or widen keys), and the
 * writing of someone's policies.
 */
const NEVER_GRANTED: Array<{ method?: string; pattern: RegExp }> = [
  { pattern: /^\/session(\/|$)/ },
  { pattern: /^\/user\/impersonate(\/|$)/ },
  { pattern: /^\/user\/password/ },
  { pattern: /^\/user\/otp(\/|$)/ },
  { pattern: /^\/user\/preferences/ },
  { pattern: /^\/lists(\/|$)/ },
  { pattern: /^\/apikey/ },
  { pattern: /^\/openapi/ },
  { method: 'POST', pattern: /^\/authorization\/policies(\/|$)/ },
];

const VERBS: Record<string, string> = { GET: 'Read', POST: 'Send', PUT: 'Update', PATCH: 'Change', DELETE: 'Delete' };

export const relativePath = (url: string) => (url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url);
export const bracedPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');

/** "Read users by offset and limit" from GET /users/:offset/:limit, for routes without a summary. */
export function derivedSummary(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const words = segments.filter((s) => !s.startsWith(':')).map((s) => humanise(s).toLowerCase());
  const params = segments.filter((s) => s.startsWith(':')).map((s) => humanise(s.slice(1).replace(/\(.*$/, '')).toLowerCase());
  const verb = VERBS[method] ?? method;
  const what = words.join(' ') || 'root';
  if (params.length === 0) return `${verb} ${what}`;
  const last = params.pop()!;
  return `${verb} ${what} by ${params.length ? `${params.join(', ')} and ${last}` : last}`;
}

/** Tags by the first segment of a path, for routes that name none: the console's areas. */
const TAG_BY_SEGMENT: Record<string, string> = {
  user: 'Users',
  users: 'Users',
  client: 'Users',
  role: 'Roles and policies',
  roles: 'Roles and policies',
  policies: 'Roles and policies',
  authorization: 'Roles and policies',
  workspace: 'Workspaces',
  workspaces: 'Workspaces',
  notification: 'Notifications',
  notifications: 'Notifications',
  system: 'System audits',
  access: 'Security access events',
  fetchDistinctEventStatus: 'Security access events',
  session: 'Sessions',
  mail: 'Mail outbox',
  dashboard: 'Dashboard',
  admin: 'Dashboard',
  company: 'Company',
};

function tagOf(record: RouteRecord, path: string): string {
  const tags = (record.schema as { tags?: unknown } | undefined)?.tags;
  if (Array.isArray(tags) && typeof tags[0] === 'string') return tags[0];
  const segment = path.split('/').filter(Boolean)[0] ?? 'api';
  return TAG_BY_SEGMENT[segment] ?? humanise(segment);
}

function isGrantable(record: RouteRecord, path: string): boolean {
  const config = record.config ?? {};
  if (config.public || config.stages || config.apiKeys === false) return false;
  return !NEVER_GRANTED.some((rule) => (!rule.method || rule.method === record.method) && rule.pattern.test(path));
}

/**
 * The operations of this server that an API key may be granted, collected from the routes as they
 * are registered (the hook must be added before any route). Read only once the app is ready.
 */
export class OperationCatalogue {
  private readonly records: RouteRecord[] = [];
  private cache: { list: ApiOperation[]; byId: Map<string, ApiOperation> } | null = null;

  record(route: RouteOptions) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // HEAD routes are Fastify's shadows of GET routes.
      if (method === 'HEAD' || !route.url.startsWith(API_PREFIX)) continue;
      this.records.push({ method, url: route.url, config: route.config, schema: route.schema });
    }
    this.cache = null;
  }

  private build() {
    if (this.cache) return this.cache;
    const byId = new Map<string, ApiOperation>();
    for (const record of this.records) {
      const path = relativePath(record.url);
      if (!isGrantable(record, path)) continue;
      const id = operationIdOf(record.method, record.url);
      if (byId.has(id)) continue;
      const summary = (record.schema as { summary?: unknown } | undefined)?.summary;
      byId.set(id, {
        id,
        method: record.method,
        path: bracedPath(path),
        summary: typeof summary === 'string' && summary ? summary : derivedSummary(record.method, path),
        tag: tagOf(record, path),
      });
    }
    const list = [...byId.values()].sort(
      (a, b) => a.tag.localeCompare(b.tag) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
    );
    this.cache = { list, byId };
    return this.cache;
  }

  list(): ApiOperation[] {
    return this.build().list;
  }

  find(id: string): ApiOperation | undefined {
    return this.build().byId.get(id);
  }

  has(id: string): boolean {
    return this.build().byId.has(id);
  }

  /** The ids of `ids` that are not operations a key may be granted. */
  unknown(ids: readonly string[]): string[] {
    const { byId } = this.build();
    return [...new Set(ids.filter((id) => !byId.has(id)))];
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    apiOperations: OperationCatalogue;
  }
}

/** Adds the catalogue to the root app; call before the routes are registered. */
export function registerOperationCatalogue(app: FastifyInstance) {
  const catalogue = new OperationCatalogue();
  app.decorate('apiOperations', catalogue);
  app.addHook('onRoute', (route) => catalogue.record(route));
}
