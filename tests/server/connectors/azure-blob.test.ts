import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { azureBlobSettings, openAzureBlobConnector } from '../../../server/connectors/azure-blob';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { AZURE_ACCOUNT, startAzureBlobService, type AzureBlobService } from './fixtures-remote/azure-blob-service';
import { describeObjectStore } from './object-store-suite';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP } from './test-context';

/**
 * The azure_blob connector against an Azure Blob service on this machine
 * (fixtures-remote/azure-blob-service.ts), which checks every Shared Key signature and SAS token
 * as Azure does: signing, listing, reading, and failures in the service's own words.
 */

let azure: AzureBlobService;

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
const BUSY = { status: 503, code: 'ServerBusy', message: 'The server is busy.' };

describeObjectStore('Azure Blob Storage', {
  async start() {
    azure = await startAzureBlobService();
    return {
      server: azure.server,
      put: (name, body) => azure.putBlob('data', name, body),
      limitPages: (limit) => azure.setPageLimit(limit ?? 5000),
    };
  },
  kindOf: (request) => (request.query.get('comp') === 'list' ? 'list' : request.method === 'HEAD' ? 'describe' : 'read'),
  config: sharedKeyConfig,
  configWithWrongSecret: () => sharedKeyConfig({}, randomBytes(64).toString('base64')),
  open: (config, limits) => openAzureBlobConnector(config, { ...FAST_RETRIES, limits }),
  noun: 'container',
  item: 'blob',
  firstListing: { path: '/data', query: { restype: 'container', comp: 'list', prefix: 'exports/', maxresults: '1' } },
  pageToken: { param: 'marker' },
  rangeHeader: 'x-ms-range',
  messages: {
    wrongSecret:
      'Azure Blob Storage: Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature. (AuthenticationFailed) (HTTP 403)',
    missingPlace: 'Azure Blob Storage: The specified container does not exist. (ContainerNotFound) (HTTP 404)',
    missingObject: 'Azure Blob Storage: The specified blob does not exist. (BlobNotFound) (HTTP 404)',
  },
  retries: {
    interruptListing: (times) =>
      azure.interrupt(
        '/data',
        Array.from({ length: times }, () => BUSY),
      ),
    message: 'Azure Blob Storage: The server is busy. (ServerBusy) (HTTP 503)',
  },
});

describe('Shared Key', () => {
  it('signs each request with the account key, dated and versioned', async () => {
    const connector = openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP });
    await connector.test();
    const listing = azure.server.requests.at(-1)!;
    expect(listing.headers.authorization).toMatch(/^SharedKey acmedata:[A-Za-z0-9+/]+=*$/);
    expect(listing.headers['x-ms-version']).toBe('2023-11-03');
    expect(Date.now() - Date.parse(String(listing.headers['x-ms-date']))).toBeLessThan(60_000);
    await connector.close();
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

describe('reading', () => {
  it('reads a blob pinned to the ETag it described', async () => {
    const connector = openAzureBlobConnector(sharedKeyConfig(), { http: TEST_HTTP });
    try {
      await connector.columns('exports/customers.csv');
      const [head, read] = azure.server.requests.slice(-2);
      expect(head!.method).toBe('HEAD');
      expect(read!.headers['if-match']).toBe(azure.blob('data', 'exports/customers.csv')!.etag);
    } finally {
      await connector.close();
    }
  });
});
