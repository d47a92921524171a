import { serverFilePath } from '../server-files';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { getTableColumns, getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgTable, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';
import { acquireDataDirLock } from './lock';
import { attachTableWatch, TableWatch } from './table-watch';
import { AT_ONCE, NOTIFY_ALL, PostgresChangeFeed } from './change-feed';
import { StatementCachingClient } from './statement-cache';
import { scopedClientClass, ScopedPool, type WriteTracking } from './scoped-connection';
import { prepareServerRoles, SERVER_ROLE } from './server-role';
import { PROTECT_COMPANY_ROWS_SQL } from './company-rows';

export type Schema = typeof schema;
/** The Drizzle database, the same type on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** What the server writes, table by table: answers kept in memory are dropped by it (table-watch.ts). */
  watch: TableWatch;
  /** The embedded database itself (PGlite), for what runs beside Drizzle on the same connection (the job queue). */
  pglite?: PGlite;
  /** The PostgreSQL server and schema, for what opens connections of its own (the job queue). */
  postgres?: { url: string; schema: string };
  /** The connection pool's use now, for the metrics (PostgreSQL only: PGlite is one connection inside the process). */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * The embedded database's WebAssembly memory now, in bytes, for the metrics (PGlite only). It
   * grows to what its most demanding statement needed, and never shrinks while the process runs.
   */
  embeddedMemoryBytes?: () => number;
  /** Flushes and closes: CHECKPOINT then close on PGlite, ends the pool on PostgreSQL. */
  close(): Promise<void>;
}

/** Extensions the migrations use (pg_trgm: the users search index); every PGlite opened on a data directory needs them. */
export const pgliteExtensions = { pg_trgm };

export const migrationsFolder = serverFilePath('db/migrations');

export interface OpenOptions {
  /** PostgreSQL connection string; when absent, PGlite is used. */
  databaseUrl?: string;
  /** Where the change feed listens (change-feed.ts), when the pool's connections go through a pooler that cannot keep a LISTEN. */
  listenUrl?: string;
  /** Schema to live in on PostgreSQL (created when missing). */
  schema?: string;
  /** Named statements on PostgreSQL, planned once per connection (statement-cache.ts); on unless false. */
  prepare?: boolean;
  /** PGlite data directory; when absent, PGlite runs in memory (tests). */
  dataDir?: string;
  /** Take the data-directory lock (the server does; a test's in-memory database needs none). */
  lock?: boolean;
  /** A pre-built PGlite data directory image to start from (tests clone a migrated one). */
  loadDataDir?: Blob | File;
  /** PGlite's shared buffers in MB (PGLITE_BUFFERS_MB); PostgreSQL's default (128 MB) when absent. */
  buffersMb?: number;
}

/** Databases whose statements run under row-level security, scoped by tenant-scope.ts. */
const rowSecured = new WeakSet<object>();

/** Whether this database's statements are held to the company of their scope by PostgreSQL itself (server-role.ts). */
export function isRowSecured(db: Db): boolean {
  return rowSecured.has(db);
}

export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(
      options.databaseUrl,
      options.schema ?? 'public',
      options.prepare !== false,
      options.listenUrl || options.databaseUrl,
    );
  }
  return openPglite(options);
}

async function openPglite(options: OpenOptions): Promise<Database> {
  const release = options.dataDir && options.lock !== false ? acquireDataDirLock(options.dataDir) : () => {};
  let client: PGlite;
  try {
    const settings = {
      loadDataDir: options.loadDataDir,
      extensions: pgliteExtensions,
      ...(options.buffersMb ? { postgresqlconf: [`shared_buffers = ${options.buffersMb}MB`] } : {}),
    };
    client = options.dataDir ? await PGlite.create(path.join(options.dataDir, 'pglite'), settings) : await PGlite.create(settings);
  } catch (err) {
    release();
    throw new Error(
      `The embedded database in ${options.dataDir ?? 'memory'} could not be opened: ${(err as Error).message}. ` +
        'See docs/operations.md, "Recovering the embedded database".',
      { cause: err },
    );
  }
  const watch = new TableWatch();
  // One connection, in this process: every statement is seen as it runs, and nothing runs between a write and its commit.
  const db = drizzlePglite(client, { schema, logger: watcher(watch, companyTables) }) as unknown as Db;
  attachTableWatch(db, watch);
  watch.resume(AT_ONCE);
  return {
    db,
    kind: 'pglite',
    watch,
    pglite: client,
    embeddedMemoryBytes: () => client.Module.HEAPU8.byteLength,
    async close() {
      try {
        if (!client.closed) {
          await client.query('CHECKPOINT');
          await client.close();
        }
      } finally {
        release();
      }
    },
  };
}

async function openPostgres(databaseUrl: string, schemaName: string, prepare: boolean, listenUrl: string): Promise<Database> {
  const owner = new pg.Client({ connectionString: databaseUrl });
  await owner.connect();
  let systemRole: string;
  try {
    // Servers starting together take turns here too: two grants of one role at once fail ("tuple concurrently updated").
    await lockSchemaSetUp(owner, schemaName);
    if (schemaName !== 'public') await owner.query(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"`);
    systemRole = await prepareServerRoles(owner, schemaName);
  } finally {
    await owner.end();
  }
  const Base = prepare ? StatementCachingClient : pg.Client;
  const watch = new TableWatch();
  // The feed is made once the pool is; the pool's connections announce through it.
  const announcer: { feed?: PostgresChangeFeed } = {};
  const tracking: WriteTracking = { watch, companyTables, announce: (writes) => announcer.feed?.announce(writes) ?? Promise.resolve() };
  const pool = new ScopedPool({
    connectionString: databaseUrl,
    max: 10,
    Client: scopedClientClass(Base, { company: SERVER_ROLE, system: systemRole }, tracking),
    // Every connection works as the server's role, to which the row-level security policies apply.
    options: [schemaName !== 'public' ? `-c search_path=${schemaName}` : '', `-c role=${SERVER_ROLE}`].filter(Boolean).join(' '),
  });
  survivesServerLoss(pool);
  // The pool's connections tell the watch what they write (scoped-connection.ts).
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  attachTableWatch(db, watch);
  let announceFailureSaid = 0;
  const feed = new PostgresChangeFeed(watch, {
    connectionString: listenUrl,
    schema: schemaName,
    // Not through the pool: its connections may all be waiting for this very announcement.
    fallback: (channel, payloads) => notifyOnce(listenUrl, channel, payloads),
    onAnnounceFailure: (error) => {
      // Once a minute at most: the database is down, and every request says so already.
      if (Date.now() - announceFailureSaid < 60_000) return;
      announceFailureSaid = Date.now();
      console.warn(`Writes could not be announced to the other servers (they catch up within their time limits): ${error.message}`);
    },
  });
  announcer.feed = feed;
  // Nothing is kept until the feed listens; a database it cannot listen on yet is tried again in the background.
  await feed.started;
  rowSecured.add(db);
  return {
    db,
    kind: 'postgres',
    watch,
    postgres: { url: databaseUrl, schema: schemaName },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await feed.stop();
      await pool.end();
    },
  };
}

/** Sends announcements on a connection of their own, for when the change feed's is down. */
async function notifyOnce(connectionString: string, channel: string, payloads: string[]): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000, statement_timeout: 2_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(NOTIFY_ALL, [channel, payloads]);
  } finally {
    await client.end().catch(() => {});
  }
}

function ownerPool(databaseUrl: string, schemaName: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    options: schemaName !== 'public' ? `-c search_path=${schemaName}` : undefined,
  });
  survivesServerLoss(pool);
  return pool;
}

/**
 * Keeps a server restart from crashing the process: an idle client that loses its server, and
 * one checked out between two statements (inside a transaction) — pg-pool listens only to idle
 * clients, so without the second the server's termination notice is an unhandled 'error' event.
 * The client's next statement fails (503) and the pool drops it on release.
 */
function survivesServerLoss(pool: pg.Pool): void {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
}

/**
 * The tables as their owner sees them, beside the server's own connections: every company's rows,
 * whatever the scope. For tests and tools that set up and inspect data; the server never reads
 * through it. Writes made through it drop the server's kept answers as the server's own do.
 */
export function openOperatorView(database: Database): { db: Db; close(): Promise<void> } {
  if (database.kind === 'pglite' || !database.postgres) return { db: database.db, close: async () => {} };
  const pool = ownerPool(database.postgres.url, database.postgres.schema, 4);
  // Its writes drop what this process keeps (whole tables: the owner may write any company's rows), not what other servers keep.
  const db = drizzlePg(pool, { schema, logger: watcher(database.watch) }) as unknown as Db;
  attachTableWatch(db, database.watch);
  return { db, close: () => pool.end() };
}

/** Drizzle's logger hook, used to see every statement (transactions included) before it runs. */
function watcher(watch: TableWatch, tables?: ReadonlySet<string>) {
  return { logQuery: (query: string) => void watch.observe(query, tables) };
}

/**
 * Tables of the schema holding company rows under row-level security on PostgreSQL
 * (company-rows.ts): each with a company_id column, and companies itself, whose policy reads its id.
 */
const companyTables: ReadonlySet<string> = new Set([
  getTableName(schema.companies),
  ...(Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .filter((table) => Object.values(getTableColumns(table)).some((column) => column.name === 'company_id'))
    .map((table) => getTableName(table)),
]);

/** Applies the migrations in server/db/migrations that the database has not seen yet. */
export interface MigrateOptions {
  /** SQL run after the migrations, for the tables of entities served beside the built-in ones (tests' sample entities). */
  moduleSql?: string;
}

/** The advisory lock's first key, which with the schema's name says "setting up this schema". */
const SCHEMA_SET_UP_LOCK = 0x44_4f_43_4d;

/**
 * Servers started together on a new database (a cluster, a compose file) set up its schema, roles
 * and migrations one at a time: the others wait here, then find it all done. Held by the owner's
 * connection until it ends, even if this process dies.
 */
async function lockSchemaSetUp(owner: pg.Client, schemaName: string): Promise<void> {
  await owner.query('select pg_advisory_lock($1, hashtext($2))', [SCHEMA_SET_UP_LOCK, schemaName]);
}

export async function migrateDatabase(database: Database, schemaName = 'public', options: MigrateOptions = {}): Promise<void> {
  const config = { migrationsFolder, migrationsSchema: schemaName };
  if (database.kind === 'pglite' || !database.postgres) {
    await migratePglite(database.db as never, config);
    if (options.moduleSql) await database.pglite!.exec(options.moduleSql);
    await database.pglite!.exec(PROTECT_COMPANY_ROWS_SQL);
    return;
  }
  // The tables' owner migrates: the server's own role may not create or alter them.
  const owner = new pg.Client({
    connectionString: database.postgres.url,
    options: schemaName !== 'public' ? `-c search_path=${schemaName}` : undefined,
  });
  owner.on('error', () => {});
  await owner.connect();
  try {
    await lockSchemaSetUp(owner, schemaName);
    await migratePg(drizzlePg(owner) as never, config);
    if (options.moduleSql) await owner.query(options.moduleSql);
    await owner.query(PROTECT_COMPANY_ROWS_SQL);
    await prepareServerRoles(owner, schemaName);
  } finally {
    await owner.end();
  }
}

/** Indexes made only where the database offers pg_trgm (migrations 0005 and 0007): the searches of the big lists. */
export const SEARCH_INDEXES = ['users_search_trgm_idx', 'system_audits_search_trgm_idx', 'access_events_search_trgm_idx'] as const;

/**
 * What the database lacks that the server would use: the search indexes need the pg_trgm
 * extension, which a migration creates only where the database offers it (docs/operations.md).
 */
export async function missingExtras(db: Db): Promise<string[]> {
  const rows = await selectRows<{ name: string }>(
    db,
    sql`select v.name from (values ${sql.join(
      SEARCH_INDEXES.map((name) => sql`(${name}::text)`),
      sql`, `,
    )}) as v(name) where to_regclass(v.name) is null`,
  );
  return rows.map((row) => row.name);
}

/**
 * A column written with its table's name, for a subquery inside a one-table select: there Drizzle
 * writes the outer table's columns bare, and a bare name resolves to the subquery's own table.
 */
export const qualified = (table: string, column: string): SQL => sql`${sql.identifier(table)}.${sql.identifier(column)}`;

/** The rows of a statement written in SQL: both drivers answer `{ rows }`, which Drizzle's shared type does not say. */
export async function selectRows<Row>(db: Pick<Db, 'execute'>, statement: SQL): Promise<Row[]> {
  const result = await db.execute(statement);
  return (result as unknown as { rows: Row[] }).rows;
}

/** A quick liveness probe, used by the health route. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
