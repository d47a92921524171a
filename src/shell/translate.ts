import type { AuthMessageKey } from '../../providers/i18n/auth-messages';
import { authCatalogue } from '../../providers/i18n/authCatalogue';
import { shownLocale } from '../../providers/i18n/userLocale';

export type TranslateParams = Record<string, string | number>;

/**
 * A dependency-free translate for the entry and authentication screens, which must not pull
 * react-admin's i18n in. Unknown keys come back as themselves, like polyglot does.
 */
export function translate(key: AuthMessageKey, params?: TranslateParams): string {
  let node: unknown = authCatalogue(shownLocale());
  for (const part of key.split('.')) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  if (typeof node !== 'string') return key;
  return params ? node.replace(/%\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match)) : node;
}
