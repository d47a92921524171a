import type { SignInResult } from '../../providers/authActions';
import { DEFAULT_LANDING_URL } from '../../providers/firstNavigationUrl';
import type { SessionUser } from '../../providers/types';
import { startDashboardCalls } from '../app/dashboard/dashboardCalls';

/** Landing pages whose first calls can start before their code has loaded. */
const LANDING_CALLS: Record<string, (user: SessionUser) => void> = {
  [DEFAULT_LANDING_URL]: startDashboardCalls,
};

/**
 * Once a sign-in (or its two-factor step) has signed the user in, starts the calls of the page
 * it leads to, so that they run while the console's code loads rather than after it rendered.
 */
export function startLandingCalls(result: SignInResult): void {
  if (result.user?.auth) LANDING_CALLS[result.next]?.(result.user);
}
