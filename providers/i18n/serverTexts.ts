/**
 * The server's own words in the user's language.
 *
 * The API answers in English (its error texts are part of the contract, and the console compares
 * some of them), and notifications are stored as written. The console words them in the user's
 * language when it shows them: each language has a catalogue keyed by the English text, where a
 * text with variable parts is a pattern, `Workflow "{name}" failed`. A text the catalogue does
 * not know is shown as the server wrote it.
 *
 * Besides whole texts, the API joins validation problems as `field: problem; field: problem`; each
 * problem is worded on its own and the field path is kept as sent.
 */

import type { ServerTextLanguage } from './serverTextLanguage';

export type { ServerTextCatalogue, ServerTextLanguage } from './serverTextLanguage';

/**
 * Placeholders whose value is itself a server text (a reason, a wait, a noun) and is worded in
 * turn; every other placeholder (a name, an email, a number) is shown as sent.
 */
const WORDED_PLACEHOLDERS = new Set(['problem', 'reason', 'what', 'wait', 'noun', 'detail']);
const PLACEHOLDER = /\{(\w+)\}/g;
const FIELD_PROBLEM = /^([A-Za-z_][\w.[\]-]*): (.+)$/s;
const MAX_DEPTH = 4;

interface Pattern {
  regex: RegExp;
  names: string[];
  target: string;
  literalLength: number;
}

export interface CompiledServerTexts {
  exact: ReadonlyMap<string, string>;
  patterns: readonly Pattern[];
  fieldSeparator: string;
  listSeparator: string;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileServerTexts(language: ServerTextLanguage): CompiledServerTexts {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  for (const [english, target] of Object.entries(language.texts)) {
    const names: string[] = [];
    let source = '';
    let last = 0;
    for (const match of english.matchAll(PLACEHOLDER)) {
      source += escapeRegex(english.slice(last, match.index));
      source += '(.+?)';
      names.push(match[1]!);
      last = match.index! + match[0].length;
    }
    if (names.length === 0) {
      exact.set(english, target);
      continue;
    }
    source += escapeRegex(english.slice(last));
    patterns.push({ regex: new RegExp(`^${source}$`, 's'), names, target, literalLength: english.replace(PLACEHOLDER, '').length });
  }
  // The most specific pattern first: `Workflow "{name}" failed` before `{what} not found`.
  patterns.sort((a, b) => b.literalLength - a.literalLength);
  return { exact, patterns, fieldSeparator: language.fieldSeparator, listSeparator: language.listSeparator };
}

/** The text worded by the catalogue, or null when the catalogue does not know it. */
export function translateServerText(text: string, compiled: CompiledServerTexts, depth = 0): string | null {
  if (depth > MAX_DEPTH) return null;
  const whole = compiled.exact.get(text);
  if (whole !== undefined) return whole;
  // Problems joined by "; ": each is worded, and all must be known (else it may be one sentence).
  const parts = text.split('; ');
  if (parts.length > 1) {
    const worded = parts.map((part) => translateServerText(part, compiled, depth + 1));
    if (worded.every((part) => part !== null)) return worded.join(compiled.listSeparator);
  }
  for (const pattern of compiled.patterns) {
    const match = pattern.regex.exec(text);
    if (!match) continue;
    const values = new Map(pattern.names.map((name, i) => [name, match[i + 1]!]));
    return pattern.target.replace(PLACEHOLDER, (all, name: string) => {
      const value = values.get(name);
      if (value === undefined) return all;
      return WORDED_PLACEHOLDERS.has(name) ? (translateServerText(value, compiled, depth + 1) ?? value) : value;
    });
  }
  // "field: problem": the field path as sent, the problem worded.
  const field = FIELD_PROBLEM.exec(text);
  if (field) {
    const problem = translateServerText(field[2]!, compiled, depth + 1);
    return problem === null ? null : `${field[1]}${compiled.fieldSeparator}${problem}`;
  }
  return null;
}

/* The catalogue of each language is loaded with that language; English needs none. */

const loaded = new Map<string, CompiledServerTexts>();
const loading = new Map<string, Promise<void>>();
const loaders: Record<string, () => Promise<ServerTextLanguage>> = {
  fr: () => import('./fr/server-texts').then((module) => module.serverTextsFr),
};

/** Loads the catalogue of a language (once); resolves at once for English and unknown ones. */
export function loadServerTexts(locale: string): Promise<void> {
  const loader = loaders[locale];
  if (!loader || loaded.has(locale)) return Promise.resolve();
  let pending = loading.get(locale);
  if (!pending) {
    pending = loader()
      .then((language) => void loaded.set(locale, compileServerTexts(language)))
      .catch(() => {
        // Without its catalogue the server's texts show in English; the next call tries again.
        loading.delete(locale);
      });
    loading.set(locale, pending);
  }
  return pending;
}

/** A text the server sent, in the given language when its catalogue knows it, else as sent. */
export function localiseServerText(text: string, locale: string): string {
  const compiled = loaded.get(locale);
  if (!compiled || !text) return text;
  return translateServerText(text, compiled) ?? text;
}
