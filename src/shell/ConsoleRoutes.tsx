import { Route, Routes } from 'react-router';
import { AUTH_PATH_LIST } from '../../providers/authPaths';
import { ChunkOutlet } from './ChunkOutlet';
import { ChunksContext } from './ChunksContext';
import type { LazyChunk } from './lazyChunk';
import { MainRoute } from './MainRoute';
import { RootRedirect } from './RootRedirect';
import { RouteEffects } from './RouteEffects';

export interface ConsoleChunks {
  /** The authentication screens: light, no react-admin or MUI. */
  auth: LazyChunk;
  /** The signed-in console: react-admin's <Admin>, which runs inside this router. */
  main: LazyChunk;
}

/** The top-level routes of spec section 2. */
export function ConsoleRoutes({ chunks }: { chunks: ConsoleChunks }) {
  return (
    <ChunksContext.Provider value={chunks}>
      <RouteEffects />
      <Routes>
        {AUTH_PATH_LIST.map((path) => (
          <Route key={path} path={path} element={<ChunkOutlet chunk={chunks.auth} />} />
        ))}
        <Route path="/" element={<RootRedirect />} />
        <Route path="/*" element={<MainRoute main={chunks.main} auth={chunks.auth} />} />
      </Routes>
    </ChunksContext.Provider>
  );
}
