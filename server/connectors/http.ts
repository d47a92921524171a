import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Reach } from '../reach/reach';
import { ConnectorError } from './types';

/**
 * How the connectors that speak to a web API (Databricks, Slack, Bitbucket, the cloud stores) call
 * it: one place for the reach guard, the time limit, the retries and the wording of failures, so
 * that every service fails alike: "Databricks: Invalid access token (HTTP 403)", "Slack could not
 * reach the service at hooks.slack.com:443", "Bitbucket did not answer within 15 s".
 *
 * Every call goes through the reach guard (server/reach): the host is checked before it is
 * dialled, and so is every host a redirect would lead to. What a service answers is never handed
 * back as it came: a failure carries at most 200 characters of the service's own error field
 * (Slack's `error`, Databricks' `message`, S3's `Code`…), and a service that cannot be reached —
 * refused, closed, or something other than HTTP on that port — reads the same whatever the cause,
 * so that a company cannot map a network through the wording of the errors.
 */

/** A connection test answers within 15 s, so no single call may take longer. */
export const HTTP_TIMEOUT_MS = 15_000;

export interface HttpOptions {
  /** The guard every connection goes through. */
  reach: Reach;
  /** Per try; 15 s unless told. */
  timeoutMs?: number;
  /** Tries in all for an answer that says "later" (429, 5xx); 3 unless told. */
  maxTries?: number;
  /** The first wait between tries when the service names none; it doubles each time. */
  retryBaseDelayMs?: number;
  /** A service that asks to wait longer than this is not waited for: its answer is the error. */
  maxRetryWaitMs?: number;
}

const DEFAULTS: Required<Omit<HttpOptions, 'reach'>> = {
  timeoutMs: HTTP_TIMEOUT_MS,
  maxTries: 3,
  retryBaseDelayMs: 500,
  maxRetryWaitMs: 10_000,
};

/** The most of a service's own words a message carries. */
export const SERVICE_WORDS_MAX = 200;

/** What a connector knows of the service it calls. */
export interface HttpService {
  /** Named in every message: "Databricks". */
  name: string;
  /**
   * The service's own words for a failed answer, read from its body (or, for an answer without
   * one such as HEAD's, its headers); undefined when it says nothing useful.
   */
  errorText(body: string, headers: Headers): string | undefined;
  /** What kind of failure an answer is, where the status alone misleads (a token endpoint's 400 is a refused credential). */
  errorKind?(status: number, body: string): ConnectorError['kind'] | undefined;
}

export interface HttpRequest {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  headers?: Record<string, string>;
  /** Sent as it is (a string), or as JSON (anything else). */
  body?: unknown;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One call, retried on 429 and 5xx (at most `maxTries` tries, waiting as Retry-After says or
 * doubling from `retryBaseDelayMs`). Any answer other than 2xx becomes a ConnectorError in the
 * service's own words: 401/403 'auth', 404 'not_found', the rest 'failed'.
 */
export function callService(service: HttpService, url: URL, request: HttpRequest, options: HttpOptions): Promise<HttpAnswer> {
  return exchange(service, url, request, options, async (response) => ({
    status: response.status,
    headers: response.headers,
    text: await response.text(),
  }));
}

/** A successful answer whose body is read as it arrives (a file being downloaded). */
export interface HttpStream {
  status: number;
  headers: Headers;
  body: Readable;
}

/**
 * `callService` for a body too big to hold (a file): retried and worded alike, but a 2xx answer
 * is handed over as soon as its headers arrive, and the time limit covers only the wait for them.
 */
export function openServiceStream(service: HttpService, url: URL, request: HttpRequest, options: HttpOptions): Promise<HttpStream> {
  return exchange(service, url, request, options, async (response) => ({
    status: response.status,
    headers: response.headers,
    body: response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : Readable.from([]),
  }));
}

async function exchange<T>(
  service: HttpService,
  url: URL,
  request: HttpRequest,
  options: HttpOptions,
  take: (response: Response) => Promise<T>,
): Promise<T> {
  const settings = { ...DEFAULTS, ...options };
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (typeof request.body === 'string') body = request.body;
  else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  const method = request.method ?? 'GET';
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await sendOnce(service, url, { method, headers, body }, options.reach, settings.timeoutMs, take);
    if (outcome.ok) return outcome.value;
    if ('reset' in outcome) {
      // A kept-alive socket the service had closed meanwhile: a read is simply sent again, on a new one.
      if ((method === 'GET' || method === 'HEAD') && attempt < settings.maxTries) continue;
      throw outcome.reset;
    }
    const answer = outcome.failure;
    const error = answerError(service, answer);
    if (!isRetryable(answer.status) || attempt >= settings.maxTries) throw error;
    const asked = retryAfterMs(answer.headers.get('retry-after'));
    if (asked !== undefined && asked > settings.maxRetryWaitMs) {
      throw new ConnectorError(`${error.message}; it asked to wait ${Math.ceil(asked / 1000)} s before trying again`, error.kind);
    }
    await sleep(asked ?? settings.retryBaseDelayMs * 2 ** (attempt - 1));
  }
}

/** `callService`, then the body read as JSON. */
export async function callServiceJson<T>(service: HttpService, url: URL, request: HttpRequest, options: HttpOptions): Promise<T> {
  const answer = await callService(service, url, request, options);
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new ConnectorError(`${service.name} answered ${url.pathname} with something that is not JSON (HTTP ${answer.status})`, 'failed');
  }
}

/** One try: a 2xx answer taken by `take` within the time limit, or the failed answer read whole. */
async function sendOnce<T>(
  service: HttpService,
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string | undefined },
  reach: Reach,
  timeoutMs: number,
  take: (response: Response) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: HttpAnswer } | { ok: false; reset: ConnectorError }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`${service.name} did not answer in time`, 'TimeoutError')), timeoutMs);
  try {
    const response = (await reach.fetch(url, { ...init, redirect: 'manual', signal: controller.signal })) as unknown as Response;
    if (response.status >= 200 && response.status < 300) return { ok: true, value: await take(response) };
    return { ok: false, failure: { status: response.status, headers: response.headers, text: await failureText(response) } };
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    // The reach guard's refusal arrives as the cause of fetch's own "fetch failed".
    const cause = error instanceof Error ? error.cause : undefined;
    if (cause instanceof ConnectorError) throw cause;
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new ConnectorError(`${service.name} did not answer within ${formatSeconds(timeoutMs)}`, 'timeout');
    }
    if (isConnectionReset(error)) return { ok: false, reset: unreachableError(service.name, url, error) };
    throw unreachableError(service.name, url, error);
  } finally {
    // A stream handed over goes on without a deadline: its size, not the service, sets how long it takes.
    clearTimeout(timer);
  }
}

/** Enough of a failed answer's body to find the service's error field in; the rest is not read. */
const FAILURE_BODY_MAX = 64 * 1024;

async function failureText(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < FAILURE_BODY_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).subarray(0, FAILURE_BODY_MAX).toString('utf8');
}

/** A service's own words as a message may carry them: one line of printable text, at most SERVICE_WORDS_MAX characters. */
export function serviceWords(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!line) return undefined;
  return line.length > SERVICE_WORDS_MAX ? `${line.slice(0, SERVICE_WORDS_MAX - 1)}…` : line;
}

/** A service's message and its error code as one text of at most SERVICE_WORDS_MAX characters: the message is cut, the code kept. */
export function wordsWithCode(message: string | undefined, code: string | undefined): string | undefined {
  const shortCode = serviceWords(code)?.slice(0, 60);
  const suffix = shortCode ? ` (${shortCode})` : '';
  const line = message === undefined ? undefined : serviceWords(message);
  if (!line) return shortCode;
  const room = SERVICE_WORDS_MAX - suffix.length;
  return `${line.length > room ? `${line.slice(0, room - 1)}…` : line}${suffix}`;
}

/**
 * A failed answer in the service's own words, taken from its known error field only: a body the
 * connector cannot read as the service's error (an HTML page, another program's JSON) is never
 * shown, only its status.
 */
function answerError(service: HttpService, answer: HttpAnswer): ConnectorError {
  const said = serviceWords(service.errorText(answer.text, answer.headers)) ?? statusText(answer.status);
  return new ConnectorError(
    `${service.name}: ${said} (HTTP ${answer.status})`,
    service.errorKind?.(answer.status, answer.text) ?? kindOfStatus(answer.status),
  );
}

export function kindOfStatus(status: number): ConnectorError['kind'] {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 410) return 'not_found';
  return 'failed';
}

function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Retry-After holds seconds or an HTTP date. */
function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function statusText(status: number): string {
  const known: Record<number, string> = {
    400: 'bad request',
    401: 'the credentials were not accepted',
    403: 'access denied',
    404: 'not found',
    429: 'too many requests',
    500: 'internal error',
    502: 'bad gateway',
    503: 'service unavailable',
    504: 'gateway timeout',
  };
  return known[status] ?? 'unexpected answer';
}

/**
 * "<Service> could not reach the service at <host>:<port>", whatever the network said: a refused
 * port, a closed connection and a port that does not speak HTTP read alike, so that the wording
 * tells nothing of what listens where. A host name that does not resolve says so (it is the
 * company's own typo to see).
 */
export function unreachableError(serviceName: string, url: URL | string, error: unknown): ConnectorError {
  const code = networkCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const host = typeof url === 'string' ? url : url.hostname;
    return new ConnectorError(`${serviceName} could not find the host ${host}`, 'unreachable');
  }
  return new ConnectorError(`${serviceName} could not reach the service at ${hostAndPort(url)}`, 'unreachable');
}

/** `host:port`, the port written even when it is the scheme's default. */
export function hostAndPort(url: URL | string): string {
  if (typeof url === 'string') return url;
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  return port ? `${url.hostname}:${port}` : url.hostname;
}

function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (current instanceof AggregateError && current.errors[0]) current = current.errors[0];
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** The connection was closed under the request (ECONNRESET, undici's "other side closed"), rather than refused or never made. */
function isConnectionReset(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'EPIPE';
}

/**
 * The base URL of a service that will be sent a secret: https, or http only to this machine (a
 * service under test, or a tunnel), so that a token never crosses a network in the clear.
 */
export function secureBaseUrl(value: unknown, field: string): URL {
  let url: URL;
  try {
    url = new URL(String(value ?? '').trim());
  } catch {
    throw new ConnectorError(`settings.${field}: must be an https URL`, 'invalid');
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConnectorError(`settings.${field}: must be an https URL`, 'invalid');
  }
  return url;
}

/** `base` + path segments (each escaped) + query: the base's own path is kept. */
export function serviceUrl(base: URL, path: string, query: Record<string, string | number | undefined> = {}): URL {
  const url = new URL(base.href.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return url;
}

export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Rejects with a 'timeout' ConnectorError when `work` has not settled by the deadline. The work
 * itself goes on (neither PGlite nor isomorphic-git can be interrupted); only the caller stops
 * waiting. Work that holds the thread (PGlite computes on it) keeps the timer from firing, so an
 * answer that arrives after the deadline is refused too: the caller asked for one within it.
 */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  const started = performance.now();
  const late = () => new ConnectorError(`${what} did not finish within ${formatSeconds(timeoutMs)}`, 'timeout');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), timeoutMs);
  });
  try {
    const result = await Promise.race([work, deadline]);
    if (performance.now() - started > timeoutMs) throw late();
    return result;
  } finally {
    clearTimeout(timer);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
