import { defineResource } from '../../src/framework/types';
import { ConnectionLink } from '../connections/cells';
import { PairCreateButton } from '../connections/PairCreateButton';
import { TYPE_CHOICES } from '../connections/typeTexts';
import type { Pair } from '../connections/types';
import { sourceDestinationsContract } from '../../common/contract/source-destinations';

/**
 * The active source/destination pairs (`GET /active/source/destination`: active pairs whose
 * two connections are active). Pairs are made here (Create) or on a connection's page, and changed there.
 * One unpaged list, so the console pages, sorts and searches it itself. Guarded by the
 * `connections` policy, as the pairs are.
 */
export const sourceDestinations = defineResource<Pair>({
  contract: sourceDestinationsContract,
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'Source/destination pair |||| Source/destination pairs',
      fields: {
        sourceName: 'Source',
        destinationName: 'Destination',
        isActive: 'Active',
        createdAt: 'Created',
        updatedAt: 'Updated',
      },
      filters: { search: 'Search pairs' },
    },
  },
  fields: [
    { source: 'name', type: 'text', sortable: true },
    {
      source: 'sourceName',
      type: 'text',
      sortable: true,
      render: (pair) => <ConnectionLink id={pair.sourceId} name={pair.sourceName} />,
    },
    { source: 'sourceType', type: 'select', choices: TYPE_CHOICES, list: 'hidden', sortable: true },
    {
      source: 'destinationName',
      type: 'text',
      sortable: true,
      render: (pair) => <ConnectionLink id={pair.destinationId} name={pair.destinationName} />,
    },
    { source: 'destinationType', type: 'select', choices: TYPE_CHOICES, list: 'hidden', sortable: true },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true, list: 'hidden' },
  ],
  filters: [{ source: 'search', type: 'search' }],
  list: { rowClick: 'show' },
  actions: { list: [PairCreateButton] },
});
