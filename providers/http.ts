import { ACCESS_DENIED_ALERT } from '../common/messages';
import { alerts } from './alerts';
import { navigateTo } from './navigation';
import { clearSession, getAccessToken } from './storage';

/** Where the API lives; the same origin by default, another server with VITE_API_URL. */
export const API_BASE: string = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/+$/, '') || '/api/v1';

export const INVALID_TOKEN_TEXT = 'Invalid JWT token';
export const ACCESS_DENIED_TEXT = 'Resource Access not provided';
/** Spec section 9: the access-denied alert comes 1 s after the failed call. */
export const ACCESS_DENIED_DELAY_MS = 1000;
/** Where the access-denied handling sends the user. */
export const ACCESS_DENIED_PATH = '/dashboard';

/** A failed call: `message` is the server's message, or the status text if it sent none. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The contract's answer: a message, and what was asked for under `data`. */
export interface Answer<T> {
  message?: string;
  data: T;
}

/** What a write answers: its message for the toast, and the record as stored. */
export type Saved<T> = Answer<T>;

/** An id written into a path. */
export const pathId = (value: string | number): string => encodeURIComponent(String(value));

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A JSON-serialisable body, or FormData for the spec's form-body calls. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /**
   * Sign-in and the other public calls: a 401 there is a wrong password, not an expired
   * session, so the stored user is left alone.
   */
  public?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

let accessDeniedTimer: ReturnType<typeof setTimeout> | null = null;

/** How long a GET started ahead waits for the view that asks for it; older, it is not used. */
export const HEAD_START_TTL_MS = 10_000;

interface HeadStart {
  token: string;
  startedAt: number;
  answer: Promise<unknown>;
  /** Its successful answer once it has come, and when (Date.now()). */
  answered?: { payload: unknown; at: number };
}

/** GETs started before a view asked for them, by url: each is handed to the first view that asks. */
const headStarts = new Map<string, HeadStart>();

/**
 * Starts a GET now that a view is about to ask for (the landing page's calls, as soon as the
 * sign-in answers, while the view's own code is still loading). The first apiRequest for the
 * same url with the same token within HEAD_START_TTL_MS gets this call's answer instead of
 * calling again. The call goes through apiRequest, so its errors meet the usual catalogue.
 */
export function startAhead(path: string, query?: RequestOptions['query']): void {
  const token = getAccessToken();
  if (!token) return;
  const url = buildUrl(path, query);
  if (takeHeadStart(url, token, false)) return;
  const answer = apiRequest(path, { query });
  const started: HeadStart = { token, startedAt: Date.now(), answer };
  answer.then(
    (payload) => {
      started.answered = { payload, at: Date.now() };
    },
    // Unclaimed, a failure must not surface as an unhandled rejection; a claimant still sees it.
    () => undefined,
  );
  headStarts.set(url, started);
}

/**
 * The answer of a GET started ahead that has already come back (successfully), taken out: a view
 * that finds it renders with it at once instead of waiting a turn for a promise. Undefined when
 * there is none, or it is still on its way (the view's own call then claims it as usual).
 */
export function takeAnsweredAhead(path: string, query?: RequestOptions['query']): { payload: unknown; at: number } | undefined {
  if (headStarts.size === 0) return undefined;
  const token = getAccessToken();
  const url = buildUrl(path, query);
  const started = token ? takeHeadStart(url, token, false) : null;
  if (!started?.answered) return undefined;
  headStarts.delete(url);
  return started.answered;
}

/** Drops every call started ahead (their answers still reach nobody). */
export function forgetHeadStarts(): void {
  headStarts.clear();
}

/** The call started ahead for a url and token, if still fresh; taken out unless only peeking. */
function takeHeadStart(url: string, token: string, take = true): HeadStart | null {
  const started = headStarts.get(url);
  if (!started) return null;
  if (started.token !== token || Date.now() - started.startedAt > HEAD_START_TTL_MS) {
    headStarts.delete(url);
    return null;
  }
  if (take) headStarts.delete(url);
  return started;
}

/** A claimed head start's answer, given up on (not cancelled) when the claimant aborts. */
function claim<T>(started: HeadStart, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return started.answer as Promise<T>;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    (started.answer as Promise<T>).then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Calls the API and returns its parsed JSON; rejects with ApiError on any non-2xx answer. */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  if (headStarts.size > 0 && !options.public && options.body === undefined && (options.method ?? 'GET') === 'GET' && !options.headers) {
    const token = getAccessToken();
    const started = token ? takeHeadStart(buildUrl(path, options.query), token) : null;
    if (started) return claim<T>(started, options.signal);
  }
  return (await readBody(await apiResponse(path, options))) as T;
}

/**
 * Calls the API and returns its response unread (a file: a picture, a CSV download); rejects with
 * ApiError on any non-2xx answer, which meets the error catalogue like every other call.
 */
export async function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = options.public ? null : getAccessToken();
  if (token) headers['x-access-token'] = token;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(buildUrl(path, options.query), {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: options.signal,
  });
  if (response.ok) return response;

  const payload = await readBody(response);
  const serverMessage =
    payload && typeof payload === 'object' && typeof (payload as { message?: unknown }).message === 'string'
      ? (payload as { message: string }).message
      : '';
  const error = new ApiError(
    serverMessage || response.statusText || `Request failed with status ${response.status}`,
    response.status,
    payload,
  );
  handleCatalogue(error, options);
  throw error;
}

/** The error catalogue of spec section 8: what happens beyond the rejection itself. */
function handleCatalogue(error: ApiError, options: RequestOptions) {
  if (error.status === 401 && !options.public && error.message.includes(INVALID_TOKEN_TEXT)) {
    clearSession();
    navigateTo('/auth/signin', { replace: true });
    return;
  }
  if (error.status === 403 && error.message.includes(ACCESS_DENIED_TEXT)) {
    if (accessDeniedTimer) clearTimeout(accessDeniedTimer);
    accessDeniedTimer = setTimeout(() => {
      accessDeniedTimer = null;
      // Raised for /dashboard, so the route change that follows keeps it (a later timer could
      // lose the race against the shell's clear-on-route-change).
      alerts.error(ACCESS_DENIED_ALERT, { keepFor: ACCESS_DENIED_PATH });
      navigateTo(ACCESS_DENIED_PATH);
    }, ACCESS_DENIED_DELAY_MS);
  }
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
