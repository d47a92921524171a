import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { GCS_SCOPE, openGcsConnector } from '../../../server/connectors/gcs';
import type { ConnectionConfig, ConnectorError } from '../../../server/connectors/types';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { describeObjectStore } from './object-store-suite';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP } from './test-context';

/**
 * Google's side on this machine: the OAuth 2.0 token endpoint of a service account's key (the
 * JWT bearer grant: the assertion's RS256 signature checked with the key's public half, its
 * issuer, audience, scope and lifetime checked as Google's "Using OAuth 2.0 for server to server
 * applications" lays them out), and the Cloud Storage JSON API's objects.list, objects.get and
 * alt=media download (with Range and generation), behind the access tokens it issued.
 */

const CLIENT_EMAIL = 'reader@acme-data.iam.gserviceaccount.com';
const KEY_ID = '1f2e3d4c5b6a79880a1b2c3d4e5f60718293a4b5';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const registered = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
/** A second service account the fake knows, of another project. */
const other = {
  email: 'loader@globex-data.iam.gserviceaccount.com',
  keyId: '9a8b7c6d5e4f30211f2e3d4c5b6a798801234567',
  ...generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  }),
};
const accounts = new Map([
  [KEY_ID, { email: CLIENT_EMAIL, publicKey: registered.publicKey }],
  [other.keyId, { email: other.email, publicKey: other.publicKey }],
]);
const stranger = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

interface StoredObject {
  body: Buffer;
  generation: number;
}

const buckets = new Map<string, Map<string, StoredObject>>();
/** Each token issued, and the account it was issued to. */
const issuedTokens = new Map<string, string>();
/** Per path, answers to give before the real one (a 503). */
const interruptions = new Map<string, Array<{ status: number; body: unknown }>>();
/** Objects a listing page holds at most, so that paging shows. */
let pageLimit = 1000;
let generations = 1_700_000_000_000_000;
let google: LocalServer;

function putObject(bucket: string, name: string, body: string | Uint8Array): void {
  if (!buckets.has(bucket)) buckets.set(bucket, new Map());
  generations += 1;
  buckets.get(bucket)!.set(name, { body: Buffer.from(body), generation: generations });
}

const tokenUri = () => `${google.url}/token`;

function gcsError(response: ServerResponse, status: number, message: string, reason: string): void {
  sendJson(response, status, { error: { code: status, message, errors: [{ message, domain: 'global', reason }] } });
}

/** The token endpoint, as Google documents the JWT bearer grant. */
async function answerToken(request: ReceivedRequest, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST' || !String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
    return sendJson(response, 400, { error: 'invalid_request', error_description: 'Expected a form POST' });
  }
  const form = new URLSearchParams(request.body.toString('utf8'));
  if (form.get('grant_type') !== JWT_BEARER)
    return sendJson(response, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' + form.get('grant_type') });
  const assertion = form.get('assertion') ?? '';
  let header;
  try {
    header = decodeProtectedHeader(assertion);
  } catch {
    return sendJson(response, 400, {
      error: 'invalid_grant',
      error_description: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
    });
  }
  const account = header.kid === undefined ? undefined : accounts.get(header.kid);
  if (header.alg !== 'RS256' || !account)
    return sendJson(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
  try {
    const { payload } = await jwtVerify(assertion, await importSPKI(account.publicKey, 'RS256'), {
      issuer: account.email,
      audience: tokenUri(),
      algorithms: ['RS256'],
    });
    if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number' || payload.exp - payload.iat > 3600) {
      return sendJson(response, 400, {
        error: 'invalid_grant',
        error_description: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
      });
    }
    if (payload.scope !== GCS_SCOPE)
      return sendJson(response, 400, { error: 'invalid_scope', error_description: 'Invalid OAuth scope or ID token audience provided.' });
  } catch {
    return sendJson(response, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
  }
  const token = `ya29.${randomBytes(24).toString('base64url')}`;
  issuedTokens.set(token, account.email);
  sendJson(response, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
}

function answerStorage(request: ReceivedRequest, response: ServerResponse): void {
  const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
  if (!bearer || !issuedTokens.has(bearer)) return gcsError(response, 401, 'Invalid Credentials', 'authError');
  const pending = interruptions.get(request.path);
  if (pending && pending.length > 0) {
    const next = pending.shift()!;
    return sendJson(response, next.status, next.body);
  }
  const match = /^\/storage\/v1\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(request.path);
  if (!match) return gcsError(response, 404, 'Not Found', 'notFound');
  const bucketName = decodeURIComponent(match[1]!);
  if (bucketName === 'private') {
    return gcsError(
      response,
      403,
      `${CLIENT_EMAIL} does not have storage.objects.list access to the Google Cloud Storage bucket. Permission 'storage.objects.list' denied on resource (or it may not exist).`,
      'forbidden',
    );
  }
  const bucket = buckets.get(bucketName);
  if (!bucket) return gcsError(response, 404, 'The specified bucket does not exist.', 'notFound');

  if (match[2] === undefined) {
    const prefix = request.query.get('prefix') ?? '';
    const maxResults = Math.min(Number(request.query.get('maxResults') ?? 1000), pageLimit);
    const after = request.query.get('pageToken') ? Buffer.from(request.query.get('pageToken')!, 'base64url').toString() : '';
    const names = [...bucket.keys()].filter((name) => name.startsWith(prefix) && name > after).sort();
    const page = names.slice(0, maxResults);
    return sendJson(response, 200, {
      kind: 'storage#objects',
      items: page.map((name) => ({
        kind: 'storage#object',
        name,
        bucket: bucketName,
        size: String(bucket.get(name)!.body.length),
        generation: String(bucket.get(name)!.generation),
      })),
      ...(names.length > page.length ? { nextPageToken: Buffer.from(page.at(-1)!).toString('base64url') } : {}),
    });
  }

  // An object's name arrives escaped whole: a slash in it is %2F.
  if (match[2].includes('/')) return gcsError(response, 404, 'Not Found', 'notFound');
  const name = decodeURIComponent(match[2]);
  const object = bucket.get(name);
  const wanted = request.query.get('generation');
  if (!object || (wanted && wanted !== String(object.generation)))
    return gcsError(response, 404, `No such object: ${bucketName}/${name}`, 'notFound');
  if (request.query.get('alt') !== 'media') {
    return sendJson(response, 200, {
      kind: 'storage#object',
      name,
      bucket: bucketName,
      size: String(object.body.length),
      generation: String(object.generation),
    });
  }
  const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ''));
  if (range) {
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), object.body.length - 1);
    response
      .writeHead(206, { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${object.body.length}` })
      .end(object.body.subarray(start, end + 1));
    return;
  }
  response.writeHead(200, { 'content-length': String(object.body.length), 'content-type': 'application/octet-stream' }).end(object.body);
}

function serviceAccountKey(overrides: Record<string, unknown> = {}, privateKey = registered.privateKey): string {
  return JSON.stringify(
    {
      type: 'service_account',
      project_id: 'acme-data',
      private_key_id: KEY_ID,
      private_key: privateKey,
      client_email: CLIENT_EMAIL,
      client_id: '100200300400500600700',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: tokenUri(),
      ...overrides,
    },
    null,
    2,
  );
}

function gcsConfig(settings: Record<string, unknown> = {}, key = serviceAccountKey(), companyId = TEST_COMPANY_ID): ConnectionConfig {
  return {
    companyId,
    type: 'gcs',
    settings: { bucket: 'data', prefix: 'exports/', endpoint: google.url, ...settings },
    secrets: { serviceAccountKey: key },
  };
}

const FAST_RETRIES = { http: { ...TEST_HTTP, retryBaseDelayMs: 5 } };
const LISTING_PATH = '/storage/v1/b/data/o';
const UNAVAILABLE = {
  status: 503,
  body: { error: { code: 503, message: 'We encountered an internal error. Please try again.', errors: [{ reason: 'backendError' }] } },
};

const tokenRequests = () => google.requests.filter((request) => request.path === '/token');

describeObjectStore('Google Cloud Storage', {
  async start() {
    google = await startLocalServer((request, response) =>
      request.path === '/token' ? answerToken(request, response) : answerStorage(request, response),
    );
    return { server: google, put: (name, body) => putObject('data', name, body), limitPages: (limit) => void (pageLimit = limit ?? 1000) };
  },
  kindOf: (request) =>
    request.path === '/token'
      ? 'sign-in'
      : request.path.endsWith('/o')
        ? 'list'
        : request.query.get('alt') === 'media'
          ? 'read'
          : 'describe',
  config: gcsConfig,
  configWithWrongSecret: () => gcsConfig({}, serviceAccountKey({}, stranger.privateKey)),
  open: (config, limits) => openGcsConnector(config, { ...FAST_RETRIES, limits }),
  noun: 'bucket',
  item: 'object',
  firstListing: { path: LISTING_PATH, query: { prefix: 'exports/', maxResults: '1', fields: 'items(name,size),nextPageToken' } },
  pageToken: { param: 'pageToken', encoding: 'base64url' },
  rangeHeader: 'range',
  messages: {
    wrongSecret: 'Google sign-in: Invalid JWT Signature. (invalid_grant) (HTTP 400)',
    missingPlace: 'Google Cloud Storage: The specified bucket does not exist. (notFound) (HTTP 404)',
    missingObject: 'Google Cloud Storage: No such object: data/exports/missing.csv (notFound) (HTTP 404)',
  },
  retries: {
    interruptListing: (times) =>
      void interruptions.set(
        LISTING_PATH,
        Array.from({ length: times }, () => UNAVAILABLE),
      ),
    message: 'Google Cloud Storage: We encountered an internal error. Please try again. (backendError) (HTTP 503)',
  },
});

describe('signing in', () => {
  it('exchanges a JWT signed with the key for a token, then lists with that token', async () => {
    const before = google.requests.length;
    // A company of its own: no token is kept for it yet.
    const connector = openGcsConnector(gcsConfig({}, serviceAccountKey(), randomUUID()), { http: TEST_HTTP });
    await connector.test();
    const [grant, listing] = google.requests.slice(before);
    expect(grant!.path).toBe('/token');
    const form = new URLSearchParams(grant!.body.toString());
    expect(form.get('grant_type')).toBe(JWT_BEARER);
    const { payload, protectedHeader } = await jwtVerify(form.get('assertion')!, await importSPKI(registered.publicKey, 'RS256'));
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: KEY_ID });
    expect(payload).toMatchObject({ iss: CLIENT_EMAIL, aud: tokenUri(), scope: 'https://www.googleapis.com/auth/devstorage.read_only' });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(listing!.path).toBe(LISTING_PATH);
    expect(issuedTokens.has(String(listing!.headers.authorization).replace('Bearer ', ''))).toBe(true);
    await connector.close();
  });

  it('keeps its token for the calls that follow', async () => {
    const grantsBefore = tokenRequests().length;
    const connector = openGcsConnector(gcsConfig({}, serviceAccountKey(), randomUUID()), { http: TEST_HTTP });
    await connector.test();
    await connector.endpoints();
    await connector.columns('exports/customers.csv');
    expect(tokenRequests().length - grantsBefore).toBe(1);
    await connector.close();
  });

  it('asks the bucket nothing once Google refuses the key', async () => {
    const before = google.requests.length;
    const error = await failure(openGcsConnector(gcsConfig({}, serviceAccountKey({}, stranger.privateKey)), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('auth');
    expect(google.requests.slice(before).map((request) => request.path)).toEqual(['/token']);
  });

  it("reports a service account without access to the bucket in the JSON API's words, at most 200 characters of them", async () => {
    const error = await failure(openGcsConnector(gcsConfig({ bucket: 'private' }), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('auth');
    // The message is cut so that it and its code fit in 200 characters; the code stays whole.
    expect(error.message).toBe(
      `Google Cloud Storage: ${CLIENT_EMAIL} does not have storage.objects.list access to the Google Cloud Storage bucket. Permission 'storage.objects.list' denied on resource (or it may not … (forbidden) (HTTP 403)`,
    );
    expect(error.message.slice('Google Cloud Storage: '.length, -' (HTTP 403)'.length)).toHaveLength(200);
  });

  it('names what is wrong with a key before sending anything', async () => {
    const invalid = async (key: string) => {
      const error = await failure(Promise.resolve().then(() => openGcsConnector(gcsConfig({}, key), { http: TEST_HTTP }).test()));
      expect(error.kind).toBe('invalid');
      return error.message;
    };
    expect(await invalid('{ "client_email": "x", "private_key": "y", }')).toMatch(/^settings\.serviceAccountKey: is not valid JSON \(/);
    expect(await invalid(serviceAccountKey({ type: 'authorized_user' }))).toBe(
      'settings.serviceAccountKey: is a key of type "authorized_user"; a service account\'s key (type "service_account") is needed',
    );
    expect(await invalid(serviceAccountKey({ token_uri: 'http://oauth2.example.com/token' }))).toBe(
      'settings.serviceAccountKey.token_uri: must be an https URL',
    );
    expect(await invalid(serviceAccountKey({}, '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n'))).toMatch(
      /^settings\.serviceAccountKey: its private_key is not an RSA private key in PEM form/,
    );
    expect(await invalid('ya29.not-a-key')).toBe(
      'settings.serviceAccountKey: must be the JSON key file of a service account (with client_email and private_key)',
    );
    const plainEndpoint = await failure(
      Promise.resolve().then(() => openGcsConnector(gcsConfig({ endpoint: 'http://storage.example.com' }), { http: TEST_HTTP })),
    );
    expect(plainEndpoint.message).toBe('settings.endpoint: must be an https URL');
  });
});

describe('access tokens kept between connectors', () => {
  /** A clock the test moves on; the JWT itself is signed at the real time, as Google checks it. */
  let clock = Date.now();
  const now = () => clock;
  const open = (config: ConnectionConfig) => openGcsConnector(config, { http: TEST_HTTP, now });
  const bearerOf = (request: ReceivedRequest) => String(request.headers.authorization).replace('Bearer ', '');
  /** The token each listing since `before` was sent with. */
  const listingTokens = (before: number) =>
    google.requests
      .slice(before)
      .filter((request) => request.path === LISTING_PATH)
      .map(bearerOf);

  it('serves two connectors of the same key with one token, until a minute before it expires', async () => {
    const config = gcsConfig({}, serviceAccountKey(), randomUUID());
    const before = google.requests.length;
    const started = clock;
    await open(config).endpoints();
    await open(config).endpoints();
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(1);
    const [first, second] = listingTokens(before);
    expect(second).toBe(first);

    // Google said 3599 s; a token is renewed 60 s before that.
    clock = started + (3599 - 61) * 1000;
    await open(config).endpoints();
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(1);
    clock = started + (3599 - 60) * 1000;
    await open(config).endpoints();
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(2);
    const tokens = listingTokens(before);
    expect(tokens[2]).toBe(first);
    expect(tokens[3]).not.toBe(first);
    expect(issuedTokens.has(tokens[3]!)).toBe(true);
  });

  it('forgets a token Google stops taking, and signs in again once, before the token would expire', async () => {
    const config = gcsConfig({}, serviceAccountKey(), randomUUID());
    const before = google.requests.length;
    await open(config).endpoints();
    const [first] = listingTokens(before);
    // Revoked: the bucket now answers 401 to it, long before its hour is up.
    issuedTokens.delete(first!);
    await open(config).endpoints();
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(2);
    const tokens = listingTokens(before);
    // The refused call, then the same call with the new token; the new one is kept for the next calls.
    expect(tokens.slice(1)).toEqual([first, expect.not.stringMatching(first!)]);
    await open(config).endpoints();
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(2);
    expect(listingTokens(before).at(-1)).toBe(tokens.at(-1));
  });

  it('signs in again only once when the new token is refused too, and says so', async () => {
    const config = gcsConfig({}, serviceAccountKey(), randomUUID());
    const before = google.requests.length;
    await open(config).endpoints();
    issuedTokens.delete(listingTokens(before)[0]!);
    const grantsBefore = tokenRequests().length;
    // Tokens issued from now on are not known to the bucket: each is refused.
    const keep = issuedTokens.set.bind(issuedTokens);
    issuedTokens.set = () => issuedTokens;
    let error: ConnectorError;
    try {
      error = await failure(open(config).endpoints());
    } finally {
      issuedTokens.set = keep;
    }
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/\(HTTP 401\)$/);
    expect(tokenRequests().length - grantsBefore).toBe(1);
    // The first listing, then the refused one and its one retry.
    expect(listingTokens(before)).toHaveLength(3);
  });

  it('makes callers that need a token at once share one exchange', async () => {
    const config = gcsConfig({}, serviceAccountKey(), randomUUID());
    const before = google.requests.length;
    await Promise.all([open(config).endpoints(), open(config).endpoints(), open(config).endpoints()]);
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(1);
    expect(new Set(listingTokens(before)).size).toBe(1);
  });

  it("never hands one company's or one key's token to another", async () => {
    const acme = randomUUID();
    const globex = randomUUID();
    const globexKey = serviceAccountKey({ client_email: other.email, private_key_id: other.keyId }, other.privateKey);
    const before = google.requests.length;
    await open(gcsConfig({}, serviceAccountKey(), acme)).endpoints();
    await open(gcsConfig({}, globexKey, acme)).endpoints();
    // The same key file, saved by another company: a token of its own.
    await open(gcsConfig({}, serviceAccountKey(), globex)).endpoints();
    expect(tokenRequests().filter((request) => google.requests.indexOf(request) >= before)).toHaveLength(3);
    const tokens = listingTokens(before);
    expect(new Set(tokens).size).toBe(3);
    expect(tokens.map((token) => issuedTokens.get(token))).toEqual([CLIENT_EMAIL, other.email, CLIENT_EMAIL]);
  });

  it("gives a key that copies another's email and key id a refusal, not the other's token", async () => {
    const company = randomUUID();
    await open(gcsConfig({}, serviceAccountKey(), company)).endpoints();
    const before = google.requests.length;
    const error = await failure(open(gcsConfig({}, serviceAccountKey({}, stranger.privateKey), company)).endpoints());
    expect(error.message).toBe('Google sign-in: Invalid JWT Signature. (invalid_grant) (HTTP 400)');
    expect(google.requests.slice(before).map((request) => request.path)).toEqual(['/token']);
  });

  it('keeps no refusal: a key refused once is asked about again', async () => {
    const config = gcsConfig({}, serviceAccountKey({}, stranger.privateKey), randomUUID());
    const before = google.requests.length;
    await failure(open(config).test());
    await failure(open(config).test());
    expect(google.requests.slice(before).map((request) => request.path)).toEqual(['/token', '/token']);
  });
});

describe('reading', () => {
  it('downloads an object at the generation it described, its name escaped whole', async () => {
    const connector = openGcsConnector(gcsConfig(), { http: TEST_HTTP });
    try {
      await connector.columns('exports/customers.csv');
      const download = google.requests.at(-1)!;
      expect(download.url.startsWith('/storage/v1/b/data/o/exports%2Fcustomers.csv?')).toBe(true);
      expect(download.query.get('alt')).toBe('media');
      expect(download.query.get('generation')).toBe(String(buckets.get('data')!.get('exports/customers.csv')!.generation));
    } finally {
      await connector.close();
    }
  });
});
