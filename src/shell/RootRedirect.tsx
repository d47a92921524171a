import { Navigate } from 'react-router';
import { AUTH_PATHS } from '../../providers/authPaths';
import { firstNavigationUrl } from '../../providers/firstNavigationUrl';
import { isSignedIn } from '../../providers/storage';

/** `/`: the landing page when signed in, the sign-in screen otherwise. */
export function RootRedirect() {
  return <Navigate to={isSignedIn() ? firstNavigationUrl() : AUTH_PATHS.signIn} replace />;
}
