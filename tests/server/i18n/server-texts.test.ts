import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverTextsFr } from '../../../providers/i18n/fr/server-texts';
import { compileServerTexts, translateServerText } from '../../../providers/i18n/serverTexts';
import { sampleOf, scanServerTexts } from './scanServerTexts';

const root = path.resolve(import.meta.dirname, '../../..');
const french = compileServerTexts(serverTextsFr);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the server's texts in French", () => {
  const scanned = scanServerTexts(root);

  it('are found in the source: errors, validation problems and notifications', () => {
    // A scan that finds little has stopped reading the source, and would pass anything.
    expect(scanned.length).toBeGreaterThan(300);
    expect(scanned.map((text) => text.pattern)).toEqual(
      expect.arrayContaining(['{0} not found', 'must be at most {0} characters', 'Invalid email, password or company host name']),
    );
  });

  it('are each worded by the catalogue', () => {
    const missing = scanned.filter((text) => translateServerText(sampleOf(text.pattern), french) === null);
    expect(missing.map((text) => `${text.where}  ${text.pattern}`)).toEqual([]);
  });

  it('keep the placeholders of their English wording', () => {
    const differing = Object.entries(serverTextsFr.texts).filter(
      ([english, worded]) => placeholders(english).join() !== placeholders(worded).join(),
    );
    expect(differing).toEqual([]);
  });
});
