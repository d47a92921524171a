import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Screens of the signed-in console that are not a resource's list or forms (the own profile,
 * the API explorer, ...). MainApp renders each under its path; each loads with its first visit.
 */
export interface ConsolePage {
  path: string;
  component: LazyExoticComponent<ComponentType> | ComponentType;
  /** Rendered without the console's layout (menu, app bar) when true. */
  noLayout?: boolean;
}

export const pages: readonly ConsolePage[] = [
  { path: '/profile', component: lazy(() => import('./profile/ProfilePage')) },
  { path: '/api-explorer', component: lazy(() => import('./api-explorer/ApiExplorerPage')) },
  { path: '/settings', component: lazy(() => import('./settings/SettingsPage')) },
  { path: '/company', component: lazy(() => import('./company/CompanyPage')) },
  { path: '/reports', component: lazy(() => import('./reports/ReportsPage')) },
  { path: '/subscription', component: lazy(() => import('./subscription/SubscriptionPage')) },
  { path: '/marketplace', component: lazy(() => import('./marketplace/MarketplacePage')) },
];
