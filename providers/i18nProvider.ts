import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations, type I18nProvider, type TranslationMessages } from 'react-admin';
import { resources } from '../resources';
import { declarationMessages } from '../src/framework/declaration';
import type { AnyResourceDeclaration } from '../src/framework/types';
import { appMessages } from './i18n/app-messages';
import { authMessages } from './i18n/auth-messages';
import { marketplaceMessages } from './i18n/marketplace-messages';
import { reportsMessages } from './i18n/reports-messages';
import { subscriptionMessages } from './i18n/subscription-messages';
import { settingsMessages } from './i18n/settings-messages';

/**
 * Every text of the console per locale: react-admin's English, the shell's and sign-in
 * screens', the main app's, and each declared resource's own (under `resources.<name>`), so a
 * resource brings its texts with its declaration.
 */
export function consoleMessages(declarations: readonly AnyResourceDeclaration[]): Record<string, TranslationMessages> {
  const fromDeclarations = declarationMessages(declarations);
  return {
    en: mergeTranslations(
      englishMessages,
      authMessages,
      appMessages,
      reportsMessages,
      subscriptionMessages,
      marketplaceMessages,
      settingsMessages,
      fromDeclarations.en ?? {},
    ),
  };
}

/**
 * Polyglot over those texts. `allowMissing` lets translate(key, { _: fallback }) show the
 * fallback (a server-given title) without a warning.
 */
export function createI18nProvider(declarations: readonly AnyResourceDeclaration[]): I18nProvider {
  const byLocale = consoleMessages(declarations);
  return polyglotI18nProvider((locale) => byLocale[locale] ?? byLocale.en, 'en', [{ locale: 'en', name: 'English' }], {
    allowMissing: true,
  });
}

export const messages: Record<string, TranslationMessages> = consoleMessages(resources);

export const i18nProvider = createI18nProvider(resources);
