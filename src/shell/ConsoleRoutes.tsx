import { Route, Routes } from 'react-router';
import { AUTH_PATH_LIST } from '../../providers/authPaths';
import { ChunkOutlet } from './ChunkOutlet';
import { ChunksContext, type ConsoleChunks } from './ChunksContext';
import { MainRoute } from './MainRoute';
import { RootRedirect } from './RootRedirect';
import { RouteEffects } from './RouteEffects';

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
