import { PAGE_GROUPS, pageCatalogue } from '../../../common/contract';
import { englishCatalogue, frenchCatalogue } from '../../../providers/i18nProvider';
import { authMessages } from '../../../providers/i18n/auth-messages';
import { authCatalogue } from '../../../providers/i18n/authCatalogue';
import { resources } from '../../../resources';
import { textsOf } from '../../../src/framework/declaration';

/** Every text of a nested catalogue by its dotted key. */
function flatten(node: unknown, prefix = '', into: Record<string, string> = {}): Record<string, string> {
  if (typeof node === 'string') into[prefix] = node;
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) flatten(value, prefix ? `${prefix}.${key}` : key, into);
  }
  return into;
}

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((match) => match[1]).sort();
const pluralForms = (text: string) => text.split('||||').length;

const texts = resources.map(textsOf);
const english = flatten(englishCatalogue(texts));
const french = flatten(frenchCatalogue(texts));

/**
 * Keys that only other languages carry: in English the console shows the server's own titles of
 * menu pages and dashboard cards, so French adds `nav.page.<id>` (one per page or group of the
 * contract's catalogue) and `app.dashboard.card.<key>`.
 */
const pageIds = new Set([...pageCatalogue().map((page) => page.id), ...Object.keys(PAGE_GROUPS)]);
function isServerTitle(key: string): boolean {
  const page = /^nav\.page\.(.+)$/.exec(key);
  if (page) return pageIds.has(page[1]);
  return /^app\.dashboard\.card\.\w+$/.test(key);
}

describe('the French catalogue', () => {
  it('has a French text for every English one', () => {
    const missing = Object.keys(english).filter((key) => !(key in french));
    expect(missing).toEqual([]);
  });

  it('has no key that English does not have', () => {
    const stray = Object.keys(french).filter((key) => !(key in english) && !isServerTitle(key));
    expect(stray).toEqual([]);
  });

  it('names every menu page and group of the catalogue', () => {
    const missing = [...pageIds].filter((id) => !(`nav.page.${id}` in french));
    expect(missing).toEqual([]);
  });

  it('keeps the placeholders and plural forms of each English text', () => {
    // react-admin's own French leaves some placeholders out ("Aucun résultat"): it may use fewer, never others.
    const samePlaceholders = (key: string) =>
      key.startsWith('ra.')
        ? placeholders(french[key]).every((name) => placeholders(english[key]).includes(name))
        : placeholders(english[key]).join() === placeholders(french[key]).join();
    const different = Object.keys(english)
      .filter((key) => key in french)
      .filter((key) => !samePlaceholders(key) || pluralForms(english[key]) !== pluralForms(french[key]))
      .map((key) => `${key}: "${english[key]}" / "${french[key]}"`);
    expect(different).toEqual([]);
  });

  it('is not English left untranslated in bulk', () => {
    // Short words (OK, Slack, Workflow, …) may read the same in both; whole sentences may not.
    const words = (text: string) => text.replace(/%\{\w+\}/g, '').match(/\p{L}{2,}/gu) ?? [];
    const same = Object.keys(english).filter((key) => french[key] === english[key] && words(english[key]).length >= 3);
    expect(same).toEqual([]);
  });

  it('serves the sign-in screens in French, falling back to English only where French is missing', () => {
    const signIn = flatten(authCatalogue('fr'));
    expect(Object.keys(signIn).sort()).toEqual(Object.keys(flatten(authMessages)).sort());
    expect(signIn['auth.signin.title']).toBe('Connexion');
    expect(flatten(authCatalogue('en'))['auth.signin.title']).toBe('Sign in');
  });
});
