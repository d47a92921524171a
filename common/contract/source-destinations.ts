import { defineContract } from './define';
import { connectionsPolicy } from './connections';

export const sourceDestinationsContract = defineContract({
  name: 'source-destinations',
  routes: { list: '/active/source/destination' },
  policy: connectionsPolicy,
  page: {
    id: 'source-destinations',
    title: 'Source and destination pairs',
    url: '/source-destinations',
    group: 'data',
    icon: 'hub',
    order: 3,
  },
  audit: { model: 'source_destination' },
});
