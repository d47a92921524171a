import { defineContract } from './define';
import { workflowsPolicy } from './workflows';

export const jobRunsContract = defineContract({
  name: 'job-runs',
  routes: {
    list: { path: '/jobRunTracker/filters?offset={offset}&limit={limit}', method: 'POST', body: {} },
    filter: { path: '/jobRunTracker/filters?offset={offset}&limit={limit}', sort: { field: 'queuedAt', order: 'DESC' } },
    filterProps: '/jobRunTracker/filters/props',
    one: '/jobRunTracker/{id}',
  },
  policy: workflowsPolicy,
  page: { id: 'job-runs', title: 'Job runs', url: '/job-runs', group: 'data', icon: 'play_circle', order: 6 },
  audit: { model: 'job_run' },
});
