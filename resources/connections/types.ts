import type { ConnectionCategory, ConnectionType, EndpointKind } from '../../common/connections';

/** A connection as the server answers it (docs/api/connections.md): secrets never, only which are set. */
export interface Connection {
  id: string;
  name: string;
  description: string | null;
  type: ConnectionType;
  typeLabel: string;
  category: ConnectionCategory;
  isSource: boolean;
  isDestination: boolean;
  workspaceId: string | null;
  workspaceName: string | null;
  /** The plain settings; secret ones are never answered. */
  settings: Record<string, unknown>;
  /** The keys of the secret settings that hold a stored value. */
  secretsSet: string[];
  isActive: boolean;
  lastTestedAt: string | null;
  lastTestOk: boolean | null;
  lastTestLatencyMs: number | null;
  lastTestMessage: string | null;
  pairCount: number;
  tableCount: number;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer of a test (`POST /connection/{id}/configure`): a failure is still an answer, with `ok: false`. */
export interface ConnectionTestResult {
  ok: boolean;
  latencyMs: number | null;
  /** What the source says of itself (a version, an account, a count of files). */
  detail: string | null;
  /** The driver's own message when it failed. */
  message: string | null;
  testedAt: string;
}

/** What a connection reaches (`GET /connection/{id}/endpoints`). */
export interface Endpoint {
  /** The stable reference a table is registered by. */
  id: string;
  name: string;
  kind: EndpointKind;
  group?: string | null;
  format?: string | null;
  size?: number | null;
  rows?: number | null;
}

/** A source/destination pair. */
export interface Pair {
  id: string;
  name: string;
  sourceId: string;
  sourceName: string;
  sourceType: ConnectionType;
  destinationId: string;
  destinationName: string;
  destinationType: ConnectionType;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PairBody {
  name?: string;
  sourceId: string;
  destinationId: string;
  isActive?: boolean;
}

/** `GET /connection/slack/integration` and `GET /connection/bitbucket/integration`. */
export interface Integration {
  configured: boolean;
  active: boolean;
  connections: { id: string; name: string; isActive: boolean; lastTestOk: boolean | null; lastTestedAt: string | null }[];
}

export type IntegrationKind = 'slack' | 'bitbucket';
