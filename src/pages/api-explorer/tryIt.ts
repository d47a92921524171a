import { API_BASE } from '../../../providers/http';
import type { OperationDetail, OperationParameter } from '../../../resources/apikeys/types';

/**
 * The explorer's "Try it" call: made with an API key and nothing of the session, so it shows
 * exactly what a client holding that key gets. It bypasses the console's http client on purpose:
 * that client adds the session token (which would win over the key) and reacts to 401/403 by
 * signing out or leaving the page.
 */

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  default?: unknown;
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
}

/** The `{name}` placeholders of a path, in order. */
export function placeholdersOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
}

/** The path and query parameters the form asks for: the declared ones, and any placeholder the document left out. */
export function formParameters(detail: Pick<OperationDetail, 'path' | 'parameters'>): OperationParameter[] {
  const declared = detail.parameters.filter((parameter) => parameter.in === 'path' || parameter.in === 'query');
  const missing = placeholdersOf(detail.path)
    .filter((name) => !declared.some((parameter) => parameter.in === 'path' && parameter.name === name))
    .map((name): OperationParameter => ({ name, in: 'path', required: true, description: null, schema: {} }));
  const path = [...declared.filter((parameter) => parameter.in === 'path'), ...missing];
  // Path parameters in the order the path names them.
  const order = placeholdersOf(detail.path);
  path.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  return [...path, ...declared.filter((parameter) => parameter.in === 'query')];
}

/** The path with its placeholders filled (each value URL-encoded). */
export function fillOperationPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

export function queryString(parameters: readonly OperationParameter[], values: Record<string, string>): string {
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.in !== 'query') continue;
    const value = values[parameter.name];
    if (value !== undefined && value !== '') query.set(parameter.name, value);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export type JsonCheck = { ok: true; value: unknown; empty: boolean } | { ok: false; message: string };

/** The body editor's text as JSON; empty text is "no body". */
export function parseJsonBody(text: string): JsonCheck {
  if (text.trim() === '') return { ok: true, value: undefined, empty: true };
  try {
    return { ok: true, value: JSON.parse(text), empty: false };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A starting body: the schema's required properties with a value of their type (the schema is shown beside it). */
export function exampleOf(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 5) return null;
  const s = schema as JsonSchema;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const alternative = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (alternative) return exampleOf(alternative, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((candidate) => candidate !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = exampleOf(s.properties?.[name], depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return false;
    case 'string':
      return '';
    default:
      return null;
  }
}

/** A parameter's type in a few words: `integer (0–1000)`, `string, uuid`, `one of a, b`. */
export function describeSchema(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return '';
  const s = schema as JsonSchema;
  if (Array.isArray(s.enum) && s.enum.length > 0) return `one of ${s.enum.map(String).join(', ')}`;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map(describeSchema).filter(Boolean).join(' or ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? '');
  const parts = [type];
  if (s.format) parts.push(s.format);
  const range = (min?: number, max?: number) =>
    min !== undefined && max !== undefined ? `${min}–${max}` : min !== undefined ? `≥ ${min}` : max !== undefined ? `≤ ${max}` : '';
  const bounds = type === 'string' ? range(s.minLength, s.maxLength) : range(s.minimum, s.maximum);
  const text = parts.filter(Boolean).join(', ');
  return bounds ? `${text} (${type === 'string' ? `${bounds} characters` : bounds})` : text;
}

export interface TryItRequest {
  method: string;
  /** Relative to the API, filled: `/users/0/10?x=1`. */
  path: string;
  apiKey: string;
  /** Sent as JSON when defined. */
  body?: unknown;
}

export interface TryItResult {
  status: number;
  statusText: string;
  ms: number;
  contentType: string | null;
  /** The answer pretty-printed when it is JSON, else as it came. */
  text: string;
}

/** Sends the call with the key alone (no session token), and reads the answer whatever its status. */
export async function sendWithKey(request: TryItRequest, signal?: AbortSignal): Promise<TryItResult> {
  const headers: Record<string, string> = { accept: 'application/json', 'x-api-key': request.apiKey.trim() };
  const hasBody = request.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${API_BASE}${request.path}`, {
    method: request.method,
    headers,
    body: hasBody ? JSON.stringify(request.body) : undefined,
    // No cookies either: the key is the only credential.
    credentials: 'omit',
    signal,
  });
  const raw = await response.text();
  const ms = Math.round(performance.now() - started);
  let text = raw;
  try {
    if (raw) text = JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  return { status: response.status, statusText: response.statusText, ms, contentType: response.headers.get('content-type'), text };
}
