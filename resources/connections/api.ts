import { useQuery } from '@tanstack/react-query';
import type { Identifier } from 'react-admin';
import { connectionTypeOf, type EndpointKind } from '../../common/connections';
import { connectionsContract } from '../../common/contract/connections';
import { sourceDestinationsContract } from '../../common/contract/source-destinations';
import { callAction, fillPath } from '../../providers/dataProvider';
import { apiRequest, type Answer, type Saved } from '../../providers/http';
import type { Connection, ConnectionTestResult, Endpoint, Integration, IntegrationKind, Pair, PairBody } from './types';

/**
 * The connections area's calls beyond the declared routes and lists: the actions of the
 * connections and pairs contracts (common/contract/connections.ts, source-destinations.ts), and
 * the pickers' page of the connections list. A connection's pairs and endpoints are related lists
 * (./related.ts). Query keys start with the resource name, so react-admin's refresh reloads them
 * with the rest.
 */

const { actions } = connectionsContract;
const pairActions = sourceDestinationsContract.actions;

/**
 * Tests the connection for real and records the result: with the stored settings, or with
 * `settings` laid over them (unsaved edits) without saving them.
 */
export async function testConnection(connectionId: Identifier, settings?: Record<string, unknown>): Promise<Saved<ConnectionTestResult>> {
  const answer = await callAction(actions.test, { values: { id: connectionId }, body: settings ? { settings } : {} });
  return { message: answer.message, data: answer.data };
}

export async function getEndpoints(connectionId: Identifier, signal?: AbortSignal): Promise<Endpoint[]> {
  const answer = await callAction(actions.endpoints, { values: { id: connectionId }, signal });
  return Array.isArray(answer?.data) ? answer.data : [];
}

/** Creates the pair with this id (a new one is made here), or changes it. */
export async function savePair(pairId: string, body: PairBody): Promise<Saved<Pair>> {
  const answer = await callAction(pairActions.save, { values: { id: pairId }, body });
  return { message: answer.message, data: answer.data };
}

export async function deletePair(pairId: string): Promise<string | undefined> {
  return (await callAction(pairActions.delete, { values: { id: pairId } }))?.message;
}

const INTEGRATIONS = { slack: actions.slackIntegration, bitbucket: actions.codeIntegration } as const;

export async function getIntegration(kind: IntegrationKind, signal?: AbortSignal): Promise<Integration> {
  return (await callAction(INTEGRATIONS[kind], { signal })).data;
}

/** The contract's largest page: pickers offer the first thousand connections, newest first. */
export const PICKER_LIMIT = 1000;

export async function getConnections(signal?: AbortSignal): Promise<Connection[]> {
  const path = fillPath(connectionsContract.routes.list, { offset: 0, limit: PICKER_LIMIT });
  const answer = await apiRequest<Answer<{ rows?: Connection[] }>>(path, { signal });
  return Array.isArray(answer?.data?.rows) ? answer.data.rows : [];
}

export const endpointsKey = (connectionId: Identifier) => ['connections', 'endpoints', String(connectionId)];

/** What a connection reaches, discovered now; a source that cannot be reached is an error in its own words. */
export function useEndpoints(connectionId: Identifier | null | undefined) {
  return useQuery({
    queryKey: endpointsKey(connectionId ?? ''),
    queryFn: ({ signal }) => getEndpoints(connectionId!, signal),
    enabled: connectionId !== null && connectionId !== undefined && connectionId !== '',
    staleTime: 60_000,
    retry: false,
  });
}

/** Every connection a picker offers (pairs, table registration). */
export function useConnectionChoices(enabled = true) {
  return useQuery({
    queryKey: ['connections', 'choices'],
    queryFn: ({ signal }) => getConnections(signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

export function useIntegration(kind: IntegrationKind, enabled = true) {
  return useQuery({
    queryKey: ['connections', 'integration', kind],
    queryFn: ({ signal }) => getIntegration(kind, signal),
    enabled,
    retry: false,
  });
}

/** Endpoints that can be registered as tables: a database's tables and views, a folder's or bucket's files. */
const TABLE_KINDS: readonly EndpointKind[] = ['table', 'file'];

export function holdsTables(kind: EndpointKind | undefined): boolean {
  return kind !== undefined && TABLE_KINDS.includes(kind);
}

export function connectionHoldsTables(connection: Pick<Connection, 'type'>): boolean {
  return holdsTables(connectionTypeOf(connection.type)?.endpointKind);
}
