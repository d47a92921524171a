import crypto from 'node:crypto';
import { LOGO_TYPE_MESSAGE, type LogoType } from '../../common/schemas/company';
import { badRequest, HttpError } from '../http/errors';
import { sanitiseSvg, SvgRefused } from './svg-sanitiser';

/**
 * What a logo file is, read from its bytes: the name and content type a browser or client sends
 * are whatever it claims. PNG and JPEG are stored as sent; SVG is rebuilt by the sanitiser.
 */

export interface Logo {
  bytes: Buffer;
  contentType: LogoType;
  sha256: string;
}

/** How much of the digest names a version in `?v=`: enough that two logos of a company never share it. */
export const LOGO_VERSION_LENGTH = 16;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG starts with its signature and then its header chunk. */
function isPng(bytes: Buffer): boolean {
  return bytes.length >= 16 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR';
}

/** A JPEG starts with the start-of-image marker followed by another marker. */
function isJpeg(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** Text that begins (after a byte-order mark and white space) with markup: maybe SVG. */
function looksLikeMarkup(bytes: Buffer): boolean {
  let start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (start < bytes.length && (bytes[start] === 0x20 || bytes[start] === 0x09 || bytes[start] === 0x0a || bytes[start] === 0x0d))
    start += 1;
  return bytes[start] === 0x3c; // '<'
}

export function digestOf(bytes: Buffer): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

export function logoVersion(sha256: string): string {
  return sha256.slice(0, LOGO_VERSION_LENGTH);
}

/**
 * The logo to store for these uploaded bytes, or an error to answer: 415 for a file of another
 * kind, 400 for an SVG that cannot be used.
 */
export function readLogo(upload: Buffer): Logo {
  if (isPng(upload)) return { bytes: upload, contentType: 'image/png', sha256: digestOf(upload) };
  if (isJpeg(upload)) return { bytes: upload, contentType: 'image/jpeg', sha256: digestOf(upload) };
  if (!looksLikeMarkup(upload)) throw new HttpError(415, LOGO_TYPE_MESSAGE);

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(upload);
  } catch {
    throw badRequest('logo: an SVG must be UTF-8 text');
  }
  let svg: string;
  try {
    svg = sanitiseSvg(text);
  } catch (err) {
    if (err instanceof SvgRefused) throw badRequest(`logo: ${err.message}`);
    throw err;
  }
  const bytes = Buffer.from(svg, 'utf8');
  return { bytes, contentType: 'image/svg+xml', sha256: digestOf(bytes) };
}
