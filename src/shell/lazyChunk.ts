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
  const load = () =>
    (pending ??= loadChunk(name, importer, timeoutMs).then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = null;
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
