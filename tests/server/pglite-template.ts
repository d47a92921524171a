import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateDatabase, openDatabase, type Database } from '../../server/db/client';

/**
 * An in-memory embedded database, already migrated, for one test server. Creating an embedded
 * database (initdb) and migrating it costs seconds, and nearly every server test file does it: the
 * first file to need one migrates a database once and keeps its data directory as a file under
 * .tmp/, and the others start from a copy of it. The file's name is a hash of everything that
 * shapes the migrated database (the migrations, the database code beside them and the embedded
 * database's version), so a change to any of them makes a new one; the callers still migrate
 * after loading, which applies nothing more unless the copy is behind.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEMPLATES = path.join(ROOT, '.tmp', 'pglite-templates');

let loaded: Promise<Blob> | undefined;

export async function openMigratedPglite(): Promise<Database> {
  loaded ??= templateData();
  return openDatabase({ schema: 'public', loadDataDir: await loaded });
}

async function templateData(): Promise<Blob> {
  const file = path.join(TEMPLATES, `${templateKey()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const database = await openDatabase({ schema: 'public' });
  try {
    await migrateDatabase(database, 'public');
    const data = await database.pglite!.dumpDataDir('none');
    fs.mkdirSync(TEMPLATES, { recursive: true });
    // Written aside and renamed: a file running beside this one never reads half a template.
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, Buffer.from(await data.arrayBuffer()));
    fs.renameSync(partial, file);
    // Copies made for migrations as they were before are of no more use (each is some 40 MB).
    for (const name of fs.readdirSync(TEMPLATES)) {
      if (name.endsWith('.tar') && path.join(TEMPLATES, name) !== file) fs.rmSync(path.join(TEMPLATES, name), { force: true });
    }
    return data;
  } finally {
    await database.close();
  }
}

function templateKey(): string {
  const hash = crypto.createHash('sha256');
  const pglite = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(pglite.version);
  const dbFolder = path.join(ROOT, 'server', 'db');
  for (const entry of fs
    .readdirSync(dbFolder, { recursive: true, withFileTypes: true })
    .sort((a, b) => fullPath(a).localeCompare(fullPath(b)))) {
    if (!entry.isFile()) continue;
    hash.update(path.relative(dbFolder, fullPath(entry)));
    hash.update(fs.readFileSync(fullPath(entry)));
  }
  return hash.digest('hex').slice(0, 16);
}

const fullPath = (entry: fs.Dirent) => path.join(entry.parentPath, entry.name);
