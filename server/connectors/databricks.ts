import { callServiceJson, secureBaseUrl, serviceUrl, wordsWithCode, type HttpOptions, type HttpRequest, type HttpService } from './http';
import { checkedSettings, ConnectorError, type ColumnInfo, type ConnectionConfig, type Connector, type Endpoint } from './types';

/**
 * The `databricks` type: a Databricks workspace reached with a personal access token. Its
 * endpoints are the tables Unity Catalog knows (all catalogs, or the one the connection names),
 * and it describes their columns. The same authenticated calls serve the Databricks Jobs adapter
 * (`databricksRequest`).
 */

export interface DatabricksSettings {
  host: URL;
  token: string;
  catalog: string | undefined;
}

export interface DatabricksOptions {
  http: HttpOptions;
}

/** A Databricks connection: a Connector that also describes a table's columns. */
export interface DatabricksConnector extends Connector {
  columns(endpoint: string): Promise<ColumnInfo[]>;
}

export function databricksSettings(config: ConnectionConfig): DatabricksSettings {
  const { settings, secrets } = checkedSettings(config, 'databricks');
  const catalog = String(settings.catalog ?? '').trim();
  return { host: secureBaseUrl(settings.host, 'host'), token: secrets.token!, catalog: catalog || undefined };
}

/** Databricks says what went wrong as `{ error_code, message }` (REST 2.x) or `{ detail }` (SCIM). */
const DATABRICKS: HttpService = {
  name: 'Databricks',
  errorText(body) {
    try {
      const parsed = JSON.parse(body) as { error_code?: string; message?: string; detail?: string };
      const said = parsed.message ?? parsed.detail;
      // Some answers repeat the HTTP status as their code ("403"), which says nothing more.
      const code = parsed.error_code && !/^\d+$/.test(parsed.error_code) ? parsed.error_code : undefined;
      return wordsWithCode(said, code);
    } catch {
      return undefined;
    }
  },
};

/** One authenticated call to the workspace's REST API, answered as JSON: `databricksRequest(settings, '/api/2.1/jobs/list')`. */
export function databricksRequest<T>(
  settings: DatabricksSettings,
  path: string,
  request: HttpRequest & { query?: Record<string, string | number | undefined> } = {},
  options: HttpOptions,
): Promise<T> {
  const { query, ...rest } = request;
  return callServiceJson<T>(
    DATABRICKS,
    serviceUrl(settings.host, path, query),
    { ...rest, headers: { authorization: `Bearer ${settings.token}`, ...rest.headers } },
    options,
  );
}

export function openDatabricksConnector(config: ConnectionConfig, options: DatabricksOptions): DatabricksConnector {
  const settings = databricksSettings(config);
  const call = <T>(path: string, query?: Record<string, string | number | undefined>) =>
    databricksRequest<T>(settings, path, { query }, options.http);

  /** Every item of a Unity Catalog list, page by page. */
  async function listAll<T>(path: string, field: string, query: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    let pageToken: string | undefined;
    do {
      const page = await call<Record<string, unknown> & { next_page_token?: string }>(path, {
        ...query,
        max_results: 1000,
        page_token: pageToken,
      });
      items.push(...((page[field] as T[] | undefined) ?? []));
      pageToken = page.next_page_token || undefined;
      if (items.length >= MAX_ENDPOINTS) break;
    } while (pageToken);
    return items;
  }

  return {
    async test() {
      const started = performance.now();
      const me = await call<{ userName?: string; displayName?: string }>('/api/2.0/preview/scim/v2/Me');
      return { latencyMs: Math.round(performance.now() - started), detail: me.userName ?? me.displayName ?? 'signed in' };
    },

    async endpoints(): Promise<Endpoint[]> {
      const catalogs = settings.catalog
        ? [settings.catalog]
        : (await listAll<{ name: string }>('/api/2.1/unity-catalog/catalogs', 'catalogs')).map((c) => c.name);
      const endpoints: Endpoint[] = [];
      for (const catalog of catalogs) {
        const schemas = await listAll<{ name: string }>('/api/2.1/unity-catalog/schemas', 'schemas', { catalog_name: catalog });
        for (const schema of schemas) {
          // Every catalog carries information_schema: views of the catalog itself, not data.
          if (schema.name === 'information_schema') continue;
          const tables = await listAll<UnityTable>('/api/2.1/unity-catalog/tables', 'tables', {
            catalog_name: catalog,
            schema_name: schema.name,
          });
          for (const table of tables) {
            endpoints.push({
              id: table.full_name ?? `${catalog}.${schema.name}.${table.name}`,
              name: table.name,
              kind: 'table',
              group: `${catalog}.${schema.name}`,
              format: VIEW_TYPES.has(String(table.table_type)) ? 'view' : 'table',
            });
            if (endpoints.length >= MAX_ENDPOINTS) return endpoints;
          }
        }
      }
      return endpoints;
    },

    async columns(endpoint: string): Promise<ColumnInfo[]> {
      if (endpoint.split('.').length !== 3)
        throw new ConnectorError(`"${endpoint}" is not a table name of the form catalog.schema.table`, 'invalid');
      const table = await call<UnityTable>(`/api/2.1/unity-catalog/tables/${encodeURIComponent(endpoint)}`);
      return (table.columns ?? [])
        .map((column, index) => ({
          name: column.name,
          dataType: column.type_text ?? column.type_name ?? 'unknown',
          nullable: column.nullable ?? true,
          position: (column.position ?? index) + 1,
        }))
        .sort((a, b) => a.position - b.position);
    },

    async close() {},
  };
}

/** A workspace may hold more tables than a person can pick from; the list stops here. */
const MAX_ENDPOINTS = 10_000;

const VIEW_TYPES = new Set(['VIEW', 'MATERIALIZED_VIEW', 'METRIC_VIEW']);

interface UnityTable {
  name: string;
  full_name?: string;
  table_type?: string;
  columns?: Array<{ name: string; type_text?: string; type_name?: string; nullable?: boolean; position?: number }>;
}
