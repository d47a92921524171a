import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Company logos may be SVG, which is a document that can carry scripts, event handlers, links and
 * references to other resources. A logo is rebuilt from an allowlist: elements that draw, their
 * geometry and presentation attributes, and references only to elements of the same document
 * (`#id`). Anything else is left out. What cannot be read as one well-formed `<svg>` document, or
 * declares a DOCTYPE or entities, is refused rather than guessed at.
 *
 * The parser (fast-xml-parser) only splits the text into elements; entities are decoded here, once,
 * and every value is checked decoded and written back escaped, so what is checked is exactly what
 * a browser reads.
 */

export class SvgRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SvgRefused';
  }
}

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';
/** Deeper than any drawing needs; bounds the work on a hostile file. */
const MAX_DEPTH = 64;

const ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'defs',
  'symbol',
  'linearGradient',
  'radialGradient',
  'stop',
  'title',
  'desc',
  'clipPath',
  'mask',
  'use',
  'style',
]);
/** Elements whose text content is kept (everywhere else text is layout whitespace). */
const TEXT_ELEMENTS = new Set(['text', 'tspan', 'title', 'desc', 'style']);

const ATTRIBUTES = new Set([
  // identity, accessibility, language
  'id',
  'class',
  'style',
  'lang',
  'xml:lang',
  'xml:space',
  'role',
  'aria-label',
  'aria-hidden',
  // the viewport
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'version',
  // geometry
  'd',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'x1',
  'y1',
  'x2',
  'y2',
  'fx',
  'fy',
  'fr',
  'points',
  'pathLength',
  'transform',
  // gradients, clips, masks and references inside the document
  'offset',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'stop-color',
  'stop-opacity',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'clip-path',
  'clip-rule',
  'mask',
  'href',
  'xlink:href',
  // painting
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'color',
  'display',
  'visibility',
  'overflow',
  'vector-effect',
  'shape-rendering',
  'text-rendering',
  'color-interpolation',
  'paint-order',
  'mix-blend-mode',
  // text
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant',
  'font-stretch',
  'font-size-adjust',
  'text-anchor',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'letter-spacing',
  'word-spacing',
  'text-decoration',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'writing-mode',
  'direction',
  'unicode-bidi',
  // <style type="text/css">
  'type',
]);

/** A reference to an element of this document. */
const LOCAL_REFERENCE = /^#[A-Za-z_][\w.:-]*$/;
const LOCAL_URL = /^url\(\s*(['"]?)#[A-Za-z_][\w.:-]*\1\s*\)$/i;
const URL_FUNCTION = /url\s*\([^)]*\)?/gi;
/**
 * Words no value of a drawing needs, which script or load something in some browser or other
 * (CSS image functions take an address without url()).
 */
const DANGEROUS_VALUE =
  /javascript:|vbscript:|data:|expression\s*\(|@import|behaviou?r\s*:|-moz-binding|<\/?\s*script|(?:image-set|image|cross-fade|element|src)\s*\(/i;

/** True when every url(…) in a value points inside the document. */
function onlyLocalUrls(value: string): boolean {
  return (value.match(URL_FUNCTION) ?? []).every((call) => LOCAL_URL.test(call.trim()));
}

/**
 * CSS (a style attribute or element) that cannot reach outside the document. Comments are taken
 * out first (old engines read `exp/**\/ression`); escapes (`\75 rl(`) are refused outright.
 */
function safeCss(css: string): string | null {
  const text = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');
  if (text.includes('\\') || DANGEROUS_VALUE.test(text) || !onlyLocalUrls(text)) return null;
  return text;
}

type Node = Record<string, unknown>;
const ATTRS = ':@';

/** `&lt;`, `&#60;`, `&#x3C;` … decoded once; any other named entity is refused (none can be declared). */
function decodeEntities(text: string): string {
  return text.replace(/&([^;&\s]{0,32});/g, (whole, name: string) => {
    switch (name) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
    }
    const code = /^#x([0-9a-f]{1,6})$/i.exec(name)?.[1] ?? /^#([0-9]{1,7})$/.exec(name)?.[1];
    if (code !== undefined) {
      const point = name[1] === 'x' || name[1] === 'X' ? parseInt(code, 16) : parseInt(code, 10);
      if (point > 0 && point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff)) return String.fromCodePoint(point);
    }
    throw new SvgRefused(`the SVG uses an entity that is not defined: ${whole}`);
  });
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function nameOf(node: Node): string {
  return Object.keys(node).find((key) => key !== ATTRS) ?? '';
}

/** The attribute's value as kept, or null when the attribute is left out. */
function keptAttribute(element: string, name: string, raw: unknown): string | null {
  if (!ATTRIBUTES.has(name) || typeof raw !== 'string') return null;
  const value = decodeEntities(raw);
  if (name === 'type') return element === 'style' && value.trim().toLowerCase() === 'text/css' ? 'text/css' : null;
  if (name === 'href' || name === 'xlink:href') return LOCAL_REFERENCE.test(value.trim()) ? value.trim() : null;
  if (name === 'style') return safeCss(value);
  if (DANGEROUS_VALUE.test(value) || !onlyLocalUrls(value)) return null;
  return value;
}

function buildElement(node: Node, depth: number, state: { usesXlink: boolean }): string {
  const name = nameOf(node);
  if (depth > MAX_DEPTH) throw new SvgRefused(`the SVG nests elements more than ${MAX_DEPTH} deep`);
  // A link is dropped but what it wraps is still drawn.
  if (name === 'a') return buildChildren(name, node, depth, state);
  if (!ELEMENTS.has(name)) return '';

  const attributes: string[] = [];
  const given = (node[ATTRS] ?? {}) as Record<string, unknown>;
  let hasReference = false;
  for (const [attribute, raw] of Object.entries(given)) {
    const value = keptAttribute(name, attribute, raw);
    if (value === null) continue;
    if (attribute === 'href' || attribute === 'xlink:href') hasReference = true;
    if (attribute === 'xlink:href') state.usesXlink = true;
    attributes.push(` ${attribute}="${escapeAttribute(value)}"`);
  }
  // A <use> draws what it points at: without a reference inside the document it has no place.
  if (name === 'use' && !hasReference) return '';

  let content: string;
  if (name === 'style') {
    const css = safeCss(childrenOf(node, name).map(textOf).join(''));
    if (css === null) return '';
    content = escapeText(css);
  } else {
    content = buildChildren(name, node, depth, state);
  }
  const head = `<${name}${attributes.join('')}`;
  return content ? `${head}>${content}</${name}>` : `${head}/>`;
}

function childrenOf(node: Node, name: string): Node[] {
  return Array.isArray(node[name]) ? (node[name] as Node[]) : [];
}

/** The kept content of an element: its allowed children, and its text where text is drawn. */
function buildChildren(name: string, node: Node, depth: number, state: { usesXlink: boolean }): string {
  let content = '';
  for (const child of childrenOf(node, name)) {
    if ('#text' in child || '#cdata' in child) {
      if (TEXT_ELEMENTS.has(name)) content += escapeText(textOf(child));
    } else if (!('#comment' in child)) {
      content += buildElement(child, depth + 1, state);
    }
  }
  return content;
}

/** The text of a text node, a CDATA section (raw), or nothing. */
function textOf(node: Node): string {
  if ('#text' in node) return decodeEntities(String(node['#text']));
  if ('#cdata' in node) {
    const parts = Array.isArray(node['#cdata']) ? (node['#cdata'] as Node[]) : [];
    return parts.map((part) => String(part['#text'] ?? '')).join('');
  }
  return '';
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  allowBooleanAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
});

function parse(text: string): Node[] {
  let valid: ReturnType<typeof XMLValidator.validate>;
  let document: Node[];
  try {
    valid = XMLValidator.validate(text, { allowBooleanAttributes: false });
    document = valid === true ? (parser.parse(text) as Node[]) : [];
  } catch (err) {
    // The parser's own limits (nesting, sizes) on a file built to strain it.
    throw new SvgRefused(`the SVG could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  if (valid !== true) {
    throw new SvgRefused(`the SVG is not well-formed XML (line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg})`);
  }
  return document;
}

/**
 * The logo's SVG text rebuilt from the allowlist, or SvgRefused with a sentence saying why it
 * cannot be used (the caller prefixes the field's name).
 */
export function sanitiseSvg(source: string): string {
  const text = source.replace(/^\uFEFF/, '');
  // DOCTYPE (and so entity) declarations: internal ones can expand without bound, external ones load files.
  if (/<!(?!--|\[CDATA\[)/.test(text)) throw new SvgRefused('an SVG with a DOCTYPE or entity declarations is not accepted');
  const document = parse(text);
  const roots = document.filter((node) => {
    const name = nameOf(node);
    if (name === '#comment' || name.startsWith('?')) return false;
    if (name === '#text') {
      if (String(node['#text']).trim() !== '') throw new SvgRefused('the SVG has text outside its <svg> element');
      return false;
    }
    return true;
  });
  if (roots.length !== 1 || nameOf(roots[0]) !== 'svg')
    throw new SvgRefused('the file is XML but not an SVG image (its root element must be <svg>)');

  const state = { usesXlink: false };
  const body = buildElement(roots[0], 0, state);
  // The root's own namespace declarations are not kept: these are the only ones a logo needs.
  const namespaces = ` xmlns="${SVG_NAMESPACE}"${state.usesXlink ? ` xmlns:xlink="${XLINK_NAMESPACE}"` : ''}`;
  return body.replace(/^<svg/, `<svg${namespaces}`);
}
