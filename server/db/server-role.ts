import pg from 'pg';

/**
 * The PostgreSQL roles the server's queries run as.
 *
 * - SERVER_ROLE: a company's statements. It may read and write the tables of its schema but not
 *   bypass row-level security (migration 0011), and it owns nothing, so every statement made for a
 *   company is held to that company's rows by PostgreSQL itself.
 * - SYSTEM_ROLE: the few paths that look across companies before they know one (tenant-scope.ts
 *   `asSystem`). It bypasses row-level security, so the policies need no second condition for it
 *   and stay one equality the planner estimates right (migration 0018); it may read and write
 *   rows and nothing more (no DDL, owns nothing).
 *
 * The connection string's user (DATABASE_URL) owns the tables and runs the migrations; every
 * pooled connection opens as SERVER_ROLE (`-c role=`) and is switched per statement to the role of
 * its scope (scoped-connection.ts). Both roles are made here when missing (making one that bypasses
 * row-level security takes a superuser on PostgreSQL 15 and older; docs/operations.md, "The
 * server's database roles"); when it cannot be made, system work runs as the tables' owner, which
 * row-level security does not hold either. The grants are renewed at every start, so a table a
 * migration adds is covered.
 */
export const SERVER_ROLE = 'dataops_console_app';
export const SYSTEM_ROLE = 'dataops_console_system';

/** `set role` to this runs as the connection's own user: the tables' owner. */
export const OWNER_ROLE = 'none';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Prepares both roles; answers the role system work runs as (SYSTEM_ROLE, or the owner's when it cannot be made). */
export async function prepareServerRoles(
  owner: pg.Client,
  schema: string,
  roles = { server: SERVER_ROLE, system: SYSTEM_ROLE },
): Promise<string> {
  await prepareServerRole(owner, schema, roles.server);
  return prepareSystemRole(owner, schema, roles.system);
}

async function prepareServerRole(owner: pg.Client, schema: string, role = SERVER_ROLE): Promise<void> {
  const r = quote(role);
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
          `Run ALTER ROLE ${role} NOSUPERUSER NOBYPASSRLS as a superuser, or see docs/operations.md, "The server's database roles".`,
      );
    }
    await memberAndGrants(owner, schema, role);
    await owner.query('COMMIT');
  } catch (error) {
    await owner.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * The role of system work: made with BYPASSRLS when missing. Answers OWNER_ROLE, with a warning,
 * when the connection's user may not make or grant it; then system statements run as the owner.
 */
async function prepareSystemRole(owner: pg.Client, schema: string, role: string): Promise<string> {
  await owner.query('BEGIN');
  try {
    await owner.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`dataops console role ${role}`]);
    const { rows } = await owner.query<{ rolbypassrls: boolean }>('SELECT rolbypassrls FROM pg_roles WHERE rolname = $1', [role]);
    const r = quote(role);
    if (rows.length === 0) {
      await owner.query(`CREATE ROLE ${r} NOLOGIN NOSUPERUSER BYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT`);
    } else if (!rows[0].rolbypassrls) {
      await owner.query(`ALTER ROLE ${r} BYPASSRLS`);
    }
    await memberAndGrants(owner, schema, role);
    await owner.query('COMMIT');
    return role;
  } catch (error) {
    await owner.query('ROLLBACK').catch(() => {});
    console.warn(
      `Note: the database role ${role} for work across companies could not be prepared (${(error as Error).message}); ` +
        'that work runs as the tables\' owner instead. See docs/operations.md, "The server\'s database roles".',
    );
    return OWNER_ROLE;
  }
}

/** The connection's user may switch to the role, and the role may read and write the schema's rows. */
async function memberAndGrants(owner: pg.Client, schema: string, role: string): Promise<void> {
  const r = quote(role);
  const s = quote(schema);
  const member = await owner.query<{ may: boolean }>("SELECT pg_has_role(current_user, $1, 'MEMBER') AS may", [role]);
  if (!member.rows[0]?.may) await step(`grant the role ${role} to the connection's user`, () => owner.query(`GRANT ${r} TO CURRENT_USER`));
  await step(`grant the role ${role} the use of schema ${schema}`, async () => {
    await owner.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
    await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
    await owner.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
    await owner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`);
    await owner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${r}`);
  });
}

async function step(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw new Error(
      `The server could not ${what}: ${(error as Error).message}. The server's queries run as a role that row-level security applies to; ` +
        `give the user of DATABASE_URL the CREATEROLE right, or have a superuser prepare the role once (docs/operations.md, "The server's database roles").`,
      { cause: error },
    );
  }
}
