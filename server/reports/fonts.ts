import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as fontkit from 'fontkit';

/**
 * The fonts a report's PDF writes with. A text that the PDF's built-in Helvetica can show
 * (WinAnsi: Latin-1 and a few typographic marks) is written with it, so a report in English or
 * French embeds no font at all. Any other text (a company, person or workflow named in Polish,
 * Greek, Russian, Arabic, Chinese, Japanese or Korean) is written with Noto fonts shipped in npm
 * packages, cut into runs so that each run goes to the first font that has its glyphs:
 *
 * - Noto Sans: Latin with every accent, Greek and Cyrillic (@embedpdf/fonts-latin);
 * - Noto Naskh Arabic: Arabic, shaped into its joined forms (@embedpdf/fonts-arabic);
 * - Noto Sans SC (named Noto Sans Hans in its files): Chinese characters, Japanese kana and
 *   kanji (@embedpdf/fonts-sc);
 * - Noto Sans KR: Hangul (@embedpdf/fonts-kr).
 *
 * All four are under the SIL Open Font License 1.1, which allows embedding them in documents.
 * PDFKit embeds only the glyphs a report uses. A font file is read once per process, the first
 * time a report needs it, and kept: a Chinese font is several megabytes, so a server that only
 * ever writes Latin names never reads one.
 */

export type Weight = 'regular' | 'bold';

/** A piece of text and the font that writes it: a built-in font's name or a parsed font. */
export interface TextRun {
  text: string;
  font: StandardFont | LoadedFont;
}

export type StandardFont = 'Helvetica' | 'Helvetica-Bold';

export interface LoadedFont {
  /** Unique per file: the name a document knows the font by. */
  key: string;
  font: fontkit.Font;
  /** Arabic is written right to left. */
  rtl: boolean;
}

interface Family {
  pkg: string;
  /** A family without a bold file writes bold text with its regular one. */
  files: { regular: string; bold?: string };
  rtl: boolean;
}

/** In the order they are tried: Latin first, so that digits and Latin words in any name use it. */
const FAMILIES: Family[] = [
  { pkg: '@embedpdf/fonts-latin', files: { regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' }, rtl: false },
  {
    pkg: '@embedpdf/fonts-arabic',
    files: { regular: 'NotoNaskhArabic-Regular.ttf', bold: 'NotoNaskhArabic-Bold.ttf' },
    rtl: true,
  },
  // Regular only: each CJK file is read whole into memory (4 to 8 MB) and its subset adds 40 to
  // 80 kB to a PDF, which a bold one would double for a heading or two.
  { pkg: '@embedpdf/fonts-sc', files: { regular: 'NotoSansHans-Regular.otf' }, rtl: false },
  { pkg: '@embedpdf/fonts-kr', files: { regular: 'NotoSansKR-Regular.otf' }, rtl: false },
];

const STANDARD: Record<Weight, StandardFont> = { regular: 'Helvetica', bold: 'Helvetica-Bold' };

/** The characters Helvetica can show in a PDF (WinAnsi). */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const isWinAnsi = (c: string) => c.charCodeAt(0) <= 0xff || WIN_ANSI_EXTRAS.has(c);

/** Spaces, punctuation and combining marks stay in the run they are in when its font has them. */
const NEUTRAL = /^[\p{Z}\p{P}\p{M}\s]$/u;
/** Shown, in the first font, for a character that no font here has (an emoji, a script not covered). */
const MISSING = '\uFFFD';

const requireHere = createRequire(import.meta.url);

/** The packages export only an index of their files; the fonts sit in fonts/ beside its dist/. */
function fontPath(pkg: string, file: string): string {
  return path.join(path.dirname(requireHere.resolve(pkg)), '..', 'fonts', file);
}

/** One promise per file, for the life of the process: concurrent reports share one read. */
const loaded = new Map<string, Promise<LoadedFont>>();

function load(family: Family, weight: Weight): Promise<LoadedFont> {
  const file = family.files[weight] ?? family.files.regular;
  let font = loaded.get(file);
  if (!font) {
    font = Promise.all([readFile(fontPath(family.pkg, file)), import('fontkit')]).then(([bytes, { create }]) => {
      const parsed = create(bytes);
      if (!('hasGlyphForCodePoint' in parsed)) throw new Error(`${file} is a font collection, not a font`);
      return { key: path.parse(file).name, font: parsed, rtl: family.rtl };
    });
    // A failed read is not kept, so the next report tries again.
    font.catch(() => loaded.delete(file));
    loaded.set(file, font);
  }
  return font;
}

/** The fonts one report writes with: Helvetica for what it can show, the Noto fonts it needs for the rest. */
export interface ReportFonts {
  runs(text: string, weight: Weight): TextRun[];
}

/**
 * Reads the fonts the given texts need, and only those: a family is read when a character of the
 * texts is not in Helvetica nor in any family before it.
 */
export async function reportFonts(texts: Iterable<string>): Promise<ReportFonts> {
  let missing = new Set<number>();
  for (const text of texts) {
    if ([...text].every(isWinAnsi)) continue;
    for (const c of text) if (!/\s/.test(c)) missing.add(c.codePointAt(0)!);
  }
  const families: Array<Record<Weight, LoadedFont>> = [];
  for (const family of FAMILIES) {
    if (missing.size === 0) break;
    const [regular, bold] = await Promise.all([load(family, 'regular'), load(family, 'bold')]);
    const left = new Set([...missing].filter((code) => !regular.font.hasGlyphForCodePoint(code)));
    if (left.size < missing.size || families.length === 0) families.push({ regular, bold });
    missing = left;
  }
  return { runs: (text, weight) => textRuns(text, weight, families) };
}

function textRuns(text: string, weight: Weight, families: Array<Record<Weight, LoadedFont>>): TextRun[] {
  if (families.length === 0 || [...text].every(isWinAnsi)) return [{ text, font: STANDARD[weight] }];
  const fonts = families.map((family) => family[weight]);
  const runs: Array<{ text: string; font: LoadedFont }> = [];
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const current = runs.at(-1);
    let font: LoadedFont | undefined =
      current && NEUTRAL.test(c) && current.font.font.hasGlyphForCodePoint(code)
        ? current.font
        : fonts.find((candidate) => candidate.font.hasGlyphForCodePoint(code));
    let shown = c;
    if (!font) {
      font = fonts[0];
      shown = font.font.hasGlyphForCodePoint(MISSING.codePointAt(0)!) ? MISSING : '?';
    }
    if (current?.font === font) current.text += shown;
    else runs.push({ text: shown, font });
  }
  // Fontkit shapes a right-to-left word into its visual order; the words and the spaces between
  // them are put in theirs here, each a run of its own (PDFKit would carry a word's trailing
  // space to its left), so that "مريم علي" reads right to left as a whole.
  // Spaces at either end of the run stay where they are, between it and its neighbours.
  return runs.flatMap((run) => {
    if (!run.font.rtl) return [run];
    const [, before, words, after] = /^(\s*)(.*?)(\s*)$/su.exec(run.text)!;
    return [before, ...words.split(/(\s+)/).reverse(), after].filter(Boolean).map((text) => ({ text, font: run.font }));
  });
}
