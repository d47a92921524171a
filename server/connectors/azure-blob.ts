import { createHmac } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { callService, openServiceStream, secureBaseUrl, serviceUrl, wordsWithCode } from './http';
import type { HttpOptions, HttpRequest, HttpService } from './http';
import { normalisedPrefix, objectStoreTables } from './object-store';
import type { ObjectHead, ObjectPage, ObjectRead, ObjectStoreClient, HttpStoreOptions, StorePlace } from './object-store';
import type { FileTableSource } from './tabular';
import { checkedSettings, ConnectorError, type ConnectionConfig } from './types';

/**
 * The `azure_blob` type: CSV and Parquet blobs of an Azure Storage container under an optional
 * prefix, through the Blob service REST API (no SDK). Requests are authorised either with the
 * account key — Shared Key: an HMAC-SHA256 of the canonicalised request, as "Authorize with
 * Shared Key" describes it — or with a SAS token added to every address. Blobs are listed with
 * List Blobs, described with Get Blob Properties and read with Get Blob (with x-ms-range for
 * Parquet's byte ranges, and If-Match so that a blob replaced while it is read fails rather
 * than mixing two versions).
 */

/** The REST API version every request asks for. */
export const AZURE_STORAGE_VERSION = '2023-11-03';

export type AzureAuthorization = { method: 'sharedKey'; accountKey: Buffer } | { method: 'sas'; token: URLSearchParams };

export interface AzureBlobSettings {
  accountName: string;
  container: string;
  prefix: string;
  /** The Blob service of the account: its own address unless the connection names another (a private endpoint, Azurite). */
  endpoint: URL;
  authorization: AzureAuthorization;
}

export function openAzureBlobConnector(config: ConnectionConfig, options: HttpStoreOptions): FileTableSource {
  return objectStoreTables(new AzureBlobClient(azureBlobSettings(config), options.http), options.limits);
}

export function azureBlobSettings(config: ConnectionConfig): AzureBlobSettings {
  const { settings, secrets } = checkedSettings(config, 'azure_blob');
  const accountName = String(settings.accountName).trim();
  const endpoint = String(settings.endpoint ?? '').trim() || `https://${accountName}.blob.core.windows.net`;
  return {
    accountName,
    container: String(settings.container).trim(),
    prefix: normalisedPrefix(settings.prefix),
    endpoint: secureBaseUrl(endpoint, 'endpoint'),
    authorization:
      settings.authMethod === 'sas'
        ? { method: 'sas', token: new URLSearchParams(secrets.sasToken!.trim().replace(/^\?/, '')) }
        : { method: 'sharedKey', accountKey: Buffer.from(secrets.accountKey!.trim(), 'base64') },
  };
}

// ---------------------------------------------------------------------------------------------
// Shared Key

export interface SignableRequest {
  method: string;
  url: URL;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
}

/**
 * The string a Shared Key signature covers (Blob service, version 2015-02-21 and later): the verb,
 * the standard headers in their fixed order (Content-Length empty when zero), the x-ms- headers
 * sorted as the service sorts them, and the resource — `/<account><path>` then each query parameter, sorted, as
 * `\nname:value`.
 */
export function sharedKeyStringToSign(accountName: string, request: SignableRequest): string {
  const header = (name: string) => request.headers[name] ?? '';
  const contentLength = header('content-length') === '0' ? '' : header('content-length');
  const standard = [
    request.method.toUpperCase(),
    header('content-encoding'),
    header('content-language'),
    contentLength,
    header('content-md5'),
    header('content-type'),
    header('date'),
    header('if-modified-since'),
    header('if-match'),
    header('if-none-match'),
    header('if-unmodified-since'),
    header('range'),
  ];
  const msHeaders = Object.keys(request.headers)
    .filter((name) => name.startsWith('x-ms-'))
    .sort(compareHeaderNames)
    .map((name) => `${name}:${request.headers[name]!.replace(/\s+/g, ' ').trim()}\n`)
    .join('');
  const parameters = new Map<string, string[]>();
  for (const [name, value] of request.url.searchParams) {
    const key = name.toLowerCase();
    parameters.set(key, [...(parameters.get(key) ?? []), value]);
  }
  const query = [...parameters.keys()]
    .sort()
    .map((name) => `\n${name}:${parameters.get(name)!.sort().join(',')}`)
    .join('');
  return `${standard.join('\n')}\n${msHeaders}/${accountName}${request.url.pathname}${query}`;
}

/**
 * The order the Blob service sorts x-ms- header names in: not by character codes but as .NET's
 * en-US culture compares them. Hyphens count only to break a tie (a name whose first differing
 * hyphen comes later goes first), and "." then "_" come before digits, digits before letters — so
 * `x-ms-meta-i_` goes before `x-ms-meta-i0`, which a plain sort puts the other way round, and the
 * service refuses the signature. Exact for names of lower-case letters, digits, "-", "_" and ".".
 */
function compareHeaderNames(a: string, b: string): number {
  const primary = (name: string) => name.replace(/-/g, '').replace(/\./g, '\u0001').replace(/_/g, '\u0002');
  const [pa, pb] = [primary(a), primary(b)];
  if (pa !== pb) return pa < pb ? -1 : 1;
  const hyphens = (name: string) => [...name].flatMap((char, index) => (char === '-' ? [index] : []));
  const [ha, hb] = [hyphens(a), hyphens(b)];
  for (let i = 0; i < Math.max(ha.length, hb.length); i += 1) {
    if (ha[i] === hb[i]) continue;
    if (ha[i] === undefined) return -1;
    if (hb[i] === undefined) return 1;
    return ha[i]! > hb[i]! ? -1 : 1;
  }
  return 0;
}

export function sharedKeySignature(accountKey: Buffer, stringToSign: string): string {
  return createHmac('sha256', accountKey).update(stringToSign, 'utf8').digest('base64');
}

// ---------------------------------------------------------------------------------------------
// Requests

/** The Blob service says what went wrong as `<Error><Code/><Message/></Error>`, or in x-ms-error-code when there is no body (HEAD). */
const AZURE: HttpService = {
  name: 'Azure Blob Storage',
  errorText(body, headers) {
    const code = xmlElement(body, 'Code') ?? headers.get('x-ms-error-code') ?? undefined;
    // The message ends with the request's id and time on lines of their own.
    const message = xmlElement(body, 'Message')?.split(/\r?\n/)[0]?.trim() ?? (code ? BODILESS_MESSAGES[code] : undefined);
    return wordsWithCode(message, code);
  },
};

/** Azure's own messages for the codes a HEAD answer carries without a body to say them. */
const BODILESS_MESSAGES: Record<string, string> = {
  BlobNotFound: 'The specified blob does not exist.',
  ContainerNotFound: 'The specified container does not exist.',
  AuthenticationFailed: 'Server failed to authenticate the request.',
  AuthorizationFailure: 'This request is not authorized to perform this operation.',
  AuthorizationPermissionMismatch: 'This request is not authorized to perform this operation using this permission.',
  ConditionNotMet: 'The condition specified using HTTP conditional header(s) is not met.',
  ServerBusy: 'The server is busy.',
};

function xmlElement(xml: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
  if (!match) return undefined;
  const parsed = listingParser.parse(`<v>${match[1]}</v>`) as { v?: unknown };
  return typeof parsed.v === 'string' ? parsed.v : match[1];
}

const listingParser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'Blob',
});

interface ListBlobsAnswer {
  EnumerationResults?: {
    Blobs?: { Blob?: Array<{ Name?: string; Properties?: { 'Content-Length'?: string } }> } | '';
    NextMarker?: string;
  };
}

/** List Blobs answers at most 5,000 blobs a page. */
const PAGE_SIZE = 5000;

class AzureBlobClient implements ObjectStoreClient {
  readonly place: StorePlace;
  readonly pageSize = PAGE_SIZE;

  constructor(
    private readonly settings: AzureBlobSettings,
    private readonly http: HttpOptions,
  ) {
    this.place = { noun: 'container', name: settings.container, item: 'blob', prefix: settings.prefix };
  }

  async listPage(maxKeys: number, token?: string): Promise<ObjectPage> {
    const query = { restype: 'container', comp: 'list', prefix: this.settings.prefix || undefined, maxresults: maxKeys, marker: token };
    const answer = await callService(AZURE, ...this.signed('GET', '', query));
    let listing: ListBlobsAnswer;
    try {
      listing = listingParser.parse(answer.text) as ListBlobsAnswer;
    } catch (error) {
      throw new ConnectorError(
        `Azure Blob Storage answered the listing of container "${this.settings.container}" with XML it could not read: ${(error as Error).message}`,
        'failed',
      );
    }
    const results = listing.EnumerationResults;
    if (!results)
      throw new ConnectorError(
        `Azure Blob Storage answered the listing of container "${this.settings.container}" with something that is not a blob list`,
        'failed',
      );
    const blobs = typeof results.Blobs === 'object' ? (results.Blobs.Blob ?? []) : [];
    return {
      objects: blobs
        .filter((blob) => typeof blob.Name === 'string')
        .map((blob) => ({ key: blob.Name!, size: Number(blob.Properties?.['Content-Length'] ?? 0) })),
      nextToken: typeof results.NextMarker === 'string' && results.NextMarker !== '' ? results.NextMarker : undefined,
    };
  }

  async head(key: string): Promise<ObjectHead> {
    const answer = await callService(AZURE, ...this.signed('HEAD', key));
    const size = Number(answer.headers.get('content-length') ?? 0);
    return { size, version: answer.headers.get('etag') ?? `${size}:${answer.headers.get('last-modified') ?? ''}` };
  }

  async read(key: string, head: ObjectHead, range?: readonly [number, number]): Promise<ObjectRead> {
    const headers: Record<string, string> = {};
    if (head.version.startsWith('"')) headers['if-match'] = head.version;
    if (range) headers['x-ms-range'] = `bytes=${range[0]}-${range[1] - 1}`;
    const answer = await openServiceStream(AZURE, ...this.signed('GET', key, {}, headers));
    return { body: answer.body, partial: answer.status === 206 };
  }

  /** The address of the container (key '') or of a blob, and the request authorised by the connection's method. */
  private signed(
    method: 'GET' | 'HEAD',
    key: string,
    query: Record<string, string | number | undefined> = {},
    extra: Record<string, string> = {},
  ): [URL, HttpRequest, HttpOptions] {
    const { container, authorization, endpoint, accountName } = this.settings;
    const blobPath = key === '' ? '' : `/${key.split('/').map(encodeURIComponent).join('/')}`;
    const url = serviceUrl(endpoint, `/${encodeURIComponent(container)}${blobPath}`, query);
    const headers: Record<string, string> = {
      accept: 'application/xml',
      'x-ms-date': new Date().toUTCString(),
      'x-ms-version': AZURE_STORAGE_VERSION,
      ...extra,
    };
    if (authorization.method === 'sas') {
      for (const [name, value] of authorization.token) url.searchParams.append(name, value);
    } else {
      const signature = sharedKeySignature(authorization.accountKey, sharedKeyStringToSign(accountName, { method, url, headers }));
      headers.authorization = `SharedKey ${accountName}:${signature}`;
    }
    return [url, { method, headers }, this.http];
  }
}
