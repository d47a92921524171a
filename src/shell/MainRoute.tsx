import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { AUTH_PATHS } from '../../providers/authPaths';
import { isSignedIn } from '../../providers/storage';
import { ChunkOutlet } from './ChunkOutlet';
import type { LazyChunk } from './lazyChunk';

/**
 * The signed-in console. A signed-out visitor (a deep link, Back after logout) goes to sign-in
 * without loading react-admin at all; and the auth chunk is fetched ahead, so that leaving the
 * console for sign-in (logout, an expired session) never waits on the network while
 * react-admin, still mounted, keeps asking to be logged out.
 */
export function MainRoute({ main, auth }: { main: LazyChunk; auth: LazyChunk }) {
  const signedIn = isSignedIn();
  useEffect(() => {
    if (signedIn) void auth.preload();
  }, [auth, signedIn]);
  if (!signedIn) return <Navigate to={AUTH_PATHS.signIn} replace />;
  return <ChunkOutlet chunk={main} />;
}
