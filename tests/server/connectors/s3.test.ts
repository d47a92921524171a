import { createHash, createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { openS3Connector } from '../../../server/connectors/s3';
import { readError, readListing } from '../../../server/connectors/s3-xml';
import { ConnectorError, type ConnectionConfig } from '../../../server/connectors/types';
import { startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { describeObjectStore } from './object-store-suite';
import { connectorFailure as failure, TEST_COMPANY_ID, testReach } from './test-context';

/**
 * A small S3 on this machine: ListObjectsV2, GetObject (with Range) and HeadObject as Amazon's
 * documentation describes them, addressed path-style (/bucket/key) or virtual-hosted (Host:
 * bucket.localhost), and every request's Signature Version 4 recomputed from the secret it holds.
 */

const ACCESS_KEY_ID = 'AKIDEXAMPLE';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const REGION = 'eu-west-3';

interface StoredObject {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

const buckets = new Map<string, Map<string, StoredObject>>();
/** Keys a listing page holds at most: S3 may answer fewer than max-keys, which makes paging visible here. */
let pageLimit = 1000;
let s3: LocalServer;

/** An answer given instead of the real one to the next signed request it matches (a 503 SlowDown, a page of hand-written XML). */
interface Interruption {
  matches(request: ReceivedRequest): boolean;
  answer(response: ServerResponse): void;
}
const interruptions: Interruption[] = [];

const isListing = (request: ReceivedRequest) => request.query.get('list-type') === '2';
const isRead = (key: string) => (request: ReceivedRequest) =>
  request.method === 'GET' && decodeURIComponent(request.path) === `/data/${key}`;

/** The next `times` requests that match answer `answer`. */
function interrupt(matches: Interruption['matches'], times: number, answer: Interruption['answer']): void {
  for (let i = 0; i < times; i += 1) interruptions.push({ matches, answer });
}

function putObject(bucket: string, key: string, body: string | Uint8Array): void {
  const bytes = Buffer.from(body);
  if (!buckets.has(bucket)) buckets.set(bucket, new Map());
  buckets
    .get(bucket)!
    .set(key, { body: bytes, etag: `"${createHash('md5').update(bytes).digest('hex')}"`, lastModified: new Date('2024-06-01T10:00:00Z') });
}

const awsEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function xmlError(response: ServerResponse, status: number, code: string, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`,
    );
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The signature S3 expects, computed as the SigV4 documentation lays it out; undefined when the request is not signed for this store. */
function verifySignature(request: ReceivedRequest, response: ServerResponse): boolean {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      String(request.headers.authorization ?? ''),
    );
  if (!match) {
    xmlError(response, 403, 'AccessDenied', 'Access Denied');
    return false;
  }
  const [, keyId, day, region, signedHeaders, signature] = match;
  if (keyId !== ACCESS_KEY_ID) {
    xmlError(response, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    return false;
  }
  const [rawPath, rawQuery = ''] = request.url.split('?');
  const canonicalUri = rawPath!
    .split('/')
    .map((segment) => awsEncode(decodeURIComponent(segment)))
    .join('/');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((part) => awsEncode(decodeURIComponent(part.replace(/\+/g, ' ')))) as [string, string?])
    .map(([key, value = '']) => `${key}=${value}`)
    .sort()
    .join('&');
  const headerNames = signedHeaders!.split(';');
  if (!headerNames.includes('host') || !headerNames.includes('x-amz-date')) {
    xmlError(response, 403, 'AccessDenied', 'host and x-amz-date must be signed');
    return false;
  }
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== sha256(request.body)) {
    xmlError(response, 400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
    return false;
  }
  const canonicalRequest = [
    request.method,
    canonicalUri,
    canonicalQuery,
    ...headerNames.map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}`,
    ),
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const amzDate = String(request.headers['x-amz-date']);
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, `${day}/${region}/s3/aws4_request`, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day!), region!), 's3'), 'aws4_request');
  if (
    region !== REGION ||
    amzDate.slice(0, 8) !== day ||
    createHmac('sha256', signingKey).update(stringToSign).digest('hex') !== signature
  ) {
    xmlError(
      response,
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
    return false;
  }
  return true;
}

function answerS3(request: ReceivedRequest, response: ServerResponse): void {
  if (!verifySignature(request, response)) return;
  const interruption = interruptions.findIndex((candidate) => candidate.matches(request));
  if (interruption >= 0) return interruptions.splice(interruption, 1)[0]!.answer(response);
  const host = String(request.headers.host ?? '');
  const virtualBucket = /^([a-z0-9.-]+)\.localhost(:\d+)?$/.exec(host)?.[1];
  const segments = request.path.split('/').slice(1).map(decodeURIComponent);
  const bucketName = virtualBucket ?? segments.shift()!;
  const key = segments.join('/');
  const bucket = buckets.get(bucketName);
  if (!bucket) return xmlError(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');

  if (key === '' && request.query.get('list-type') === '2') {
    const prefix = request.query.get('prefix') ?? '';
    const maxKeys = Math.min(Number(request.query.get('max-keys') ?? 1000), pageLimit);
    const after = request.query.get('continuation-token') ? Buffer.from(request.query.get('continuation-token')!, 'base64').toString() : '';
    const keys = [...bucket.keys()].filter((candidate) => candidate.startsWith(prefix) && candidate > after).sort();
    const page = keys.slice(0, maxKeys);
    const truncated = keys.length > page.length;
    const contents = page
      .map((name) => {
        const object = bucket.get(name)!;
        return `<Contents><Key>${escapeXml(name)}</Key><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>${escapeXml(object.etag)}</ETag><Size>${object.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const next = truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString('base64')}</NextContinuationToken>` : '';
    response
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucketName}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`,
      );
    return;
  }

  const object = bucket.get(key);
  const objectHeaders = (length: number) => ({
    'content-length': String(length),
    etag: object!.etag,
    'last-modified': object!.lastModified.toUTCString(),
  });
  if (request.method === 'HEAD') {
    if (!object) return void response.writeHead(404).end();
    return void response.writeHead(200, objectHeaders(object.body.length)).end();
  }
  if (!object) return xmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
  const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers.range ?? ''));
  if (range) {
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), object.body.length - 1);
    response
      .writeHead(206, { ...objectHeaders(end - start + 1), 'content-range': `bytes ${start}-${end}/${object.body.length}` })
      .end(object.body.subarray(start, end + 1));
    return;
  }
  response.writeHead(200, objectHeaders(object.body.length)).end(object.body);
}

/** Tries again after milliseconds rather than the half second and more a real store is given. */
const FAST_RETRIES = { reach: testReach(), retryBaseDelayMs: 5 };
const QUERY = { timeoutMs: 10_000, readOnly: true };

const slowDown = (response: ServerResponse) => xmlError(response, 503, 'SlowDown', 'Please reduce your request rate.');
const internalError = (response: ServerResponse) =>
  xmlError(response, 500, 'InternalError', 'We encountered an internal error. Please try again.');

function s3Config(overrides: Record<string, unknown> = {}, secret = SECRET): ConnectionConfig {
  return {
    companyId: TEST_COMPANY_ID,
    type: 's3',
    settings: {
      endpoint: s3.url,
      region: REGION,
      bucket: 'data',
      prefix: 'exports/',
      accessKeyId: ACCESS_KEY_ID,
      pathStyle: true,
      ...overrides,
    },
    secrets: { secretAccessKey: secret },
  };
}

describeObjectStore('S3', {
  async start() {
    s3 = await startLocalServer(answerS3);
    return { server: s3, put: (name, body) => putObject('data', name, body), limitPages: (limit) => void (pageLimit = limit ?? 1000) };
  },
  kindOf: (request) => (request.query.get('list-type') === '2' ? 'list' : request.method === 'HEAD' ? 'describe' : 'read'),
  config: s3Config,
  configWithWrongSecret: () => s3Config({}, 'not-the-secret'),
  open: (config, limits) => openS3Connector(config, { ...FAST_RETRIES, limits }),
  noun: 'bucket',
  item: 'object',
  firstListing: { path: '/data', query: { 'list-type': '2', 'max-keys': '1', prefix: 'exports/' } },
  pageToken: { param: 'continuation-token', encoding: 'base64' },
  rangeHeader: 'range',
  messages: {
    wrongSecret:
      'S3: The request signature we calculated does not match the signature you provided. Check your key and signing method. (SignatureDoesNotMatch)',
    missingPlace: 'S3: The specified bucket does not exist (NoSuchBucket)',
    missingObject: 'S3: "exports/missing.csv" in bucket "data" does not exist (HTTP 404)',
  },
  retries: {
    interruptListing: (times) => interrupt(isListing, times, slowDown),
    message: 'S3: Please reduce your request rate. (SlowDown)',
  },
});

describe('signing', () => {
  it('turns an unknown access key into InvalidAccessKeyId, as an auth failure', async () => {
    const error = await failure(openS3Connector(s3Config({ accessKeyId: 'AKIDUNKNOWN' }), { reach: testReach() }).endpoints());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('S3: The AWS Access Key Id you provided does not exist in our records. (InvalidAccessKeyId)');
  });
});

describe('addressing', () => {
  it('addresses the bucket by its host name when addresses are virtual-hosted', async () => {
    const connector = openS3Connector(s3Config({ endpoint: `http://localhost:${s3.port}`, pathStyle: false }), { reach: testReach() });
    const ids = (await connector.endpoints()).map((endpoint) => endpoint.id);
    expect(ids).toContain('exports/customers.csv');
    const listing = s3.requests.at(-1)!;
    expect(listing.headers.host).toBe(`data.localhost:${s3.port}`);
    expect(listing.path).toBe('/');
    expect((await connector.columns('exports/customers.csv')).map((column) => column.name)).toEqual(['id', 'name', 'joined']);
    expect(s3.requests.at(-1)!.path).toBe('/exports/customers.csv');
  });
});

describe('retries', () => {
  const listingsSince = (before: number) => s3.requests.slice(before).filter(isListing).length;

  it('tries a 503 SlowDown again, and lists once S3 answers', async () => {
    interrupt(isListing, 1, slowDown);
    const before = s3.requests.length;
    const ids = (await openS3Connector(s3Config(), FAST_RETRIES).endpoints()).map((endpoint) => endpoint.id);
    expect(ids).toContain('exports/customers.csv');
    expect(listingsSince(before)).toBe(2);
  });

  it("fails with S3's own words after three 500 InternalErrors", async () => {
    interrupt(isListing, 3, internalError);
    const before = s3.requests.length;
    const error = await failure(openS3Connector(s3Config(), FAST_RETRIES).test());
    expect(error.kind).toBe('failed');
    expect(error.message).toBe('S3: We encountered an internal error. Please try again. (InternalError)');
    expect(listingsSince(before)).toBe(3);
  });

  it('does not try a 403 again', async () => {
    interrupt(isListing, 1, (response) => xmlError(response, 403, 'AccessDenied', 'Access Denied'));
    const before = s3.requests.length;
    const error = await failure(openS3Connector(s3Config(), FAST_RETRIES).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('S3: Access Denied (AccessDenied)');
    expect(listingsSince(before)).toBe(1);
  });

  it('waits as Retry-After asks, and does not wait longer than 10 s', async () => {
    const slowDownFor = (seconds: string) => (response: ServerResponse) =>
      response
        .writeHead(503, { 'content-type': 'application/xml', 'retry-after': seconds })
        .end('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
    interrupt(isListing, 1, slowDownFor('1'));
    const started = performance.now();
    expect((await openS3Connector(s3Config(), FAST_RETRIES).test()).detail).toContain('listed 1 object');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);

    interrupt(isListing, 1, slowDownFor('60'));
    const before = s3.requests.length;
    const error = await failure(openS3Connector(s3Config(), FAST_RETRIES).test());
    expect(error.message).toBe('S3: Please reduce your request rate. (SlowDown); it asked to wait 60 s before trying again');
    expect(listingsSince(before)).toBe(1);
    interruptions.length = 0;
  });

  it('sends a read again on a new connection when the one it went out on is closed under it', async () => {
    interrupt(isListing, 1, (response) => response.socket?.destroy());
    const before = s3.requests.length;
    expect((await openS3Connector(s3Config(), FAST_RETRIES).test()).detail).toContain('listed 1 object');
    expect(listingsSince(before)).toBe(2);
  });

  it('tries the read of an object again after a 503, HEAD and GET alike', async () => {
    const connector = openS3Connector(s3Config(), FAST_RETRIES);
    try {
      interrupt(
        (request) => request.method === 'HEAD',
        1,
        (response) => void response.writeHead(503).end(),
      );
      interrupt(isRead('exports/q1 report/sales+returns.csv'), 2, slowDown);
      const [total] = await connector.query<{ total: number }>(
        'select sum(amount)::int as total from "exports/q1 report/sales+returns.csv"',
        [],
        QUERY,
      );
      expect(total!.total).toBe(42);
      expect(interruptions).toEqual([]);
    } finally {
      await connector.close();
    }
  });

  it('does not ask again for a body S3 had begun to send', async () => {
    const connector = openS3Connector(s3Config(), FAST_RETRIES);
    try {
      interrupt(isRead('exports/q1 report (final)+draft.csv'), 1, (response) => {
        response.writeHead(200, { 'content-length': '1000' });
        response.write('region,amount\nnorth,');
        setTimeout(() => response.socket?.destroy(), 20);
      });
      const before = s3.requests.length;
      const cut = await connector.query('select * from "exports/q1 report (final)+draft.csv"', [], QUERY).catch((error: unknown) => error);
      expect(cut).toBeInstanceOf(ConnectorError);
      expect((cut as ConnectorError).message).toMatch(/^"exports\/q1 report \(final\)\+draft\.csv": /);
      const reads = s3.requests.slice(before).filter(isRead('exports/q1 report (final)+draft.csv'));
      expect(reads).toHaveLength(1);
    } finally {
      await connector.close();
    }
  });
});

describe("reading S3's XML", () => {
  const page = (inside: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\n  <Name>data</Name>\n  ${inside}\n</ListBucketResult>`;
  const answerPage = (inside: string) => (response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'application/xml' }).end(page(inside));

  it('lists keys with entities page after page, sending the continuation token back as S3 wrote it', async () => {
    interrupt(
      isListing,
      1,
      answerPage(
        '<KeyCount>1</KeyCount><Contents><Key>exports/a &amp; b &lt;c&gt; caf&#xE9; &#233;t&#xe9; &quot;q&quot; &apos;s&apos;.csv</Key><Size>5</Size></Contents>' +
          '<IsTruncated>true</IsTruncated><NextContinuationToken>1/a+b=c&amp;d ~%</NextContinuationToken>',
      ),
    );
    interrupt(isListing, 1, answerPage('<KeyCount>0</KeyCount><IsTruncated>false</IsTruncated>'));
    const before = s3.requests.length;
    const endpoints = await openS3Connector(s3Config(), FAST_RETRIES).endpoints();
    expect(endpoints.map((endpoint) => [endpoint.id, endpoint.size])).toEqual([[`exports/a & b <c> café été "q" 's'.csv`, 5]]);
    const listings = s3.requests.slice(before).filter(isListing);
    expect(listings.map((request) => request.query.get('continuation-token'))).toEqual([null, '1/a+b=c&d ~%']);
  });

  it('keeps keys that look like numbers, booleans or padding as text', () => {
    const keys = ['0012', '1e5', '0x1F', '-0', '007.50', 'true', 'null', ' spaced ', ''];
    const listing = readListing(
      page(
        `${keys.map((key, i) => `<Contents><Key>${key}</Key><Size>${i}</Size></Contents>`).join('\n  ')}<IsTruncated>false</IsTruncated>`,
      ),
    );
    expect(listing).toEqual({ objects: keys.map((key, size) => ({ key, size })), nextToken: undefined });
  });

  it('reads a page of one key as a list, and an empty page as no keys', () => {
    expect(readListing(page('<Contents><Key>only.csv</Key><Size>3</Size></Contents><IsTruncated>false</IsTruncated>'))).toEqual({
      objects: [{ key: 'only.csv', size: 3 }],
      nextToken: undefined,
    });
    expect(readListing(page('<KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>'))).toEqual({
      objects: [],
      nextToken: undefined,
    });
    expect(readListing('<ListBucketResult/>')).toEqual({ objects: [], nextToken: undefined });
  });

  it('takes a continuation token only from a page that says it is truncated', () => {
    const token = '<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>';
    expect(readListing(page(`<IsTruncated>true</IsTruncated>${token}`))?.nextToken).toBe('1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=');
    expect(readListing(page(`<IsTruncated>false</IsTruncated>${token}`))?.nextToken).toBeUndefined();
  });

  it('does not expand entities a document declares itself, and refuses one that names a file', () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol0 "lol">${laughs}]>\n`;
    const listing = readListing(
      `${bomb}<ListBucketResult><Contents><Key>exports/&lol9;.csv</Key><Size>1</Size></Contents><IsTruncated>false</IsTruncated></ListBucketResult>`,
    );
    expect(listing?.objects).toEqual([{ key: 'exports/&lol9;.csv', size: 1 }]);
    expect(readError(`${bomb}<Error><Code>SlowDown</Code><Message>&lol9;</Message></Error>`)).toEqual({
      code: 'SlowDown',
      message: '&lol9;',
    });
    const external = `<?xml version="1.0"?>\n<!DOCTYPE l [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n<ListBucketResult><Contents><Key>&secret;</Key></Contents></ListBucketResult>`;
    expect(readListing(external)).toBeUndefined();
  });

  it("reads an error's code and message, entities and all", () => {
    expect(
      readError(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The key &quot;a&amp;b&quot; does not exist.</Message><Key>a&amp;b</Key></Error>',
      ),
    ).toEqual({
      code: 'NoSuchKey',
      message: 'The key "a&b" does not exist.',
    });
    expect(readError('<html><body>502 Bad Gateway</body></html>')).toEqual({});
    expect(readError('')).toEqual({});
  });

  it('says so when a listing is not an object list', async () => {
    interrupt(isListing, 1, (response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx!</body></html>'),
    );
    const error = await failure(openS3Connector(s3Config(), FAST_RETRIES).endpoints());
    expect(error.kind).toBe('failed');
    expect(error.message).toBe('S3 answered the listing of bucket "data" with something that is not an object list');
  });
});
