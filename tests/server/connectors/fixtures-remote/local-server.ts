import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on this machine, answering as a remote service's documentation says, for
 * connectors to talk to in tests. It records what it was asked.
 */

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const parsed = new URL(incoming.url ?? '/', 'http://local');
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      Promise.resolve(handler(request, response)).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`test server failed: ${String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A port nothing listens on: a server is started and closed. */
export async function closedPort(): Promise<number> {
  const server = await startLocalServer(() => undefined);
  await server.close();
  return server.port;
}
