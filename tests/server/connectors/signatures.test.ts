import { randomBytes } from 'node:crypto';
import { storageSharedKeyCredentialPolicy } from '@azure/storage-common';
import { Hash } from '@smithy/hash-node';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AZURE_STORAGE_VERSION, sharedKeySignature, sharedKeyStringToSign } from '../../../server/connectors/azure-blob';
import { serviceUrl } from '../../../server/connectors/http';
import { s3Path } from '../../../server/connectors/s3';
import { awsUriEncode, EMPTY_PAYLOAD_HASH, signV4 } from '../../../server/connectors/s3-signing';

/**
 * The request signers checked against answers that do not come from them: the worked examples
 * the services publish, and the signers of the services' own SDKs (used here only), over many
 * generated requests. The fakes of s3.test.ts and azure-blob.test.ts recompute signatures with the
 * same reading of the documentation as the connectors, so a mistake shared by both would pass there.
 */

// ---------------------------------------------------------------------------------------------
// AWS Signature Version 4

/**
 * "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk
 * (AWS Signature Version 4)", section "Examples: Signature Calculations": the example credentials,
 * 24 May 2013 at midnight, us-east-1, the bucket examplebucket, and the signatures published there.
 */
const AWS_EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  now: new Date('2013-05-24T00:00:00Z'),
  host: 'examplebucket.s3.amazonaws.com',
};

function parts(authorization: string) {
  const match = /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  expect(match, authorization).not.toBeNull();
  return { credential: match![1], signedHeaders: match![2], signature: match![3] };
}

describe('AWS Signature Version 4: the published examples', () => {
  const credential = 'AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request';

  it('GET Object, its first ten bytes (Range signed)', () => {
    const headers = signV4({ ...AWS_EXAMPLE, method: 'GET', path: '/test.txt', query: [], headers: { range: 'bytes=0-9' } });
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-content-sha256']).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(parts(headers.authorization!)).toEqual({
      credential,
      signedHeaders: 'host;range;x-amz-content-sha256;x-amz-date',
      signature: 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    });
  });

  it('PUT Object, "Welcome to Amazon S3." to test$file.text', () => {
    const headers = signV4({
      ...AWS_EXAMPLE,
      method: 'PUT',
      path: `/${awsUriEncode('test$file.text')}`,
      query: [],
      headers: { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
    });
    expect(parts(headers.authorization!)).toEqual({
      credential,
      signedHeaders: 'date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class',
      signature: '98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    });
  });

  it('GET Bucket Lifecycle, a query parameter without a value', () => {
    const headers = signV4({ ...AWS_EXAMPLE, method: 'GET', path: '/', query: [['lifecycle', '']] });
    expect(parts(headers.authorization!)).toEqual({
      credential,
      signedHeaders: 'host;x-amz-content-sha256;x-amz-date',
      signature: 'fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543',
    });
  });

  it('GET Bucket (List Objects), its parameters given out of order', () => {
    const headers = signV4({
      ...AWS_EXAMPLE,
      method: 'GET',
      path: '/',
      query: [
        ['prefix', 'J'],
        ['max-keys', '2'],
      ],
    });
    expect(parts(headers.authorization!)).toEqual({
      credential,
      signedHeaders: 'host;x-amz-content-sha256;x-amz-date',
      signature: '34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7',
    });
  });
});

/** Characters where escaping goes wrong: reserved ones, those encodeURIComponent leaves alone, and beyond ASCII. */
const TRICKY = [...'aZ09 +=~-_.!*\'()%&?#:@,;$[]"<>^`{|}\\é日😀'];
const trickyText = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...TRICKY), { minLength, maxLength }).map((chars) => chars.join(''));

describe('AWS Signature Version 4: as the AWS SDK signs', () => {
  /** A request the S3 connector could send: a key (segments neither empty nor dots, which the SDK would tidy away), a query, a host with or without a port. */
  const s3Request = fc.record({
    method: fc.constantFrom('GET', 'HEAD'),
    bucket: fc.constantFrom('data', 'my.bucket-2'),
    key: fc.option(
      fc
        .array(
          trickyText(1, 6).filter((segment) => !segment.includes('/') && segment !== '.' && segment !== '..'),
          { minLength: 1, maxLength: 4 },
        )
        .map((segments) => segments.join('/')),
      { nil: undefined },
    ),
    query: fc.array(fc.tuple(fc.constantFrom('list-type', 'prefix', 'a', 'a-b', 'x y', 'k=v', 'ü', '~t'), trickyText(0, 8)), {
      maxLength: 6,
    }),
    host: fc.constantFrom('s3.eu-west-3.amazonaws.com', 'localhost:9000', 'minio.internal:443', '127.0.0.1:8333'),
    region: fc.constantFrom('us-east-1', 'eu-west-3', 'auto'),
    range: fc.option(fc.constantFrom('bytes=0-9', 'bytes=1048576-2097151'), { nil: undefined }),
    note: fc.option(trickyText(1, 12), { nil: undefined }),
    now: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
  });

  it('gives the same Authorization header for every request', async () => {
    await fc.assert(
      fc.asyncProperty(s3Request, async (request) => {
        const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
        const now = new Date(Math.floor(request.now.getTime() / 1000) * 1000);
        const extra: Record<string, string> = {};
        if (request.range) extra.range = request.range;
        if (request.note) extra['x-amz-meta-note'] = request.note;
        const ours = signV4({
          method: request.method,
          host: request.host,
          path: s3Path({ endpoint: new URL(`https://${request.host}`), bucket: request.bucket, pathStyle: true }, request.key),
          query: request.query,
          headers: extra,
          region: request.region,
          ...credentials,
          now,
        });

        const query: Record<string, string | string[]> = {};
        for (const [name, value] of request.query) {
          const before = query[name];
          query[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
        }
        const [hostname, port] = request.host.split(':');
        const theirs = await new SignatureV4({
          service: 's3',
          region: request.region,
          credentials,
          sha256: Hash.bind(null, 'sha256'),
        }).sign(
          new HttpRequest({
            method: request.method,
            protocol: 'https:',
            hostname,
            port: port ? Number(port) : undefined,
            // Unescaped: the SDK escapes each segment itself, once.
            path: `/${request.bucket}${request.key === undefined ? '' : `/${request.key}`}`,
            query,
            headers: { host: request.host, 'x-amz-content-sha256': EMPTY_PAYLOAD_HASH, ...extra },
          }),
          { signingDate: now },
        );
        expect(ours.authorization).toBe((theirs.headers as Record<string, string>).authorization);
        expect(ours['x-amz-date']).toBe((theirs.headers as Record<string, string>)['x-amz-date']);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Azure Shared Key

describe('Azure Shared Key: the published examples', () => {
  // "Authorize with Shared Key", the strings to sign for version 2015-02-21 and later. Microsoft
  // publishes no signature of them with a key, so the strings are what is checked.
  const documented = { 'x-ms-date': 'Fri, 26 Jun 2015 23:39:12 GMT', 'x-ms-version': '2015-02-21' };

  it('Get Container Metadata: query names sorted, each on its own line', () => {
    const url = new URL('https://myaccount.blob.core.windows.net/mycontainer?restype=container&comp=metadata&timeout=20');
    expect(sharedKeyStringToSign('myaccount', { method: 'GET', url, headers: documented })).toBe(
      'GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Fri, 26 Jun 2015 23:39:12 GMT\nx-ms-version:2015-02-21\n/myaccount/mycontainer\ncomp:metadata\nrestype:container\ntimeout:20',
    );
  });

  it('a Content-Length of zero signs as an empty line', () => {
    const url = new URL('https://myaccount.blob.core.windows.net/mycontainer?restype=container&timeout=30');
    expect(sharedKeyStringToSign('myaccount', { method: 'PUT', url, headers: { ...documented, 'content-length': '0' } })).toBe(
      'PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Fri, 26 Jun 2015 23:39:12 GMT\nx-ms-version:2015-02-21\n/myaccount/mycontainer\nrestype:container\ntimeout:30',
    );
  });

  it('List Blobs with a parameter given three times: its values sorted and joined with commas', () => {
    const url = new URL(
      'https://myaccount.blob.core.windows.net/mycontainer?restype=container&comp=list&include=snapshots&include=metadata&include=uncommittedblobs',
    );
    expect(sharedKeyStringToSign('myaccount', { method: 'GET', url, headers: documented })).toBe(
      'GET\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:Fri, 26 Jun 2015 23:39:12 GMT\nx-ms-version:2015-02-21\n/myaccount/mycontainer\ncomp:list\ninclude:metadata,snapshots,uncommittedblobs\nrestype:container',
    );
  });
});

describe('Azure Shared Key: the order of x-ms- headers', () => {
  it('puts x-ms-meta-i_ before x-ms-meta-i0, as the service did in the string it said it signed', () => {
    // From a refused request's AuthenticationErrorDetail, quoted in Azure/azure-sdk-for-python#10277.
    const url = new URL('https://acmedata.blob.core.windows.net/mybucket/blob');
    const headers = {
      'x-ms-version': '2019-07-07',
      'x-ms-meta-i0': 'a',
      'x-ms-meta-i_': 'a',
      'x-ms-date': 'Thu, 12 Mar 2020 10:00:00 GMT',
    };
    expect(sharedKeyStringToSign('acmedata', { method: 'PUT', url, headers })).toContain(
      'x-ms-date:Thu, 12 Mar 2020 10:00:00 GMT\nx-ms-meta-i_:a\nx-ms-meta-i0:a\nx-ms-version:2019-07-07\n/acmedata/mybucket/blob',
    );
  });
});

type AzureSdkRequest = Parameters<ReturnType<typeof storageSharedKeyCredentialPolicy>['sendRequest']>[0];

/** The few parts of the SDK's request that its Shared Key policy reads and writes. */
function sdkRequest(method: string, url: URL, headers: Record<string, string>) {
  const values = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const sdkHeaders = {
    get: (name: string) => values.get(name.toLowerCase()),
    set: (name: string, value: string | number) => void values.set(name.toLowerCase(), String(value)),
    has: (name: string) => values.has(name.toLowerCase()),
    delete: (name: string) => void values.delete(name.toLowerCase()),
    toJSON: () => Object.fromEntries(values),
    [Symbol.iterator]: () => values.entries(),
  };
  return { request: { method, url: url.href, headers: sdkHeaders } as unknown as AzureSdkRequest, values };
}

describe('Azure Shared Key: as the Azure SDK signs', () => {
  /**
   * A request the azure_blob connector could send, and a few x-ms- headers it does not, for the
   * order of their names. Left out, where the SDK departs from Microsoft's description rather than
   * the connector: a parameter given twice (the SDK keeps the last value, the description joins
   * them, as checked above), a parameter without a value (the SDK leaves it out), a parameter name
   * that needs escaping (the SDK signs it escaped; the description decodes names and values alike,
   * and the Blob service's names are all plain ASCII), runs of spaces
   * inside a header's value (the SDK keeps them; the description makes them one), and
   * Content-Encoding and Content-Language (the SDK swaps their places; the connector sends neither).
   */
  const azureRequest = fc.record({
    method: fc.constantFrom('GET', 'HEAD'),
    container: fc.constantFrom('data', 'my-container', 'c0'),
    blob: fc.option(
      fc.array(
        trickyText(1, 6).filter((segment) => !segment.includes('/') && segment !== '.' && segment !== '..'),
        { minLength: 1, maxLength: 4 },
      ),
      { nil: undefined },
    ),
    query: fc.uniqueArray(
      fc.tuple(fc.constantFrom('restype', 'comp', 'prefix', 'marker', 'maxresults', 'timeout', 'Include', 'a-b'), trickyText(1, 8)),
      {
        selector: ([name]) => name,
        maxLength: 5,
      },
    ),
    range: fc.option(fc.constantFrom('bytes=0-9', 'bytes=1048576-2097151'), { nil: undefined }),
    ifMatch: fc.option(fc.constantFrom('"0x8DC2A4B5C6D1"', '*'), { nil: undefined }),
    emptyLength: fc.boolean(),
    msHeaders: fc.uniqueArray(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('x-ms-client-request-id', 'x-ms-lease-id', 'x-ms-blob-type', 'x-ms-encryption-scope'),
          // Metadata names, where sorting them by character codes goes wrong.
          fc.array(fc.constantFrom(...'ai0_.-'), { minLength: 1, maxLength: 4 }).map((chars) => `x-ms-meta-${chars.join('')}`),
        ),
        trickyText(1, 10).filter((value) => value.trim() === value && !/\s\s/.test(value)),
      ),
      { selector: ([name]) => name, maxLength: 4 },
    ),
  });

  it('gives the same Authorization header for every request', async () => {
    const accountKey = randomBytes(64);
    const policy = storageSharedKeyCredentialPolicy({ accountName: 'acmedata', accountKey });
    await fc.assert(
      fc.asyncProperty(azureRequest, async (generated) => {
        const blobPath = generated.blob ? `/${generated.blob.map(encodeURIComponent).join('/')}` : '';
        const url = serviceUrl(new URL('https://acmedata.blob.core.windows.net'), `/${encodeURIComponent(generated.container)}${blobPath}`);
        // Written with %20 rather than URLSearchParams' "+": the SDK, which never writes "+", reads it as a plus sign.
        url.search = generated.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
        const headers: Record<string, string> = { 'x-ms-version': AZURE_STORAGE_VERSION, ...Object.fromEntries(generated.msHeaders) };
        if (generated.range) headers['x-ms-range'] = generated.range;
        if (generated.ifMatch) headers['if-match'] = generated.ifMatch;
        if (generated.emptyLength) headers['content-length'] = '0';

        const sdk = sdkRequest(generated.method, url, headers);
        await policy.sendRequest(sdk.request, async () => ({}) as never);
        // The SDK dates the request itself; ours is given the same date.
        const signedHeaders = { ...headers, 'x-ms-date': sdk.values.get('x-ms-date')! };
        const ours = `SharedKey acmedata:${sharedKeySignature(accountKey, sharedKeyStringToSign('acmedata', { method: generated.method, url, headers: signedHeaders }))}`;
        expect(ours).toBe(sdk.values.get('authorization'));
      }),
      { numRuns: 300 },
    );
  });

  it('signs a query the same whether its spaces are written "+" or %20', () => {
    const headers = { 'x-ms-date': 'Fri, 26 Jun 2015 23:39:12 GMT', 'x-ms-version': AZURE_STORAGE_VERSION };
    const plus = serviceUrl(new URL('https://acmedata.blob.core.windows.net'), '/data', { prefix: 'q1 report/', comp: 'list' });
    expect(plus.search).toContain('q1+report');
    const percent = new URL('https://acmedata.blob.core.windows.net/data?prefix=q1%20report%2F&comp=list');
    const toSign = (url: URL) => sharedKeyStringToSign('acmedata', { method: 'GET', url, headers });
    expect(toSign(plus)).toBe(toSign(percent));
    expect(toSign(plus).endsWith('/acmedata/data\ncomp:list\nprefix:q1 report/')).toBe(true);
  });
});
