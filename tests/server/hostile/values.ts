import fc from 'fast-check';

/**
 * Hostile values: strings that break naive SQL, HTML, file paths, encodings and parsers, and
 * values of every JSON type, for putting where a route expects something else.
 */

export const SQL_INJECTION = [
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "admin'--",
  '1; select pg_sleep(10)',
  "%' union select null, current_user --",
  '$$; select 1; $$',
  "\\'; truncate companies cascade; --",
  "E'\\\\x00'",
  '1) or (1=1',
];

export const HTML_INJECTION = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '<svg onload=alert(1)>',
  '<iframe srcdoc="<script>top.x=1</script>">',
  "{{constructor.constructor('alert(1)')()}}",
  '${7*7}#{7*7}<%= 7*7 %>',
  '</textarea><a href="data:text/html,<script>alert(1)</script>">',
];

export const PATH_TRAVERSAL = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '....//....//etc/passwd',
  '/etc/passwd',
  'file:///etc/passwd',
  '..%00.png',
  'logo.png\u0000.exe',
  '~/.ssh/id_rsa',
  'CON',
];

export const AWKWARD_UNICODE = [
  '\u0000',
  'a\u0000b',
  '\u202Eevil.exe\u202C',
  '\u200B\u200C\u200D\uFEFF',
  '😀🇺🇳👩‍👩‍👧',
  '𝕳𝖊𝖑𝖑𝖔 𐍈',
  'Z̴̡̛̖a̶̜͝l̷̨͂g̸̛̰o̵̝͐',
  '\uD800',
  '\uDFFF\uD800',
  '\uFFFF\uFFFE',
  '\u2028\u2029',
  'İıßẞ',
  'مرحبا שלום',
  '\t\r\n\u000B\u000C',
  'x\r\nSet-Cookie: a=b',
  '\u001B[31mred\u001B[0m',
];

export const ODDITIES = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  'true',
  '%s%s%n',
  '{"$gt":""}',
  '[object Object]',
];

export const HOSTILE_STRINGS = [...SQL_INJECTION, ...HTML_INJECTION, ...PATH_TRAVERSAL, ...AWKWARD_UNICODE, ...ODDITIES];

/** Whether a string holds what a text column cannot store unchanged: NUL, or half a surrogate pair. */
export const holdsUnstorable = (text: string) => /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** A long string of a repeated piece, from `min` to `max` characters. */
export const longString = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom('A', 'é', '😀', "' OR 1=1 -- ", '<script>', '\u0000'))
    .map(([n, piece]) => piece.repeat(Math.ceil(n / piece.length)));

/** One hostile string: a known payload, random text of the whole of Unicode, a mixture, or a long one. */
export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_STRINGS)).map(([a, b]) => `${a}${b}`),
    },
    { weight: 1, arbitrary: longString(1_000, 20_000) },
    { weight: 1, arbitrary: longString(100_000, 900_000) },
  );

/** Any JSON value, hostile strings included, a few levels deep. */
export const junkValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, -0, 1e308, -1e308, 2 ** 53 + 1, 0.5, [], {}, [[[[]]]], { $where: '1' }),
    },
    { weight: 3, arbitrary: hostileString() },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.array(hostileString(), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', '', '$ne'), fc.jsonValue({ maxDepth: 2 }), {
        maxKeys: 3,
      }),
    },
  );

/** Path segments that are not ids: traversal, injection, encodings a router must not trip over. */
export const weirdSegment = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: hostileString().filter((s) => s.length < 2_000) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        'NaN',
        'Infinity',
        '1e309',
        '99999999999999999999999',
        '0x10',
        ' 1',
        'null',
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA',
        '123e4567-e89b-12d3-a456-42661417400',
        '123e4567-e89b-12d3-a456-4266141740000',
        '{123e4567-e89b-12d3-a456-426614174000}',
        'x'.repeat(199),
        'x'.repeat(201),
      ),
    },
  );

/** Raw segments sent without encoding: malformed escapes and separators. */
export const RAW_SEGMENTS = ['%', '%zz', '%00', '%C0%AE%C0%AE', '..', '.', '%2F..%2F', ';jsessionid=1', 'a?b=c', 'a#b', '%E2%80%AE'];

/** Bodies that are not JSON objects, as the raw text sent with a JSON content type. */
export const RAW_JSON_BODIES = [
  '{',
  '{"a":',
  '}',
  'null',
  '[]',
  '"text"',
  '123',
  'NaN',
  "{'single': 'quotes'}",
  '{"a":1,}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '\uFEFF{}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  '{"a":'.repeat(3_000) + '1' + '}'.repeat(3_000),
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":1e999999}',
  '{"a":1}{"b":2}',
];

export const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/octet-stream',
  'image/png',
  'application/json, text/html',
  '',
];
