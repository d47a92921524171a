import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DATE_TYPE_OIDS, postgresTableSource, timeLimitError, type PostgresAccess, type PostgresSession } from './postgresql';
import { postgresError } from './sql-errors';
import { ConnectorError, type ConnectionConfig, type TableSource } from './types';

/**
 * The `embedded` connection type: a PostgreSQL database (PGlite) kept in the server's data
 * directory, at `<dataDir>/embedded/<name>`, for samples and small data.
 *
 * PGlite is one connection per process and corrupts a data directory that two instances open,
 * so each directory is opened once in this process and shared by every connector that names it,
 * and statements take turns on it: one statement (with its BEGIN … COMMIT) at a time.
 *
 * PGlite runs a statement on this thread, start to end, and has no timer to interrupt it: while
 * one runs the process does nothing else, and no time limit can stop it. The limit is therefore
 * kept when the statement ends: one that ran past its deadline is rolled back (its changes are not
 * kept) and answered with a ConnectorError "The statement took longer than N s" of kind
 * 'timeout'; one whose deadline passed while it waited for its turn is not run at all.
 */

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export interface EmbeddedOptions {
  /** The server's data directory; undefined keeps the databases in memory, by name (tests). */
  dataDir?: string;
}

interface OpenDatabase {
  pglite: PGlite;
  /** The end of the last statement queued: the next one starts after it. */
  lastTurn: Promise<unknown>;
}

/** Open databases of this process, by directory (or `memory:<name>`). */
const openDatabases = new Map<string, Promise<OpenDatabase>>();

const parsers = Object.fromEntries(DATE_TYPE_OIDS.map((oid) => [oid, (value: string) => value]));

function databaseName(config: ConnectionConfig): string {
  const name = String(config.settings.database ?? '').trim();
  if (!NAME_PATTERN.test(name)) {
    throw new ConnectorError(`settings.database: "${name}" is not a valid name: use letters, digits, - and _ (at most 100)`, 'invalid');
  }
  return name;
}

function openDatabase(name: string, dataDir: string | undefined): Promise<OpenDatabase> {
  const directory = dataDir === undefined ? undefined : path.resolve(dataDir, 'embedded', name);
  const key = directory ?? `memory:${name}`;
  let database = openDatabases.get(key);
  if (!database) {
    database = (async () => {
      try {
        if (directory) fs.mkdirSync(path.dirname(directory), { recursive: true });
        const pglite = directory ? await PGlite.create(directory, { parsers }) : await PGlite.create({ parsers });
        return { pglite, lastTurn: Promise.resolve() };
      } catch (err) {
        openDatabases.delete(key);
        throw new ConnectorError(`The embedded database "${name}" could not be opened: ${(err as Error).message}`, 'failed');
      }
    })();
    openDatabases.set(key, database);
  }
  return database;
}

/** Leaves a value of each of these types as the text PostgreSQL wrote. */
function textParsers(typeIds: readonly number[] = []): Record<number, (value: string) => string> {
  return Object.fromEntries(typeIds.map((typeId) => [typeId, (value: string) => value]));
}

export function pgliteSession(pglite: Pick<PGlite, 'exec' | 'query'> & { isInTransaction?(): boolean }): PostgresSession {
  return {
    async exec(sql) {
      await pglite.exec(sql);
    },
    async query(sql, params) {
      return (await pglite.query<Record<string, unknown>>(sql, [...params])).rows;
    },
    async queryText(sql, params, typeIds) {
      const result = await pglite.query<Array<string | null>>(sql, [...params], { rowMode: 'array', parsers: textParsers(typeIds) });
      return { fields: result.fields.map((field) => ({ name: field.name, typeId: field.dataTypeID, typeModifier: -1 })), rows: result.rows };
    },
    async run(sql) {
      const results = await pglite.exec(sql);
      const last = results[results.length - 1];
      return { command: last?.command ?? '', rowCount: last?.rowCount };
    },
    async copyIn(target, data) {
      const result = await pglite.query(`copy ${target} from '/dev/blob'`, [], { blob: new Blob([data as Uint8Array<ArrayBuffer>]) });
      return result.affectedRows ?? 0;
    },
    async inTransaction() {
      // A transaction's own handle (tabular.ts) is always in one.
      return pglite.isInTransaction?.() ?? true;
    },
  };
}

/** What a script may leave on the shared session, undone: an open transaction, changed settings. */
async function forgetSessionState(pglite: PGlite): Promise<void> {
  if (pglite.isInTransaction()) await pglite.exec('rollback');
  await pglite.exec('reset all');
}

/**
 * Queues `work` after the database's last statement. A statement whose deadline passes while it
 * waits is not run; one that runs past it is rolled back by the shared code (postgresql.ts).
 */
async function takeTurn<T>(database: OpenDatabase, work: (session: PostgresSession, deadline: number) => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const turn = database.lastTurn.then(() => {
    if (Date.now() > deadline) throw timeLimitError(timeoutMs);
    return work(pgliteSession(database.pglite), deadline);
  });
  database.lastTurn = turn.catch(() => {});
  try {
    return await turn;
  } catch (err) {
    throw postgresError(err);
  }
}

export function openEmbeddedConnector(config: ConnectionConfig, options: EmbeddedOptions): TableSource {
  const database = () => openDatabase(databaseName(config), options.dataDir);
  const access: PostgresAccess = {
    enforcesStatementTimeout: false,
    sharedSession: true,
    async withSession(work, timeoutMs, options = {}) {
      const opened = await database();
      if (!options.discardAfter) return takeTurn(opened, work, timeoutMs);
      return takeTurn(
        opened,
        async (session, deadline) => {
          try {
            return await work(session, deadline);
          } finally {
            await forgetSessionState(opened.pglite);
          }
        },
        timeoutMs,
      );
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
      // The database stays open for the other connectors of this process; closeEmbeddedDatabases() closes it.
    },
  };
}

/** Waits for the statements under way, then checkpoints and closes every embedded database of this process (at shutdown). */
export async function closeEmbeddedDatabases(): Promise<void> {
  const databases = [...openDatabases.values()];
  openDatabases.clear();
  await Promise.all(
    databases.map(async (opening) => {
      const database = await opening.catch(() => undefined);
      if (!database) return;
      await database.lastTurn;
      if (database.pglite.closed) return;
      await database.pglite.exec('CHECKPOINT').catch(() => {});
      await database.pglite.close();
    }),
  );
}
