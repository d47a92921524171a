import { defineScreen } from './define';

/** The console's pages that are not an entity's list, and the policies that guard them. */

export const dashboardScreen = defineScreen({
  page: { id: 'dashboard', title: 'Dashboard', url: '/dashboard', group: 'overview', icon: 'dashboard', order: 0 },
});

export const apiExplorerScreen = defineScreen({
  page: { id: 'api-explorer', title: 'API explorer', url: '/api-explorer', group: 'access', icon: 'api', order: 11 },
});

export const marketplaceScreen = defineScreen({
  page: { id: 'marketplace', title: 'Marketplace', url: '/marketplace', group: 'data', icon: 'storefront', order: 12 },
  policy: { resource: 'marketplace', label: 'Marketplace integrations', actions: ['read', 'create'], order: 14 },
});

export const companyScreen = defineScreen({
  page: { id: 'company', title: 'Company profile', url: '/company', group: 'company', icon: 'business', order: 13 },
  policy: { resource: 'company', label: 'Company profile and logo', actions: ['read', 'update'], order: 12 },
});

export const settingsScreen = defineScreen({
  page: { id: 'settings', title: 'Settings', url: '/settings', group: 'company', icon: 'settings', order: 14 },
  policy: { resource: 'settings', label: 'Service and email settings', actions: ['read', 'update'], order: 13 },
});

export const reportsScreen = defineScreen({
  page: { id: 'reports', title: 'Reports', url: '/reports', group: 'company', icon: 'summarize', order: 15 },
  policy: { resource: 'reports', label: 'Weekly reports and shares', actions: ['read', 'create'], order: 15 },
});

export const subscriptionScreen = defineScreen({
  page: { id: 'subscription', title: 'Subscription', url: '/subscription', group: 'company', icon: 'credit_card', order: 16 },
  policy: { resource: 'subscription', label: 'Subscription and plan', actions: ['read', 'update'], order: 16 },
});
