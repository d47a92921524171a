import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import { collectRouteTable } from '../route-table';

/** One API route as the hostile requests see it: its zod schemas, and what else than JSON it takes. */
export interface RouteEntry {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, `:param` style. */
  path: string;
  config: NonNullable<RouteOptions['config']>;
  params?: ZodType;
  querystring?: ZodType;
  body?: ZodType;
  /** The content types the route says it accepts besides JSON (multipart uploads, forms). */
  consumes: string[];
}

const isZod = (value: unknown): value is ZodType => typeof value === 'object' && value !== null && '_zod' in value;

/** Every /api/v1 route of the app with its schemas, from the shared route table. */
export async function collectRoutes(app: FastifyInstance): Promise<RouteEntry[]> {
  const table = await collectRouteTable(app);
  return table.map((route) => ({
    method: route.method,
    path: route.url,
    config: route.config,
    params: isZod(route.schema.params) ? route.schema.params : undefined,
    querystring: isZod(route.schema.querystring) ? route.schema.querystring : undefined,
    body: isZod(route.schema.body) ? route.schema.body : undefined,
    consumes: Array.isArray(route.schema.consumes) ? (route.schema.consumes as string[]) : [],
  }));
}
