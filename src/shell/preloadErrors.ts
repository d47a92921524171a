/**
 * Vite fires `vite:preloadError` when a chunk or its CSS cannot be fetched, typically because a
 * new release replaced the files the open page refers to. The failure still reaches the chunk's
 * error boundary; this only remembers it, so the boundary can recommend a reload first.
 */
let preloadFailed = false;

export function hasPreloadFailed(): boolean {
  return preloadFailed;
}

export function resetPreloadFailure(): void {
  preloadFailed = false;
}

export function installPreloadErrorListener(target: Window = window): () => void {
  const onPreloadError = (event: Event) => {
    preloadFailed = true;
    console.warn('A console file could not be loaded', (event as Event & { payload?: unknown }).payload);
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
