import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import {
  formatSeconds,
  HTTP_TIMEOUT_MS,
  kindOfStatus,
  RETRY_DEFAULTS,
  retryAfterMs,
  serviceWords,
  sleep,
  unreachableError,
  type HttpOptions,
} from './http';
import { normalisedPrefix, objectStoreTables } from './object-store';
import type { ObjectHead, ObjectPage, ObjectRead, ObjectStoreClient, ObjectStoreLimits, StorePlace } from './object-store';
import { awsUriEncode, canonicalQuery, signV4 } from './s3-signing';
import { readError, readListing } from './s3-xml';
import type { FileTableSource } from './tabular';
import { checkedSettings, ConnectorError, type ConnectionConfig } from './types';

/**
 * The `s3` type: CSV and Parquet objects of a bucket in Amazon S3 or any S3-compatible store,
 * under an optional prefix. Requests are signed with AWS Signature Version 4 (s3-signing.ts);
 * objects are listed with ListObjectsV2 and read with GetObject, streamed for CSV and by byte
 * ranges for Parquet (whose footer comes first). Each object is an endpoint whose id is its key;
 * object-store.ts makes the bucket a FileTableSource, as for the other cloud stores.
 *
 * The requests are node:http's own, so that a virtual-hosted bucket's Host header can be sent to
 * the address the reach guard checked. They are tried again as the other stores' are through
 * http/call.ts: an answer that says "later" (429, 5xx, S3's SlowDown) and a kept-alive connection
 * S3 had closed meanwhile, at most three tries in all, waiting 500 ms then 1 s, or as Retry-After
 * asks up to 10 s. Every request is a read (GET or HEAD), so sending it again does no harm; a
 * body S3 had begun to send is not asked for again half-way.
 */

/**
 * The reach guard every request's host goes through (it also resolves the host: a store known
 * only to a private resolver), the time limit of each try and the retries, as for the other stores.
 */
export interface S3Options extends HttpOptions {
  limits?: Partial<S3Limits>;
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
// Requests

/** ListObjectsV2 answers at most 1,000 keys a page. */
const PAGE_SIZE = 1000;

/** Tries and waits as http/call.ts has them for the other stores. */

/** S3's own words for "try again later", whatever status a compatible store sends them with. */
const LATER_CODES = new Set(['SlowDown', 'InternalError', 'ServiceUnavailable']);

/** What one try came to: an answer to hand over, S3's refusal, or a connection closed before any answer. */
type Outcome =
  | { ok: true; response: IncomingMessage }
  | { ok: false; error: ConnectorError; later: boolean; retryAfter: string | undefined }
  | { ok: false; reset: ConnectorError };

class S3Client implements ObjectStoreClient {
  private readonly timeoutMs: number;
  private readonly retries: { maxTries: number; retryBaseDelayMs: number; maxRetryWaitMs: number };
  readonly place: StorePlace;
  readonly pageSize = PAGE_SIZE;

  constructor(
    readonly settings: S3Settings,
    private readonly options: S3Options,
  ) {
    this.timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
    this.retries = {
      maxTries: options.maxTries ?? RETRY_DEFAULTS.maxTries,
      retryBaseDelayMs: options.retryBaseDelayMs ?? RETRY_DEFAULTS.retryBaseDelayMs,
      maxRetryWaitMs: options.maxRetryWaitMs ?? RETRY_DEFAULTS.maxRetryWaitMs,
    };
    this.place = { noun: 'bucket', name: settings.bucket, item: 'object', prefix: settings.prefix };
  }

  async listPage(maxKeys: number, continuationToken?: string): Promise<ObjectPage> {
    const query: Array<[string, string]> = [
      ['list-type', '2'],
      ['max-keys', String(maxKeys)],
    ];
    if (this.settings.prefix) query.push(['prefix', this.settings.prefix]);
    if (continuationToken) query.push(['continuation-token', continuationToken]);
    const page = readListing(await readBody(await this.send('GET', undefined, query), this.address().host));
    if (!page)
      throw new ConnectorError(
        `S3 answered the listing of bucket "${this.settings.bucket}" with something that is not an object list`,
        'failed',
      );
    return page;
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

  /**
   * A 2xx answer, its body not yet read, tried again as the class's comment says. The method is a
   * read's by its type: a write could have been done by the time a 5xx or a reset came back.
   */
  private async send(
    method: 'GET' | 'HEAD',
    key?: string,
    query: ReadonlyArray<readonly [string, string]> = [],
    headers: Record<string, string> = {},
  ): Promise<IncomingMessage> {
    const { maxTries, retryBaseDelayMs, maxRetryWaitMs } = this.retries;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.sendOnce(method, key, query, headers);
      if (outcome.ok) return outcome.response;
      if ('reset' in outcome) {
        if (attempt < maxTries) continue;
        throw outcome.reset;
      }
      if (!outcome.later || attempt >= maxTries) throw outcome.error;
      const asked = retryAfterMs(outcome.retryAfter);
      if (asked !== undefined && asked > maxRetryWaitMs) {
        throw new ConnectorError(
          `${outcome.error.message}; it asked to wait ${Math.ceil(asked / 1000)} s before trying again`,
          outcome.error.kind,
        );
      }
      await sleep(asked ?? retryBaseDelayMs * 2 ** (attempt - 1));
    }
  }

  /** One try, signed anew (its x-amz-date is the time it is sent). */
  private async sendOnce(
    method: 'GET' | 'HEAD',
    key: string | undefined,
    query: ReadonlyArray<readonly [string, string]>,
    extraHeaders: Record<string, string>,
  ): Promise<Outcome> {
    const { endpoint, bucket } = this.settings;
    const { hostname, host } = this.address();
    const path = s3Path(this.settings, key);
    const headers = signV4({
      method,
      host,
      path,
      query,
      headers: extraHeaders,
      region: this.settings.region,
      accessKeyId: this.settings.accessKeyId,
      secretAccessKey: this.settings.secretAccessKey,
      now: new Date(),
    });
    const search = query.length > 0 ? `?${canonicalQuery(query)}` : '';
    const transport = endpoint.protocol === 'https:' ? https : http;
    const port = endpoint.port ? Number(endpoint.port) : endpoint.protocol === 'https:' ? 443 : 80;
    // Checked before anything is sent; the request then dials only the addresses the check allowed.
    const checked = await this.options.reach.check({ host: hostname, port });
    const where = `${hostname}:${port}`;
    const what = key === undefined ? `bucket "${bucket}"` : `"${key}" in bucket "${bucket}"`;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        { protocol: endpoint.protocol, hostname, port, path: path + search, method, headers, lookup: checked.lookup },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) return resolve({ ok: true, response });
          readBody(response, where).then((body) => {
            const said = readError(body);
            const later = status === 429 || status >= 500 || LATER_CODES.has(said.code ?? '');
            const retryAfter = response.headers['retry-after'];
            resolve({ ok: false, error: s3Error(status, said, what), later, retryAfter });
          }, reject);
        },
      );
      request.setTimeout(this.timeoutMs, () =>
        request.destroy(new ConnectorError(`S3 did not answer within ${formatSeconds(this.timeoutMs)}`, 'timeout')),
      );
      request.on('error', (error) => {
        if (error instanceof ConnectorError) return reject(error);
        const unreachable = unreachableError('S3', where, error);
        // Settles nothing once an answer was handed over: its body's own stream reports what follows.
        if (isConnectionReset(error)) resolve({ ok: false, reset: unreachable });
        else reject(unreachable);
      });
      request.end();
    });
  }
}

/** The path of the bucket (key undefined) or of an object, escaped as it is sent and signed. */
export function s3Path(settings: Pick<S3Settings, 'endpoint' | 'bucket' | 'pathStyle'>, key?: string): string {
  const basePath = settings.endpoint.pathname.replace(/\/+$/, '');
  const keyPath = key === undefined ? '' : `/${key.split('/').map(awsUriEncode).join('/')}`;
  return settings.pathStyle ? `${basePath}/${awsUriEncode(settings.bucket)}${keyPath}` : `${basePath}${keyPath || '/'}`;
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
function s3Error(status: number, said: { code?: string; message?: string }, what: string): ConnectorError {
  const code = serviceWords(said.code);
  const message = serviceWords(said.message);
  if (code && /^[A-Za-z][A-Za-z0-9.]{0,63}$/.test(code))
    return new ConnectorError(`S3: ${message ?? code} (${code})`, S3_ERROR_KINDS[code] ?? kindOfStatus(status));
  const words = status === 404 ? `${what} does not exist` : status === 403 ? `access to ${what} denied` : `${what} could not be read`;
  return new ConnectorError(`S3: ${words} (HTTP ${status})`, kindOfStatus(status));
}

/** The connection was closed under the request (a kept-alive socket S3 had closed), rather than refused or never made. */
function isConnectionReset(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
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
