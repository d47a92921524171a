import fastifySwagger from '@fastify/swagger';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_KEY_HEADER, operationIdOf } from '../auth/api-key-auth';
import { TOKEN_HEADER } from '../auth/guard';
import { API_PREFIX, registerOperationCatalogue } from './catalogue';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type SchemaParts = Record<string, unknown>;

const SCHEMA_PARTS = ['body', 'querystring', 'params', 'headers', 'response'] as const;

/**
 * Who may call an operation, as extensions of the document: `x-public` (no token), `x-admin-only`,
 * `x-policy` (`{ resource, action }` a role's policy must allow), `x-api-keys: false` (never with
 * an API key). A public call needs no security scheme.
 */
function accessOf(config: FastifyContextConfig): Record<string, unknown> {
  if (config.public) return { 'x-public': true, security: [] };
  return {
    ...(config.adminOnly ? { 'x-admin-only': true } : {}),
    ...(config.policy ? { 'x-policy': { resource: config.policy[0], action: config.policy[1] } } : {}),
    ...(config.apiKeys === false ? { 'x-api-keys': false } : {}),
  };
}

/**
 * zod → JSON schema for the document, one route at a time. A part that cannot be expressed is
 * left out of that route's entry instead of failing the whole document (which the API-key
 * explorer reads).
 */
function documentTransform(input: TransformInput) {
  // The console's static files are not part of the API.
  if (!input.url.startsWith(API_PREFIX)) return { schema: { hide: true }, url: input.url };
  const route = (input as { route?: { method?: unknown; config?: FastifyContextConfig } }).route;
  const method = typeof route?.method === 'string' ? route.method : null;
  const withId = (result: { schema: unknown; url: string }) => {
    const schema = (result.schema ?? {}) as SchemaParts;
    return {
      ...result,
      schema: { ...schema, ...accessOf(route?.config ?? {}), ...(method ? { operationId: operationIdOf(method, input.url) } : {}) },
    };
  };
  try {
    return withId(jsonSchemaTransform(input));
  } catch {
    const schema = { ...((input.schema ?? {}) as SchemaParts) };
    for (const part of SCHEMA_PARTS) {
      if (!(part in schema)) continue;
      try {
        jsonSchemaTransform({ ...input, schema: { [part]: schema[part] } } as TransformInput);
      } catch {
        delete schema[part];
      }
    }
    return withId(jsonSchemaTransform({ ...input, schema } as TransformInput));
  }
}

/**
 * The server's own OpenAPI document (`app.swagger()`), generated from the routes' zod schemas,
 * and the catalogue of operations an API key may be granted. Both watch routes as they are
 * registered, so this runs before any route.
 */
export async function registerOpenApiDocument(app: FastifyInstance) {
  registerOperationCatalogue(app);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'DataOps Console API',
        description: 'The administration API of DataOps Console. Authenticate with a session token or an API key.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: TOKEN_HEADER },
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
        },
      },
    },
    transform: documentTransform,
  });
}
