import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API } from '../../framework/harness';

export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

export interface Recorder {
  calls: Call[];
  /** `METHOD path` of the calls so far, those matching `filter` only when given. */
  seen(filter?: RegExp): string[];
  /** The bodies of the calls matching `filter`, in order. */
  bodies(filter: RegExp): unknown[];
}

/** Records every call under `prefixes` (before the handlers answer), to assert paths and bodies. */
export function recordCalls(...prefixes: string[]): Recorder {
  const recorder: Recorder = {
    calls: [],
    seen: (filter) => recorder.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodies: (filter) => recorder.calls.filter((call) => filter.test(`${call.method} ${call.path}`)).map((call) => call.body),
  };
  server.use(
    ...prefixes.map((prefix) =>
      http.all(`${API}${prefix}*`, async ({ request }) => {
        const url = new URL(request.url);
        const body =
          request.method === 'GET'
            ? undefined
            : await request
                .clone()
                .json()
                .catch(() => undefined);
        recorder.calls.push({ method: request.method, path: url.pathname.slice(API.length) + url.search, body });
        return undefined;
      }),
    ),
  );
  return recorder;
}

/** A list answer of the contract: `{ message, data: { rows, count, countExact } }`, the count capped. */
export function listAnswer<T>(rows: readonly T[], offset: number, limit: number, cap = 10_000) {
  return HttpResponse.json({
    message: 'List',
    data: { rows: rows.slice(offset, offset + limit), count: Math.min(rows.length, cap), countExact: rows.length <= cap },
  });
}

export function anyOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** The contract's filter semantics on `createdAt`, `search` over some text, and id/value lists. */
export function matches(
  row: { createdAt: string },
  filter: Record<string, unknown>,
  fields: Record<string, string | null | undefined>,
  searchText: string,
): boolean {
  for (const [name, value] of Object.entries(fields)) {
    if (filter[name] !== undefined && !anyOf(filter[name]).includes(String(value))) return false;
  }
  if (filter.search !== undefined && !searchText.toLowerCase().includes(String(filter.search).toLowerCase())) return false;
  if (filter.startDate !== undefined && row.createdAt < String(filter.startDate)) return false;
  if (filter.endDate !== undefined && row.createdAt.slice(0, 10) > String(filter.endDate)) return false;
  return true;
}

/** Seconds per test: a whole react-admin page in jsdom, on a small machine running other suites too. */
export const RESOURCE_TIMEOUT_MS = 60_000;
