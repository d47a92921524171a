import { sql } from 'drizzle-orm';
import { selectRows, type Db } from '../db/client';

/** The (table, column) pairs whose (company_id, column, …) index makes a loose scan cheap. */
type LooseScan = { table: 'system_audits'; column: 'model' | 'operation' };

/**
 * The distinct values of an indexed column for one company, by a "loose index scan": one index
 * probe per distinct value (`… where value > previous order by value limit 1`), so a million
 * rows with a dozen models cost a dozen probes, where SELECT DISTINCT would read every entry.
 */
export async function distinctByLooseScan<S extends LooseScan>(
  db: Db,
  table: S['table'],
  column: S['column'],
  companyId: string,
): Promise<string[]> {
  const t = sql.identifier(table);
  const c = sql.identifier(column);
  const rows = await selectRows<{ value: string }>(
    db,
    sql`
    with recursive found(value) as (
      (select ${c} from ${t} where company_id = ${companyId} order by ${c} limit 1)
      union all
      select (select ${c} from ${t} where company_id = ${companyId} and ${c} > found.value order by ${c} limit 1)
      from found where found.value is not null
    )
    select value from found where value is not null`,
  );
  return rows.map((r) => r.value);
}
