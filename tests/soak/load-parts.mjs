import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SCALE } from '../bench/lists.mjs';
import { checkCalls, loadIds, measureAlone, runLoad } from './load.mjs';
import { ADMIN, signIn, startServer } from './server.mjs';
import { EXTRA, seedSoakData } from './seed.mjs';

/**
 * The two load parts: the real server on a seeded PostgreSQL (its own schema in the database of
 * SOAK_DATABASE_URL, dropped at the end with its queue schema) and on the embedded database (a
 * fresh DATA_DIR), each browsed by simulated people for `seconds`.
 */

/** SOAK_SEED_SCALE < 1 seeds a fraction of the rows, to try the script quickly; the figures in docs/soak.md are at 1. */
export function applySeedScale(scale) {
  if (!(scale > 0) || scale === 1) return;
  for (const key of Object.keys(SCALE)) if (key !== 'workspaces') SCALE[key] = Math.max(1000, Math.round(SCALE[key] * scale));
  for (const key of Object.keys(EXTRA)) EXTRA[key] = Math.max(50, Math.round(EXTRA[key] * scale));
}

export function seedDescription() {
  const n = (v) => v.toLocaleString('en');
  return (
    `one tenant with ${n(SCALE.users)} users, ${n(SCALE.audits)} system-audit rows, ${n(SCALE.accessEvents)} access events, ` +
    `${n(EXTRA.connections)} connections, ${n(EXTRA.workflows)} workflows, ${n(EXTRA.runs)} ended job runs (a step each) and ` +
    `${n(EXTRA.notifications)} notifications, beside another tenant with ${n(SCALE.otherUsers)} users and ${n(SCALE.otherAudits)} audit rows ` +
    '(tests/bench/lists.mjs seeds users, audits and access events; tests/soak/seed.mjs the rest)'
  );
}

/** One start and stop of the server: it makes and migrates the database the seeding then fills. */
async function migrateThroughServer({ port, env }) {
  const server = startServer({ port, env });
  try {
    await server.ready();
  } finally {
    await server.stop();
  }
}

/**
 * The server on the seeded database: the admin checks that every call of the load answers, times
 * each alone, then the people browse.
 */
async function browseSeeded({ env, port, ids, users, seconds, log, label }) {
  const server = startServer({ port, env });
  try {
    await server.ready();
    const adminToken = await signIn(server.baseUrl, ADMIN);
    const problems = await checkCalls(server.baseUrl, adminToken, ids);
    if (problems.length > 0) throw new Error(`the load's own calls do not answer 2xx:\n${problems.join('\n')}`);
    const alone = await measureAlone(server.baseUrl, adminToken, ids);
    log(`${label}: ${users} people browsing for ${seconds} s…`);
    return await runLoad({ baseUrl: server.baseUrl, users, seconds, ids, alone });
  } finally {
    await server.stop();
  }
}

export async function loadOnPostgres({ databaseUrl, users, seconds, port, log }) {
  const { default: pg } = await import('pg');
  const schema = `soak_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-load-pg-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema };
  try {
    await migrateThroughServer({ port, env });
    await client.query(`set search_path = "${schema}"`);
    const query = async (sql) => (await client.query(sql)).rows;
    log(`Seeding PostgreSQL (schema ${schema})…`);
    const seedStarted = performance.now();
    await seedSoakData((sql) => client.query(sql), query, ADMIN.companyHostname, { simulatedUsers: users });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const ids = await loadIds(query, ADMIN.companyHostname);
    const version = (await query('select version() as v'))[0].v.split(' on ')[0];
    const result = await browseSeeded({ env, port, ids, users, seconds, log, label: 'PostgreSQL' });
    return { ...result, database: version, seedSeconds };
  } finally {
    await client.query(`drop schema if exists "${schema}" cascade`).catch(() => {});
    await client.query(`drop schema if exists "${schema}_jobs" cascade`).catch(() => {});
    await client.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function loadOnPglite({ users, seconds, port, log }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'soak-load-pglite-'));
  try {
    await migrateThroughServer({ port, env: { DATA_DIR: dataDir } });
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pglite = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } });
    const query = async (sql) => (await pglite.query(sql)).rows;
    log('Seeding PGlite…');
    const seedStarted = performance.now();
    await seedSoakData((sql) => pglite.exec(sql), query, ADMIN.companyHostname, { simulatedUsers: users });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const ids = await loadIds(query, ADMIN.companyHostname);
    await pglite.query('CHECKPOINT');
    await pglite.close();
    const result = await browseSeeded({ env: { DATA_DIR: dataDir }, port, ids, users, seconds, log, label: 'PGlite' });
    return { ...result, database: 'embedded (PGlite)', seedSeconds };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
