import type { LiveStatus } from './liveState';

/**
 * The live stream's connection: `GET /events` read with a streaming fetch, so that the access
 * token goes in its header as on every call (an EventSource could only put it in the URL), and
 * opened again after a drop with a growing, jittered pause. A server without the route (404)
 * is asked once: the console then keeps polling.
 */

export interface LiveMessage {
  event: string;
  data: Record<string, unknown>;
}

export interface LiveConnectionOptions {
  url: string;
  /** The token to send now; none ends the connection (signed out). */
  token: () => string | null;
  onMessage: (message: LiveMessage) => void;
  onStatus: (status: LiveStatus) => void;
  fetch?: typeof fetch;
  /** The first pause after a drop, doubled at each failure up to maxMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

/** Answers that mean "this server has no live stream". */
const UNAVAILABLE = new Set([404, 405, 501]);
/** With no byte for this many heartbeats, the connection is taken for dead. */
const SILENT_HEARTBEATS = 2.5;
const DEFAULT_HEARTBEAT_MS = 15_000;

/** Splits a stream's text into its events; comment lines (heartbeats) only count as signs of life. */
export function createEventParser(onMessage: (message: LiveMessage) => void) {
  let buffer = '';
  return (chunk: string) => {
    buffer += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue;
      try {
        const parsed = JSON.parse(data.join('\n')) as unknown;
        if (parsed && typeof parsed === 'object') onMessage({ event, data: parsed as Record<string, unknown> });
      } catch {
        // Not ours: skipped.
      }
    }
  };
}

/** Starts following the stream; answers the function that stops it. */
export function startLiveConnection(options: LiveConnectionOptions): () => void {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const initial = options.initialBackoffMs ?? 1_000;
  const max = options.maxBackoffMs ?? 30_000;
  let stopped = false;
  let controller: AbortController | undefined;
  let pause: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pause = undefined;
        resolve();
      }, ms);
      pause = { timer, resolve };
    });
  const backoff = (failures: number) => Math.min(max, initial * 2 ** Math.min(failures, 10)) * (0.5 + Math.random() / 2);

  /** Reads one open stream to its end: 'session' when the server ended it for the session, else 'dropped'. */
  const read = async (body: ReadableStream<Uint8Array>, current: AbortController): Promise<'session' | 'dropped'> => {
    let endedFor: string | undefined;
    let heartbeatMs = DEFAULT_HEARTBEAT_MS;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(silence);
      silence = setTimeout(() => current.abort(), heartbeatMs * SILENT_HEARTBEATS);
    };
    const parse = createEventParser((message) => {
      if (message.event === 'ready' && typeof message.data.heartbeatMs === 'number') heartbeatMs = message.data.heartbeatMs;
      if (message.event === 'end') endedFor = String(message.data.reason ?? '');
      options.onMessage(message);
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    alive();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        parse(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Aborted (stopped, or silent too long) or cut: the caller decides what next.
    } finally {
      clearTimeout(silence);
    }
    return endedFor === 'session' ? 'session' : 'dropped';
  };

  const run = async () => {
    let failures = 0;
    while (!stopped) {
      const token = options.token();
      if (!token) return options.onStatus('off');
      options.onStatus('connecting');
      const current = new AbortController();
      controller = current;
      let res: Response;
      try {
        res = await fetchImpl(options.url, {
          headers: { accept: 'text/event-stream', 'x-access-token': token },
          cache: 'no-store',
          signal: current.signal,
        });
      } catch {
        if (stopped) return;
        options.onStatus('down');
        await wait(backoff(failures++));
        continue;
      }
      if (stopped) return;
      if (UNAVAILABLE.has(res.status)) return options.onStatus('unavailable');
      // A refused token is the API calls' business (they sign the user out); the stream stays shut.
      if (res.status === 401 || res.status === 403) return options.onStatus('down');
      if (!res.ok || !res.body) {
        options.onStatus('down');
        const retryAfter = Number(res.headers.get('retry-after'));
        await wait(res.status === 429 && retryAfter > 0 ? retryAfter * 1000 : backoff(failures++));
        continue;
      }
      failures = 0;
      options.onStatus('open');
      const outcome = await read(res.body, current);
      if (stopped) return;
      options.onStatus('down');
      if (outcome === 'session') return;
      await wait(backoff(failures++));
    }
  };
  void run();

  return () => {
    stopped = true;
    controller?.abort();
    if (pause) {
      clearTimeout(pause.timer);
      pause.resolve();
    }
  };
}
