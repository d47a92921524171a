import crypto from 'node:crypto';
import fc from 'fast-check';
import { hostileString, PATH_TRAVERSAL } from './values';

/**
 * Hostile multipart/form-data bodies: files whose bytes are not what their name and type say,
 * files above a route's limit, file names with traversal and control characters, hostile text
 * fields, unknown fields, and forms broken in their structure (cut short, wrong boundary, bare
 * line feeds, no closing boundary).
 */

export type FormPart = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89]),
  Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]),
]);

/** File contents that lie about what they are, or strain whoever reads them. */
export const FILE_CONTENTS: Record<string, () => Buffer> = {
  png: () => PNG,
  jpeg: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(64)]),
  windowsExecutable: () =>
    Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(56), Buffer.from('PE\0\0', 'latin1')]),
  elfExecutable: () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(57)]),
  shellScript: () => Buffer.from('#!/bin/sh\nrm -rf / --no-preserve-root\n'),
  html: () =>
    Buffer.from('<!doctype html><html><body onload="alert(document.cookie)"><script>fetch("/api/v1/users")</script></body></html>'),
  svgWithScript: () =>
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="1" height="1"/></svg>'),
  zip: () => Buffer.concat([Buffer.from('PK\u0003\u0004', 'latin1'), crypto.randomBytes(60)]),
  csv: () => Buffer.from('column,description\nname,"=cmd|\' /C calc\'!A0"\n'),
  csvWide: () => Buffer.from(`${'column,'.repeat(20_000)}description\n`),
  csvQuotes: () => Buffer.from(`column,description\nname,"${'""'.repeat(40_000)}"\n`),
  utf16: () => Buffer.from('\uFEFFcolumn,description\nname,x\n', 'utf16le'),
  randomBytes: () => crypto.randomBytes(300),
  empty: () => Buffer.alloc(0),
};

/** A file name to send: ordinary, or hostile (traversal, NUL, right-to-left override, very long). */
export const fileName = (): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom('logo.png', 'me.jpg', 'dictionary.csv', 'photo.png.exe', 'invoice\u202Egnp.exe', 'a"b.png', 'x;y=z.csv'),
    },
    { weight: 2, arbitrary: fc.constantFrom(...PATH_TRAVERSAL) },
    { weight: 1, arbitrary: hostileString().filter((s) => s.length < 2_000) },
  );

export const CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/svg+xml',
  'text/csv',
  'text/html',
  'application/x-msdownload',
  'application/octet-stream',
  'image/png; charset=utf-8',
  '',
];

export interface FormOptions {
  /** The route's one file field (none for forms that take no file). */
  fileField?: string;
  /** The route's text fields. */
  textFields: readonly string[];
  /** The route's file size limit: files just above it are sent too. */
  maxFileBytes?: number;
}

/** One part: a text field (known or not, hostile value) or a file (lying contents, hostile name). */
function partArbitrary(options: FormOptions): fc.Arbitrary<FormPart> {
  const fieldNames = fc.oneof(
    { weight: 4, arbitrary: options.textFields.length ? fc.constantFrom(...options.textFields) : fc.constant('name') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'companyId', 'isAdmin', '', 'a'.repeat(300), 'x\r\ny') },
  );
  const field = fc.record({
    name: fieldNames,
    value: fc.oneof(
      hostileString().filter((s) => s.length < 20_000),
      fc.constantFrom('true', 'false', ''),
    ),
  });
  const fileNames = fc.oneof(
    { weight: 4, arbitrary: fc.constant(options.fileField ?? 'file') },
    { weight: 1, arbitrary: fc.constantFrom('file', 'logo', 'avatar', 'other') },
  );
  const contents = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...Object.keys(FILE_CONTENTS)).map((kind) => FILE_CONTENTS[kind]()) },
    ...(options.maxFileBytes
      ? [
          {
            weight: 1,
            arbitrary: fc
              .integer({ min: 1, max: 64 * 1024 })
              .map((extra) => Buffer.concat([PNG, Buffer.alloc(options.maxFileBytes! + extra)])),
          },
        ]
      : []),
  );
  const file = fc.record({ name: fileNames, filename: fileName(), type: fc.constantFrom(...CONTENT_TYPES), data: contents });
  return fc.oneof({ weight: 3, arbitrary: field }, { weight: 2, arbitrary: file });
}

/** How a form is broken, if it is. */
const BREAKAGES = [
  'none',
  'none',
  'none',
  'cut',
  'noClosingBoundary',
  'wrongBoundary',
  'noBoundary',
  'bareLineFeeds',
  'garbageAfter',
  'headerInjection',
] as const;
type Breakage = (typeof BREAKAGES)[number];

export interface HostileForm {
  body: Buffer;
  contentType: string;
  parts: FormPart[];
  breakage: Breakage;
  describe: string;
}

/** Header values of a part, quoted as browsers do (they escape " and line breaks). */
const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

export function encodeForm(parts: FormPart[], breakage: Breakage, cutAt = 0.5): { body: Buffer; contentType: string } {
  const boundary = `----hostile${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const name = breakage === 'headerInjection' ? part.name : quoted(part.name);
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part.value}\r\n`));
    } else {
      const filename = breakage === 'headerInjection' ? part.filename : quoted(part.filename);
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  if (breakage !== 'noClosingBoundary') chunks.push(Buffer.from(`--${boundary}--\r\n`));
  if (breakage === 'garbageAfter') chunks.push(Buffer.from('\r\n--garbage\r\nContent-Disposition: form-data; name="late"\r\n\r\nlate'));
  let body = Buffer.concat(chunks);
  if (breakage === 'cut') body = body.subarray(0, Math.floor(body.length * cutAt));
  if (breakage === 'bareLineFeeds') body = Buffer.from(body.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  const contentType =
    breakage === 'wrongBoundary'
      ? 'multipart/form-data; boundary=not-the-one'
      : breakage === 'noBoundary'
        ? 'multipart/form-data'
        : `multipart/form-data; boundary=${boundary}`;
  return { body, contentType };
}

const describePart = (part: FormPart) =>
  'value' in part
    ? `${JSON.stringify(part.name.slice(0, 40))}=${JSON.stringify(part.value.slice(0, 60))}${part.value.length > 60 ? `…(${part.value.length})` : ''}`
    : `${JSON.stringify(part.name.slice(0, 40))}: file ${JSON.stringify(part.filename.slice(0, 60))} ${part.type || '(no type)'} ${part.data.length} bytes starting ${JSON.stringify(part.data.subarray(0, 12).toString('latin1'))}`;

export function formArbitrary(options: FormOptions): fc.Arbitrary<HostileForm> {
  return fc
    .tuple(
      fc.array(partArbitrary(options), { minLength: 0, maxLength: 4 }),
      fc.constantFrom(...BREAKAGES),
      fc.double({ min: 0.05, max: 0.95, noNaN: true }),
    )
    .map(([parts, breakage, cutAt]) => {
      const { body, contentType } = encodeForm(parts, breakage, cutAt);
      const describe = `form (${breakage}) [${parts.map(describePart).join('; ')}]`;
      return { [fc.toStringMethod]: () => describe, body, contentType, parts, breakage, describe };
    });
}
