import type { Endpoint } from '../types';

/** The catalog of a PostgreSQL-speaking source: its tables and views, and a table's columns. */

/** Catalog reads (endpoints, columns) are small; a source slower than this is not answering. */
export const CATALOG_TIME_LIMIT_MS = 30_000;

/** Tables, views, materialized views and foreign tables of every schema but PostgreSQL's own; partitions are reached through their parent. */
export const ENDPOINTS_SQL = `
  select n.nspname as schema_name, c.relname as table_name, c.relkind as kind, c.reltuples::float8 as row_estimate
  from pg_catalog.pg_class c
  join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'f')
    and not c.relispartition
    and n.nspname <> 'information_schema'
    and n.nspname not like 'pg\\_%'
  order by n.nspname, c.relname`;

/** `$1::regclass` lets PostgreSQL say in its own words that a table is missing. */
export const COLUMNS_SQL = `
  select a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as data_type,
         not a.attnotnull as nullable, row_number() over (order by a.attnum) as position
  from pg_catalog.pg_attribute a
  where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
  order by a.attnum`;

const VIEW_KINDS = new Set(['v', 'm']);

export function endpointOf(row: Record<string, unknown>): Endpoint {
  const schema = String(row.schema_name);
  const table = String(row.table_name);
  const isView = VIEW_KINDS.has(String(row.kind));
  // reltuples is -1 until the table is first vacuumed or analysed: no estimate then.
  const estimate = Number(row.row_estimate);
  return {
    id: `${schema}.${table}`,
    name: table,
    kind: 'table',
    group: schema,
    format: isView ? 'view' : 'table',
    ...(!isView && estimate >= 0 ? { rows: Math.round(estimate) } : {}),
  };
}
