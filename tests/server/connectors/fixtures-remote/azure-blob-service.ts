import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startLocalServer, type LocalServer, type ReceivedRequest } from './local-server';

/**
 * An Azure Blob service on this machine, addressed as an emulator is (http://127.0.0.1:<port>/
 * <container>/<blob>): List Blobs, Get Blob Properties and Get Blob (x-ms-range, If-Match), each
 * request authorised as Azure's documentation says — a Shared Key signature recomputed here from
 * the request ("Authorize with Shared Key"), or a service SAS whose signature is recomputed from
 * its fields ("Create a service SAS") and whose permissions are enforced. One storage account,
 * whose key is made anew for each service.
 */

export const AZURE_ACCOUNT = 'acmedata';
const SAS_VERSION = '2022-11-02';

interface StoredBlob {
  body: Buffer;
  etag: string;
}

interface Interruption {
  status: number;
  code: string;
  message: string;
}

export interface AzureBlobService {
  server: LocalServer;
  accountKey: string;
  putBlob(container: string, name: string, body: string | Uint8Array): void;
  blob(container: string, name: string): StoredBlob | undefined;
  /** Answers to give on a path before the real one (a 503 ServerBusy). */
  interrupt(path: string, answers: Interruption[]): void;
  /** Blobs a listing page holds at most (5,000 unless told), so that paging shows. */
  setPageLimit(limit: number): void;
  /** A service SAS for a container, as the portal or an SDK makes one (version 2020-12-06 and later). */
  containerSas(container: string, permissions: string, expiry?: Date): string;
  close(): Promise<void>;
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('base64');
const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function azureError(response: ServerResponse, status: number, code: string, message: string, method: string): void {
  const headers = { 'x-ms-error-code': code, 'content-type': 'application/xml' };
  if (method === 'HEAD') return void response.writeHead(status, headers).end();
  response
    .writeHead(status, headers)
    .end(
      `\uFEFF<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}\nRequestId:5f3c9a1e-001e-0042-2b1c-000000000000\nTime:2026-01-20T10:00:00.0000000Z</Message></Error>`,
    );
}

/** The string Azure signs for a Shared Key request (version 2015-02-21 and later), built from the request as received. */
function sharedKeyString(request: ReceivedRequest): string {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : (value ?? '');
  };
  const length = header('content-length');
  const standard = [
    request.method,
    header('content-encoding'),
    header('content-language'),
    length === '0' ? '' : length,
    header('content-md5'),
    header('content-type'),
    header('date'),
    header('if-modified-since'),
    header('if-match'),
    header('if-none-match'),
    header('if-unmodified-since'),
    header('range'),
  ].join('\n');
  const msHeaders = Object.keys(request.headers)
    .filter((name) => name.startsWith('x-ms-'))
    .sort()
    .map((name) => `${name}:${header(name).trim()}\n`)
    .join('');
  const byName = new Map<string, string[]>();
  for (const [name, value] of request.query) byName.set(name.toLowerCase(), [...(byName.get(name.toLowerCase()) ?? []), value]);
  const query = [...byName.keys()]
    .sort()
    .map((name) => `\n${name}:${byName.get(name)!.sort().join(',')}`)
    .join('');
  return `${standard}\n${msHeaders}/${AZURE_ACCOUNT}${request.url.split('?')[0]}${query}`;
}

interface SasFields {
  sp: string;
  st: string;
  se: string;
  sv: string;
  sr: string;
  spr: string;
}

function sasString(container: string, fields: SasFields): string {
  return [
    fields.sp,
    fields.st,
    fields.se,
    `/blob/${AZURE_ACCOUNT}/${container}`,
    '',
    '',
    fields.spr,
    fields.sv,
    fields.sr,
    '',
    '',
    '',
    '',
    '',
    '',
    '',
  ].join('\n');
}

export async function startAzureBlobService(): Promise<AzureBlobService> {
  const accountKey = randomBytes(64).toString('base64');
  const key = Buffer.from(accountKey, 'base64');
  const containers = new Map<string, Map<string, StoredBlob>>();
  const interruptions = new Map<string, Interruption[]>();
  let pageLimit = 5000;
  let etags = 0x8dc2a4b5c6d0;

  /** Whether the request is authorised for `permission` ('l' list, 'r' read); answers the error itself otherwise. */
  function authorised(request: ReceivedRequest, response: ServerResponse, container: string, permission: 'l' | 'r'): boolean {
    const refuse = () => {
      azureError(
        response,
        403,
        'AuthenticationFailed',
        'Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.',
        request.method,
      );
      return false;
    };
    if (!request.headers['x-ms-version'] || !request.headers['x-ms-date']) return refuse();
    const sig = request.query.get('sig');
    if (sig) {
      const field = (name: keyof SasFields) => request.query.get(name) ?? '';
      const fields: SasFields = { sp: field('sp'), st: field('st'), se: field('se'), sv: field('sv'), sr: field('sr'), spr: field('spr') };
      if (hmac(key, sasString(container, fields)) !== sig || Date.parse(fields.se) < Date.now()) return refuse();
      if (!fields.sp.includes(permission)) {
        azureError(
          response,
          403,
          'AuthorizationPermissionMismatch',
          'This request is not authorized to perform this operation using this permission.',
          request.method,
        );
        return false;
      }
      return true;
    }
    const match = /^SharedKey ([^:]+):(.+)$/.exec(String(request.headers.authorization ?? ''));
    if (!match || match[1] !== AZURE_ACCOUNT || hmac(key, sharedKeyString(request)) !== match[2]) return refuse();
    return true;
  }

  function answer(request: ReceivedRequest, response: ServerResponse): void {
    const pending = interruptions.get(request.path);
    if (pending && pending.length > 0) {
      const next = pending.shift()!;
      return azureError(response, next.status, next.code, next.message, request.method);
    }
    const [, containerName = '', ...blobPath] = request.path.split('/');
    const isListing = blobPath.length === 0 && request.query.get('restype') === 'container' && request.query.get('comp') === 'list';
    if (!authorised(request, response, containerName, isListing ? 'l' : 'r')) return;
    const container = containers.get(containerName);
    if (!container) return azureError(response, 404, 'ContainerNotFound', 'The specified container does not exist.', request.method);

    if (isListing) {
      const prefix = request.query.get('prefix') ?? '';
      const max = Math.min(Number(request.query.get('maxresults') ?? 5000), pageLimit);
      const marker = request.query.get('marker') ?? '';
      const names = [...container.keys()].filter((name) => name.startsWith(prefix) && name > marker).sort();
      const page = names.slice(0, max);
      const blobs = page
        .map((name) => {
          const blob = container.get(name)!;
          return `<Blob><Name>${xmlEscape(name)}</Name><Properties><Last-Modified>Sat, 01 Jun 2024 10:00:00 GMT</Last-Modified><Etag>${blob.etag.replace(/"/g, '')}</Etag><Content-Length>${blob.body.length}</Content-Length><Content-Type>application/octet-stream</Content-Type><BlobType>BlockBlob</BlobType></Properties></Blob>`;
        })
        .join('');
      const next = names.length > page.length ? `<NextMarker>${xmlEscape(page.at(-1)!)}</NextMarker>` : '<NextMarker />';
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `\uFEFF<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="${server.url}/" ContainerName="${containerName}"><Prefix>${xmlEscape(prefix)}</Prefix><MaxResults>${max}</MaxResults><Blobs>${blobs}</Blobs>${next}</EnumerationResults>`,
        );
      return;
    }

    const blob = container.get(blobPath.map(decodeURIComponent).join('/'));
    if (!blob) return azureError(response, 404, 'BlobNotFound', 'The specified blob does not exist.', request.method);
    const ifMatch = request.headers['if-match'];
    if (ifMatch && ifMatch !== blob.etag)
      return azureError(
        response,
        412,
        'ConditionNotMet',
        'The condition specified using HTTP conditional header(s) is not met.',
        request.method,
      );
    const headers = { etag: blob.etag, 'last-modified': 'Sat, 01 Jun 2024 10:00:00 GMT', 'x-ms-blob-type': 'BlockBlob' };
    if (request.method === 'HEAD') return void response.writeHead(200, { ...headers, 'content-length': String(blob.body.length) }).end();
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(request.headers['x-ms-range'] ?? request.headers.range ?? ''));
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(Number(range[2]), blob.body.length - 1);
      response
        .writeHead(206, {
          ...headers,
          'content-length': String(end - start + 1),
          'content-range': `bytes ${start}-${end}/${blob.body.length}`,
        })
        .end(blob.body.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': String(blob.body.length) }).end(blob.body);
  }

  const server = await startLocalServer(answer);
  return {
    server,
    accountKey,
    putBlob(container, name, body) {
      if (!containers.has(container)) containers.set(container, new Map());
      etags += 1;
      containers.get(container)!.set(name, { body: Buffer.from(body), etag: `"0x${etags.toString(16).toUpperCase()}"` });
    },
    blob: (container, name) => containers.get(container)?.get(name),
    interrupt: (path, answers) => void interruptions.set(path, answers),
    setPageLimit: (limit) => void (pageLimit = limit),
    containerSas(container, permissions, expiry = new Date(Date.now() + 3600_000)) {
      const fields: SasFields = {
        sp: permissions,
        st: '',
        se: expiry.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        sv: SAS_VERSION,
        sr: 'c',
        spr: 'https,http',
      };
      const { st: _unset, ...given } = fields;
      return new URLSearchParams({ ...given, sig: hmac(key, sasString(container, fields)) }).toString();
    },
    close: () => server.close(),
  };
}
