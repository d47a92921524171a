import { defineContract } from './define';

export const accessEventsContract = defineContract({
  name: 'access-events',
  routes: {
    list: '/access/events/{offset}/{limit}',
    filter: { path: '/access/events/filter/{offset}/{limit}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/access/events/filter/props',
    cards: '/access/events/cards',
  },
  policy: { resource: 'accessEvents', label: 'Security access events', actions: ['read'], order: 9 },
  page: { id: 'access-events', title: 'Access events', url: '/access-events', group: 'administration', icon: 'policy', order: 19 },
});
