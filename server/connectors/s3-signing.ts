import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3, as "Signature Calculations for the Authorization Header:
 * Transferring Payload in a Single Chunk" lays it out, with node:crypto. The tests check it
 * against the worked examples of that page and against the AWS SDK's own signer.
 */

export const EMPTY_PAYLOAD_HASH = createHash('sha256').update('').digest('hex');

/** RFC 3986 escaping as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ */
export function awsUriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

export interface SigV4Request {
  method: string;
  /** Host with its port when not the default, as the Host header says. */
  host: string;
  /** Already escaped with awsUriEncode, segment by segment: S3 signs the path as sent, not escaped twice. */
  path: string;
  query: ReadonlyArray<readonly [string, string]>;
  /** Further headers to sign and send (range, date…), names in lower case. */
  headers?: Readonly<Record<string, string>>;
  /** The hex SHA-256 of the body; a read has none. */
  payloadHash?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  now: Date;
}

/** The headers to send: those given, and host, x-amz-date, x-amz-content-sha256 and authorization. */
export function signV4(request: SigV4Request): Record<string, string> {
  const amzDate = request.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${request.region}/s3/aws4_request`;
  const payloadHash = request.payloadHash ?? EMPTY_PAYLOAD_HASH;
  const headers: Record<string, string> = {
    ...request.headers,
    host: request.host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
  };
  const signedHeaders = Object.keys(headers).sort();
  const canonicalRequest = [
    request.method,
    request.path,
    canonicalQuery(request.query),
    // Values trimmed, and runs of spaces inside them made one, as S3 reads them.
    ...signedHeaders.map((name) => `${name}:${headers[name]!.trim().replace(/\s+/g, ' ')}`),
    '',
    signedHeaders.join(';'),
    payloadHash,
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

/** The query as signed, and as sent: names and values escaped, sorted by name and then by value (a name may repeat). */
export function canonicalQuery(query: ReadonlyArray<readonly [string, string]>): string {
  return query
    .map(([key, value]) => [awsUriEncode(key), awsUriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}
