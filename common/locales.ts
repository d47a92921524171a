/**
 * The languages the console, its mails and its reports speak. English is the default and the
 * fallback: a text missing in another language is shown in English.
 */
export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language under its own name, as a language picker lists it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', fr: 'Français' };

/** The user preference (`/user/preferences/locale`) that holds a user's language. */
export const LOCALE_PREFERENCE = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** A stored or requested language as one the product speaks: English for anything else. */
export function localeOf(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/**
 * The first of a browser's languages (`navigator.languages`, or an Accept-Language header's
 * tags) that the product speaks, by its primary subtag ("fr-CA" is French); else English.
 */
export function preferredLocale(languages: readonly string[] | undefined | null): Locale {
  for (const tag of languages ?? []) {
    const primary = tag.trim().toLowerCase().split(/[-_;]/)[0];
    if (isLocale(primary)) return primary;
  }
  return DEFAULT_LOCALE;
}
