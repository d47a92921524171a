import { createContext, useCallback, useContext } from 'react';
import type { ConsoleChunks } from './ConsoleRoutes';

/** The console's chunks, for screens that know what the user will need next. */
export const ChunksContext = createContext<ConsoleChunks | null>(null);

/** Starts fetching the signed-in console (e.g. while the sign-in call runs). */
export function usePrefetchConsole(): () => void {
  const chunks = useContext(ChunksContext);
  return useCallback(() => {
    void chunks?.main.preload();
  }, [chunks]);
}
