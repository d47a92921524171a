import { randomBytes } from 'node:crypto';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectorRegistry } from '../../../server/connectors';
import { azureBlobSettings, openAzureBlobConnector } from '../../../server/connectors/azure-blob';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { AZURE_ACCOUNT, startAzureBlobService, type AzureBlobService } from './fixtures-remote/azure-blob-service';
import { closedPort } from './fixtures-remote/local-server';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP, testConnectorContext } from './test-context';

/**
 * The azure_blob connector against an Azure Blob service on this machine
 * (fixtures-remote/azure-blob-service.ts), which checks every Shared Key signature and SAS token
 * as Azure does: signing, listing, reading, and failures in the service's own words.
 */

let azure: AzureBlobService;
const sizeOf = (name: string) => azure.blob('data', name)!.body.length;

function sharedKeyConfig(settings: Record<string, unknown> = {}, accountKey = azure.accountKey): ConnectionConfig {
  return {
    companyId: TEST_COMPANY_ID,
    type: 'azure_blob',
    settings: {
      accountName: AZURE_ACCOUNT,
      container: 'data',
      prefix: 'exports/',
      authMethod: 'sharedKey',
      endpoint: azure.server.url,
      ...settings,
    },
    secrets: { accountKey },
  };
}

function sasConfig(sasToken: string, settings: Record<string, unknown> = {}): ConnectionConfig {
  return {
    companyId: TEST_COMPANY_ID,
    type: 'azure_blob',
    settings: {
      accountName: AZURE_ACCOUNT,
      container: 'data',
      prefix: 'exports/',
      authMethod: 'sas',
      endpoint: azure.server.url,
      ...settings,
    },
    secrets: { sasToken },
  };
}

const FAST_RETRIES = { http: { ...TEST_HTTP, retryBaseDelayMs: 5 } };
const QUERY = { timeoutMs: 10_000, readOnly: true };

beforeAll(async () => {
  azure = await startAzureBlobService();
  azure.putBlob('data', 'exports/customers.csv', 'id,name,joined\n1,"Smith, Anna",2024-01-02\n2,Bob,\n3,Chloé,2024-03-04\n');
  azure.putBlob('data', 'exports/q1 report/sales+returns.csv', 'region,amount\nnorth,10\nsouth,32\n');
  azure.putBlob('data', 'exports/readme.md', '# not data');
  azure.putBlob('data', 'private/salaries.csv', 'who,amount\nboss,1\n');
  azure.putBlob(
    'data',
    'exports/products.parquet',
    new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'sku', data: [1, 2, 3], type: 'INT32', nullable: false },
          { name: 'title', data: ['Pen', 'Ink', null], type: 'STRING' },
        ],
      }),
    ),
  );
});

afterAll(async () => {
  await azure?.close();
});

describe('Shared Key', () => {
  it('tests by listing one blob, signed as Azure checks it', async () => {
    const connector = openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP });
    const result = await connector.test();
    expect(result.detail).toBe('Container "data": the first page under "exports/" listed 1 blob');
    const listing = azure.server.requests.at(-1)!;
    expect(listing.path).toBe('/data');
    expect(Object.fromEntries(listing.query)).toEqual({ restype: 'container', comp: 'list', prefix: 'exports/', maxresults: '1' });
    expect(listing.headers.authorization).toMatch(/^SharedKey acmedata:[A-Za-z0-9+/]+=*$/);
    expect(listing.headers['x-ms-version']).toBe('2023-11-03');
    expect(Date.now() - Date.parse(String(listing.headers['x-ms-date']))).toBeLessThan(60_000);
    await connector.close();
  });

  it("reports a wrong account key in Azure's words, as an auth failure", async () => {
    const error = await failure(
      openAzureBlobConnector(sharedKeyConfig({}, randomBytes(64).toString('base64')), { http: TEST_HTTP }).test(),
    );
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      'Azure Blob Storage: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. (AuthenticationFailed) (HTTP 403)',
    );
  });

  it('says a missing container is not found', async () => {
    const error = await failure(openAzureBlobConnector(sharedKeyConfig({ container: 'nope' }), { http: TEST_HTTP }).endpoints());
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('Azure Blob Storage: The specified container does not exist. (ContainerNotFound) (HTTP 404)');
  });

  it('tries again after a 503, and reports the 503 when it persists', async () => {
    const busy = { status: 503, code: 'ServerBusy', message: 'The server is busy.' };
    azure.interrupt('/data', [busy]);
    expect((await openAzureBlobConnector(sharedKeyConfig(), FAST_RETRIES).test()).detail).toContain('listed 1 blob');

    azure.interrupt('/data', [busy, busy, busy]);
    const before = azure.server.requests.length;
    const error = await failure(openAzureBlobConnector(sharedKeyConfig(), FAST_RETRIES).test());
    expect(error.kind).toBe('failed');
    expect(error.message).toBe('Azure Blob Storage: The server is busy. (ServerBusy) (HTTP 503)');
    expect(azure.server.requests.length - before).toBe(3);
  });

  it('says when the service cannot be reached', async () => {
    const port = await closedPort();
    const error = await failure(
      openAzureBlobConnector(sharedKeyConfig({ endpoint: `http://127.0.0.1:${port}` }), { http: TEST_HTTP }).test(),
    );
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`Azure Blob Storage could not reach the service at 127.0.0.1:${port}`);
  });

  it("reaches the account's own address unless told, and sends keys only over https or to this machine", () => {
    const { endpoint } = azureBlobSettings(sharedKeyConfig({ endpoint: '' }));
    expect(endpoint.href).toBe('https://acmedata.blob.core.windows.net/');
    expect(() => azureBlobSettings(sharedKeyConfig({ endpoint: 'http://blobs.example.com' }))).toThrow(
      'settings.endpoint: must be an https URL',
    );
    expect(() => azureBlobSettings(sharedKeyConfig({}, 'not a key!'))).toThrow(
      'settings.accountKey: must be a storage account access key (base64)',
    );
  });
});

describe('SAS token', () => {
  it('lists and reads with a token that allows it, sending no account key', async () => {
    const token = azure.containerSas('data', 'rl');
    const connector = openAzureBlobConnector(sasConfig(`?${token}`), { http: TEST_HTTP });
    try {
      expect((await connector.test()).detail).toBe('Container "data": the first page under "exports/" listed 1 blob');
      expect(azure.server.requests.at(-1)!.headers.authorization).toBeUndefined();
      expect(azure.server.requests.at(-1)!.query.get('sig')).toBe(new URLSearchParams(token).get('sig'));
      const [total] = await connector.query<{ total: number }>(
        'select sum(amount)::int as total from "exports/q1 report/sales+returns.csv"',
        [],
        QUERY,
      );
      expect(total!.total).toBe(42);
    } finally {
      await connector.close();
    }
  });

  it("reports a token without the list permission in Azure's words", async () => {
    const error = await failure(openAzureBlobConnector(sasConfig(azure.containerSas('data', 'r')), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      'Azure Blob Storage: This request is not authorized to perform this operation using this permission. (AuthorizationPermissionMismatch) (HTTP 403)',
    );
  });

  it('reports an expired token as refused', async () => {
    const error = await failure(
      openAzureBlobConnector(sasConfig(azure.containerSas('data', 'rl', new Date(Date.now() - 60_000))), { http: TEST_HTTP }).test(),
    );
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(
      /^Azure Blob Storage: Server failed to authenticate the request\..*\(AuthenticationFailed\) \(HTTP 403\)$/,
    );
  });
});

describe('listing', () => {
  it('lists the CSV and Parquet blobs under the prefix, page after page', async () => {
    azure.setPageLimit(2);
    const before = azure.server.requests.length;
    try {
      const endpoints = await openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP }).endpoints();
      expect(endpoints).toEqual([
        {
          id: 'exports/customers.csv',
          name: 'customers.csv',
          kind: 'file',
          format: 'csv',
          size: sizeOf('exports/customers.csv'),
          group: 'exports',
        },
        {
          id: 'exports/products.parquet',
          name: 'products.parquet',
          kind: 'file',
          format: 'parquet',
          size: sizeOf('exports/products.parquet'),
          group: 'exports',
        },
        {
          id: 'exports/q1 report/sales+returns.csv',
          name: 'sales+returns.csv',
          kind: 'file',
          format: 'csv',
          size: sizeOf('exports/q1 report/sales+returns.csv'),
          group: 'exports/q1 report',
        },
      ]);
      expect(azure.server.requests.slice(before).map((request) => request.query.get('marker'))).toEqual([null, 'exports/products.parquet']);
    } finally {
      azure.setPageLimit(5000);
    }
  });

  it("opens through the server's connector registry", async () => {
    const ids = await createConnectorRegistry(testConnectorContext()).use(sharedKeyConfig({ prefix: '' }), async (connector) =>
      (await connector.endpoints()).map((endpoint) => endpoint.id),
    );
    expect(ids).toContain('private/salaries.csv');
  });
});

describe('columns and queries', () => {
  it('reads a CSV blob streamed and a Parquet blob by byte ranges, pinned to the ETag described', async () => {
    const connector = openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP });
    try {
      expect(await connector.columns('exports/customers.csv')).toEqual([
        { name: 'id', dataType: 'integer', nullable: false, position: 1 },
        { name: 'name', dataType: 'text', nullable: false, position: 2 },
        { name: 'joined', dataType: 'date', nullable: true, position: 3 },
      ]);
      const [head, read] = azure.server.requests.slice(-2);
      expect(head!.method).toBe('HEAD');
      expect(read!.headers['if-match']).toBe(azure.blob('data', 'exports/customers.csv')!.etag);

      const before = azure.server.requests.length;
      expect(await connector.query('select sku, title from "exports/products.parquet" order by sku', [], QUERY)).toEqual([
        { sku: 1, title: 'Pen' },
        { sku: 2, title: 'Ink' },
        { sku: 3, title: null },
      ]);
      expect(azure.server.requests.slice(before).some((request) => String(request.headers['x-ms-range'] ?? '').startsWith('bytes='))).toBe(
        true,
      );
      const names = await connector.query<{ name: string }>(
        `select name from ${connector.tableName('exports/customers.csv')} where joined is not null order by id`,
        [],
        QUERY,
      );
      expect(names).toEqual([{ name: 'Smith, Anna' }, { name: 'Chloé' }]);
    } finally {
      await connector.close();
    }
  });

  it('reads the blob again when its ETag changes', async () => {
    const connector = openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP });
    try {
      azure.putBlob('data', 'exports/changing.csv', 'n\n1\n2\n');
      const total = async () =>
        (await connector.query<{ t: number }>('select sum(n)::int as t from "exports/changing.csv"', [], QUERY))[0]!.t;
      expect(await total()).toBe(3);
      azure.putBlob('data', 'exports/changing.csv', 'n\n10\n20\n');
      expect(await total()).toBe(30);
    } finally {
      await connector.close();
    }
  });

  it('reaches only blobs under its prefix, and says a missing one is not found', async () => {
    const connector = openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP });
    const outside = await failure(connector.columns('private/salaries.csv'));
    expect(outside.kind).toBe('invalid');
    expect(outside.message).toBe('"private/salaries.csv" is not a CSV or Parquet blob of container "data" under "exports/"');
    const missing = await failure(connector.columns('exports/missing.csv'));
    expect(missing.kind).toBe('not_found');
    expect(missing.message).toBe('Azure Blob Storage: The specified blob does not exist. (BlobNotFound) (HTTP 404)');
  });
});
