import { z } from 'zod';

/** The open API explorer (server/modules/apikeys/operations.ts): the operations an API key may be granted, and the document they come from. */

/** One operation an API key may be granted, as `GET /openapi` lists it. */
export const apiOperation = z.object({
  /** The method and the path's segments joined with underscores: `get_users_offset_limit`. */
  id: z.string(),
  method: z.string(),
  /** Relative to /api/v1, with `{param}` placeholders. */
  path: z.string(),
  summary: z.string(),
  tag: z.string(),
});

/** `GET /openapi/{id}`: an operation with what the server's OpenAPI document says it takes. */
export const apiOperationDetail = apiOperation.extend({
  description: z.string().nullable(),
  parameters: z.array(
    z.object({
      name: z.string(),
      /** `path`, `query` or `header`. */
      in: z.string(),
      required: z.boolean(),
      description: z.string().nullable(),
      /** Its JSON schema. */
      schema: z.unknown(),
    }),
  ),
  /** The JSON schema of the body and the content types it may be sent as; null when the call takes none. */
  body: z.object({ required: z.boolean(), contentTypes: z.array(z.string()), schema: z.unknown() }).nullable(),
});

/**
 * `GET /openapi/document`: the server's whole OpenAPI 3.0 document, as it is (not wrapped in
 * `{ message, data }`); its operations and schemas are OpenAPI's own free-form JSON.
 */
export const openApiDocument = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), description: z.string().optional(), version: z.string() }),
  /** The operations, by path then method. */
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  /** Its security schemes: `accessToken` (the `x-access-token` header) and `apiKey` (`x-api-key`). */
  components: z.object({ securitySchemes: z.record(z.string(), z.unknown()) }),
});
