import { startAhead } from '../../../providers/http';
import { loadCallerPolicies } from '../../../providers/policies';
import type { SessionUser } from '../../../providers/types';
import { ACTIVE_USERS_PATH, DASHBOARD_CARD_PATHS } from '../../../providers/dashboardPaths';
import { daysBefore, today } from './chartLinks';

/**
 * The dashboard's calls (docs/api/workflows.md "Dashboard"), kept free of react-admin, MUI and
 * zod: the sign-in screens import this to start them while the console is still loading.
 */
export const PIE_CHARTS_PATH = '/dashboard/pieCharts';
export const CONNECTIONS_BY_TYPE_PATH = '/dashboard/distinctConnections';
export const SIGN_INS_PATH = '/admin/dashboard/chart';

export function dailyRunsPath(from: string, to: string): string {
  return `/dashboard/dailyJobRunTracker/${encodeURIComponent(from)}/${encodeURIComponent(to)}`;
}

/** The range the daily runs start with: the last 14 days, today included. */
export const DEFAULT_DAYS = 14;

export function defaultRunRange(): { from: string; to: string } {
  const to = today();
  return { from: daysBefore(to, DEFAULT_DAYS - 1), to };
}

/**
 * Starts what the dashboard will ask for first, for a user who has just signed in and lands on
 * it: the views take these answers when they mount (providers/http.ts, startAhead). Only calls
 * the dashboard is sure to make are started: an admin's all; someone else's company cards and
 * the policies that decide which charts they see (each chart then calls when it shows).
 */
export function startDashboardCalls(user: SessionUser): void {
  startAhead(DASHBOARD_CARD_PATHS.top);
  if (!user.isAdmin) {
    loadCallerPolicies().catch(() => undefined);
    return;
  }
  const { from, to } = defaultRunRange();
  startAhead(dailyRunsPath(from, to));
  startAhead(PIE_CHARTS_PATH);
  startAhead(CONNECTIONS_BY_TYPE_PATH);
  startAhead(SIGN_INS_PATH);
  startAhead(DASHBOARD_CARD_PATHS.admin);
  startAhead(ACTIVE_USERS_PATH);
}
