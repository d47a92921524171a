import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { selectRows, type Db } from '../../server/db/client';
import { queueSchemaOf } from '../../server/jobs/queue';
import { createTestServer, type TestServer } from './harness';
import { call } from './helpers';

/**
 * GET /ready, the readiness probe: 200 only when the database answers, holds every migration this
 * server ships, and the job queue's tables answer; else 503 saying what is not ready. /health,
 * the liveness probe, keeps answering meanwhile.
 */

let server: TestServer;
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await server?.close();
});

const ready = () => call(server, 'GET', '/ready');

/** A statement as the tables' owner: on PostgreSQL the queue's schema is not the server's to change. */
async function asOwner(text: string): Promise<void> {
  if (server.database.kind !== 'postgres') {
    await server.db.execute(sql.raw(text));
    return;
  }
  const client = new pg.Client({ connectionString: server.config.databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const migrationsTable = () => `"${server.config.databaseSchema}".__drizzle_migrations`;
const queueTable = (name: string) =>
  `"${queueSchemaOf(server.database.kind === 'postgres' ? server.config.databaseSchema : 'public')}".${name}`;

describe('GET /ready', () => {
  it('answers ready to anyone, uncached, when the database, its migrations and the queue are', async () => {
    const res = await ready();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'ready' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while a migration of this server is missing, and names it; /health stays ok', async () => {
    const [last] = await selectRows<{ id: number; hash: string; created_at: string }>(
      server.db,
      sql.raw(`select id, hash, created_at::text as created_at from ${migrationsTable()} order by created_at desc limit 1`),
    );
    await asOwner(`delete from ${migrationsTable()} where id = ${Number(last.id)}`);
    try {
      const res = await ready();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().message).toMatch(/^The database lacks migrations of this server: \d{4}_\w+$/);
      expect((await call(server, 'GET', '/health')).statusCode).toBe(200);
    } finally {
      await asOwner(
        `insert into ${migrationsTable()} (id, hash, created_at) values (${Number(last.id)}, '${last.hash.replace(/'/g, "''")}', ${BigInt(last.created_at)})`,
      );
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('is not ready while the job queue’s tables do not answer', async () => {
    await asOwner(`alter table ${queueTable('version')} rename to version_aside`);
    try {
      const res = await ready();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ message: 'The job queue is unavailable' });
    } finally {
      await asOwner(`alter table ${queueTable('version_aside')} rename to version`);
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('is not ready while the database fails, nor while it does not answer in time', async () => {
    const failing = await appOn(brokenDb(() => Promise.reject(new Error('connection refused'))));
    const refused = await failing.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json()).toEqual({ message: 'The database is unavailable' });

    const stuck = await appOn(brokenDb(() => new Promise<never>(() => {})));
    const started = Date.now();
    const late = await stuck.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(late.statusCode, late.body).toBe(503);
    expect(late.json()).toEqual({ message: 'The database is unavailable' });
  }, 15_000);
});

/** Another app on a database whose every statement ends as `outcome` says. */
async function appOn(db: Db): Promise<FastifyInstance> {
  const app = await buildApp({ ...server.app.ctx, db });
  extraApps.push(app);
  await app.ready();
  return app;
}

function brokenDb(outcome: () => Promise<never>): Db {
  const chain: unknown = new Proxy(function () {}, {
    get: (_target, property) =>
      property === 'then' ? (resolve: never, reject: (error: unknown) => void) => outcome().then(resolve, reject) : chain,
    apply: () => chain,
  });
  return chain as Db;
}
