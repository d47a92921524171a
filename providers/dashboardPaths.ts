/** The dashboard's paths that the dataProvider calls too (docs/api/workflows.md "Dashboard"). */
export type DashboardCardScope = 'top' | 'admin';

export const DASHBOARD_CARD_PATHS: Record<DashboardCardScope, string> = {
  top: '/dashboard/topCards',
  admin: '/admin/dashboard/cards',
};

export const ACTIVE_USERS_PATH = '/users/active';
