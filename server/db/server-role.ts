import pg from 'pg';

/**
 * The PostgreSQL role the server's queries run as: it may read and write the tables of its schema
 * but not bypass row-level security (migration 0011), and it owns nothing. The connection string's
 * user (DATABASE_URL) owns the tables and runs the migrations; every pooled connection switches to
 * this role as it opens (`-c role=`), so every statement of a request is subject to the policies.
 *
 * Made here when missing (the connection's user needs CREATEROLE, or a superuser does it once:
 * docs/operations.md, "The server's database role"); the grants are renewed at every start, so a
 * table a migration adds is covered.
 */
export const SERVER_ROLE = 'dataops_console_app';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function prepareServerRole(owner: pg.Client, schema: string, role = SERVER_ROLE): Promise<void> {
  const r = quote(role);
  const s = quote(schema);
  await owner.query('BEGIN');
  try {
    // Two servers starting at once would otherwise race to create and grant.
    await owner.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`dataops console role ${role}`]);
    const { rows } = await owner.query<{ rolsuper: boolean; rolbypassrls: boolean }>(
      'SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1',
      [role],
    );
    if (rows.length === 0) {
      await step(`create the role ${role}`, () =>
        owner.query(`CREATE ROLE ${r} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT`),
      );
    } else if (rows[0].rolsuper || rows[0].rolbypassrls) {
      throw new Error(
        `The database role ${role} may bypass row-level security (it is a superuser or has BYPASSRLS), so it cannot keep companies apart. ` +
          `Run ALTER ROLE ${role} NOSUPERUSER NOBYPASSRLS as a superuser, or see docs/operations.md, "The server's database role".`,
      );
    }
    const member = await owner.query<{ may: boolean }>("SELECT pg_has_role(current_user, $1, 'MEMBER') AS may", [role]);
    if (!member.rows[0]?.may)
      await step(`grant the role ${role} to the connection's user`, () => owner.query(`GRANT ${r} TO CURRENT_USER`));
    await step(`grant the role ${role} the use of schema ${schema}`, async () => {
      await owner.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
      await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
      await owner.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
      await owner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`);
      await owner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${r}`);
    });
    await owner.query('COMMIT');
  } catch (error) {
    await owner.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

async function step(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw new Error(
      `The server could not ${what}: ${(error as Error).message}. The server's queries run as a role that row-level security applies to; ` +
        `give the user of DATABASE_URL the CREATEROLE right, or have a superuser prepare the role once (docs/operations.md, "The server's database role").`,
      { cause: error },
    );
  }
}
