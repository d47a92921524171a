import { createHash, createHmac } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Reach } from '../reach/reach';
import { formatSeconds, HTTP_TIMEOUT_MS, kindOfStatus, serviceWords, unreachableError } from './http';
import { normalisedPrefix, objectStoreTables } from './object-store';
import type { ObjectHead, ObjectPage, ObjectRead, ObjectStoreClient, ObjectStoreLimits, StorePlace } from './object-store';
import type { FileTableSource } from './tabular';
import { checkedSettings, ConnectorError, type ConnectionConfig } from './types';

/**
 * The `s3` type: CSV and Parquet objects of a bucket in Amazon S3 or any S3-compatible store,
 * under an optional prefix. Requests are signed with AWS Signature Version 4 (below, with
 * node:crypto); objects are listed with ListObjectsV2 and read with GetObject, streamed for CSV
 * and by byte ranges for Parquet (whose footer comes first). Each object is an endpoint whose id
 * is its key; object-store.ts makes the bucket a FileTableSource, as for the other cloud stores.
 */

export interface S3Options {
  limits?: Partial<S3Limits>;
  /** The guard every request's host goes through; it also resolves the host (a store known only to a private resolver). */
  reach: Reach;
  /** Per request, 15 s unless told. */
  timeoutMs?: number;
}

export type S3Limits = ObjectStoreLimits;

export function openS3Connector(config: ConnectionConfig, options: S3Options): FileTableSource {
  return objectStoreTables(new S3Client(s3Settings(config), options), options.limits);
}

export interface S3Settings {
  endpoint: URL;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
}

export function s3Settings(config: ConnectionConfig): S3Settings {
  const { settings, secrets } = checkedSettings(config, 's3');
  const region = String(settings.region).trim();
  const endpoint = new URL(String(settings.endpoint));
  // Amazon's global address serves us-east-1; a bucket elsewhere is reached at its region's own.
  if (endpoint.hostname === 's3.amazonaws.com' && region !== 'us-east-1') endpoint.hostname = `s3.${region}.amazonaws.com`;
  return {
    endpoint,
    region,
    bucket: String(settings.bucket).trim(),
    prefix: normalisedPrefix(settings.prefix),
    accessKeyId: String(settings.accessKeyId).trim(),
    secretAccessKey: secrets.secretAccessKey!,
    pathStyle: settings.pathStyle === true,
  };
}

// ---------------------------------------------------------------------------------------------
// AWS Signature Version 4

const EMPTY_PAYLOAD_HASH = createHash('sha256').update('').digest('hex');

/** RFC 3986 escaping as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ */
function awsUriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

interface SignedRequest {
  method: string;
  /** Host with its port when not the default, as the Host header says. */
  host: string;
  /** Already escaped with awsUriEncode, segment by segment. */
  path: string;
  query: ReadonlyArray<readonly [string, string]>;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  now: Date;
}

/** The headers that authenticate a request (host, x-amz-date, x-amz-content-sha256, authorization). */
function signV4(request: SignedRequest): Record<string, string> {
  const amzDate = request.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${request.region}/s3/aws4_request`;
  const headers: Record<string, string> = { host: request.host, 'x-amz-content-sha256': EMPTY_PAYLOAD_HASH, 'x-amz-date': amzDate };
  const signedHeaders = Object.keys(headers).sort();
  const canonicalRequest = [
    request.method,
    request.path,
    canonicalQuery(request.query),
    ...signedHeaders.map((name) => `${name}:${headers[name]!.trim()}`),
    '',
    signedHeaders.join(';'),
    EMPTY_PAYLOAD_HASH,
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${request.secretAccessKey}`, day);
  for (const part of [request.region, 's3', 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${request.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${signature}`,
  };
}

function canonicalQuery(query: ReadonlyArray<readonly [string, string]>): string {
  return query
    .map(([key, value]) => [awsUriEncode(key), awsUriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Requests

/** ListObjectsV2 answers at most 1,000 keys a page. */
const PAGE_SIZE = 1000;

class S3Client implements ObjectStoreClient {
  private readonly timeoutMs: number;
  readonly place: StorePlace;
  readonly pageSize = PAGE_SIZE;

  constructor(
    readonly settings: S3Settings,
    private readonly options: S3Options,
  ) {
    this.timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
    this.place = { noun: 'bucket', name: settings.bucket, item: 'object', prefix: settings.prefix };
  }

  async listPage(maxKeys: number, continuationToken?: string): Promise<ObjectPage> {
    const query: Array<[string, string]> = [
      ['list-type', '2'],
      ['max-keys', String(maxKeys)],
    ];
    if (this.settings.prefix) query.push(['prefix', this.settings.prefix]);
    if (continuationToken) query.push(['continuation-token', continuationToken]);
    const xml = await readBody(await this.send('GET', undefined, query), this.address().host);
    const truncated = xmlText(xml, 'IsTruncated') === 'true';
    return {
      objects: xmlBlocks(xml, 'Contents').map((block) => ({ key: xmlText(block, 'Key') ?? '', size: Number(xmlText(block, 'Size') ?? 0) })),
      nextToken: truncated ? xmlText(xml, 'NextContinuationToken') : undefined,
    };
  }

  async head(key: string): Promise<ObjectHead> {
    const response = await this.send('HEAD', key);
    response.resume();
    const size = Number(response.headers['content-length'] ?? 0);
    const tag = response.headers.etag ?? response.headers['last-modified'] ?? '';
    return { size, version: `${size}:${tag}` };
  }

  async read(key: string, _head: ObjectHead, range?: readonly [number, number]): Promise<ObjectRead> {
    const response = await this.send('GET', key, [], range ? { range: `bytes=${range[0]}-${range[1] - 1}` } : {});
    return { body: response, partial: response.statusCode === 206 };
  }

  /** Where requests go: the bucket's own host name unless addresses are path-style; `host` adds the port. */
  private address(): { hostname: string; host: string } {
    const { endpoint, bucket, pathStyle } = this.settings;
    const hostname = pathStyle ? endpoint.hostname : `${bucket}.${endpoint.hostname}`;
    return { hostname, host: endpoint.port ? `${hostname}:${endpoint.port}` : hostname };
  }

  private async send(
    method: 'GET' | 'HEAD',
    key?: string,
    query: ReadonlyArray<readonly [string, string]> = [],
    extraHeaders: Record<string, string> = {},
  ): Promise<IncomingMessage> {
    const { endpoint, bucket, pathStyle } = this.settings;
    const basePath = endpoint.pathname.replace(/\/+$/, '');
    const keyPath = key === undefined ? '' : `/${key.split('/').map(awsUriEncode).join('/')}`;
    const { hostname, host } = this.address();
    const path = pathStyle ? `${basePath}/${awsUriEncode(bucket)}${keyPath}` : `${basePath}${keyPath || '/'}`;
    const headers = {
      ...signV4({
        method,
        host,
        path,
        query,
        region: this.settings.region,
        accessKeyId: this.settings.accessKeyId,
        secretAccessKey: this.settings.secretAccessKey,
        now: new Date(),
      }),
      ...extraHeaders,
    };
    const search = query.length > 0 ? `?${canonicalQuery(query)}` : '';
    const transport = endpoint.protocol === 'https:' ? https : http;
    const port = endpoint.port ? Number(endpoint.port) : endpoint.protocol === 'https:' ? 443 : 80;
    // Checked before anything is sent; the request then dials only the addresses the check allowed.
    const checked = await this.options.reach.check({ host: hostname, port });
    const where = `${hostname}:${port}`;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        { protocol: endpoint.protocol, hostname, port, path: path + search, method, headers, lookup: checked.lookup },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve(response);
          readBody(response, where).then(
            (body) => reject(s3Error(status, body, key === undefined ? `bucket "${bucket}"` : `"${key}" in bucket "${bucket}"`)),
            reject,
          );
        },
      );
      request.setTimeout(this.timeoutMs, () =>
        request.destroy(new ConnectorError(`S3 did not answer within ${formatSeconds(this.timeoutMs)}`, 'timeout')),
      );
      request.on('error', (error) => reject(error instanceof ConnectorError ? error : unreachableError('S3', where, error)));
      request.end();
    });
  }
}

const S3_ERROR_KINDS: Record<string, ConnectorError['kind']> = {
  InvalidAccessKeyId: 'auth',
  SignatureDoesNotMatch: 'auth',
  AccessDenied: 'auth',
  ExpiredToken: 'auth',
  InvalidToken: 'auth',
  NoSuchBucket: 'not_found',
  NoSuchKey: 'not_found',
};

/** S3's own words from its XML error body; a HEAD answer has no body, so its status speaks. */
function s3Error(status: number, body: string, what: string): ConnectorError {
  const code = serviceWords(xmlText(body, 'Code'));
  const message = serviceWords(xmlText(body, 'Message'));
  if (code && /^[A-Za-z][A-Za-z0-9.]{0,63}$/.test(code))
    return new ConnectorError(`S3: ${message ?? code} (${code})`, S3_ERROR_KINDS[code] ?? kindOfStatus(status));
  const said = status === 404 ? `${what} does not exist` : status === 403 ? `access to ${what} denied` : `${what} could not be read`;
  return new ConnectorError(`S3: ${said} (HTTP ${status})`, kindOfStatus(status));
}

/** A listing page (1,000 keys) or an error is far smaller; more is not an S3 answer. */
const MAX_XML_BYTES = 16 * 1024 * 1024;

function readBody(response: IncomingMessage, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_XML_BYTES)
        response.destroy(new ConnectorError(`S3 at ${host} sent an answer over ${MAX_XML_BYTES / 1024 / 1024} MB`, 'failed'));
      else chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', (error) => reject(error instanceof ConnectorError ? error : unreachableError('S3', host, error)));
  });
}

// ---------------------------------------------------------------------------------------------
// A tiny reader for S3's XML answers: flat elements, no attributes we need.

function xmlBlocks(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => match[1]!);
}

function xmlText(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  return match ? decodeXml(match[1]!) : undefined;
}

function decodeXml(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return named[entity.toLowerCase()]!;
  });
}
