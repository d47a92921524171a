import type { HttpClient } from 'isomorphic-git';
import type { Reach } from '../../reach/reach';
import { withDeadline } from '../http';
import { ConnectorError } from '../types';
import { gitError, remoteWords } from './errors';
import { describe, type GitOptions, type Remote } from './location';

/** Git over HTTP, through the reach guard. */

/**
 * isomorphic-git's HTTP client, on the reach guard's fetch: every connection it opens, a
 * redirect's included, is judged before it is dialled, so git over HTTP obeys the same host policy
 * as every other connector. A refusal reaches the user in the guard's words; a port that refuses,
 * closes or does not speak HTTP reads the same, so the wording maps no network.
 */
export function guardedHttp(reach: Reach, signal?: AbortSignal): HttpClient {
  return {
    async request({ url, method = 'GET', headers = {}, body }) {
      const sent = body ? await collect(body) : undefined;
      let response: Awaited<ReturnType<Reach['fetch']>>;
      try {
        response = await reach.fetch(url, { method, headers, body: sent, redirect: 'follow', signal });
      } catch (error) {
        throw networkFailure(error, url, signal);
      }
      const answer = response.body;
      return {
        url: response.url || url,
        method,
        statusCode: response.status,
        statusMessage: remoteWords(response.statusText),
        headers: Object.fromEntries(response.headers.entries()),
        body: answer ? chunksOf(answer.getReader(), url, signal) : chunksOf(undefined, url, signal),
      };
    },
  };
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

async function* chunksOf(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> } | undefined,
  url: string,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<Uint8Array> {
  if (!reader) return;
  for (;;) {
    let next: { done: boolean; value?: Uint8Array };
    try {
      next = await reader.read();
    } catch (error) {
      throw networkFailure(error, url, signal);
    }
    if (next.done) return;
    if (next.value) yield next.value;
  }
}

/** The guard's refusal as it is; an interrupted call as it is; any other failure of the network as one sentence. */
function networkFailure(error: unknown, url: string, signal: AbortSignal | undefined): Error {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof ConnectorError) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  if (signal?.aborted) return error instanceof Error ? error : new Error(String(error));
  return unreachable(url);
}

/** "git could not reach the service at HOST:PORT", whatever the network said. */
function unreachable(url: string): ConnectorError {
  let where = 'the remote';
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    /* named as "the remote" */
  }
  return new ConnectorError(`git could not reach the service at ${where}`, 'unreachable');
}

/**
 * A call to the remote through the reach guard, bounded in time: at the deadline its connections
 * are dropped. `missing` words a NotFoundError (a ref the remote does not have).
 */
export async function remoteCall<T>(
  location: Remote,
  options: GitOptions,
  what: string,
  timeoutMs: number,
  call: (http: HttpClient) => Promise<T>,
  missing?: () => ConnectorError,
): Promise<T> {
  const controller = new AbortController();
  try {
    return await withDeadline(call(guardedHttp(options.reach, controller.signal)), timeoutMs, `${what} of ${describe(location)}`);
  } catch (error) {
    if (missing && (error as { code?: string }).code === 'NotFoundError') throw missing();
    throw gitError(error, location);
  } finally {
    controller.abort();
  }
}
