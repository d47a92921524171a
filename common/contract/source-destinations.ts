import { z } from 'zod';
import { CONNECTION_TYPES } from '../connections';
import { pairBody } from '../schemas/connections';
import { timestamp } from './answers';
import { defineAction, defineContract } from './define';
import { connectionsPolicy } from './connections';

/** A source/destination pair, as its lists and its change answer it (docs/api/connections.md). */
export const sourceDestinationRow = z.object({
  id: z.string(),
  /** Given, else `<source> → <destination>`. */
  name: z.string(),
  sourceId: z.string(),
  sourceName: z.string(),
  sourceType: z.enum(CONNECTION_TYPES),
  /** Whether the source connection is active. */
  sourceActive: z.boolean(),
  destinationId: z.string(),
  destinationName: z.string(),
  destinationType: z.enum(CONNECTION_TYPES),
  /** Whether the destination connection is active. */
  destinationActive: z.boolean(),
  /** The pair's own switch: `GET /active/source/destination` lists the active pairs whose two connections are active. */
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type SourceDestination = z.infer<typeof sourceDestinationRow>;

export const sourceDestinationsContract = defineContract({
  name: 'source-destinations',
  row: sourceDestinationRow,
  routes: { list: '/active/source/destination' },
  related: {
    // The pairs one connection is in, by name, all at once (a connection's page lists them).
    connection: '/connection/{id}/source/destination',
  },
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
  actions: {
    /** Makes the pair at this id when there is none (201), else changes it (200). */
    save: defineAction({
      path: '/source/destination/{id}',
      method: 'PUT',
      summary: 'Create (at this id) or change a source/destination pair',
      body: pairBody,
      data: sourceDestinationRow,
      status: [201, 200],
    }),
    delete: defineAction({ path: '/source/destination/{id}', method: 'DELETE', summary: 'Delete a source/destination pair' }),
  },
});
