import fc from 'fast-check';
import { z, type ZodType } from 'zod';
import type { RouteEntry } from './routes';
import {
  AWKWARD_UNICODE,
  hostileString,
  junkValue,
  longString,
  RAW_JSON_BODIES,
  RAW_SEGMENTS,
  weirdSegment,
  WRONG_CONTENT_TYPES,
} from './values';

/**
 * Hostile requests for one route, generated from the route's own zod schemas (read as JSON Schema,
 * the form zod 4 describes itself in): values that conform, so that a request gets past validation
 * with hostile text inside; values of the wrong type; missing and unknown fields; huge strings and
 * bodies; bodies that are not JSON or not objects; wrong content types; odd ids and querystrings.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
};

export interface HostileRequest {
  method: RouteEntry['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was sent, shortened, for a failure's message. */
  describe: string;
  /** Whether the params and querystring were generated to conform (a refusal must then be about the body). */
  conformingUrl: boolean;
  /** The body was above the JSON body limit and sent as JSON. */
  oversized: boolean;
}

/** The body limit of the app (server/app.ts BODY_LIMIT_BYTES). */
const BODY_LIMIT = 1024 * 1024;

export function jsonSchemaOf(schema: ZodType | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

const isEmpty = (s: JsonSchema) =>
  Object.keys(s).filter((key) => !['$schema', 'description', 'default', 'title'].includes(key)).length === 0;

/** Fits a string to a schema's length bounds (cutting may split a surrogate pair: hostile too). */
const fit = (s: JsonSchema) => (text: string) => {
  let out = s.maxLength !== undefined ? text.slice(0, s.maxLength) : text;
  if (s.minLength !== undefined && out.length < s.minLength) out = out.padEnd(s.minLength, 'x');
  return out;
};

function patternString(s: JsonSchema): fc.Arbitrary<string> | null {
  if (!s.pattern) return null;
  try {
    const regex = new RegExp(s.pattern);
    const arb = fc.stringMatching(regex).filter((text) => text.length <= (s.maxLength ?? 10_000) && text.length >= (s.minLength ?? 0));
    fc.sample(arb, { numRuns: 3, seed: 1 });
    return arb;
  } catch {
    return null;
  }
}

const isoDate = (withTime: boolean) =>
  fc
    .date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
    .map((d) => (withTime ? d.toISOString() : d.toISOString().slice(0, 10)));

/**
 * Values a field's name suggests where its schema refines them in code (JSON Schema then says only
 * "string"): without them few requests would get past validation to the handler. Passwords are
 * never the admin's, so a generated request cannot change it.
 */
function hintedByName(key: string | undefined): fc.Arbitrary<string> | null {
  if (!key) return null;
  if (/^order$|direction/i.test(key)) return fc.constantFrom('ASC', 'DESC', 'asc', 'desc');
  if (/date|^period|start|end$|since|until|^from$|^to$|At$/.test(key)) return fc.oneof(isoDate(false), isoDate(true));
  if (/email|^to$/i.test(key)) return fc.nat(10_000).map((n) => `hostile${n}@example.test`);
  if (/password/i.test(key)) return fc.constantFrom('Hostile-pass-93', 'Another-pass-77');
  if (/hostname/i.test(key)) return fc.constantFrom('acme', 'globex', 'new-co-1');
  if (/url|website|link/i.test(key))
    return fc.constantFrom('https://example.test/a?b=<script>', 'javascript:alert(1)', 'file:///etc/passwd');
  if (/otp|code|mpin/i.test(key)) return fc.stringMatching(/^\d{6}$/);
  if (/(^id|Id|Ids)$/.test(key)) return fc.uuid({ version: 4 });
  return null;
}

function conformingString(s: JsonSchema, key?: string): fc.Arbitrary<string> {
  switch (s.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'email':
      return fc
        .tuple(fc.constantFrom('a', "o'brien", 'x+tag', '名前', 'a.b-c', '"quoted"'), fc.nat(10_000))
        .map(([local, n]) => `${local}${n}@example.test`);
    case 'date-time':
      return isoDate(true);
    case 'date':
      return isoDate(false);
    case 'uri':
    case 'url':
      return fc.constantFrom('https://example.test/a?b=<script>', 'javascript:alert(1)', 'file:///etc/passwd', 'http://[::1]:0/');
  }
  const matching = patternString(s) ?? hintedByName(key);
  const hostile = fc
    .oneof(
      { weight: 4, arbitrary: hostileString() },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
      // Plain text with one awkward character inside, so that it passes checks of shape and length.
      { weight: 3, arbitrary: fc.constantFrom(...AWKWARD_UNICODE).map((u) => `Ab${u}cd`) },
    )
    .map(fit(s));
  return matching ? fc.oneof({ weight: 3, arbitrary: matching }, { weight: 1, arbitrary: hostile }) : hostile;
}

function conformingNumber(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : -1_000_000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : 1_000_000_000);
  if (integer)
    return fc.integer({ min: Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER)), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts, as far as JSON Schema can tell (refinements in code may still refuse it). */
export function conforming(s: JsonSchema | undefined, depth = 0, key?: string): fc.Arbitrary<unknown> {
  if (!s || isEmpty(s) || depth > 4) return junkValue();
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const choices = s.anyOf ?? s.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => conforming(choice, depth + 1, key)));
  if (s.allOf?.length) return conforming(s.allOf[0], depth + 1, key);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return conformingString(s, key);
    case 'integer':
      return conformingNumber(s, true);
    case 'number':
      return conformingNumber(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = s.minItems ?? 0;
      return fc.array(conforming(s.items, depth + 1, key), { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'object':
      return objectOf(s, depth + 1, 0);
    default:
      return junkValue();
  }
}

/** A value of a type the schema does not take (as best it can be told). */
function wrongType(s: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const type = s && !Array.isArray(s.type) ? s.type : undefined;
  const byType: Record<string, unknown[]> = {
    string: [0, -1, 1e308, true, null, [], {}, ['a'], { toString: 'x' }],
    integer: ['1', '', 'NaN', '1e309', 1.5, -1, 1e308, -1e308, true, null, [], {}],
    number: ['1', 'NaN', 'Infinity', true, null, [], {}, 1e308, -1e308],
    boolean: ['true', 'yes', 1, 0, null, [], {}],
    array: [{}, 'a', 1, null, { 0: 'a', length: 1 }, [[[[[[[[[[]]]]]]]]]]],
    object: [[], 'a', 1, null, true, [{}]],
  };
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...(byType[type ?? ''] ?? [null, [], {}, 1, 'a'])) },
    { weight: 1, arbitrary: junkValue() },
  );
}

const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'isAdmin',
  'companyId',
  'company_id',
  'id',
  'userId',
  'role',
  '$where',
  '',
  ' ',
  'a'.repeat(300),
];

/**
 * An object for a schema: each field conforming, of a wrong type, huge or missing (required ones
 * too), and sometimes unknown fields besides. `junk` weighs how often a field is spoilt.
 */
function objectOf(s: JsonSchema, depth: number, junk: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const fields = properties.map(([key, schema]) => {
    const value: fc.Arbitrary<{ present: boolean; value?: unknown }> = fc.oneof(
      { weight: 8, arbitrary: conforming(schema, depth, key).map((value) => ({ present: true, value })) },
      { weight: junk * 2, arbitrary: wrongType(schema).map((value) => ({ present: true, value })) },
      { weight: junk, arbitrary: longString(50_000, 300_000).map((value) => ({ present: true, value })) },
      { weight: required.has(key) ? 1 + junk : 4, arbitrary: fc.constant({ present: false }) },
    );
    return value.map((field) => [key, field] as const);
  });
  const extras = fc.oneof(
    { weight: 4, arbitrary: fc.constant([] as Array<[string, unknown]>) },
    {
      weight: junk,
      arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })), junkValue()), {
        minLength: 1,
        maxLength: 3,
      }),
    },
  );
  return fc.tuple(fc.tuple(...fields), extras).map(([chosen, extra]) => {
    const out: Record<string, unknown> = {};
    // defineProperty, so that "__proto__" becomes a key of the JSON sent rather than a prototype.
    const put = (key: string, value: unknown) =>
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    for (const [key, field] of chosen) if (field.present) put(key, field.value);
    for (const [key, value] of extra) if (!(key in out)) put(key, value);
    return out;
  });
}

/** A body for the route: an object from its schema (often spoilt), or something that is not one. */
function bodyArbitrary(route: RouteEntry, hint: ZodType | undefined) {
  const schema = jsonSchemaOf(route.body ?? hint) ?? {};
  const objectSchema: JsonSchema = schema.type === 'object' || schema.properties ? schema : { type: 'object', properties: {} };
  type Body = { payload?: string; contentType?: string; kind: string };
  const json = (value: unknown): Body => ({ payload: JSON.stringify(value), contentType: 'application/json', kind: 'json' });
  return fc.oneof(
    { weight: 5, arbitrary: objectOf(objectSchema, 0, 0).map(json) },
    { weight: 8, arbitrary: objectOf(objectSchema, 0, 1).map(json) },
    { weight: 1, arbitrary: junkValue().map(json) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...RAW_JSON_BODIES).map((payload): Body => ({ payload, contentType: 'application/json', kind: 'raw' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(objectOf(objectSchema, 0, 0), fc.constantFrom(...WRONG_CONTENT_TYPES))
        .map(([value, contentType]): Body => ({ payload: JSON.stringify(value), contentType, kind: 'content-type' })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 1, arbitrary: fc.constant<Body>({ payload: '', contentType: 'application/json', kind: 'empty' }) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: BODY_LIMIT + 1, max: 2 * BODY_LIMIT })
        .map((size): Body => ({ payload: `{"x":"${'a'.repeat(size)}"}`, contentType: 'application/json', kind: 'oversized' })),
    },
  );
}

/** A path parameter: conforming (an id of this tenant, or a random one), or a weird segment. */
type Segment = { segment: string; conforming: boolean };

/** A path parameter its schema accepts: an id of this tenant, a random one, or a value of the schema. */
function goodParam(name: string, schema: JsonSchema | undefined, ids: readonly string[]): fc.Arbitrary<Segment> {
  const good =
    schema && !isEmpty(schema)
      ? conforming(schema, 0, name)
      : fc.oneof(fc.uuid({ version: 4 }), fc.nat(1000).map(String), fc.constant('2024-01-31'));
  const known =
    schema?.format === 'uuid' && ids.length > 0
      ? [{ weight: 2, arbitrary: fc.constantFrom(...ids).map((id): Segment => ({ segment: id, conforming: true })) }]
      : [];
  return fc.oneof({ weight: 6, arbitrary: good.map((value): Segment => ({ segment: encode(String(value)), conforming: true })) }, ...known);
}

/** A path parameter: conforming, or a weird segment (encoded, or raw). */
function paramArbitrary(name: string, schema: JsonSchema | undefined, ids: readonly string[]): fc.Arbitrary<Segment> {
  return fc.oneof(
    { weight: 6, arbitrary: goodParam(name, schema, ids) },
    { weight: 3, arbitrary: weirdSegment().map((value): Segment => ({ segment: encode(value), conforming: false })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((segment): Segment => ({ segment, conforming: false })) },
  );
}

function queryPart(key: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => queryPart(key, v));
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return [`${encode(key)}=${encode(text)}`];
}

const RAW_QUERIES = [
  '&&&',
  'a=%zz',
  'a=%00',
  '__proto__[isAdmin]=1',
  'constructor[prototype][x]=1',
  'a[]=1&a[]=2',
  'offset=-1&limit=1e309',
  '=',
  '?',
  'x'.repeat(10_000),
];

function queryArbitrary(route: RouteEntry): fc.Arbitrary<{ query: string; conforming: boolean }> {
  const schema = jsonSchemaOf(route.querystring);
  const objectSchema: JsonSchema = schema?.properties ? schema : { type: 'object', properties: {} };
  return fc.oneof(
    {
      weight: schema ? 4 : 1,
      arbitrary: objectOf(objectSchema, 0, 0).map((q) => ({
        query: Object.entries(q)
          .flatMap(([k, v]) => queryPart(k, v))
          .join('&'),
        conforming: true,
      })),
    },
    {
      weight: schema ? 4 : 1,
      arbitrary: objectOf(objectSchema, 0, 1).map((q) => ({
        query: Object.entries(q)
          .flatMap(([k, v]) => queryPart(k, v))
          .join('&'),
        conforming: false,
      })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES).map((query) => ({ query, conforming: false })) },
  );
}

export interface RequestOptions {
  /** Ids of this tenant's records, to aim non-destructive routes at real rows. */
  ids: readonly string[];
  /** The schema of a body the route checks in its handler rather than in its route schema. */
  bodyHint?: ZodType;
}

/** encodeURIComponent, which throws on half a surrogate pair: such text cannot be in a URL, so it goes in as U+FFFD. */
const encode = (text: string) =>
  encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

const shorten = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

export function requestArbitrary(route: RouteEntry, options: RequestOptions): fc.Arbitrary<HostileRequest> {
  const paramSchema = jsonSchemaOf(route.params);
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  // Real ids only where a call cannot destroy anything.
  const destructive = route.method === 'DELETE' || (route.config as { policy?: readonly string[] }).policy?.[1] === 'delete';
  const ids = destructive ? [] : options.ids;
  // Often every parameter conforms, so that the body is what gets tested; otherwise each may be weird.
  const params = fc.oneof(
    { weight: 1, arbitrary: fc.tuple(...names.map((name) => goodParam(name, paramSchema?.properties?.[name], ids))) },
    { weight: 1, arbitrary: fc.tuple(...names.map((name) => paramArbitrary(name, paramSchema?.properties?.[name], ids))) },
  );
  const sendsBody = route.method !== 'GET';
  const body = sendsBody
    ? bodyArbitrary(route, options.bodyHint)
    : fc.constant({ kind: 'none' } as { payload?: string; contentType?: string; kind: string });
  return fc.tuple(params, queryArbitrary(route), body).map(([segments, query, sent]) => {
    let index = 0;
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, () => segments[index++].segment);
    const url = `/api/v1${path}${query.query ? `?${query.query}` : ''}`;
    const headers: Record<string, string> = {};
    if (sent.contentType !== undefined) headers['content-type'] = sent.contentType;
    const describe = `${route.method} ${shorten(url, 200)} [${sent.kind}${sent.contentType !== undefined ? `, ${sent.contentType || 'empty content type'}` : ''}] ${shorten(sent.payload ?? '')}`;
    return {
      // What fast-check prints for a counterexample: the request, not the object.
      [fc.toStringMethod]: () => describe,
      method: route.method,
      url,
      headers,
      payload: sent.payload,
      conformingUrl: segments.every((s) => s.conforming) && query.conforming,
      oversized: sent.kind === 'oversized',
      describe,
    };
  });
}
