import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databricksRequest, databricksSettings, openDatabricksConnector } from '../../../server/connectors/databricks';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { closedPort, sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP } from './test-context';

/**
 * A Databricks workspace on this machine: the SCIM Me call and Unity Catalog's catalogs, schemas
 * and tables lists (paged with next_page_token) and table description, answered as the REST API
 * reference shows them, behind a bearer token.
 */

const TOKEN = 'dapi0123456789abcdef';
let workspace: LocalServer;
/** Per path, answers to give before the real one (a 429, a 503). */
const interruptions = new Map<string, Array<{ status: number; headers?: Record<string, string>; body: unknown }>>();

const SCHEMAS: Record<string, string[]> = { main: ['default', 'information_schema', 'sales'], sandbox: ['scratch'], lake: ['raw'] };
const TABLES: Record<string, Array<{ name: string; table_type: string }>> = {
  'main.default': [{ name: 'customers', table_type: 'EXTERNAL' }],
  'main.information_schema': [{ name: 'tables', table_type: 'VIEW' }],
  'main.sales': [
    { name: 'orders', table_type: 'MANAGED' },
    { name: 'refunds', table_type: 'MANAGED' },
    { name: 'revenue_by_day', table_type: 'VIEW' },
  ],
  'sandbox.scratch': [{ name: 'tmp_load', table_type: 'MANAGED' }],
  'lake.raw': [
    { name: 'events', table_type: 'EXTERNAL' },
    { name: 'clicks', table_type: 'EXTERNAL' },
    { name: 'views', table_type: 'EXTERNAL' },
  ],
};

/** Unity Catalog answers in pages; two items a page here, so that paging is exercised. */
function page<T>(request: ReceivedRequest, field: string, items: T[]) {
  const start = Number(request.query.get('page_token') ?? 0);
  const slice = items.slice(start, start + 2);
  return { [field]: slice, ...(start + 2 < items.length ? { next_page_token: String(start + 2) } : {}) };
}

function answerDatabricks(request: ReceivedRequest, response: ServerResponse): void {
  if (request.headers.authorization !== `Bearer ${TOKEN}`) {
    return sendJson(response, 403, { error_code: '403', message: 'Invalid access token.' });
  }
  const pending = interruptions.get(request.path);
  if (pending && pending.length > 0) {
    const next = pending.shift()!;
    return sendJson(response, next.status, next.body, next.headers);
  }
  const catalog = request.query.get('catalog_name') ?? '';
  const schema = request.query.get('schema_name') ?? '';
  switch (request.path) {
    case '/api/2.0/preview/scim/v2/Me':
      return sendJson(response, 200, { id: '7', userName: 'ana@example.com', displayName: 'Ana', active: true });
    case '/api/2.1/unity-catalog/catalogs':
      return sendJson(
        response,
        200,
        page(
          request,
          'catalogs',
          ['main', 'sandbox', 'system'].map((name) => ({ name, owner: 'admins' })),
        ),
      );
    case '/api/2.1/unity-catalog/schemas':
      return sendJson(
        response,
        200,
        page(
          request,
          'schemas',
          (SCHEMAS[catalog] ?? []).map((name) => ({ name, catalog_name: catalog, full_name: `${catalog}.${name}` })),
        ),
      );
    case '/api/2.1/unity-catalog/tables':
      // The API may answer an empty page that still names a next one; only a missing token ends the list.
      if (catalog === 'lake' && !request.query.has('page_token')) return sendJson(response, 200, { tables: [], next_page_token: '0' });
      return sendJson(
        response,
        200,
        page(
          request,
          'tables',
          (TABLES[`${catalog}.${schema}`] ?? []).map((table) => ({
            ...table,
            catalog_name: catalog,
            schema_name: schema,
            full_name: `${catalog}.${schema}.${table.name}`,
          })),
        ),
      );
    case '/api/2.1/unity-catalog/tables/main.sales.orders':
      return sendJson(response, 200, {
        name: 'orders',
        full_name: 'main.sales.orders',
        table_type: 'MANAGED',
        columns: [
          { name: 'amount', type_text: 'decimal(10,2)', type_name: 'DECIMAL', position: 1, nullable: true },
          { name: 'order_id', type_text: 'bigint', type_name: 'LONG', position: 0, nullable: false },
          { name: 'placed_at', type_text: 'timestamp', type_name: 'TIMESTAMP', position: 2 },
        ],
      });
    default:
      return sendJson(response, 404, {
        error_code: 'TABLE_DOES_NOT_EXIST',
        message: `Table '${decodeURIComponent(request.path.split('/').pop()!)}' does not exist.`,
      });
  }
}

const config = (settings: Record<string, unknown> = {}, token = TOKEN): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'databricks',
  settings: { host: workspace.url, ...settings },
  secrets: { token },
});

const fast = { http: { ...TEST_HTTP, retryBaseDelayMs: 20 } };

beforeAll(async () => {
  workspace = await startLocalServer(answerDatabricks);
});

afterAll(async () => {
  await workspace?.close();
});

describe('testing', () => {
  it('signs in with the token and names the user', async () => {
    const result = await openDatabricksConnector(config(), { http: TEST_HTTP }).test();
    expect(result.detail).toBe('ana@example.com');
    expect(workspace.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("turns a refused token into an auth failure in Databricks' words", async () => {
    const error = await failure(openDatabricksConnector(config({}, 'dapi-wrong'), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('Databricks: Invalid access token. (HTTP 403)');
  });

  it('refuses to send a token to a plain-http address elsewhere', () => {
    expect(() => openDatabricksConnector(config({ host: 'http://dbc-1234.cloud.databricks.com' }), { http: TEST_HTTP })).toThrow(
      'settings.host: must be an https URL',
    );
  });

  it('says when the workspace cannot be reached', async () => {
    const port = await closedPort();
    const error = await failure(openDatabricksConnector(config({ host: `http://127.0.0.1:${port}` }), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`Databricks could not reach the service at 127.0.0.1:${port}`);
  });

  it('gives up on a workspace that does not answer in time', async () => {
    const silent = await startLocalServer(() => undefined);
    try {
      const error = await failure(openDatabricksConnector(config({ host: silent.url }), { http: { ...TEST_HTTP, timeoutMs: 200 } }).test());
      expect(error.kind).toBe('timeout');
      expect(error.message).toBe('Databricks did not answer within 0.2 s');
    } finally {
      await silent.close();
    }
  });
});

describe('endpoints and columns', () => {
  it('lists the Unity Catalog tables of every catalog, following next_page_token, without information_schema', async () => {
    const endpoints = await openDatabricksConnector(config(), { http: TEST_HTTP }).endpoints();
    expect(endpoints).toEqual([
      { id: 'main.default.customers', name: 'customers', kind: 'table', group: 'main.default', format: 'table' },
      { id: 'main.sales.orders', name: 'orders', kind: 'table', group: 'main.sales', format: 'table' },
      { id: 'main.sales.refunds', name: 'refunds', kind: 'table', group: 'main.sales', format: 'table' },
      { id: 'main.sales.revenue_by_day', name: 'revenue_by_day', kind: 'table', group: 'main.sales', format: 'view' },
      { id: 'sandbox.scratch.tmp_load', name: 'tmp_load', kind: 'table', group: 'sandbox.scratch', format: 'table' },
    ]);
    const tablePages = workspace.requests.filter(
      (request) => request.path === '/api/2.1/unity-catalog/tables' && request.query.get('schema_name') === 'sales',
    );
    expect(tablePages.map((request) => request.query.get('page_token'))).toEqual([null, '2']);
  });

  it("asks for pages of the server's own size without columns, and reads on past an empty page that names a next one", async () => {
    const endpoints = await openDatabricksConnector(config({ catalog: 'lake' }), { http: TEST_HTTP }).endpoints();
    expect(endpoints.map((endpoint) => endpoint.id)).toEqual(['lake.raw.events', 'lake.raw.clicks', 'lake.raw.views']);
    const tablePages = workspace.requests.filter(
      (request) => request.path === '/api/2.1/unity-catalog/tables' && request.query.get('catalog_name') === 'lake',
    );
    expect(tablePages.map((request) => request.query.get('page_token'))).toEqual([null, '0', '2']);
    for (const request of tablePages) {
      expect(request.query.get('max_results')).toBe('0');
      expect(request.query.get('omit_columns')).toBe('true');
    }
  });

  it('lists only the catalog the connection names', async () => {
    const endpoints = await openDatabricksConnector(config({ catalog: 'sandbox' }), { http: TEST_HTTP }).endpoints();
    expect(endpoints.map((endpoint) => endpoint.id)).toEqual(['sandbox.scratch.tmp_load']);
  });

  it("describes a table's columns in their order", async () => {
    expect(await openDatabricksConnector(config(), { http: TEST_HTTP }).columns('main.sales.orders')).toEqual([
      { name: 'order_id', dataType: 'bigint', nullable: false, position: 1 },
      { name: 'amount', dataType: 'decimal(10,2)', nullable: true, position: 2 },
      { name: 'placed_at', dataType: 'timestamp', nullable: true, position: 3 },
    ]);
  });

  it('says a missing table is not found', async () => {
    const error = await failure(openDatabricksConnector(config(), { http: TEST_HTTP }).columns('main.sales.nope'));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe("Databricks: Table 'main.sales.nope' does not exist. (TABLE_DOES_NOT_EXIST) (HTTP 404)");
  });
});

describe('retries', () => {
  it('waits as Retry-After says after a 429, then goes on', async () => {
    interruptions.set('/api/2.0/preview/scim/v2/Me', [
      { status: 429, headers: { 'retry-after': '1' }, body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'Too many requests' } },
    ]);
    const started = Date.now();
    const result = await openDatabricksConnector(config(), fast).test();
    expect(result.detail).toBe('ana@example.com');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('tries again after a 503', async () => {
    interruptions.set('/api/2.0/preview/scim/v2/Me', [
      { status: 503, body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'The service is temporarily unavailable' } },
    ]);
    const before = workspace.requests.length;
    expect((await openDatabricksConnector(config(), fast).test()).detail).toBe('ana@example.com');
    expect(workspace.requests.length - before).toBe(2);
  });

  it('stops after three tries with the last answer', async () => {
    const unavailable = { status: 503, body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'The service is temporarily unavailable' } };
    interruptions.set('/api/2.0/preview/scim/v2/Me', [unavailable, unavailable, unavailable, unavailable]);
    const before = workspace.requests.length;
    const error = await failure(openDatabricksConnector(config(), fast).test());
    expect(error.message).toBe('Databricks: The service is temporarily unavailable (TEMPORARILY_UNAVAILABLE) (HTTP 503)');
    expect(workspace.requests.length - before).toBe(3);
    interruptions.clear();
  });

  it('does not wait when asked to wait longer than a test may take', async () => {
    interruptions.set('/api/2.0/preview/scim/v2/Me', [
      { status: 429, headers: { 'retry-after': '120' }, body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'Too many requests' } },
    ]);
    const started = Date.now();
    const error = await failure(openDatabricksConnector(config(), fast).test());
    expect(error.message).toBe(
      'Databricks: Too many requests (REQUEST_LIMIT_EXCEEDED) (HTTP 429); it asked to wait 120 s before trying again',
    );
    expect(Date.now() - started).toBeLessThan(1000);
    interruptions.clear();
  });
});

describe('the shared request helper', () => {
  it('makes any authenticated call, for the jobs adapter', async () => {
    const catalogs = await databricksRequest<{ catalogs: Array<{ name: string }> }>(
      databricksSettings(config()),
      '/api/2.1/unity-catalog/catalogs',
      {
        query: { page_token: '2' },
      },
      TEST_HTTP,
    );
    expect(catalogs.catalogs.map((catalog) => catalog.name)).toEqual(['system']);
  });
});
