import { callServiceJson, secureBaseUrl, serviceUrl, wordsWithCode, type HttpOptions, type HttpRequest, type HttpService } from './http';
import { runDatabricksQuery } from './databricks-sql';
import {
  checkedSettings,
  ConnectorError,
  type ColumnInfo,
  type ConnectionConfig,
  type Endpoint,
  type QueryOptions,
  type TableSource,
} from './types';

/**
 * The `databricks` type: a Databricks workspace reached with a personal access token. Its
 * endpoints are the tables Unity Catalog knows (all catalogs, or the one the connection names),
 * and it describes their columns. With a SQL warehouse named, data-quality checks run on it
 * (databricks-sql.ts); without one, tables are registered and described, and a query says a
 * warehouse is needed. The same authenticated calls serve the Databricks Jobs adapter
 * (`databricksRequest`).
 */

export interface DatabricksSettings {
  host: URL;
  token: string;
  catalog: string | undefined;
  /** The SQL warehouse that runs queries, if the connection names one. */
  warehouseId: string | undefined;
}

export interface DatabricksOptions {
  http: HttpOptions;
}

export function databricksSettings(config: ConnectionConfig): DatabricksSettings {
  const { settings, secrets } = checkedSettings(config, 'databricks');
  const catalog = String(settings.catalog ?? '').trim();
  const warehouseId = String(settings.warehouseId ?? '').trim();
  return {
    host: secureBaseUrl(settings.host, 'host'),
    token: secrets.token!,
    catalog: catalog || undefined,
    warehouseId: warehouseId || undefined,
  };
}

const NO_WAREHOUSE = 'Name a SQL warehouse on this connection to run checks on it';

/** A Databricks identifier, quoted: backticks, a backtick inside doubled. */
export const quoteDatabricks = (identifier: string): string => `\`${identifier.replace(/`/g, '``')}\``;

/** `catalog.schema.table`, each part quoted; anything else is not a Unity Catalog table. */
function databricksTableName(endpoint: string): string {
  const parts = endpoint.split('.');
  if (parts.length !== 3 || parts.some((part) => part === ''))
    throw new ConnectorError(`"${endpoint}" is not a table name of the form catalog.schema.table`, 'invalid');
  return parts.map(quoteDatabricks).join('.');
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

export function openDatabricksConnector(config: ConnectionConfig, options: DatabricksOptions): TableSource {
  const settings = databricksSettings(config);
  const call = <T>(path: string, query?: Record<string, string | number | undefined>) =>
    databricksRequest<T>(settings, path, { query }, options.http);

  /**
   * Every item of a Unity Catalog list, page by page. max_results=0 asks for the server's own page
   * size, as the API recommends (a list without it is the unpaginated form, to be retired); a page
   * may be empty and still name a next one, and only a missing next_page_token ends the list.
   */
  async function listAll<T>(path: string, field: string, query: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    let pageToken: string | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages += 1) {
      const page = await call<Record<string, unknown> & { next_page_token?: string }>(path, {
        ...query,
        max_results: 0,
        page_token: pageToken,
      });
      const found = page[field];
      if (Array.isArray(found)) items.push(...(found as T[]));
      // A workspace that hands back the token it was given would be asked for the same page forever.
      const next = typeof page.next_page_token === 'string' && page.next_page_token !== '' ? page.next_page_token : undefined;
      if (!next || next === pageToken || items.length >= MAX_ENDPOINTS) break;
      pageToken = next;
    }
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
          // The list needs no columns nor properties: a schema's tables would carry all of theirs.
          const tables = await listAll<UnityTable>('/api/2.1/unity-catalog/tables', 'tables', {
            catalog_name: catalog,
            schema_name: schema.name,
            omit_columns: 'true',
            omit_properties: 'true',
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
      databricksTableName(endpoint);
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

    dialect: 'databricks',
    quote: quoteDatabricks,
    tableName: databricksTableName,

    async query<Row extends Record<string, unknown>>(sql: string, params: readonly unknown[], queryOptions: QueryOptions) {
      const { warehouseId } = settings;
      if (!warehouseId) throw new ConnectorError(NO_WAREHOUSE, 'invalid');
      const workspace = <T>(path: string, request: HttpRequest = {}) => databricksRequest<T>(settings, path, request, options.http);
      return runDatabricksQuery<Row>({ call: workspace, warehouseId }, sql, params, queryOptions);
    },

    async close() {},
  };
}

/** A workspace may hold more tables than a person can pick from; the list stops here. */
const MAX_ENDPOINTS = 10_000;
/** Pages of one list at most: a list of empty pages that never ends stops here. */
const MAX_PAGES = 1_000;

const VIEW_TYPES = new Set(['VIEW', 'MATERIALIZED_VIEW', 'METRIC_VIEW']);

interface UnityTable {
  name: string;
  full_name?: string;
  table_type?: string;
  columns?: Array<{ name: string; type_text?: string; type_name?: string; nullable?: boolean; position?: number }>;
}
