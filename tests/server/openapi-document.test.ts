import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { operationIdOf } from '../../server/auth/api-key-auth';
import { API_PREFIX, bracedPath } from '../../server/apikeys/catalogue';
import { createTestServer, type TestServer } from './harness';
import { collectRouteTable, type RouteEntry } from './route-table';

/**
 * The server's OpenAPI document (what GET /openapi/document answers and the API-key explorer
 * reads): a valid OpenAPI 3.0 document that describes every route of the API, each with a summary
 * and a tag, except the few kept out of it on purpose.
 */

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: object }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Routes the document leaves out: a browser's reports and Stripe's calls are no part of the API. */
const HIDDEN_ROUTES = ['POST /csp-reports', 'POST /subscription/webhook'];

let server: TestServer;
let document: OpenApiDocument;
let routes: RouteEntry[];

beforeAll(async () => {
  server = await createTestServer();
  await server.app.ready();
  document = server.app.swagger() as unknown as OpenApiDocument;
  routes = await collectRouteTable(server.app);
});
afterAll(async () => {
  await server?.close();
});

/** Every operation of a document, as `METHOD /path` with what it says of itself. */
function operationsOf(doc: OpenApiDocument): Array<{ key: string } & Operation> {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, ...operation })),
  );
}

async function validate(doc: unknown) {
  return new Validator().validate(structuredClone(doc) as Record<string, unknown>);
}

/** Operations without a non-empty summary or without a tag, by `METHOD /path`. */
function undescribed(doc: OpenApiDocument): string[] {
  return operationsOf(doc)
    .filter((op) => !(typeof op.summary === 'string' && op.summary.trim()) || !op.tags?.some((tag) => tag.trim()))
    .map((op) => op.key);
}

/**
 * Operations that do not say what their success answers: no 2xx response with a schema (a 204
 * answers nothing, so it needs none). A generated client gets its types from these schemas.
 */
function withoutAnswerSchema(doc: OpenApiDocument): string[] {
  return operationsOf(doc)
    .filter(
      (op) =>
        !Object.entries(op.responses ?? {}).some(
          ([code, response]) =>
            /^2(\d\d|XX)$/.test(code) &&
            (code === '204' || Object.values(response.content ?? {}).some((media) => media.schema && Object.keys(media.schema).length > 0)),
        ),
    )
    .map((op) => op.key);
}

const isHidden = (route: RouteEntry) => route.schema.hide === true;
const documentKeyOf = (route: RouteEntry) => `${route.method} ${API_PREFIX}${bracedPath(route.url)}`;

describe("the server's OpenAPI document", () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    expect(document.openapi).toBe('3.0.3');
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('is checked by a validator that refuses a broken document', async () => {
    // An OpenAPI 3.0 operation must say what it answers.
    const broken = { ...document, paths: { ...document.paths, '/api/v1/broken': { get: { summary: 'Broken' } } } };
    const result = await validate(broken);
    expect(result.valid).toBe(false);
    expect(result.errors).toBeDefined();
  });

  it('gives every operation a summary and at least one tag', () => {
    expect(undescribed(document)).toEqual([]);
    for (const op of operationsOf(document)) expect(op.summary!.trim().length, op.key).toBeGreaterThan(3);
  });

  it('finds an operation without a summary or a tag (the check can fail)', () => {
    const withOne = (operation: Operation): OpenApiDocument => ({
      openapi: '3.0.3',
      paths: { '/api/v1/things': { get: operation, post: { summary: 'Create a thing', tags: ['Things'] } } },
    });
    expect(undescribed(withOne({ summary: 'List the things', tags: ['Things'] }))).toEqual([]);
    expect(undescribed(withOne({ tags: ['Things'] }))).toEqual(['GET /api/v1/things']);
    expect(undescribed(withOne({ summary: '  ', tags: ['Things'] }))).toEqual(['GET /api/v1/things']);
    expect(undescribed(withOne({ summary: 'List the things' }))).toEqual(['GET /api/v1/things']);
    expect(undescribed(withOne({ summary: 'List the things', tags: [] }))).toEqual(['GET /api/v1/things']);
  });

  it('gives every operation the schema of its success answer', () => {
    expect(withoutAnswerSchema(document)).toEqual([]);
  });

  it('finds an operation whose success answer has no schema (the check can fail)', () => {
    const json = (schema: object) => ({ description: 'Done', content: { 'application/json': { schema } } });
    const withOne = (responses: Operation['responses']): OpenApiDocument => ({
      openapi: '3.0.3',
      paths: { '/api/v1/things': { get: { summary: 'List the things', tags: ['Things'], responses } } },
    });
    expect(withoutAnswerSchema(withOne({ 200: json({ type: 'object' }) }))).toEqual([]);
    expect(withoutAnswerSchema(withOne({ 201: json({ type: 'object' }) }))).toEqual([]);
    expect(withoutAnswerSchema(withOne({ 204: { description: 'Nothing' } }))).toEqual([]);
    expect(withoutAnswerSchema(withOne({ 200: { description: 'Default Response' } }))).toEqual(['GET /api/v1/things']);
    expect(withoutAnswerSchema(withOne({ 200: json({}) }))).toEqual(['GET /api/v1/things']);
    expect(withoutAnswerSchema(withOne({ 400: json({ type: 'object' }) }))).toEqual(['GET /api/v1/things']);
  });

  it('has one operation for each route of the API, except the routes hidden on purpose', () => {
    expect(routes.filter(isHidden).map((route) => `${route.method} ${route.url}`)).toEqual(HIDDEN_ROUTES);
    const expected = routes.filter((route) => !isHidden(route));
    const operations = operationsOf(document);
    expect(operations.length).toBe(expected.length);
    expect(operations.map((op) => op.key).sort()).toEqual(expected.map(documentKeyOf).sort());
    const ids = new Map(operations.map((op) => [op.key, op.operationId]));
    for (const route of expected) {
      expect(ids.get(documentKeyOf(route)), documentKeyOf(route)).toBe(operationIdOf(route.method, `${API_PREFIX}${route.url}`));
    }
  });
});
