import { createContext, useCallback, useContext } from 'react';
import type { LazyChunk } from './lazyChunk';

/** The console's two halves, loaded when first needed. */
export interface ConsoleChunks {
  /** The authentication screens: light, no react-admin or MUI. */
  auth: LazyChunk;
  /** The signed-in console: react-admin's <Admin>, which runs inside this router. */
  main: LazyChunk;
}

/** The console's chunks, for screens that know what the user will need next. */
export const ChunksContext = createContext<ConsoleChunks | null>(null);

/** Starts fetching the signed-in console (e.g. while the sign-in call runs). */
export function usePrefetchConsole(): () => void {
  const chunks = useContext(ChunksContext);
  return useCallback(() => {
    void chunks?.main.preload();
  }, [chunks]);
}
