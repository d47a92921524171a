import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_PASSWORDS_RETIRED, openBitbucketConnector } from '../../../server/connectors/bitbucket';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP } from './test-context';

/**
 * Bitbucket Cloud's REST API 2.0 on this machine: `GET /2.0/repositories/{workspace}` behind
 * basic auth with an Atlassian account's email and an API token, answering paginated
 * `{ size, page, pagelen, next, values }` as its documentation shows, and
 * `{ type: "error", error: { message } }` for a missing workspace.
 */

const EMAIL = 'ana@example.com';
const API_TOKEN = 'ATATT3x-api-token';
let bitbucket: LocalServer;
let nextOverride: string | undefined;
const interruptions: Array<{ status: number; headers?: Record<string, string>; body: unknown }> = [];

const REPOSITORIES = ['warehouse-sql', 'dbt-models', 'quality-checks', 'etl-jobs', 'sandbox'].map((slug, index) => ({
  type: 'repository',
  slug,
  name: slug.replace(/-/g, ' '),
  full_name: `acme-data/${slug}`,
  is_private: true,
  project: { key: index < 3 ? 'DW' : 'OPS', name: index < 3 ? 'Warehouse' : 'Operations' },
  mainbranch: { type: 'branch', name: 'main' },
}));

function answerBitbucket(request: ReceivedRequest, response: ServerResponse): void {
  const expected = `Basic ${Buffer.from(`${EMAIL}:${API_TOKEN}`).toString('base64')}`;
  if (request.headers.authorization !== expected) {
    // Bitbucket answers a wrong token with 401 and no JSON body.
    return void response.writeHead(401, { 'www-authenticate': 'Basic realm="Bitbucket.org HTTP"' }).end();
  }
  if (interruptions.length > 0) {
    const next = interruptions.shift()!;
    return sendJson(response, next.status, next.body, next.headers);
  }
  const match = /^\/2\.0\/repositories\/([^/]+)$/.exec(request.path);
  if (!match || match[1] !== 'acme-data') {
    return sendJson(response, 404, { type: 'error', error: { message: `No workspace with identifier '${match?.[1] ?? ''}'.` } });
  }
  const pagelen = Number(request.query.get('pagelen') ?? 10);
  const pageNumber = Number(request.query.get('page') ?? 1);
  // Bitbucket caps pagelen (100 for repositories); two a page here makes `next` visible.
  const perPage = Math.min(pagelen, 2);
  const values = REPOSITORIES.slice((pageNumber - 1) * perPage, pageNumber * perPage);
  const hasNext = pageNumber * perPage < REPOSITORIES.length;
  const next = nextOverride ?? `${bitbucket.url}/2.0/repositories/acme-data?pagelen=${pagelen}&page=${pageNumber + 1}`;
  sendJson(response, 200, { pagelen: perPage, size: REPOSITORIES.length, page: pageNumber, values, ...(hasNext ? { next } : {}) });
}

const config = (settings: Record<string, unknown> = {}, apiToken = API_TOKEN): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'bitbucket',
  settings: { workspace: 'acme-data', email: EMAIL, apiUrl: `${bitbucket.url}/2.0`, ...settings },
  secrets: { apiToken },
});

/** A connection saved before Bitbucket removed app passwords: a username and an app password. */
const withAppPassword = (): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'bitbucket',
  settings: { workspace: 'acme-data', username: 'ana', apiUrl: `${bitbucket.url}/2.0` },
  secrets: { appPassword: 'ATBB-app-password' },
});

beforeAll(async () => {
  bitbucket = await startLocalServer(answerBitbucket);
});

afterAll(async () => {
  await bitbucket?.close();
});

describe('testing', () => {
  it('asks for one repository and says how many the workspace has', async () => {
    const result = await openBitbucketConnector(config(), { http: TEST_HTTP }).test();
    expect(result.detail).toBe('5 repositories in acme-data');
    const request = bitbucket.requests.at(-1)!;
    expect(request.path).toBe('/2.0/repositories/acme-data');
    expect(request.query.get('pagelen')).toBe('1');
    // Basic auth with the Atlassian account's email as the user name and the API token as the password.
    const [scheme, encoded] = String(request.headers.authorization).split(' ');
    expect(scheme).toBe('Basic');
    expect(Buffer.from(encoded!, 'base64').toString()).toBe('ana@example.com:ATATT3x-api-token');
  });

  it('turns a refused token into an auth failure', async () => {
    const error = await failure(openBitbucketConnector(config({}, 'wrong'), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('Bitbucket: the credentials were not accepted (HTTP 401)');
  });

  it("says a missing workspace is not found, in Bitbucket's words", async () => {
    const error = await failure(openBitbucketConnector(config({ workspace: 'nobody' }), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe("Bitbucket: No workspace with identifier 'nobody'. (HTTP 404)");
  });
});

describe('endpoints', () => {
  it("lists the workspace's repositories by slug, following next", async () => {
    const before = bitbucket.requests.length;
    const repositories = await openBitbucketConnector(config(), { http: TEST_HTTP }).endpoints();
    expect(repositories).toEqual([
      { id: 'warehouse-sql', name: 'warehouse sql', kind: 'repository', group: 'Warehouse' },
      { id: 'dbt-models', name: 'dbt models', kind: 'repository', group: 'Warehouse' },
      { id: 'quality-checks', name: 'quality checks', kind: 'repository', group: 'Warehouse' },
      { id: 'etl-jobs', name: 'etl jobs', kind: 'repository', group: 'Operations' },
      { id: 'sandbox', name: 'sandbox', kind: 'repository', group: 'Operations' },
    ]);
    expect(bitbucket.requests.slice(before).map((request) => request.query.get('page'))).toEqual([null, '2', '3']);
    expect(bitbucket.requests.slice(before).every((request) => request.headers.authorization?.startsWith('Basic '))).toBe(true);
  });

  it('does not send the token to a next page on another host', async () => {
    nextOverride = 'https://elsewhere.example/2.0/repositories/acme-data?page=2';
    try {
      const error = await failure(openBitbucketConnector(config(), { http: TEST_HTTP }).endpoints());
      expect(error.message).toBe(`Bitbucket: the next page is at https://elsewhere.example, not at ${bitbucket.url}`);
    } finally {
      nextOverride = undefined;
    }
  });
});

describe('retries', () => {
  it('waits as Retry-After says after a 429, then goes on', async () => {
    interruptions.push({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { type: 'error', error: { message: 'Rate limit for this resource has been exceeded' } },
    });
    const started = Date.now();
    expect((await openBitbucketConnector(config(), { http: { ...TEST_HTTP, retryBaseDelayMs: 20 } }).test()).detail).toBe(
      '5 repositories in acme-data',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('tries again after a 503', async () => {
    interruptions.push({ status: 503, body: { type: 'error', error: { message: 'Service unavailable' } } });
    const before = bitbucket.requests.length;
    expect(await openBitbucketConnector(config(), { http: { ...TEST_HTTP, retryBaseDelayMs: 20 } }).endpoints()).toHaveLength(5);
    expect(bitbucket.requests.length - before).toBe(4);
  });
});

describe('a connection saved with an app password', () => {
  it('is refused at once, saying what to do, without calling Bitbucket', async () => {
    const before = bitbucket.requests.length;
    const works: Array<() => Promise<unknown>> = [
      () => openBitbucketConnector(withAppPassword(), { http: TEST_HTTP }).test(),
      () => openBitbucketConnector(withAppPassword(), { http: TEST_HTTP }).endpoints(),
    ];
    for (const work of works) {
      const error = await failure(Promise.resolve().then(work));
      expect(error.kind).toBe('invalid');
      expect(error.message).toBe(
        'Bitbucket no longer accepts app passwords (they were removed on 28 July 2026): edit this connection and give the email of your Atlassian account and an API token with the scope read:repository:bitbucket',
      );
      expect(error.message).toBe(APP_PASSWORDS_RETIRED);
    }
    expect(bitbucket.requests.length).toBe(before);
  });

  it('is used with the new settings once an edit gives an email and a token over the old ones', async () => {
    const old = withAppPassword();
    const edited: ConnectionConfig = {
      ...old,
      settings: { workspace: 'acme-data', email: EMAIL, apiUrl: old.settings.apiUrl },
      // An unsaved edit's test: the stored secrets with the new one laid over them.
      secrets: { ...old.secrets, apiToken: API_TOKEN },
    };
    expect((await openBitbucketConnector(edited, { http: TEST_HTTP }).test()).detail).toBe('5 repositories in acme-data');
  });

  it('without an email or a token, names each setting missing', async () => {
    const error = await failure(
      Promise.resolve().then(() =>
        openBitbucketConnector({ ...config(), settings: { workspace: 'acme-data' }, secrets: {} }, { http: TEST_HTTP }).test(),
      ),
    );
    expect(error.message).toBe('settings.email: is required; settings.apiToken: is required');
  });
});
