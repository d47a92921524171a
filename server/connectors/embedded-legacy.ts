import fs from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, connections } from '../db/schema';
import { asSystem } from '../db/tenant-scope';
import { embeddedRoot } from './embedded';

/**
 * Embedded databases used to live at `DATA_DIR/embedded/<name>`, shared by every company that
 * named them; each company now has its own (`DATA_DIR/companies/<companyId>/embedded/<name>`).
 * At start, before anything opens one, each old directory is moved to the company whose embedded
 * connection names it: the one whose connection was made first, when several do. The others get
 * an empty database of that name, never a copy of someone else's data, and the operator is told
 * who they are. A directory no connection names is left where it is, with a warning.
 */

/** An embedded connection: which company names which database, since when. */
export interface EmbeddedNaming {
  companyId: string;
  /** How the operator knows the company (its host name). */
  company: string;
  database: string;
  createdAt: Date;
}

export function legacyEmbeddedRoot(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'embedded');
}

/** Moves each legacy database to its first namer; answers what moved where. */
export function moveLegacyEmbeddedDatabases(
  dataDir: string,
  namings: readonly EmbeddedNaming[],
  warn: (message: string) => void,
): Array<{ database: string; companyId: string }> {
  const legacy = legacyEmbeddedRoot(dataDir);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(legacy, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const moved: Array<{ database: string; companyId: string }> = [];
  for (const entry of entries.filter((found) => found.isDirectory())) {
    const database = entry.name;
    const from = path.join(legacy, database);
    const namers = namings.filter((naming) => naming.database === database).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const owner = namers[0];
    if (!owner) {
      warn(`The embedded database ${from} is named by no connection: it was left where it is, and no company reaches it.`);
      continue;
    }
    const to = path.join(embeddedRoot(dataDir, owner.companyId), database);
    if (fs.existsSync(to)) {
      warn(`The embedded database ${from} was not moved: company ${owner.company} already has a database at ${to}.`);
      continue;
    }
    fs.mkdirSync(path.dirname(to), { recursive: true });
    try {
      fs.renameSync(from, to);
    } catch (error) {
      // Another process moved it first (a worker started beside the server), or it cannot be moved: say so and go on.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      warn(`The embedded database ${from} could not be moved to ${to}: ${(error as Error).message}`);
      continue;
    }
    moved.push({ database, companyId: owner.companyId });
    const others = [...new Set(namers.filter((naming) => naming.companyId !== owner.companyId).map((naming) => naming.company))];
    if (others.length > 0) {
      const who =
        others.length === 1
          ? `Company ${others[0]} named it too and now has an empty database`
          : `Companies ${others.join(', ')} named it too and now have empty databases`;
      warn(
        `The embedded database "${database}" was moved to company ${owner.company}, whose connection named it first. ${who} of that name.`,
      );
    }
  }
  // An emptied legacy folder goes; one still holding something stays for the operator.
  if (fs.readdirSync(legacy).length === 0) fs.rmdirSync(legacy);
  return moved;
}

/** The embedded connections of every company, oldest first. */
export async function embeddedNamings(db: Db): Promise<EmbeddedNaming[]> {
  // Awaited inside the scope: a query builder run after it returned would read as no company at all.
  const rows = await asSystem(
    'embedded databases move to the companies whose connections name them',
    async () =>
      await db
        .select({
          companyId: connections.companyId,
          company: companies.hostname,
          settings: connections.settings,
          createdAt: connections.createdAt,
        })
        .from(connections)
        .innerJoin(companies, eq(companies.id, connections.companyId))
        .where(eq(connections.type, 'embedded'))
        .orderBy(asc(connections.createdAt)),
  );
  return rows.map((row) => ({
    companyId: row.companyId,
    company: row.company,
    database: String(row.settings.database ?? '').trim(),
    createdAt: row.createdAt,
  }));
}

/** At start: the legacy databases of the data directory moved to their companies (see above). */
export async function moveLegacyEmbeddedDatabasesOf(db: Db, dataDir: string, warn: (message: string) => void): Promise<void> {
  if (!fs.existsSync(legacyEmbeddedRoot(dataDir))) return;
  moveLegacyEmbeddedDatabases(dataDir, await embeddedNamings(db), warn);
}
