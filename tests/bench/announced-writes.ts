// What announcing every committed write costs the writers (server/db/write-announcements.ts), and
// what a kept answer's barrier costs a read (server/db/change-feed.ts), on PostgreSQL:
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx tests/bench/announced-writes.ts
//
// Eight writers insert single rows for 10 s, each on its own connection and in its own
// transaction, first through the server's database (each commit announced before it returns),
// then through a plain pool to the same table (nothing announced). Then one reader uses a kept
// answer in a loop, each use waiting for a barrier. Prints one JSON line.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { migrateDatabase, openDatabase } from '../../server/db/client';
import { workspaces } from '../../server/db/schema';
import { KeptAnswers } from '../../server/db/table-watch';
import { withTenant } from '../../server/db/tenant-scope';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database the bench may write a schema into.');
const WRITERS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const schema = `bench_announce_${crypto.randomBytes(4).toString('hex')}`;

async function during(seconds: number, work: () => Promise<unknown>, workers: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < end) {
        const start = performance.now();
        await work();
        latencies.push(performance.now() - start);
      }
    }),
  );
  return latencies;
}

function summary(latencies: number[], seconds: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2));
  return { perSecond: Math.round(latencies.length / seconds), p50Ms: at(0.5), p95Ms: at(0.95) };
}

const database = await openDatabase({ databaseUrl, schema });
const plain = new pg.Pool({ connectionString: databaseUrl, max: WRITERS, options: `-c search_path=${schema}` });
try {
  await migrateDatabase(database, schema);
  const companyId = crypto.randomUUID();
  const { db } = database;
  let n = 0;
  const announced = await during(
    SECONDS,
    () => withTenant(companyId, async () => await db.insert(workspaces).values({ companyId, name: `Announced ${++n}` })),
    WRITERS,
  );
  const unannounced = await during(
    SECONDS,
    () => plain.query('insert into workspaces (company_id, name) values ($1, $2)', [companyId, `Plain ${++n}`]),
    WRITERS,
  );
  const kept = new KeptAnswers<number>({ ttlMs: 60_000, maxEntries: 10 });
  const keptReads = await during(
    Math.min(SECONDS, 5),
    () =>
      withTenant(companyId, () =>
        kept.read(db, 'one', ['workspaces'], async () => (await db.select().from(workspaces).where(eq(workspaces.name, 'none'))).length),
      ),
    1,
  );
  console.log(
    JSON.stringify({
      writers: WRITERS,
      announcedWrites: summary(announced, SECONDS),
      plainWrites: summary(unannounced, SECONDS),
      keptReadWithBarrier: summary(keptReads, Math.min(SECONDS, 5)),
    }),
  );
} finally {
  await plain.end();
  const owner = new pg.Client({ connectionString: databaseUrl });
  await owner.connect();
  await owner.query(`drop schema ${schema} cascade`).finally(() => owner.end());
  await database.close();
}
