import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { mergeTranslations, type I18nProvider, type TranslationMessages } from 'react-admin';
import { appMessages } from './i18n/app-messages';
import { authMessages } from './i18n/auth-messages';
import { marketplaceMessages } from './i18n/marketplace-messages';
import { reportsMessages } from './i18n/reports-messages';
import { subscriptionMessages } from './i18n/subscription-messages';
import { settingsMessages } from './i18n/settings-messages';

/** A resource's own texts, merged under `resources.<name>`. */
export interface ResourceMessages {
  name: string;
  fields?: Record<string, string>;
  filters?: Record<string, string>;
  [key: string]: unknown;
}

/** A resource as translations see it: its name and its texts per locale (`en` required). */
export interface ResourceTexts {
  name: string;
  messages: { en: ResourceMessages } & Record<string, ResourceMessages>;
}

/** Every resource's texts, as translation messages per locale (`resources.<name>.…`). */
export function resourceMessages(resources: readonly ResourceTexts[]): Record<string, { resources: Record<string, ResourceMessages> }> {
  const byLocale: Record<string, { resources: Record<string, ResourceMessages> }> = {};
  for (const resource of resources) {
    for (const [locale, messages] of Object.entries(resource.messages)) {
      (byLocale[locale] ??= { resources: {} }).resources[resource.name] = messages;
    }
  }
  return byLocale;
}

/**
 * Every text of the console per locale: react-admin's English, the shell's and sign-in
 * screens', the main app's, and each declared resource's own (under `resources.<name>`), so a
 * resource brings its texts with its declaration.
 */
export function consoleMessages(resources: readonly ResourceTexts[]): Record<string, TranslationMessages> {
  const fromDeclarations = resourceMessages(resources);
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
export function createI18nProvider(resources: readonly ResourceTexts[]): I18nProvider {
  const byLocale = consoleMessages(resources);
  return polyglotI18nProvider((locale) => byLocale[locale] ?? byLocale.en, 'en', [{ locale: 'en', name: 'English' }], {
    allowMissing: true,
  });
}
