import { authMessages } from './auth-messages';
import { authMessagesFr } from './fr/auth';
import { mergeCatalogues } from './merge';
import { PSEUDO_LOCALE, pseudoMessages } from './pseudo';

/**
 * The texts of the entry, shell and sign-in screens in one language: French laid over English
 * (a text not translated yet shows in English), or every text marked in the pseudo-locale.
 * Plain objects, so the sign-in screens load no react-admin.
 */
const catalogues = new Map<string, object>();

export function authCatalogue(locale: string): object {
  if (locale !== 'fr' && locale !== PSEUDO_LOCALE) return authMessages;
  let catalogue = catalogues.get(locale);
  if (!catalogue) {
    catalogue = locale === 'fr' ? mergeCatalogues(authMessages, authMessagesFr) : pseudoMessages(authMessages);
    catalogues.set(locale, catalogue);
  }
  return catalogue;
}
