import { connectionsContract } from '../../common/contract/connections';
import { sourceDestinationsContract } from '../../common/contract/source-destinations';
import { defineRelatedList } from '../../src/framework/related/declaration';

/** The pairs a connection is in: the pairs contract's list by connection, all at once. */
export const pairsList = defineRelatedList({
  name: 'connections.pairs',
  call: sourceDestinationsContract.related.connection,
});

/** What the connection reaches, discovered now (`GET /connection/{id}/endpoints`), all at once. */
export const endpointsList = defineRelatedList({
  name: 'connections.endpoints',
  call: connectionsContract.actions.endpoints.path,
});
