import { useCallback, useEffect, useRef } from 'react';
import { useLocaleState } from 'react-admin';
import { isLocale, type Locale } from '../../common/locales';
import { getStoredUser, isSignedIn } from '../storage';
import { PSEUDO_LOCALE } from './pseudo';
import { loadUserLocale, rememberedLocale, rememberLocale, saveUserLocale, setShownLocale } from './userLocale';

/**
 * Keeps the console in the signed-in user's language: the local copy at once, then the one kept
 * on the server (at sign-in and on every reload). A server that keeps no preferences (404)
 * leaves the language as it is. While it runs, the shell's own screens speak the same language.
 */
export function useUserLocaleSync(): void {
  const [locale, setLocale] = useLocaleState();
  const current = useRef(locale);
  current.current = locale;
  // react-admin's setter is a new function on every render: the load below must outlive those.
  const apply = useRef(setLocale);
  apply.current = setLocale;
  const user = getStoredUser();
  const userId = isSignedIn(user) ? user?.id : undefined;

  useEffect(() => {
    setShownLocale(locale);
    if (typeof document !== 'undefined' && locale !== PSEUDO_LOCALE) document.documentElement.lang = locale;
  }, [locale]);
  useEffect(() => () => setShownLocale(null), []);

  useEffect(() => {
    if (!userId) return undefined;
    let cancelled = false;
    const remembered = rememberedLocale(userId);
    if (remembered && remembered !== current.current) apply.current(remembered);
    loadUserLocale()
      .then((kept) => {
        if (cancelled || !kept) return;
        rememberLocale(userId, kept);
        if (kept !== current.current) apply.current(kept);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [userId]);
}

/**
 * The user's language and a way to change it: shown at once, and kept on the server. Resolves
 * once the server has kept it; a refusal rejects (the console stays in the chosen language for
 * this browser).
 */
export function useUserLocale(): [Locale, (locale: Locale) => Promise<void>] {
  const [locale, setLocale] = useLocaleState();
  const choose = useCallback(
    async (wanted: Locale) => {
      setLocale(wanted);
      await saveUserLocale(wanted);
    },
    [setLocale],
  );
  return [isLocale(locale) ? locale : 'en', choose];
}
