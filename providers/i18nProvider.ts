import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import frenchMessages from 'ra-language-french';
import { mergeTranslations, type I18nProvider, type TranslationMessages } from 'react-admin';
import { LOCALE_NAMES, LOCALES } from '../common/locales';
import { appMessages } from './i18n/app-messages';
import { authMessages } from './i18n/auth-messages';
import { marketplaceMessages } from './i18n/marketplace-messages';
import { reportsMessages } from './i18n/reports-messages';
import { subscriptionMessages } from './i18n/subscription-messages';
import { settingsMessages } from './i18n/settings-messages';
import { languageMessages } from './i18n/language-messages';
import { consoleFrench } from './i18n/fr';
import { wordingMessages } from './i18n/wording';
import { PSEUDO_LOCALE, pseudoMessages } from './i18n/pseudo';
import { startupLocale } from './i18n/userLocale';
import { localiseServerText } from './i18n/serverTexts';

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

/** The English catalogue: react-admin's, the shell's and sign-in screens', the main app's and the resources'. */
export function englishCatalogue(resources: readonly ResourceTexts[]): TranslationMessages {
  return mergeTranslations(
    englishMessages,
    authMessages,
    appMessages,
    reportsMessages,
    subscriptionMessages,
    marketplaceMessages,
    settingsMessages,
    languageMessages,
    resourceMessages(resources).en ?? {},
    wordingMessages,
  );
}

/**
 * The French catalogue as written: react-admin's own (ra-language-french), then the console's
 * (providers/i18n/fr), and what a resource declaration brings in French itself.
 */
export function frenchCatalogue(resources: readonly ResourceTexts[]): TranslationMessages {
  return mergeTranslations(frenchMessages, consoleFrench, resourceMessages(resources).fr ?? {});
}

/**
 * Every text of the console per locale: English, and each other language laid over it (a text
 * not translated yet shows in English rather than as its key). Each resource brings its own
 * texts with its declaration, under `resources.<name>`.
 */
export function consoleMessages(resources: readonly ResourceTexts[]): Record<string, TranslationMessages> {
  const en = englishCatalogue(resources);
  return { en, fr: mergeTranslations(en, frenchCatalogue(resources)) };
}

/**
 * Polyglot over those texts, starting in the user's language (or the browser's). The
 * pseudo-locale (every text marked) is not offered to users; tests draw screens in it.
 * `allowMissing` lets translate(key, { _: fallback }) show the fallback (a server-given title)
 * without a warning.
 */
export function createI18nProvider(resources: readonly ResourceTexts[]): I18nProvider {
  // Each catalogue is merged when its language is first drawn, not all at start: a merge of the
  // whole catalogue takes 10-25 ms, and most sessions use one language.
  let en: TranslationMessages | null = null;
  let fr: TranslationMessages | null = null;
  let pseudo: TranslationMessages | null = null;
  const english = () => (en ??= englishCatalogue(resources));
  const french = () => (fr ??= mergeTranslations(english(), frenchCatalogue(resources)));
  const messagesOf = (locale: string) => {
    if (locale === 'fr') return french();
    // Every key of the catalogue, the ones only other languages carry (menu titles) included.
    if (locale === PSEUDO_LOCALE) return (pseudo ??= pseudoMessages(mergeTranslations(french(), english())));
    return english();
  };
  const polyglot = polyglotI18nProvider(
    messagesOf,
    startupLocale(),
    LOCALES.map((locale) => ({ locale, name: LOCALE_NAMES[locale] })),
    { allowMissing: true },
  );
  return {
    ...polyglot,
    // A catalogue key never holds a space; a text that does is the server's (a toast of an error
    // it answered), worded in the user's language when the language's server texts know it.
    translate: (key, options) => {
      const locale = polyglot.getLocale();
      if (locale !== 'en' && /\s/.test(key)) {
        const worded = localiseServerText(key, locale);
        if (worded !== key) return worded;
      }
      return polyglot.translate(key, options);
    },
  };
}
