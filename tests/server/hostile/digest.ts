import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '../../../server/db/client';

/**
 * What a refused request may still write, by design, and is therefore left out of the digest:
 *
 * - access_events: every sign-in attempt, OTP check and password change is recorded, refused ones
 *   most of all (the security log exists for them);
 * - sessions.last_seen_at: the guard refreshes it on any authenticated request, at most once a
 *   minute, whatever the request's outcome.
 *
 * Failed-attempt counters (throttles) carry no company and are not read at all. Everything else
 * a company owns — every table with a company_id column, and the company's own row — is in.
 */
const EXCLUDED_TABLES = new Set(['access_events']);
const EXCLUDED_COLUMNS: Record<string, string[]> = { sessions: ['last_seen_at'] };

/** The tables holding a company_id column, in the schema the connection works in. */
export async function companyTables(db: Db): Promise<string[]> {
  const rows = await selectRows<{ table_name: string }>(
    db,
    sql`select c.table_name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and c.column_name = 'company_id' and t.table_type = 'BASE TABLE'
        order by c.table_name`,
  );
  return rows.map((row) => row.table_name).filter((name) => !EXCLUDED_TABLES.has(name));
}

export interface TenantDigest {
  /** One hash per table, so that a difference names the table that changed. */
  tables: Record<string, string>;
}

/**
 * A hash of every row the company owns, per table, in one statement: each row as JSON (minus the
 * excluded columns), sorted by its text, hashed with md5 inside the database. One round trip keeps
 * it cheap enough to take after every refused request.
 */
export function tenantDigester(db: Db, tables: readonly string[], companyId: string) {
  // The statement is written once with the id inlined; the id is checked before it goes in.
  if (!/^[0-9a-f-]{36}$/.test(companyId)) throw new Error('company id must be a uuid');
  const parts = tables.map((table) => {
    const dropped = (EXCLUDED_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join('');
    return sql.raw(
      `select '${table}' as name, md5(coalesce(string_agg(r.j, E'\\n' order by r.j), '')) as hash ` +
        `from (select (to_jsonb(x)${dropped})::text as j from "${table}" x where x.company_id = '${companyId}') r`,
    );
  });
  parts.push(
    sql.raw(
      `select 'companies' as name, md5(coalesce(string_agg(to_jsonb(c)::text, ''), '')) as hash from companies c where c.id = '${companyId}'`,
    ),
  );
  const statement = sql.join(parts, sql.raw(' union all '));
  return async (): Promise<TenantDigest> => {
    const rows = await selectRows<{ name: string; hash: string }>(db, statement);
    return { tables: Object.fromEntries(rows.map((row) => [row.name, row.hash])) };
  };
}

/** The tables whose digests differ. */
export function changedTables(before: TenantDigest, after: TenantDigest): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names].filter((name) => before.tables[name] !== after.tables[name]).sort();
}
