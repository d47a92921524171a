import { API_PREFIX, type ApiOperation } from './catalogue';

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

interface OpenApiOperation {
  operationId?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | unknown>>;
}

export interface OperationDetail extends ApiOperation {
  description: string | null;
  parameters: Array<{ name: string; in: string; required: boolean; description: string | null; schema: unknown }>;
  /** The JSON schema of the body and the content types it may be sent as; null when the call takes none. */
  body: { required: boolean; contentTypes: string[]; schema: unknown } | null;
}

function findInDocument(document: OpenApiDocument, operation: ApiOperation): OpenApiOperation | undefined {
  const paths = document.paths ?? {};
  const method = operation.method.toLowerCase();
  for (const item of Object.values(paths)) {
    const candidate = item[method] as OpenApiOperation | undefined;
    if (candidate?.operationId === operation.id) return candidate;
  }
  return paths[`${API_PREFIX}${operation.path}`]?.[method] as OpenApiOperation | undefined;
}

/** One operation of the catalogue with what the server's OpenAPI document says it takes. */
export function describeOperation(document: unknown, operation: ApiOperation): OperationDetail {
  const entry = findInDocument(document as OpenApiDocument, operation);
  const content = entry?.requestBody?.content ?? {};
  const contentTypes = Object.keys(content);
  const preferred = content['application/json'] ?? content[contentTypes[0]];
  return {
    ...operation,
    description: entry?.description ?? null,
    parameters: (entry?.parameters ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required ?? false,
      description: p.description ?? null,
      schema: p.schema ?? {},
    })),
    body: entry?.requestBody ? { required: entry.requestBody.required ?? false, contentTypes, schema: preferred?.schema ?? {} } : null,
  };
}
