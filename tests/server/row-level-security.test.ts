import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin } from './helpers';
import { selectRows, type Db } from '../../server/db/client';
import { systemAudits, users, workspaces } from '../../server/db/schema';
import { asSystem, withTenant, withoutTenant } from '../../server/db/tenant-scope';
import { scopedClientClass, ScopedPool } from '../../server/db/scoped-connection';
import { SERVER_ROLE, SYSTEM_ROLE } from '../../server/db/server-role';

/**
 * Row-level security, the second wall between companies on PostgreSQL (migration 0011): the
 * server's connections run as a role the policies apply to, and see and write only the rows of
 * the company their code runs for — even a statement with no company condition at all.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(Boolean(databaseUrl))('row-level security on PostgreSQL', () => {
  let server: TestServer;
  /** The server's own connections (the policies apply); server.db is the tables' owner. */
  let app: Db;
  let a: { companyId: string; token: string };
  let b: { companyId: string; token: string };

  /** Every table of the schema with a company_id column, and companies. */
  async function tenantTables(): Promise<string[]> {
    const rows = await selectRows<{ name: string }>(
      server.db,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind = 'r'
            and (c.relname = 'companies' or exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id' and not a.attisdropped))
          order by 1`,
    );
    return rows.map((row) => row.name);
  }

  /** The database's own message of a failed statement (Drizzle wraps it in "Failed query: …"). */
  const refusal = async (work: Promise<unknown>): Promise<string> => {
    const error = await work.then(
      () => null,
      (failure: Error & { cause?: Error }) => failure,
    );
    expect(error, 'the statement should have been refused').not.toBeNull();
    return error!.cause?.message ?? error!.message;
  };

  const countOf = async (db: Db, table: string, where = sql`true`) =>
    Number((await selectRows<{ n: string }>(db, sql`select count(*)::text as n from ${sql.identifier(table)} where ${where}`))[0].n);

  beforeAll(async () => {
    server = await createTestServer();
    app = server.database.db;
    const other = await createOtherCompany(server, 'globex');
    a = { companyId: server.company.companyId, token: (await signInAdmin(server)).accessToken! };
    b = { companyId: other.companyId, token: other.adminToken };
    // Each company with a workspace, an audit entry and a notification of its own, through the API.
    for (const [company, name] of [
      [a, 'Acme analytics'],
      [b, 'Globex analytics'],
    ] as const) {
      const res = await call(server, 'POST', '/workspaces', { token: company.token, body: { name, description: `${name} workspace` } });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it('enables a policy on every table that holds a company_id, and on companies', async () => {
    const tables = await tenantTables();
    expect(tables.length).toBeGreaterThan(30);
    const secured = await selectRows<{ name: string; rls: boolean; policies: string }>(
      server.db,
      sql`select c.relname as name, c.relrowsecurity as rls, (select count(*)::text from pg_policy p where p.polrelid = c.oid) as policies
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relname in ${tables}`,
    );
    const unprotected = secured.filter((row) => !row.rls || row.policies === '0').map((row) => row.name);
    expect(unprotected).toEqual([]);
    expect(secured).toHaveLength(tables.length);
  });

  it("runs the server's statements as a role that cannot bypass the policies", async () => {
    const [who] = await withTenant(a.companyId, () =>
      selectRows<{ role: string; superuser: boolean; bypass: boolean }>(
        app,
        sql`select current_user as role, r.rolsuper as superuser, r.rolbypassrls as bypass from pg_roles r where r.rolname = current_user`,
      ),
    );
    expect(who).toEqual({ role: SERVER_ROLE, superuser: false, bypass: false });
    // Turning row security off does not show more: PostgreSQL refuses the statement instead.
    const unguarded = withTenant(a.companyId, () =>
      app.transaction(async (tx) => {
        await tx.execute(sql`set local row_security = off`);
        await tx.execute(sql`select count(*) from users`);
      }),
    );
    expect(await refusal(unguarded)).toMatch(/row-level security/);
  });

  it('runs system work as a role that bypasses the policies and may only read and write rows', async () => {
    const [who] = await asSystem('test', () =>
      selectRows<{ role: string; superuser: boolean; bypass: boolean; creates: boolean }>(
        app,
        sql`select current_user as role, r.rolsuper as superuser, r.rolbypassrls as bypass,
                   has_schema_privilege(current_user, current_schema(), 'CREATE') as creates
            from pg_roles r where r.rolname = current_user`,
      ),
    );
    expect(who).toEqual({ role: SYSTEM_ROLE, superuser: false, bypass: true, creates: false });
    // Back to the server's role for the next company statement on the same connections.
    const [again] = await withTenant(a.companyId, () => selectRows<{ role: string }>(app, sql`select current_user as role`));
    expect(again.role).toBe(SERVER_ROLE);
  });

  it('gives every policy one equality on the session company, which the planner estimates right', async () => {
    const policies = await selectRows<{ table: string; using: string; check: string }>(
      server.db,
      sql`select tablename as table, qual as using, with_check as check from pg_policies where schemaname = current_schema()`,
    );
    expect(policies.length).toBeGreaterThan(30);
    for (const policy of policies) {
      for (const text of [policy.using, policy.check]) {
        expect({ table: policy.table, text }).toEqual({
          table: policy.table,
          text: expect.stringMatching(
            /^\((company_id|id) = \( SELECT \(NULLIF\(current_setting\('app\.company_id'::text, true\), ''::text\)\)::uuid AS "nullif"\)\)$/,
          ),
        });
      }
    }
    // One company's rows of a big table are estimated as the company's share, not a guess a few times larger.
    await server.db.execute(sql`analyze system_audits`);
    const [plan] = await withTenant(a.companyId, () =>
      selectRows<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
        app,
        sql`explain (format json) select id from system_audits where company_id = ${a.companyId}::uuid`,
      ),
    );
    const estimated = plan['QUERY PLAN'][0].Plan['Plan Rows'];
    const actual = await countOf(server.db, 'system_audits', sql`company_id = ${a.companyId}::uuid`);
    expect(estimated).toBeLessThanOrEqual(Math.max(10, actual * 2));
  });

  it('shows no tenant row at all to a statement of no company', async () => {
    for (const table of await tenantTables()) {
      expect({ table, rows: await withoutTenant(() => countOf(app, table)) }).toEqual({ table, rows: 0 });
      // Code that never said whose it is (no scope at all) is the same.
      expect({ table, rows: await countOf(app, table) }).toEqual({ table, rows: 0 });
    }
    // The owner sees both companies' rows: the tables are not empty.
    expect(await countOf(server.db, 'users')).toBeGreaterThanOrEqual(2);
  });

  it("shows a company's statements only its own rows, even without a company condition", async () => {
    for (const table of await tenantTables()) {
      const column = table === 'companies' ? 'id' : 'company_id';
      const foreign = await withTenant(a.companyId, () =>
        countOf(app, table, sql`${sql.identifier(column)} is distinct from ${a.companyId}::uuid`),
      );
      expect({ table, foreign }).toEqual({ table, foreign: 0 });
      const own = await withTenant(a.companyId, () => countOf(app, table));
      expect({ table, own }).toEqual({
        table,
        own: await countOf(server.db, table, sql`${sql.identifier(column)} = ${a.companyId}::uuid`),
      });
    }
    // A select with no where clause at all: only A's users, then only B's.
    const everyoneAsA = await withTenant(a.companyId, async () => await app.select({ companyId: users.companyId }).from(users));
    expect(new Set(everyoneAsA.map((row) => row.companyId))).toEqual(new Set([a.companyId]));
    const everyoneAsB = await withTenant(b.companyId, async () => await app.select({ companyId: users.companyId }).from(users));
    expect(new Set(everyoneAsB.map((row) => row.companyId))).toEqual(new Set([b.companyId]));
    // The system scope (sign-in by host name, sweeps) sees both.
    const everyone = await asSystem('test', async () => await app.select({ companyId: users.companyId }).from(users));
    expect(new Set(everyone.map((row) => row.companyId))).toEqual(new Set([a.companyId, b.companyId]));
  });

  it("refuses to write another company's rows and leaves them as they were", async () => {
    const [bWorkspace] = await server.db.select().from(workspaces).where(eq(workspaces.companyId, b.companyId));
    expect(
      await refusal(
        withTenant(a.companyId, async () => await app.insert(workspaces).values({ companyId: b.companyId, name: 'Planted by A' })),
      ),
    ).toMatch(/row-level security/);
    const updated = await withTenant(
      a.companyId,
      async () => await app.update(workspaces).set({ name: 'Renamed by A' }).where(eq(workspaces.id, bWorkspace.id)).returning(),
    );
    expect(updated).toEqual([]);
    const deleted = await withTenant(
      a.companyId,
      async () => await app.delete(systemAudits).where(eq(systemAudits.companyId, b.companyId)).returning(),
    );
    expect(deleted).toEqual([]);
    // Moving one's own row to the other company is refused too.
    const [aWorkspace] = await server.db.select().from(workspaces).where(eq(workspaces.companyId, a.companyId));
    expect(
      await refusal(
        withTenant(
          a.companyId,
          async () => await app.update(workspaces).set({ companyId: b.companyId }).where(eq(workspaces.id, aWorkspace.id)),
        ),
      ),
    ).toMatch(/row-level security/);
    const [after] = await server.db.select().from(workspaces).where(eq(workspaces.id, bWorkspace.id));
    expect(after).toEqual(bWorkspace);
    expect(await countOf(server.db, 'workspaces', sql`name = 'Planted by A'`)).toBe(0);
  });

  it("answers a search from the trigram index with the ids of the session's company only", async () => {
    const search = (pattern: string) =>
      selectRows<{ ids: string[] }>(app, sql`select company_search_ids('users', ${pattern}, ${pattern}) as ids`);
    const [asA] = await withTenant(a.companyId, () => search('%admin@%'));
    const [asB] = await withTenant(b.companyId, () => search('%admin@%'));
    const [asNobody] = await withoutTenant(() => search('%admin@%'));
    const idsOf = async (companyId: string) =>
      (await server.db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId))).map((row) => row.id);
    expect(new Set(asA.ids)).toEqual(new Set(await idsOf(a.companyId)));
    expect(new Set(asB.ids)).toEqual(new Set(await idsOf(b.companyId)));
    expect(asNobody.ids).toEqual([]);
    expect(await refusal(withTenant(a.companyId, () => selectRows(app, sql`select company_search_ids('companies', '%', '%')`)))).toMatch(
      /no search for list/,
    );
  });

  it("finds through the API only the caller's users, by the index, when the search matches both companies", async () => {
    // Enough users that the search is asked of the index (server/http/search.ts), with one rare
    // name in each company.
    for (const company of [a, b]) {
      const [admin] = await server.db.select({ roleId: users.roleId }).from(users).where(eq(users.companyId, company.companyId)).limit(1);
      await server.db.insert(users).values(
        Array.from({ length: 150 }, (_, i) => ({
          companyId: company.companyId,
          roleId: admin.roleId,
          email: i === 0 ? `zephyrine.quill@${company === a ? 'acme' : 'globex'}.test` : `member${i}@shared.test`,
          firstName: i === 0 ? 'Zephyrine' : 'Member',
          lastName: `Number ${i}`,
          status: 'active',
        })),
      );
    }
    for (const company of [a, b]) {
      const res = await call(server, 'POST', '/users/filter/25/0/DESC/createdAt', { token: company.token, body: { search: 'zephyrine' } });
      expect(res.statusCode, res.body).toBe(200);
      const emails = (res.json().data.rows as Array<{ email: string }>).map((row) => row.email);
      expect(emails).toEqual([`zephyrine.quill@${company === a ? 'acme' : 'globex'}.test`]);
      // A common text is walked in the list's order instead: still only the caller's.
      const common = await call(server, 'POST', '/users/filter/25/0/DESC/createdAt', {
        token: company.token,
        body: { search: 'shared.test' },
      });
      expect(common.statusCode, common.body).toBe(200);
      const own = new Set(
        (await server.db.select({ id: users.id }).from(users).where(eq(users.companyId, company.companyId))).map((row) => row.id),
      );
      const found = common.json().data.rows as Array<{ id: string; email: string }>;
      expect(found).toHaveLength(25);
      expect(found.filter((row) => !own.has(row.id) || !row.email.endsWith('@shared.test'))).toEqual([]);
      // Texts made of letter groups every row has, held in full by a few rows or by none: asked of
      // the index as a whole (server/http/search.ts rowSecuredWay), not walked.
      for (const [search, expected] of [
        ['number 14', ['14', ...Array.from({ length: 10 }, (_, i) => `14${i}`)]],
        ['shared member', []],
      ] as const) {
        const res = await call(server, 'POST', '/users/filter/25/0/DESC/createdAt', { token: company.token, body: { search } });
        expect(res.statusCode, res.body).toBe(200);
        const rows = res.json().data.rows as Array<{ id: string; email: string }>;
        expect(rows.map((row) => row.email.replace(/^member(\d+)@shared\.test$/, '$1')).sort(), search).toEqual([...expected].sort());
        expect(
          rows.filter((row) => !own.has(row.id)),
          search,
        ).toEqual([]);
      }
    }
  });

  it('runs each statement in its own scope on one connection: after a rollback, a failed statement, a release from another scope', async () => {
    // One connection, so every statement below shares it.
    const pool = new ScopedPool({
      connectionString: databaseUrl,
      max: 1,
      Client: scopedClientClass(pg.Client, { company: SERVER_ROLE, system: SYSTEM_ROLE }),
      options: `-c search_path=${server.database.postgres!.schema} -c role=${SERVER_ROLE}`,
    });
    const setting = async () =>
      (
        await pool.query<{ company: string; role: string }>(
          "select current_setting('app.company_id', true) as company, current_user as role",
        )
      ).rows[0];
    try {
      expect(await withTenant(a.companyId, setting)).toEqual({ company: a.companyId, role: SERVER_ROLE });
      expect(await withTenant(b.companyId, setting)).toEqual({ company: b.companyId, role: SERVER_ROLE });
      expect(await asSystem('test', setting)).toEqual({ company: '', role: SYSTEM_ROLE });
      expect(await withoutTenant(setting)).toEqual({ company: '', role: SERVER_ROLE });
      const client = await withTenant(a.companyId, () => pool.connect());
      try {
        await withTenant(a.companyId, () => client.query('BEGIN'));
        // Set inside the transaction: PostgreSQL undoes it on rollback, back to A.
        expect(
          await withTenant(b.companyId, async () => (await client.query("select current_setting('app.company_id') as company")).rows[0]),
        ).toEqual({ company: b.companyId });
        await withTenant(b.companyId, () => client.query('ROLLBACK'));
        expect(
          await withTenant(b.companyId, async () => (await client.query("select current_setting('app.company_id') as company")).rows[0]),
        ).toEqual({ company: b.companyId });
        // A failed statement forgets the scope too, and the next one sets it again.
        expect(await refusal(withTenant(a.companyId, () => client.query('select 1/0')))).toMatch(/division by zero/);
        expect(
          await withTenant(a.companyId, async () => (await client.query("select current_setting('app.company_id') as company")).rows[0]),
        ).toEqual({ company: a.companyId });
      } finally {
        client.release();
      }
      // A statement waiting for the one connection gets it from another scope's release, and still runs in its own.
      const held = await withTenant(a.companyId, () => pool.connect());
      const waiting = withTenant(b.companyId, () => setting());
      await new Promise((resolve) => setTimeout(resolve, 50));
      withTenant(a.companyId, () => held.release());
      expect(await waiting).toEqual({ company: b.companyId, role: SERVER_ROLE });
      // Through the pool's own query (callback style inside pg-pool), the rows follow the scope.
      const usersOf = async () =>
        (await pool.query<{ company_id: string }>('select distinct company_id from users')).rows.map((row) => row.company_id);
      expect(await withTenant(a.companyId, usersOf)).toEqual([a.companyId]);
      expect(await withTenant(b.companyId, usersOf)).toEqual([b.companyId]);
      expect(await withoutTenant(usersOf)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
