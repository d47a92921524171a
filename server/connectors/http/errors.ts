import { ConnectorError } from '../types';
import type { HttpAnswer, HttpService } from './types';

/** How failures are worded: a service's own words cut to a line, statuses and kinds, and an unreachable service whatever the cause. */

/** The most of a service's own words a message carries. */
export const SERVICE_WORDS_MAX = 200;

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
export function answerError(service: HttpService, answer: HttpAnswer): ConnectorError {
  const said = serviceWords(service.errorText(answer.text, answer.headers)) ?? statusText(answer.status);
  return new ServiceAnswerError(
    `${service.name}: ${said} (HTTP ${answer.status})`,
    service.errorKind?.(answer.status, answer.text) ?? kindOfStatus(answer.status),
    answer.status,
  );
}

/** A service's failed answer, with its HTTP status for a connector that acts on it (a token refused: 401). */
export class ServiceAnswerError extends ConnectorError {
  constructor(
    message: string,
    kind: ConnectorError['kind'],
    readonly status: number,
  ) {
    super(message, kind);
  }
}

export function kindOfStatus(status: number): ConnectorError['kind'] {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 410) return 'not_found';
  return 'failed';
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
