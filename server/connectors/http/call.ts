import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Reach } from '../../reach/reach';
import { ConnectorError } from '../types';
import { formatSeconds } from './deadline';
import { RETRY_DEFAULTS, retryAfterMs, sleep } from './retry';
import { answerError, unreachableError } from './errors';
import { HTTP_TIMEOUT_MS, type HttpAnswer, type HttpOptions, type HttpRequest, type HttpService, type HttpStream } from './types';

/**
 * Calling a service: through the reach guard, within the time limit, tried again when the service
 * says "later" — unless sending it again could make the service do the thing twice.
 */

const DEFAULTS: Required<Omit<HttpOptions, 'reach'>> = { timeoutMs: HTTP_TIMEOUT_MS, ...RETRY_DEFAULTS };

/**
 * One call, retried on 429 and 5xx (at most `maxTries` tries, waiting as Retry-After says or
 * doubling from `retryBaseDelayMs`). A 5xx is retried only for a call that may be repeated (see
 * `HttpRequest.idempotent`): a POST the service may already have acted on — a message posted,
 * then a 502 from a proxy on the way back — is not sent again, and its error says so. Any answer
 * other than 2xx becomes a ConnectorError in the service's own words: 401/403 'auth', 404
 * 'not_found', the rest 'failed'.
 */
export function callService(service: HttpService, url: URL, request: HttpRequest, options: HttpOptions): Promise<HttpAnswer> {
  return exchange(service, url, request, options, async (response) => ({
    status: response.status,
    headers: response.headers,
    text: await response.text(),
  }));
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
  const repeatable = mayRepeat(method, headers, request);
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await sendOnce(service, url, { method, headers, body }, options.reach, settings.timeoutMs, take);
    if (outcome.ok) return outcome.value;
    if ('reset' in outcome) {
      // A kept-alive socket the service had closed meanwhile: a call that may be repeated is sent
      // again, on a new one. Any other may have reached the service before the socket closed. Its
      // error keeps the one wording of a service out of reach, so that it tells nothing of the network.
      if (repeatable && attempt < settings.maxTries) continue;
      throw outcome.reset;
    }
    const answer = outcome.failure;
    const error = answerError(service, answer);
    if (!isRetryable(answer.status) || attempt >= settings.maxTries) throw error;
    // A 429 is a refusal before any work; a 5xx may come after the work was done (a proxy's 502, a timeout on the way back).
    if (answer.status !== 429 && !repeatable) {
      throw new ConnectorError(`${error.message}; not sent again, as ${service.name} may have acted on it`, error.kind);
    }
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

/** Methods that do the same thing however often they are sent (RFC 9110, 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Whether sending the call twice does no more than sending it once: by its method, its Idempotency-Key header, or the caller's word. */
function mayRepeat(method: string, headers: Record<string, string>, request: HttpRequest): boolean {
  if (IDEMPOTENT_METHODS.has(method) || request.idempotent === true) return true;
  return Object.entries(headers).some(([name, value]) => name.toLowerCase() === 'idempotency-key' && value.trim() !== '');
}

function isRetryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The connection was closed under the request (ECONNRESET, undici's "other side closed"), rather than refused or never made. */
function isConnectionReset(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'EPIPE';
}
