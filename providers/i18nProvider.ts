import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations, type TranslationMessages } from 'react-admin';
import { appMessages } from './i18n/app-messages';
import { authMessages } from './i18n/auth-messages';

export const messages: Record<string, TranslationMessages> = {
  en: mergeTranslations(englishMessages, authMessages, appMessages),
};

/**
 * Polyglot over react-admin's English texts, the shell's and sign-in screens' texts, and the
 * main app's own. `allowMissing` lets translate(key, { _: fallback }) show the fallback (a
 * server-given title) without a warning.
 */
export const i18nProvider = polyglotI18nProvider((locale) => messages[locale] ?? messages.en, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});
