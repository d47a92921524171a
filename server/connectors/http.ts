import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ConnectorError } from './types';

/**
 * How the connectors that speak to a web API (Databricks, Slack, Bitbucket) call it: one place for
 * the time limit, the retries and the wording of failures, so that every service fails alike:
 * "Databricks: Invalid access token (HTTP 403)", "Slack could not be reached at hooks.slack.com:
 * getaddrinfo ENOTFOUND hooks.slack.com", "Bitbucket did not answer within 15 s".
 */

/** A connection test answers within 15 s, so no single call may take longer. */
export const HTTP_TIMEOUT_MS = 15_000;

export interface HttpOptions {
  /** Per try; 15 s unless told. */
  timeoutMs?: number;
  /** Tries in all for an answer that says "later" (429, 5xx); 3 unless told. */
  maxTries?: number;
  /** The first wait between tries when the service names none; it doubles each time. */
  retryBaseDelayMs?: number;
  /** A service that asks to wait longer than this is not waited for: its answer is the error. */
  maxRetryWaitMs?: number;
}

const DEFAULTS: Required<HttpOptions> = { timeoutMs: HTTP_TIMEOUT_MS, maxTries: 3, retryBaseDelayMs: 500, maxRetryWaitMs: 10_000 };

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
export function callService(service: HttpService, url: URL, request: HttpRequest = {}, options: HttpOptions = {}): Promise<HttpAnswer> {
  return exchange(service, url, request, options, async (response) => ({ status: response.status, headers: response.headers, text: await response.text() }));
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
export function openServiceStream(service: HttpService, url: URL, request: HttpRequest = {}, options: HttpOptions = {}): Promise<HttpStream> {
  return exchange(service, url, request, options, async (response) => ({
    status: response.status,
    headers: response.headers,
    body: response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : Readable.from([]),
  }));
}

async function exchange<T>(service: HttpService, url: URL, request: HttpRequest, options: HttpOptions, take: (response: Response) => Promise<T>): Promise<T> {
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
    const outcome = await sendOnce(service, url, { method, headers, body }, settings.timeoutMs, take);
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
export async function callServiceJson<T>(service: HttpService, url: URL, request: HttpRequest = {}, options: HttpOptions = {}): Promise<T> {
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
  timeoutMs: number,
  take: (response: Response) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: HttpAnswer } | { ok: false; reset: ConnectorError }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`${service.name} did not answer in time`, 'TimeoutError')), timeoutMs);
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal: controller.signal });
    if (response.status >= 200 && response.status < 300) return { ok: true, value: await take(response) };
    return { ok: false, failure: { status: response.status, headers: response.headers, text: await response.text() } };
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
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

function answerError(service: HttpService, answer: HttpAnswer): ConnectorError {
  const said = service.errorText(answer.text, answer.headers) ?? (plainText(answer.text) || statusText(answer.status));
  return new ConnectorError(`${service.name}: ${said} (HTTP ${answer.status})`, service.errorKind?.(answer.status, answer.text) ?? kindOfStatus(answer.status));
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

/** A short body that reads as text (not an HTML page) is the service's own words. */
function plainText(body: string): string {
  const text = body.trim();
  return text.length > 0 && text.length <= 300 && !text.startsWith('<') ? text : '';
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

/** "<Service> could not be reached at <host>: <the network's own words>". */
export function unreachableError(serviceName: string, url: URL | string, error: unknown): ConnectorError {
  const host = typeof url === 'string' ? url : url.host;
  return new ConnectorError(`${serviceName} could not be reached at ${host}: ${networkMessage(error)}`, 'unreachable');
}

/** The connection was closed under the request (ECONNRESET, undici's "other side closed"), rather than refused or never made. */
function isConnectionReset(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'EPIPE';
}

/** fetch hides the network's words in `cause` ("fetch failed" says nothing). */
function networkMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof AggregateError && cause.errors[0] instanceof Error) return cause.errors[0].message;
  return cause instanceof Error ? cause.message : String(cause);
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
