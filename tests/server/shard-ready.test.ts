import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { createTestServer, type TestServer } from './harness';
import { call } from './helpers';
import { selectRows, type Db } from '../../server/db/client';
import * as schema from '../../server/db/schema';
import { accessEvents, mailOutbox, NO_COMPANY } from '../../server/db/schema';
import { createMailer } from '../../server/mail/mailer';

/**
 * The schema as the server leaves it after its migrations, read from PostgreSQL's catalogues,
 * must be one Citus can distribute by company_id (docs/scaling.md): Citus refuses a primary key or
 * unique index of a distributed table that leaves the distribution column out, a foreign key
 * between distributed tables that does not join on it, and a row whose distribution column is
 * null. Runs on the embedded database and, with DATABASE_URL, on PostgreSQL.
 */

/** The tables that hold no company's rows, and why: each is a reference table, or stays on the coordinator. */
const TABLES_WITHOUT_COMPANY: Record<string, string> = {
  companies: 'the tenants themselves: a host name is unique across the instance, and sign-in finds its company by it',
  pages: 'the catalogue of console pages, the same for every company',
  throttles: 'failed-attempt counters, keyed by host name, email and address before any company is known',
  stripe_events: 'Stripe deliveries already applied, recorded before the company they concern is read',
  __drizzle_migrations: 'the migrations applied to the schema',
};

/** Unique indexes of tables with a company_id that leave it out, and why. */
const UNIQUE_ACROSS_COMPANIES: Record<string, string> = {
  subscriptions_customer_key:
    'subscriptions (one row per company) is a reference table, where one Stripe customer paying for one company only still holds',
};

interface TableRow {
  name: string;
  companyAttnum: number | null;
}

interface UniqueRow {
  tableName: string;
  indexName: string;
  isPrimary: boolean;
  /** The key columns in order; an expression shows as `(expression)`. */
  columns: string;
  hasCompany: boolean;
}

interface ForeignKeyRow {
  tableName: string;
  name: string;
  referenced: string;
  fromCompany: number | null;
  toCompany: number | null;
  /** conkey and confkey, comma-separated, position by position. */
  keys: string;
  referencedKeys: string;
}

interface ExclusionRow {
  tableName: string;
  name: string;
  hasCompany: boolean;
}

const companyAttnum = sql`(select a.attnum from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped)`;

async function readTables(db: Db, schemaName: string): Promise<TableRow[]> {
  const rows = await selectRows<{ name: string; company_attnum: number | null }>(
    db,
    sql`select c.relname as name, ${companyAttnum} as company_attnum
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schemaName} and c.relkind in ('r', 'p') and not c.relispartition
        order by 1`,
  );
  return rows.map((row) => ({ name: row.name, companyAttnum: row.company_attnum === null ? null : Number(row.company_attnum) }));
}

async function readUniqueIndexes(db: Db, schemaName: string): Promise<UniqueRow[]> {
  const rows = await selectRows<{ table_name: string; index_name: string; is_primary: boolean; columns: string; has_company: boolean }>(
    db,
    sql`select c.relname as table_name, i.relname as index_name, x.indisprimary as is_primary,
          (select string_agg(coalesce(a.attname::text, '(expression)'), ',' order by k.ord)
             from unnest(x.indkey::int2[]) with ordinality as k(attnum, ord)
             left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
            where k.ord <= x.indnkeyatts) as columns,
          exists (select 1 from unnest(x.indkey::int2[]) with ordinality as k(attnum, ord)
                   where k.ord <= x.indnkeyatts and k.attnum = ${companyAttnum}) as has_company
        from pg_index x
        join pg_class i on i.oid = x.indexrelid
        join pg_class c on c.oid = x.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schemaName} and x.indisunique
        order by 1, 2`,
  );
  return rows.map((row) => ({
    tableName: row.table_name,
    indexName: row.index_name,
    isPrimary: row.is_primary,
    columns: row.columns,
    hasCompany: row.has_company,
  }));
}

async function readForeignKeys(db: Db, schemaName: string): Promise<ForeignKeyRow[]> {
  const rows = await selectRows<{
    table_name: string;
    name: string;
    referenced: string;
    from_company: number | null;
    to_company: number | null;
    keys: string;
    referenced_keys: string;
  }>(
    db,
    sql`select c.relname as table_name, con.conname as name, f.relname as referenced,
          ${companyAttnum} as from_company,
          (select a.attnum from pg_attribute a where a.attrelid = f.oid and a.attname = 'company_id' and not a.attisdropped) as to_company,
          array_to_string(con.conkey, ',') as keys, array_to_string(con.confkey, ',') as referenced_keys
        from pg_constraint con
        join pg_class c on c.oid = con.conrelid
        join pg_class f on f.oid = con.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where con.contype = 'f' and (n.nspname = ${schemaName} or f.relnamespace = (select oid from pg_namespace where nspname = ${schemaName}))
        order by 1, 2`,
  );
  return rows.map((row) => ({
    tableName: row.table_name,
    name: row.name,
    referenced: row.referenced,
    fromCompany: row.from_company === null ? null : Number(row.from_company),
    toCompany: row.to_company === null ? null : Number(row.to_company),
    keys: row.keys,
    referencedKeys: row.referenced_keys,
  }));
}

async function readExclusions(db: Db, schemaName: string): Promise<ExclusionRow[]> {
  const rows = await selectRows<{ table_name: string; name: string; has_company: boolean }>(
    db,
    sql`select c.relname as table_name, con.conname as name, coalesce(${companyAttnum} = any (con.conkey), false) as has_company
        from pg_constraint con
        join pg_class c on c.oid = con.conrelid
        join pg_namespace n on n.oid = c.relnamespace
        where con.contype = 'x' and n.nspname = ${schemaName}`,
  );
  return rows.map((row) => ({ tableName: row.table_name, name: row.name, hasCompany: row.has_company }));
}

/**
 * What keeps the tables of `schemaName` from being distributed by company_id, one sentence each;
 * empty when nothing does. `withoutCompany` and `uniqueAcross` are the tables and indexes allowed
 * to leave the company out.
 */
async function shardProblems(
  db: Db,
  schemaName: string,
  withoutCompany: Record<string, string>,
  uniqueAcross: Record<string, string>,
): Promise<string[]> {
  const tables = await readTables(db, schemaName);
  const companyOf = new Map(tables.map((t) => [t.name, t.companyAttnum]));
  const unique = await readUniqueIndexes(db, schemaName);
  const problems: string[] = [];
  for (const table of tables) {
    if (table.companyAttnum === null) {
      if (!(table.name in withoutCompany)) problems.push(`${table.name}: no company_id column, and not a listed reference table`);
      continue;
    }
    const primary = unique.find((u) => u.tableName === table.name && u.isPrimary);
    if (!primary) problems.push(`${table.name}: no primary key`);
    else if (!primary.hasCompany) problems.push(`${table.name}: primary key (${primary.columns}) leaves company_id out`);
  }
  for (const index of unique) {
    if (index.isPrimary || index.hasCompany || companyOf.get(index.tableName) == null || index.indexName in uniqueAcross) continue;
    problems.push(`${index.tableName}: unique index ${index.indexName} (${index.columns}) leaves company_id out`);
  }
  for (const key of await readForeignKeys(db, schemaName)) {
    if (key.toCompany === null) continue; // a company's rows pointing at a reference table: allowed
    if (key.fromCompany === null) {
      problems.push(`${key.tableName}: foreign key ${key.name} points from a table of no company at ${key.referenced}, a company table`);
      continue;
    }
    const from = key.keys.split(',').map(Number);
    const to = key.referencedKeys.split(',').map(Number);
    const joinsOnCompany = from.some((attnum, i) => attnum === key.fromCompany && to[i] === key.toCompany);
    if (!joinsOnCompany) problems.push(`${key.tableName}: foreign key ${key.name} to ${key.referenced} does not join on company_id`);
  }
  for (const exclusion of await readExclusions(db, schemaName)) {
    if (!exclusion.hasCompany) problems.push(`${exclusion.tableName}: exclusion constraint ${exclusion.name} leaves company_id out`);
  }
  for (const name of Object.keys(withoutCompany)) {
    if (!companyOf.has(name) || companyOf.get(name) !== null) problems.push(`${name}: listed as a table of no company, and is not one`);
  }
  for (const name of Object.keys(uniqueAcross)) {
    if (!unique.some((u) => u.indexName === name && !u.hasCompany))
      problems.push(`${name}: listed as a unique index across companies, and is not one`);
  }
  return problems.sort();
}

describe('a schema Citus can distribute by company', () => {
  let server: TestServer;
  let schemaName: string;

  beforeAll(async () => {
    server = await createTestServer();
    schemaName = (await selectRows<{ name: string }>(server.db, sql`select current_schema() as name`))[0].name;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('keys every company table with its company, and lets only the listed tables and indexes leave it out', async () => {
    const tables = await readTables(server.db, schemaName);
    expect(tables.filter((t) => t.companyAttnum !== null).length).toBeGreaterThan(30);
    expect(await shardProblems(server.db, schemaName, TABLES_WITHOUT_COMPANY, UNIQUE_ACROSS_COMPANIES)).toEqual([]);
  });

  it('puts id first in the keys of tables with an id, so that a lookup by id alone reads the key', async () => {
    const tables = await readTables(server.db, schemaName);
    const unique = await readUniqueIndexes(server.db, schemaName);
    const withId = await selectRows<{ name: string }>(
      server.db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          join pg_attribute a on a.attrelid = c.oid and a.attname = 'id' and not a.attisdropped
          where n.nspname = ${schemaName} and c.relkind in ('r', 'p')`,
    );
    const companyTables = new Set(tables.filter((t) => t.companyAttnum !== null).map((t) => t.name));
    const keys = withId
      .filter((t) => companyTables.has(t.name))
      .map((t) => [t.name, unique.find((u) => u.tableName === t.name && u.isPrimary)?.columns]);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter(([, columns]) => columns !== 'id,company_id')).toEqual([]);
  });

  it('declares in server/db/schema.ts the primary keys and unique indexes the migrations make', async () => {
    const unique = await readUniqueIndexes(server.db, schemaName);
    const declared: string[] = [];
    const migrated: string[] = [];
    for (const table of Object.values(schema)) {
      if (!is(table, PgTable)) continue;
      const config = getTableConfig(table);
      const primary = config.primaryKeys[0]?.columns ?? config.columns.filter((column) => column.primary);
      declared.push(`${config.name} primary key (${primary.map((column) => column.name).join(',')})`);
      for (const index of config.indexes.filter((i) => i.config.unique)) {
        const columns = index.config.columns.map((column) => ('name' in column && column.name ? column.name : '(expression)'));
        declared.push(`${config.name} unique ${index.config.name} (${columns.join(',')})`);
      }
      for (const index of unique.filter((u) => u.tableName === config.name)) {
        migrated.push(
          index.isPrimary ? `${config.name} primary key (${index.columns})` : `${config.name} unique ${index.indexName} (${index.columns})`,
        );
      }
    }
    expect(declared.length).toBeGreaterThan(40);
    expect(migrated.sort()).toEqual(declared.sort());
  });

  it('names every table in the distribution plan of docs/scaling.md, distributed by company or copied whole', async () => {
    const plan = fs.readFileSync(new URL('../../docs/scaling.md', import.meta.url), 'utf8');
    const named = (fn: string) => [...plan.matchAll(new RegExp(`SELECT ${fn}\\('(\\w+)'`, 'g'))].map((m) => m[1]);
    const distributed = named('create_distributed_table');
    const whole = [...named('create_reference_table'), ...named('citus_add_local_table_to_metadata')];
    const tables = await readTables(server.db, schemaName);
    const withCompany = tables.filter((t) => t.companyAttnum !== null).map((t) => t.name);
    expect(distributed.length).toBeGreaterThan(30);
    expect([...distributed, ...whole].sort()).toEqual(
      tables
        .map((t) => t.name)
        .filter((name) => name !== '__drizzle_migrations')
        .sort(),
    );
    expect(distributed.filter((name) => !withCompany.includes(name))).toEqual([]);
    // Only the one table whose unique index holds across companies is copied whole despite its company_id.
    expect(whole.filter((name) => withCompany.includes(name))).toEqual(['subscriptions']);
  });

  it('flags what Citus would refuse in tables made for the purpose', async () => {
    const probe = `shard_probe_${crypto.randomBytes(4).toString('hex')}`;
    const q = (name: string) => `"${probe}"."${name}"`;
    await server.db.execute(sql.raw(`create schema "${probe}"`));
    try {
      for (const statement of [
        `create table ${q('catalogue')} (key text primary key)`,
        // What a table of companies' rows should look like, and a foreign key between two of them.
        `create table ${q('fine')} (id uuid not null, company_id uuid not null, code text not null, primary key (id, company_id))`,
        `create unique index fine_code_key on ${q('fine')} (company_id, lower(code))`,
        `create table ${q('fine_links')} (id uuid not null, company_id uuid not null, fine_id uuid not null, page_key text references ${q('catalogue')} (key), primary key (id, company_id),
           foreign key (fine_id, company_id) references ${q('fine')} (id, company_id))`,
        // Keyed by id alone; a unique index across companies; a foreign key that ignores the company.
        `create table ${q('loose')} (id uuid primary key, company_id uuid not null, code text not null, fine_id uuid)`,
        `create unique index loose_code_key on ${q('loose')} (code)`,
        `create unique index fine_id_key on ${q('fine')} (id)`,
        `alter table ${q('loose')} add constraint loose_fine_fkey foreign key (fine_id) references ${q('fine')} (id)`,
        // No primary key at all; a table of no company that is not listed; one pointing at a company table.
        `create table ${q('keyless')} (company_id uuid, note text)`,
        `create table ${q('notes')} (id uuid primary key, fine_id uuid, fine_company uuid, foreign key (fine_id, fine_company) references ${q('fine')} (id, company_id))`,
      ]) {
        await server.db.execute(sql.raw(statement));
      }
      const problems = await shardProblems(server.db, probe, { catalogue: 'a catalogue every company reads', missing: 'not there' }, {});
      expect(problems).toEqual([
        'fine: unique index fine_id_key (id) leaves company_id out',
        'keyless: no primary key',
        'loose: foreign key loose_fine_fkey to fine does not join on company_id',
        'loose: primary key (id) leaves company_id out',
        'loose: unique index loose_code_key (code) leaves company_id out',
        'missing: listed as a table of no company, and is not one',
        'notes: foreign key notes_fine_id_fine_company_fkey points from a table of no company at fine, a company table',
        'notes: no company_id column, and not a listed reference table',
      ]);
    } finally {
      await server.db.execute(sql.raw(`drop schema "${probe}" cascade`));
    }
  });

  it('records what belongs to no company under NO_COMPANY, which a key and a distribution column accept', async () => {
    const ip = '198.51.100.77';
    const email = `nobody-${crypto.randomBytes(3).toString('hex')}@nowhere.test`;
    const signin = await call(server, 'POST', '/signin', {
      body: { email, password: 'Whatever-123', companyHostname: 'no-such-company' },
      ip,
    });
    expect(signin.statusCode).toBe(401);
    const events = await server.db
      .select({ companyId: accessEvents.companyId, reason: accessEvents.reason })
      .from(accessEvents)
      .where(eq(accessEvents.email, email));
    expect(events).toEqual([{ companyId: NO_COMPANY, reason: 'unknown_company' }]);

    const mailer = createMailer(server.database.db, { from: 'DataOps Console <no-reply@dataops.test>' });
    const subject = `Instance notice ${crypto.randomBytes(3).toString('hex')}`;
    const sent = await mailer.send({ companyId: null, to: 'operator@dataops.test', subject, text: 'Hello', kind: 'notice' });
    expect(sent.status).toBe('stored');
    const stored = await server.db
      .select({ companyId: mailOutbox.companyId })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.subject, subject), eq(mailOutbox.id, sent.id)));
    expect(stored).toEqual([{ companyId: NO_COMPANY }]);
  });
});
