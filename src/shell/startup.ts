import { isAuthPath } from '../../providers/authPaths';
import { isSignedIn } from '../../providers/storage';
import type { ConsoleChunks } from './ChunksContext';
import type { LazyChunk } from './lazyChunk';

/**
 * How long the first render waits for the chunk of the first screen. Arriving within it, the
 * chunk renders at once; otherwise the loading line shows and React, having shown a fallback,
 * holds the content back a little more (its reveal throttle), which this wait avoids.
 */
export const FIRST_RENDER_WAIT_MS = 250;

/** The chunk the first screen needs: signed-out visitors end up on an auth screen. */
export function firstChunk(chunks: ConsoleChunks, pathname: string): LazyChunk {
  return isAuthPath(pathname.replace(/\/+$/, '')) || !isSignedIn() ? chunks.auth : chunks.main;
}

/** Resolves when the first screen's chunk is in, or after FIRST_RENDER_WAIT_MS. */
export function prepareFirstRender(chunks: ConsoleChunks, pathname: string, waitMs = FIRST_RENDER_WAIT_MS): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    void firstChunk(chunks, pathname)
      .preload()
      .then(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}
