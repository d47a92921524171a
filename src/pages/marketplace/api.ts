import { useQuery } from '@tanstack/react-query';
import type { ConnectionType, SettingDeclaration, SettingsFormDeclaration } from '../../../common/connections';
import { apiRequest, type Answer } from '../../../providers/http';
import type { Connection, ConnectionTestResult } from '../../../resources/connections/types';

/**
 * The marketplace's calls (docs/api/marketplace.md) and what the page makes of their answers:
 * integrations filtered and grouped by category, and an integration's settings form as the
 * connection forms take a type's declaration.
 */

/** A card of `GET /marketplace`. */
export interface Integration {
  id: string;
  name: string;
  category: string;
  description: string;
  connectionType: ConnectionType;
  roles: ReadonlyArray<'source' | 'destination'>;
  /** The connection type's declared settings, as the server declares them. */
  settings: Array<SettingDeclaration & { secret: boolean }>;
  docsUrl?: string;
  /** The company has at least one active connection of it. */
  active: boolean;
  connections: number;
  activeConnections: number;
}

/** The body of `POST /marketplace/configure`. */
export interface ConfigureBody {
  integrationId: string;
  name: string;
  description?: string;
  workspaceId?: string | null;
  isSource?: boolean;
  isDestination?: boolean;
  settings: Record<string, unknown>;
}

export interface Configured {
  message?: string;
  connection: Connection;
  test: Pick<ConnectionTestResult, 'ok' | 'latencyMs' | 'detail' | 'message' | 'testedAt'>;
}

export const MARKETPLACE_KEY = ['marketplace'] as const;

export async function getMarketplace(signal?: AbortSignal): Promise<Integration[]> {
  const answer = await apiRequest<Answer<Integration[]>>('/marketplace', { signal });
  return Array.isArray(answer?.data) ? answer.data : [];
}

/** Makes the connection and tests it at once; a connection that fails its test is made all the same (`test.ok` false). */
export async function configureIntegration(body: ConfigureBody): Promise<Configured> {
  const answer = await apiRequest<Answer<Omit<Configured, 'message'>>>('/marketplace/configure', { method: 'POST', body });
  return { message: answer.message, ...answer.data };
}

export function useMarketplace(enabled: boolean) {
  return useQuery({ queryKey: MARKETPLACE_KEY, queryFn: ({ signal }) => getMarketplace(signal), enabled, retry: false });
}

/** The integration as the connection forms take a type's declaration: exactly what the server declares of it. */
export function settingsFormOf(integration: Integration): SettingsFormDeclaration {
  return { type: integration.connectionType, label: integration.name, roles: integration.roles, settings: integration.settings };
}

/** The categories in the order the marketplace answers them, each once. */
export function categoriesOf(integrations: readonly Integration[]): string[] {
  return [...new Set(integrations.map((integration) => integration.category))];
}

/** Those of a category (all when none) whose name, description or category holds every word of the search. */
export function filterIntegrations(
  integrations: readonly Integration[],
  category: string | null,
  search: string,
  categoryName: (id: string) => string,
): Integration[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return integrations.filter((integration) => {
    if (category && integration.category !== category) return false;
    const text = `${integration.name} ${integration.description} ${categoryName(integration.category)}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
