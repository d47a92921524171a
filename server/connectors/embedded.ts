import fs from 'node:fs';
import path from 'node:path';
import { companyRoot } from './company-places';
import { PgliteTurns } from './pglite-host';
import { postgresTableSource, timeLimitError, type PostgresAccess, type PostgresCapabilities } from './postgresql';
import type { ConnectorContext } from './registry';
import { postgresError } from './sql-errors';
import { ConnectorError, type ConnectionConfig, type TableSource } from './types';

/**
 * The `embedded` connection type: a PostgreSQL database (PGlite) the server keeps for a company,
 * at `<dataDir>/companies/<companyId>/embedded/<name>`, for samples and small data. A name is
 * only ever looked up among the company's own databases: another company's database of the same
 * name is out of reach (a name not yet used is a new, empty database of this company).
 *
 * **Limits.** A company may have `embedded.maxPerCompany` databases (EMBEDDED_DATABASES_PER_COMPANY);
 * opening one more is refused. Each open database holds its own PGlite (some 200 MB of memory):
 * one unused for `embedded.idleMs` (EMBEDDED_IDLE_SECONDS) is checkpointed and closed, and opened
 * again on its next use. Without a data directory (tests) databases live in memory, by company
 * and name, and are never closed for idleness (their data would be lost).
 *
 * **Turns and time limits.** PGlite is one connection and corrupts a directory two instances open,
 * so each database is opened once in this process, in a worker thread of its own (pglite-host.ts),
 * shared by every connector that names it, and statements take turns on it: one statement (with
 * its BEGIN … COMMIT) at a time. A statement still running at its deadline is stopped with its
 * thread and answered with a ConnectorError "The statement took longer than N s" of kind
 * 'timeout'; the database is opened again by the next statement, as of its last commit. A
 * statement whose deadline passes while it waits for its turn is answered then, and never run.
 */

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** What the embedded databases need of the connectors' context; without `embedded`, the server's default limits. */
export type EmbeddedContext = Pick<ConnectorContext, 'dataDir'> & Partial<Pick<ConnectorContext, 'embedded'>>;

/** EMBEDDED_DATABASES_PER_COMPANY and EMBEDDED_IDLE_SECONDS when not set (server/config.ts). */
const DEFAULT_LIMITS: ConnectorContext['embedded'] = { maxPerCompany: 10, idleMs: 300_000 };

interface EmbeddedDatabase {
  companyId: string;
  name: string;
  turns: PgliteTurns;
}

/** The databases of this process, by directory (or `memory:<companyId>/<name>`); an idle one stays listed with its thread closed. */
const databases = new Map<string, EmbeddedDatabase>();

function databaseName(config: Pick<ConnectionConfig, 'settings'>): string {
  const name = String(config.settings.database ?? '').trim();
  if (!NAME_PATTERN.test(name)) {
    throw new ConnectorError(`settings.database: "${name}" is not a valid name: use letters, digits, - and _ (at most 100)`, 'invalid');
  }
  return name;
}

/** `<dataDir>/companies/<companyId>/embedded`: the company's databases, one directory each. */
export function embeddedRoot(dataDir: string, companyId: string): string {
  return path.join(companyRoot(dataDir, companyId), 'embedded');
}

function placeOf(context: EmbeddedContext, companyId: string, name: string): { key: string; directory?: string } {
  if (context.dataDir === undefined) return { key: `memory:${companyId}/${name}` };
  const directory = path.join(embeddedRoot(context.dataDir, companyId), name);
  return { key: directory, directory };
}

/** The names of the company's databases: the directories of its root, and those of this process not yet written there (or in memory). */
function databasesOf(context: EmbeddedContext, companyId: string): Set<string> {
  const names = new Set<string>();
  if (context.dataDir !== undefined) {
    try {
      for (const entry of fs.readdirSync(embeddedRoot(context.dataDir, companyId), { withFileTypes: true })) {
        if (entry.isDirectory()) names.add(entry.name);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  for (const database of databases.values()) if (database.companyId === companyId) names.add(database.name);
  return names;
}

function refuseBeyondLimit(context: EmbeddedContext, companyId: string, name: string): void {
  const limit = (context.embedded ?? DEFAULT_LIMITS).maxPerCompany;
  const existing = databasesOf(context, companyId);
  if (existing.has(name) || existing.size < limit) return;
  throw new ConnectorError(
    `This company already has ${limit} embedded database${limit === 1 ? '' : 's'}, the most this server allows (EMBEDDED_DATABASES_PER_COMPANY); ` +
      'use one of them or ask an operator to raise the limit',
    'refused',
  );
}

/**
 * Refuses, before anything is created, a database name that would be one more than the company
 * may have (an existing one is always fine); an invalid name is refused too.
 */
export async function checkEmbeddedDatabase(context: ConnectorContext, companyId: string, name: string): Promise<void> {
  refuseBeyondLimit(context, companyId, databaseName({ settings: { database: name } }));
}

function databaseOf(context: EmbeddedContext, config: ConnectionConfig): EmbeddedDatabase {
  const name = databaseName(config);
  const { key, directory } = placeOf(context, config.companyId, name);
  let database = databases.get(key);
  if (!database) {
    // Counted and listed in one go, on this thread: two new databases opened at once cannot both take the last place.
    refuseBeyondLimit(context, config.companyId, name);
    if (directory) fs.mkdirSync(path.dirname(directory), { recursive: true });
    const turns = new PgliteTurns({
      directory,
      label: `The embedded database "${name}"`,
      idleMs: (context.embedded ?? DEFAULT_LIMITS).idleMs,
      buffersMb: context.embedded?.buffersMb,
    });
    database = { companyId: config.companyId, name, turns };
    databases.set(key, database);
  }
  return database;
}

export function openEmbeddedConnector(config: ConnectionConfig, context: EmbeddedContext): TableSource & PostgresCapabilities {
  const access: PostgresAccess = {
    enforcesStatementTimeout: false,
    sharedSession: true,
    async withSession(work, timeoutMs, options = {}) {
      const { turns } = databaseOf(context, config);
      // Opening (or creating) the database is not the statement's time: its limit starts once it is open.
      await turns.opened();
      try {
        return await turns.limited(
          (owner, deadline) =>
            turns.turn(async (session) => {
              try {
                return await work(session, deadline);
              } finally {
                // A thread stopped meanwhile took the session's state with it.
                if (options.discardAfter && session.alive) await session.forget();
              }
            }, owner),
          { timeoutMs, late: () => timeLimitError(timeoutMs), signal: options.signal },
        );
      } catch (err) {
        throw postgresError(err);
      }
    },
  };
  return {
    ...postgresTableSource(access),
    async test() {
      const started = performance.now();
      const rows = await access.withSession((session) => session.query('select version() as version', []), 15_000);
      return { latencyMs: Math.round(performance.now() - started), detail: String(rows[0]?.version ?? '') };
    },
    async close() {
      // The database stays open for the other connectors of this process; it closes when idle, or with closeEmbeddedDatabases().
    },
  };
}

/** How many embedded databases have a thread open now (each holds its PGlite's memory). */
export function openEmbeddedDatabaseCount(): number {
  return [...databases.values()].filter((database) => database.turns.isOpen).length;
}

/** Waits for the statements under way, then checkpoints and closes every embedded database of this process (at shutdown). */
export async function closeEmbeddedDatabases(): Promise<void> {
  const open = [...databases.entries()];
  await Promise.all(open.map(([, database]) => database.turns.close()));
  // Forgotten once closed (a database in memory is gone with its thread), unless used again meanwhile.
  for (const [key, database] of open) if (databases.get(key) === database && !database.turns.inUse) databases.delete(key);
}
