/**
 * How long a backup of the embedded database holds statements, on a database of a few hundred
 * MB written to all along (docs/operations.md, "Backups of the embedded database"):
 *
 *   node --import tsx tests/bench/backup-hold.ts [folder] [rows]
 *
 * The first run fills `folder` (default .tmp/backup-hold) with `rows` rows of 264 bytes (default
 * 1,000,000: about 330 MB); later runs reuse it. One writer inserts a row after another while the
 * backup is taken; the backup is then restored into a fresh folder and its rows counted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { restoreBackup, takeBackup } from '../../server/db/backup';
import { pgliteExtensions } from '../../server/db/client';

const folder = path.resolve(process.argv[2] ?? '.tmp/backup-hold');
const rows = Number(process.argv[3] ?? 1_000_000);
fs.mkdirSync(folder, { recursive: true });

function folderBytes(at: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
    const full = path.join(at, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}

const fresh = !fs.existsSync(path.join(folder, 'pglite', 'PG_VERSION'));
const pglite = await PGlite.create(path.join(folder, 'pglite'), { extensions: pgliteExtensions });
if (fresh) {
  await pglite.exec('create table public.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
  await pglite.exec('create table filler (id int primary key, body text)');
  for (let from = 1; from <= rows; from += 100_000) {
    await pglite.exec(`insert into filler select g, repeat(md5(g::text), 8) from generate_series(${from}, ${from + 99_999}) g`);
  }
  await pglite.exec('create table written (id serial primary key, at timestamptz default now())');
  await pglite.exec('CHECKPOINT');
}
const size = (await pglite.query<{ size: string }>('select pg_size_pretty(pg_database_size(current_database())) as size')).rows[0]!.size;

let writing = true;
let longestWriteMs = 0;
const writer = (async () => {
  while (writing) {
    const started = performance.now();
    await pglite.query('insert into written default values');
    longestWriteMs = Math.max(longestWriteMs, performance.now() - started);
    // A server's writes come from requests, between which timers and sockets get their turn.
    await new Promise((resolve) => setImmediate(resolve));
  }
})();
await new Promise((resolve) => setTimeout(resolve, 1000));

const file = path.join(folder, 'hold.backup');
const started = performance.now();
const backup = await takeBackup(pglite, folder);
const out = fs.openSync(file, 'w');
for await (const chunk of backup.file) fs.writeSync(out, chunk);
fs.closeSync(out);
await backup.discard();
const backupMs = performance.now() - started;
writing = false;
await writer;
await pglite.close();

const restoredInto = path.join(folder, 'restored');
fs.rmSync(restoredInto, { recursive: true, force: true });
const restoreStarted = performance.now();
await restoreBackup(restoredInto, file);
const restoreMs = performance.now() - restoreStarted;
const restored = await PGlite.create(path.join(restoredInto, 'pglite'), { extensions: pgliteExtensions });
const count = (await restored.query<{ n: number }>('select count(*)::int as n from filler')).rows[0]!.n;
await restored.close();

console.log(
  JSON.stringify({
    database: size,
    folderMB: Math.round(folderBytes(path.join(folder, 'pglite')) / 1e6),
    heldMs: Math.round(backup.heldMs),
    longestWriteMs: Math.round(longestWriteMs),
    backupMs: Math.round(backupMs),
    fileMB: Number((fs.statSync(file).size / 1e6).toFixed(1)),
    restoreMs: Math.round(restoreMs),
    restoredRows: count,
  }),
);
