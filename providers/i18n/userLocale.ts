import { LOCALE_PREFERENCE, isLocale, preferredLocale, type Locale } from '../../common/locales';
import { apiRequest } from '../http';
import { getStoredUser } from '../storage';
import { PSEUDO_LOCALE } from './pseudo';
import { loadServerTexts } from './serverTexts';

/**
 * Which language the console speaks, and for whom.
 *
 * A user's choice is kept on the server (the `locale` user preference), so it follows the user
 * to any browser and outlasts sign-out (react-admin wipes its Store then). A local copy keyed
 * by user paints the last known language at once while the server copy loads. Until a user is
 * known (the sign-in screens), the browser's language is followed.
 */

const LOCAL_KEY = 'preferences.locale';

function localCopies(): Record<string, string> {
  try {
    const value = JSON.parse(localStorage.getItem(LOCAL_KEY) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The language last known for this user in this browser, or null. */
export function rememberedLocale(userId: string | undefined): Locale | null {
  if (!userId) return null;
  const value = localCopies()[userId];
  return isLocale(value) ? value : null;
}

export function rememberLocale(userId: string | undefined, locale: Locale): void {
  if (!userId) return;
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify({ ...localCopies(), [userId]: locale }));
  } catch {
    // A full or blocked storage only costs the instant paint; the server copy still applies.
  }
}

/**
 * The browser's language, when the console speaks it; else English. A browser set to the
 * pseudo-locale (`qps-ploc`, as translators and tests use) gets every text marked.
 */
export function browserLocale(): string {
  if (typeof navigator === 'undefined') return 'en';
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  if (languages[0]?.toLowerCase().startsWith(PSEUDO_LOCALE)) return PSEUDO_LOCALE;
  return preferredLocale(languages);
}

/** The language to start in: the known user's, else the browser's. */
export function startupLocale(): string {
  return rememberedLocale(getStoredUser()?.id) ?? browserLocale();
}

/**
 * The language the console shows now. The screens outside react-admin (sign-in, the shell's
 * messages) read it: the main app's locale while it runs, else the stored user's, else the
 * browser's.
 */
let shown: string | null = null;

export function shownLocale(): string {
  return shown ?? startupLocale();
}

/** Set by the main app while it runs (null when it stops). The server's texts in it are loaded. */
export function setShownLocale(locale: string | null): void {
  shown = locale;
  void loadServerTexts(shownLocale());
}

/** The user's language as kept on the server; null when none is kept or the server keeps none (404). */
export async function loadUserLocale(): Promise<Locale | null> {
  const answer = await apiRequest<{ data?: Record<string, unknown> }>(`/user/preferences/${LOCALE_PREFERENCE}`);
  const value = answer.data?.[LOCALE_PREFERENCE];
  return isLocale(value) ? value : null;
}

/** Keeps the user's language on the server (and the local copy at once). */
export async function saveUserLocale(locale: Locale): Promise<void> {
  rememberLocale(getStoredUser()?.id, locale);
  await apiRequest(`/user/preferences/${LOCALE_PREFERENCE}`, { method: 'PUT', body: { value: locale } });
}
