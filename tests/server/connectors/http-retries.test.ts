import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callService, type HttpOptions, type HttpRequest, type HttpService } from '../../../server/connectors/http';
import { startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { connectorFailure as failure, TEST_HTTP } from './test-context';

/**
 * Which calls are sent again, against a real HTTP server on this machine that counts what it is
 * sent: a 429 always (the service refused before acting), a 5xx or a connection closed under the
 * call only when sending it twice does no harm (by its method, an Idempotency-Key header, or the
 * caller's word), so that nothing a service may already have done is done twice.
 */

const SERVICE: HttpService = { name: 'Acme API', errorText: () => undefined };
const FAST: HttpOptions = { ...TEST_HTTP, retryBaseDelayMs: 5 };

let server: LocalServer;
/** What the next requests get before the real answer: an HTTP status, or the connection closed under them. */
let failures: Array<number | 'reset'> = [];

function answer(request: ReceivedRequest, response: ServerResponse): void {
  const next = failures.shift();
  if (next === 'reset') return void response.socket?.destroy();
  if (next === 429) return void response.writeHead(429, { 'retry-after': '0' }).end();
  if (next !== undefined) return void response.writeHead(next, { 'content-type': 'text/plain' }).end('down for a moment');
  response.writeHead(200, { 'content-type': 'text/plain' }).end(`done ${request.method}`);
}

beforeAll(async () => {
  server = await startLocalServer(answer);
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  failures = [];
  server.requests.length = 0;
});

const call = (request: HttpRequest, options = FAST) => callService(SERVICE, new URL(`${server.url}/things`), request, options);
const sent = () => server.requests.map((request) => request.method);

describe('a call the service may already have acted on', () => {
  it('is sent once when a POST is answered 503, and its error says why it was not sent again', async () => {
    failures = [503];
    const error = await failure(call({ method: 'POST', body: { name: 'x' } }));
    expect(error.message).toBe('Acme API: service unavailable (HTTP 503); not sent again, as Acme API may have acted on it');
    expect(error.kind).toBe('failed');
    expect(sent()).toEqual(['POST']);
  });

  it('is sent once when a PATCH is answered 502', async () => {
    failures = [502];
    const error = await failure(call({ method: 'PATCH', body: { name: 'x' } }));
    expect(error.message).toBe('Acme API: bad gateway (HTTP 502); not sent again, as Acme API may have acted on it');
    expect(sent()).toEqual(['PATCH']);
  });

  it('is sent once when the connection closes under a POST', async () => {
    failures = ['reset'];
    const error = await failure(call({ method: 'POST', body: { name: 'x' } }));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`Acme API could not reach the service at 127.0.0.1:${server.port}`);
    expect(sent()).toEqual(['POST']);
  });

  it('says nothing of a try it would not have made anyway', async () => {
    failures = [503];
    const error = await failure(call({ method: 'POST' }, { ...FAST, maxTries: 1 }));
    expect(error.message).toBe('Acme API: service unavailable (HTTP 503)');
  });
});

describe('a call that may be sent again', () => {
  it('is a POST answered 429: the service refused it before acting', async () => {
    failures = [429];
    expect((await call({ method: 'POST', body: { name: 'x' } })).text).toBe('done POST');
    expect(sent()).toEqual(['POST', 'POST']);
  });

  it('is a POST with an Idempotency-Key header', async () => {
    failures = [503];
    const answer = await call({ method: 'POST', headers: { 'Idempotency-Key': 'order-7f3a' }, body: { name: 'x' } });
    expect(answer.text).toBe('done POST');
    expect(sent()).toEqual(['POST', 'POST']);
    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual(['order-7f3a', 'order-7f3a']);
  });

  it('is a POST its caller declares idempotent, on a 5xx and on a closed connection', async () => {
    failures = [500, 'reset'];
    expect((await call({ method: 'POST', body: { query: 'x' }, idempotent: true })).text).toBe('done POST');
    expect(sent()).toEqual(['POST', 'POST', 'POST']);
  });

  it('is a GET, a PUT or a DELETE, as before', async () => {
    failures = [503];
    expect((await call({})).text).toBe('done GET');
    failures = [502];
    expect((await call({ method: 'PUT', body: { name: 'x' } })).text).toBe('done PUT');
    failures = ['reset'];
    expect((await call({ method: 'DELETE' })).text).toBe('done DELETE');
    expect(sent()).toEqual(['GET', 'GET', 'PUT', 'PUT', 'DELETE', 'DELETE']);
  });

  it('still stops after its tries, with the last answer as the error', async () => {
    failures = [503, 503, 503];
    const error = await failure(call({ method: 'GET' }));
    expect(error.message).toBe('Acme API: service unavailable (HTTP 503)');
    expect(sent()).toEqual(['GET', 'GET', 'GET']);
  });
});
