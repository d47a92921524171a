import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * Where MUI's styles go: emotion writes them as <style> elements at run time, and the page's
 * Content-Security-Policy lets a style element in only with the nonce the server put in the page
 * (`<meta name="csp-nonce">`, a new one per answer; docs/security.md). Without the meta (the
 * development server) the elements carry no nonce, and no policy asks for one.
 */
export function consoleStyleCache(doc: Document = document): EmotionCache {
  const nonce = doc.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content || undefined;
  return createCache({ key: 'css', nonce, prepend: true });
}
