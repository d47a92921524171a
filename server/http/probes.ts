import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Config } from '../config';
import { migrationsFolder, ping, selectRows, type Db } from '../db/client';
import { queueSchemaOf } from '../jobs/queue';

/**
 * What the readiness probe and the metrics read about the server's database, beyond its own
 * tables: the migrations it has applied and the job queue's tables.
 *
 * The queue (pg-boss) lives in a schema of its own, owned by the user of DATABASE_URL, which the
 * server's roles may not read (server/db/server-role.ts). On PostgreSQL these probes therefore
 * read it through one connection of their own as that user, opened when first needed and closed
 * when idle; on the embedded database the server's connection reads everything.
 */

/** No probe waits longer: a load balancer or a scraper must get an answer even from a stuck database. */
export const PROBE_TIME_LIMIT_MS = 2_000;

/** Settles as `work` does, or fails once `ms` have passed (the work itself goes on). */
export function withTimeLimit<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export interface QueueDepth {
  queue: string;
  /** Jobs waiting for a worker, due now or later (pg-boss states created and retry). */
  queued: number;
  /** Jobs a worker holds now. */
  active: number;
}

export interface DatabaseProbe {
  /** Fails when the database does not answer a trivial statement. */
  ping(): Promise<void>;
  /** The migrations this server ships that the database has not applied, by tag, oldest first. */
  missingMigrations(): Promise<string[]>;
  /** Fails when the queue's tables cannot be read. */
  checkQueue(): Promise<void>;
  queueDepth(): Promise<QueueDepth[]>;
  /** Ends the probe's own connection, if it has one; the next probe opens it again. */
  close(): Promise<void>;
}

interface JournalEntry {
  tag: string;
  when: number;
}

let shippedMigrations: JournalEntry[] | undefined;

/** The migrations of server/db/migrations, as drizzle's journal lists them (read once). */
function migrationsShipped(): JournalEntry[] {
  shippedMigrations ??= (
    JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }
  ).entries
    .map(({ tag, when }) => ({ tag, when }))
    .sort((a, b) => a.when - b.when);
  return shippedMigrations;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Probes are kept per server context (several apps of one process may share one), so the
 * readiness route and the metrics of one server share one connection.
 */
const probes = new WeakMap<object, DatabaseProbe>();

export function databaseProbeOf(ctx: { db: Db; config: Config }): DatabaseProbe {
  let probe = probes.get(ctx);
  if (!probe) probes.set(ctx, (probe = openDatabaseProbe(ctx.db, ctx.config)));
  return probe;
}

function openDatabaseProbe(db: Db, config: Config): DatabaseProbe {
  const migrationsTable = `${quote(config.databaseSchema)}.__drizzle_migrations`;
  // The embedded database's queue is always in public_jobs (server/jobs/queue.ts).
  const queueSchema = quote(queueSchemaOf(config.databaseUrl ? config.databaseSchema : 'public'));
  let owner: pg.Pool | undefined;

  /** A statement on the queue's tables: through the owner's connection on PostgreSQL, the server's on PGlite. */
  async function queueRows<Row>(text: string): Promise<Row[]> {
    if (!config.databaseUrl) return selectRows<Row>(db, sql.raw(text));
    owner ??= ownerConnection(config.databaseUrl);
    return (await owner.query(text)).rows as Row[];
  }

  return {
    ping: () => ping(db),

    async missingMigrations() {
      let applied: Set<number>;
      try {
        const rows = await selectRows<{ createdAt: string | number }>(
          db,
          sql.raw(`select created_at as "createdAt" from ${migrationsTable}`),
        );
        applied = new Set(rows.map((row) => Number(row.createdAt)));
      } catch (error) {
        // No migrations table at all: none is applied. Anything else is the database's trouble.
        if ((error as { code?: string }).code === '42P01' || /does not exist/.test((error as Error).message)) applied = new Set();
        else throw error;
      }
      return migrationsShipped()
        .filter((migration) => !applied.has(migration.when))
        .map((migration) => migration.tag);
    },

    async checkQueue() {
      await queueRows(`select version from ${queueSchema}.version limit 1`);
    },

    async queueDepth() {
      const rows = await queueRows<{ queue: string; queued: string | number; active: string | number }>(
        `select name as queue,
                count(*) filter (where state in ('created', 'retry')) as queued,
                count(*) filter (where state = 'active') as active
           from ${queueSchema}.job
          where state in ('created', 'retry', 'active')
          group by name`,
      );
      return rows.map((row) => ({ queue: row.queue, queued: Number(row.queued), active: Number(row.active) }));
    },

    async close() {
      const pool = owner;
      owner = undefined;
      await pool?.end();
    },
  };
}

/** One connection as the queue's owner, ended when idle, each statement held to the probes' time limit by PostgreSQL too. */
function ownerConnection(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: PROBE_TIME_LIMIT_MS,
    application_name: 'dataops-probes',
    options: `-c statement_timeout=${PROBE_TIME_LIMIT_MS}`,
  });
  // A lost server is the probe's failure to report, never the process's crash.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}
