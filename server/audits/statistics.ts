import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { selectRows, type Db } from '../db/client';

/** The tables of the audit, access-event, notification and session lists: the ones that grow without bound. */
export const LIST_TABLES = ['system_audits', 'access_events', 'notifications', 'sessions'] as const;

/** How often the embedded database's tables are checked for stale statistics. */
const CHECK_EVERY_MS = 60_000;

/**
 * Runs VACUUM (ANALYZE) on those of the tables whose planner statistics are missing or stale,
 * with PostgreSQL's own autovacuum rule: more rows changed since the last ANALYZE than 50 plus a
 * tenth of the table. Answers the tables processed.
 *
 * Why: PostgreSQL's autovacuum does this on its own; the embedded PGlite has no autovacuum.
 * Without statistics its planner never learns that one company holds most of a big table, and
 * picks plans that read that company's every row (a bitmap scan and a sort) where reading the
 * newest-first index and stopping after a page costs a millisecond. The VACUUM half marks pages
 * all-visible, which lets the capped counts read the index alone.
 */
export async function analyzeStaleTables(db: Db): Promise<string[]> {
  // Change counters reach the statistics views at most once a second; without this a check
  // right after a burst of writes would not see them.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  // A table never analysed (reltuples < 0) but not empty is stale whatever the counters say:
  // they start from zero in a process that opened a data directory another one filled.
  const found = await selectRows<{ name: string }>(
    db,
    sql`
    select s.relname as name
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
      and s.relname in (${sql.join(
        LIST_TABLES.map((t) => sql`${t}`),
        sql`, `,
      )})
      and (s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) or (c.reltuples < 0 and pg_relation_size(c.oid) > 0))`,
  );
  const stale = found.map((r) => r.name);
  for (const name of stale) await db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
  return stale;
}

function isEmbedded(db: Db): boolean {
  return (db as unknown as { $client?: unknown }).$client instanceof PGlite;
}

/**
 * On the embedded database, checks the list tables when the server is ready (so a data
 * directory filled while the server was down is analysed before the first list) and then every
 * minute. On PostgreSQL autovacuum does this, and nothing is scheduled.
 */
export function keepListStatisticsFresh(app: FastifyInstance, db: Db): void {
  if (!isEmbedded(db)) return;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const check = async () => {
    if (running) return;
    running = true;
    try {
      await analyzeStaleTables(db);
    } catch (err) {
      app.log.warn({ err }, 'could not refresh the statistics of the list tables');
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    await check();
    timer = setInterval(check, CHECK_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
  });
}
