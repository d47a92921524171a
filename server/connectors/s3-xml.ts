import { XMLParser } from 'fast-xml-parser';
import type { ObjectPage } from './object-store';

/**
 * S3's XML answers — a ListObjectsV2 page, an error body — read with fast-xml-parser. What comes
 * back is the store's, so hostile: values stay text (a key "0012" or "1e5" is a name, not a
 * number), and entities are limited to XML's own five and character references. An entity the
 * document declares itself in a DOCTYPE is left as written, never expanded, so that an answer
 * cannot grow into gigabytes in memory ("billion laughs").
 */

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes what XML itself defines and ignores what a document declares (fast-xml-parser's entityDecoder interface). */
const xmlOwnEntities = {
  setExternalEntities: () => {},
  addInputEntities: () => {},
  reset: () => {},
  setXmlVersion: () => {},
  decode: (text: string) =>
    text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, entity: string) => {
      if (!entity.startsWith('#')) return XML_ENTITIES[entity] ?? whole;
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }),
};

const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  // A key may begin or end with spaces; S3 sends it as it is.
  trimValues: false,
  parseTagValue: false,
  entityDecoder: xmlOwnEntities,
  isArray: (_name, jPath) => jPath === 'ListBucketResult.Contents',
});

interface ListBucketResult {
  Contents?: Array<{ Key?: unknown; Size?: unknown }>;
  IsTruncated?: unknown;
  NextContinuationToken?: unknown;
}

/** One ListObjectsV2 page; undefined when the answer is not one (another program's XML, or not XML at all). */
export function readListing(xml: string): ObjectPage | undefined {
  const result = parse(xml)?.ListBucketResult;
  if (typeof result !== 'object' && result !== '') return undefined;
  // An empty bucket's page has no element beyond its own name and counts; some stores send `<ListBucketResult/>`.
  const page = (result === '' ? {} : result) as ListBucketResult;
  const objects = (page.Contents ?? [])
    .filter((item) => typeof item === 'object' && typeof item.Key === 'string')
    .map((item) => ({ key: item.Key as string, size: sizeOf(item.Size) }));
  const token =
    typeof page.NextContinuationToken === 'string' && page.NextContinuationToken !== '' ? page.NextContinuationToken : undefined;
  return { objects, nextToken: text(page.IsTruncated)?.trim() === 'true' ? token : undefined };
}

/** `<Error><Code/><Message/></Error>`: the code and message of a failed answer, when its body is one. */
export function readError(xml: string): { code?: string; message?: string } {
  const error = parse(xml)?.Error;
  if (typeof error !== 'object' || error === null) return {};
  const { Code, Message } = error as { Code?: unknown; Message?: unknown };
  return { code: text(Code)?.trim(), message: text(Message) };
}

function parse(xml: string): Record<string, unknown> | undefined {
  if (!xml.trim()) return undefined;
  try {
    const parsed: unknown = parser.parse(xml);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function sizeOf(value: unknown): number {
  const size = Number(text(value)?.trim() ?? 0);
  return Number.isSafeInteger(size) && size >= 0 ? size : 0;
}
