import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Spec section 9: a lazy script chunk that has not arrived after this long has failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A chunk that could not be loaded, named like spec section 8: "Loading chunk {name} failed". */
export class ChunkLoadError extends Error {
  constructor(
    readonly chunk: string,
    readonly kind: 'script' | 'css',
    options?: { cause?: unknown },
  ) {
    super(kind === 'css' ? `Loading CSS chunk ${chunk} failed` : `Loading chunk ${chunk} failed`, options);
    this.name = 'ChunkLoadError';
  }
}

/** Vite reports a failed style preload as "Unable to preload CSS for …". */
function isCssFailure(error: unknown): boolean {
  return error instanceof Error && /\bcss\b/i.test(error.message);
}

/** The address of the style sheet a failed import could not load ("Unable to preload CSS for …"), if that is why it failed. */
function failedStylesheet(error: unknown): string | null {
  const reason = error instanceof ChunkLoadError ? error.cause : error;
  const match = reason instanceof Error ? /Unable to preload CSS for (\S+)/.exec(reason.message) : null;
  return match ? match[1] : null;
}

/**
 * Fetches a style sheet again. Vite asks for a chunk's style sheet once per page: after a failure
 * it imports the chunk's script without it, and the chunk would be drawn unstyled with no word
 * of why. The failed `<link>` is replaced by a new one, and the chunk waits for it.
 */
export function reloadStylesheet(href: string, doc: Document = document): Promise<void> {
  for (const link of doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')) {
    if (link.href === href || link.getAttribute('href') === href) link.remove();
  }
  return new Promise<void>((resolve, reject) => {
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.crossOrigin = '';
    link.href = href;
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        link.remove();
        reject(new Error(`Unable to preload CSS for ${href}`));
      },
      { once: true },
    );
    doc.head.appendChild(link);
  });
}

/** Runs an import, turning a failure or a load slower than `timeoutMs` into a ChunkLoadError. */
export function loadChunk<T>(name: string, importer: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(name, 'script', { cause: new Error(`No answer after ${timeoutMs} ms`) })),
      timeoutMs,
    );
    importer().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof ChunkLoadError ? error : new ChunkLoadError(name, isCssFailure(error) ? 'css' : 'script', { cause: error }),
        );
      },
    );
  });
}

export interface LazyChunk<P extends object = object> {
  readonly name: string;
  /**
   * The component to render: the loaded one once the chunk is in (rendering it cannot suspend,
   * so no loading line flashes and React's reveal throttle does not delay it), else a lazy one.
   */
  component(): ComponentType<P> | LazyExoticComponent<ComponentType<P>>;
  /** Fetches the chunk ahead of time, so that rendering it later does not wait on the network. */
  preload(): Promise<void>;
  /** Forgets the last attempt, so the next render imports again (React caches a failed lazy). */
  retry(): void;
}

/** A lazily loaded part of the console, with the load timeout and a way to try again. */
export function defineChunk<P extends object = object>(
  name: string,
  importer: () => Promise<{ default: ComponentType<P> }>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): LazyChunk<P> {
  // One load shared by preload() and the lazy component; a failed one is forgotten.
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  let loaded: ComponentType<P> | null = null;
  // Style sheets of the chunk that failed to load: fetched again before its next import (see reloadStylesheet).
  const unstyled = new Set<string>();
  const importStyled = async () => {
    for (const href of [...unstyled]) {
      await reloadStylesheet(href);
      unstyled.delete(href);
    }
    return importer();
  };
  const load = () =>
    (pending ??= loadChunk(name, importStyled, timeoutMs).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = null;
        const href = failedStylesheet(error);
        if (href) unstyled.add(href);
        throw error;
      },
    ));
  let current = lazy(load);
  return {
    name,
    component: () => loaded ?? current,
    preload: () =>
      load().then(
        () => undefined,
        () => undefined,
      ),
    retry() {
      pending = null;
      current = lazy(load);
    },
  };
}
