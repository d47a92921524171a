import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type Database } from '../../server/db/client';
import { dropTestSchema } from './harness';

/**
 * Servers started together on a new PostgreSQL database (the cluster, the compose file) each
 * migrate it at start. They take turns: one applies the migrations, the others then find them
 * applied, and every one of them starts.
 */
const databaseUrl = process.env.DATABASE_URL;
const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
const opened: Database[] = [];

async function owner<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const database of opened) await database.close();
  if (databaseUrl) await dropTestSchema(databaseUrl, schema);
});

describe.runIf(databaseUrl)('servers migrating one new database at once', () => {
  it('all start: the schema, roles and migrations are set up once', async () => {
    // Each opening makes the schema and grants the server's roles the use of it, all at once.
    opened.push(...(await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl, schema })))));
    const outcomes = await Promise.allSettled(opened.map((database) => migrateDatabase(database, schema)));
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'migrated'))).toEqual([
      'migrated',
      'migrated',
      'migrated',
    ]);
    const { rows } = await owner((client) =>
      client.query<{ applied: string; distinct: string }>(
        `select count(*) as applied, count(distinct hash) as distinct from "${schema}"."__drizzle_migrations"`,
      ),
    );
    expect(Number(rows[0].applied)).toBeGreaterThan(20);
    expect(rows[0].applied).toBe(rows[0].distinct);
  });
  it("starts beside servers at work: a migrated database's tables are not locked again", async () => {
    // A transaction of another server holds the users table (as any read does) until it ends.
    const busy = new pg.Client({ connectionString: databaseUrl });
    await busy.connect();
    try {
      await busy.query('begin');
      await busy.query(`select count(*) from "${schema}".users`);
      const again = migrateDatabase(opened[0], schema).then(() => 'migrated');
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited for the transaction'), 10_000));
      expect(await Promise.race([again, waited])).toBe('migrated');
    } finally {
      await busy.query('rollback').catch(() => {});
      await busy.end();
    }
  }, 30_000);
});
