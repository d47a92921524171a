import { defineContract } from './define';

export const notificationsContract = defineContract({
  name: 'notifications',
  routes: {
    list: '/notification/{offset}/{limit}',
    filter: { path: '/notification/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    search: '/notification/search/{offset}/{limit}/{search}',
    filterProps: '/notification/options',
  },
  policy: { resource: 'notifications', label: "Everyone's notifications", actions: ['read'], order: 7 },
  page: { id: 'notifications', title: 'Notifications', url: '/notifications', group: 'overview', icon: 'notifications', order: 1 },
});
