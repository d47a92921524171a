import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { firstNavigationUrl } from '../../../providers/firstNavigationUrl';
import { sessionStage, type SessionStage } from '../session';

/**
 * Shows a screen only to a session at one of the `allow` stages; otherwise a signed-in user
 * goes to the console and anyone else to sign-in. Decided once, when the screen opens, so a
 * screen that ends the session itself (a password change) is not cut short.
 */
export function StageGate({ allow, children }: { allow: SessionStage[]; children: ReactNode }) {
  const [stage] = useState(() => sessionStage());
  if (allow.includes(stage)) return children;
  return <Navigate to={stage === 'signedIn' ? firstNavigationUrl() : AUTH_PATHS.signIn} replace />;
}
