import type { TestServer } from '../harness';

/** One event of a stream as a client reads it. */
export interface ReadEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A live stream opened over real HTTP, read as the console reads it (a streaming fetch). */
export interface OpenedStream {
  status: number;
  /** The refusal's JSON message when the stream was not opened. */
  message?: string;
  events: ReadEvent[];
  /** Comment lines (heartbeats) seen so far. */
  comments: number;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The first event (from now on, or already read) that matches. */
  next(match: (event: ReadEvent) => boolean, timeoutMs?: number): Promise<ReadEvent>;
  close(): void;
}

/** Where the test server listens (started on first use). */
export async function baseUrl(server: TestServer): Promise<string> {
  const address = server.app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return baseUrl(server);
}

export async function openStream(server: TestServer, headers: Record<string, string>): Promise<OpenedStream> {
  const controller = new AbortController();
  const res = await fetch(`${await baseUrl(server)}/api/v1/events`, { headers, signal: controller.signal });
  const events: ReadEvent[] = [];
  const waiting = new Set<() => void>();
  const stream: OpenedStream = {
    status: res.status,
    events,
    comments: 0,
    ended: Promise.resolve(),
    next(match, timeoutMs = 10_000) {
      let seen = 0;
      return new Promise((resolve, reject) => {
        const look = () => {
          for (; seen < events.length; seen++) {
            if (match(events[seen])) {
              waiting.delete(look);
              clearTimeout(timer);
              return resolve(events[seen]);
            }
          }
        };
        const timer = setTimeout(() => {
          waiting.delete(look);
          reject(new Error(`no matching event within ${timeoutMs} ms; saw ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiting.add(look);
        look();
      });
    },
    close: () => controller.abort(),
  };
  if (!res.ok || !res.body) {
    stream.message = ((await res.json()) as { message?: string }).message;
    return stream;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments += 1;
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
          for (const look of [...waiting]) look();
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  return stream;
}

export const streamHeaders = (token: string) => ({ accept: 'text/event-stream', 'x-access-token': token });
