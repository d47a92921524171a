import { defineContract } from './define';

export const auditsContract = defineContract({
  name: 'audits',
  routes: {
    list: '/system/audits/{offset}/{limit}',
    filter: { path: '/system/audits/filter/{offset}/{limit}', pagingInBody: true, sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/system/audits/filter/props',
    cards: '/system/audits/cards',
  },
  policy: { resource: 'audits', label: 'System audits', actions: ['read'], order: 8 },
  page: { id: 'audits', title: 'System audits', url: '/audits', group: 'administration', icon: 'history', order: 18 },
});
