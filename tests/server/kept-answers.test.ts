import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { rolePolicies, roles, sessions, users, workspaces } from '../../server/db/schema';
import type { Database } from '../../server/db/client';
import { asSystem, withTenant } from '../../server/db/tenant-scope';
import { writesChannel } from '../../server/db/write-announcements';
import { cappedCount } from '../../server/http/lists';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, inviteUser, sessionIdOf, signInAdmin, signInFully, userWithPolicies } from './helpers';

/**
 * Counts, session checks, grants and role names are kept in memory between requests and dropped
 * the moment a write to what they were read from is announced (server/db/table-watch.ts): a
 * table's rows of the company they were read for. These tests prove both halves: the second
 * request does not ask the database again, and a write is seen by the very next request, however
 * it was made; and that writes elsewhere (another company, another table) leave them kept.
 */
let server: TestServer;
let adminToken: string;
let statements: string[] = [];

/** Sees every statement the server's own connections are asked to run (outside transactions). */
function recordStatements(database: Database): void {
  const client = (database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const first = args[0];
    statements.push(typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? ''));
    return query(...args);
  };
}

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  recordStatements(server.database);
  for (const n of [1, 2, 3]) await inviteUser(server, adminToken, { email: `kept${n}@example.test` });
});
afterAll(() => server.close());
beforeEach(() => {
  statements = [];
});

const ran = (pattern: RegExp) => statements.filter((s) => pattern.test(s)).length;
const COUNT = /^select count\(\*\) from \(select 1 from "users"/;
const SESSION_LOOKUP = /from "sessions" inner join "users"/;

describe('list counts', () => {
  it('are counted once while paging, and again after a write to the table', async () => {
    const first = await call(server, 'GET', '/users/0/1', { token: adminToken });
    expect(first.statusCode, first.body).toBe(200);
    const before = first.json().data.count as number;
    expect(ran(COUNT)).toBe(1);

    statements = [];
    for (const offset of [1, 2]) {
      const page = await call(server, 'GET', `/users/${offset}/1`, { token: adminToken });
      expect(page.json().data.count).toBe(before);
    }
    expect(ran(COUNT)).toBe(0);

    await inviteUser(server, adminToken, { email: 'kept-new@example.test' });
    statements = [];
    const after = await call(server, 'GET', '/users/0/1', { token: adminToken });
    expect(after.json().data.count).toBe(before + 1);
    expect(ran(COUNT)).toBe(1);
  });

  it('are kept per filter: another filter counts on its own', async () => {
    await call(server, 'POST', '/users/filter/1/0/DESC/createdAt', { token: adminToken, body: { status: 'invited' } });
    statements = [];
    const invited = await call(server, 'POST', '/users/filter/1/0/DESC/createdAt', { token: adminToken, body: { status: 'invited' } });
    expect(ran(COUNT)).toBe(0);
    const searched = await call(server, 'POST', '/users/filter/1/0/DESC/createdAt', {
      token: adminToken,
      body: { status: 'invited', search: 'kept' },
    });
    expect(ran(COUNT)).toBe(1);
    expect(invited.json().data.count).toBeGreaterThanOrEqual(searched.json().data.count);
  });

  it('follow a write made straight to the database', async () => {
    const first = (await call(server, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
    await server.db.delete(users).where(eq(users.email, 'kept3@example.test'));
    const next = (await call(server, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
    expect(next).toBe(first - 1);
  });
});

describe('session checks', () => {
  it('ask the database once, not on every request', async () => {
    await call(server, 'GET', '/users/0/1', { token: adminToken });
    statements = [];
    await call(server, 'GET', '/users/0/1', { token: adminToken });
    await call(server, 'GET', '/system/audits/0/1', { token: adminToken });
    expect(ran(SESSION_LOOKUP)).toBe(0);
  });

  it('see a logout on the very next request', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'kept-logout@example.test' });
    const { accessToken } = await signInFully(server, member);
    expect((await call(server, 'GET', '/user/profile', { token: accessToken })).statusCode).toBe(200);
    expect((await call(server, 'GET', '/user/profile', { token: accessToken })).statusCode).toBe(200);
    expect((await call(server, 'PUT', '/session/logout', { token: accessToken })).statusCode).toBe(200);
    const after = await call(server, 'GET', '/user/profile', { token: accessToken });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Invalid JWT token');
  });

  it('see a session ended or a user deactivated straight in the database', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'kept-ended@example.test' });
    const first = await signInFully(server, member);
    expect((await call(server, 'GET', '/user/profile', { token: first.accessToken })).statusCode).toBe(200);
    await server.db
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(eq(sessions.id, sessionIdOf(first.accessToken!)));
    expect((await call(server, 'GET', '/user/profile', { token: first.accessToken })).statusCode).toBe(401);

    const second = await signInFully(server, member);
    expect((await call(server, 'GET', '/user/profile', { token: second.accessToken })).statusCode).toBe(200);
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, member.id));
    expect((await call(server, 'GET', '/user/profile', { token: second.accessToken })).statusCode).toBe(401);
  });
});

describe('grants and role names', () => {
  it('take a policy change into account on the very next request', async () => {
    const reader = await userWithPolicies(server, adminToken, 'kept-reader@example.test', [{ resource: 'users', actions: ['read'] }]);
    expect((await call(server, 'GET', '/users/0/1', { token: reader.token })).statusCode).toBe(200);
    expect((await call(server, 'GET', '/users/0/1', { token: reader.token })).statusCode).toBe(200);
    await server.db
      .update(rolePolicies)
      .set({ actions: [] })
      .where(and(eq(rolePolicies.roleId, reader.roleId), eq(rolePolicies.resource, 'users')));
    const denied = await call(server, 'GET', '/users/0/1', { token: reader.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
  });

  it('show a renamed role at once in the users list', async () => {
    const member = await inviteUser(server, adminToken, { email: 'kept-renamed@example.test' });
    const filter = { search: 'kept-renamed' };
    const listed = await call(server, 'POST', '/users/filter/10/0/DESC/createdAt', { token: adminToken, body: filter });
    const [row] = listed.json().data.rows;
    expect(row).toMatchObject({ id: member.id, roleName: 'Member', isAdmin: false });
    await server.db.update(roles).set({ name: 'Analyst' }).where(eq(roles.id, row.roleId));
    const renamed = await call(server, 'POST', '/users/filter/10/0/DESC/createdAt', { token: adminToken, body: filter });
    expect(renamed.json().data.rows[0]).toMatchObject({ id: member.id, roleName: 'Analyst' });
  });
});

describe('what is written elsewhere', () => {
  it('leaves kept answers of this company alone: another company, another table', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'kept-elsewhere@example.test' });
    const { accessToken } = await signInFully(server, member);
    const list = () => call(server, 'GET', '/users/0/1', { token: adminToken });
    const profile = () => call(server, 'GET', '/user/profile', { token: accessToken });
    const count = (await list()).json().data.count as number;
    expect((await profile()).statusCode).toBe(200);

    // A company signs up and its admin signs in, fails a sign-in and asks for a reset link, all
    // through the public routes that look across companies: its row, roles, admin, session,
    // events, token and mail are written, each as that company's.
    const signup = {
      companyName: 'Kept elsewhere',
      companyHostname: 'kept-elsewhere',
      adminEmail: 'admin@kept-elsewhere.test',
      adminPassword: 'Quite-secret-9',
      firstName: 'Other',
      lastName: 'Admin',
    };
    expect((await call(server, 'POST', '/company', { body: signup })).statusCode).toBe(201);
    const other = { email: signup.adminEmail, companyHostname: signup.companyHostname };
    expect((await call(server, 'POST', '/signin', { body: { ...other, password: signup.adminPassword } })).statusCode).toBe(200);
    expect((await call(server, 'POST', '/signin', { body: { ...other, password: 'Not-the-one-1' } })).statusCode).toBe(401);
    expect((await call(server, 'POST', '/user/password/forgot', { body: other })).statusCode).toBe(200);
    // A company that does not exist: its refused sign-in is an event of no company.
    const nowhere = { ...other, companyHostname: 'kept-nowhere', password: signup.adminPassword };
    expect((await call(server, 'POST', '/signin', { body: nowhere })).statusCode).toBe(401);
    // This company's other tables.
    await withTenant(server.company.companyId, async () => {
      await server.database.db.insert(workspaces).values({ companyId: server.company.companyId, name: 'Kept elsewhere' });
    });
    statements = [];
    expect((await list()).json().data.count).toBe(count);
    expect((await profile()).statusCode).toBe(200);
    expect(ran(COUNT)).toBe(0);
    expect(ran(SESSION_LOOKUP)).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)(
    "follow a write made with plain SQL on a connection of its own once the operator says so ('*' on the channel)",
    async () => {
      const first = (await call(server, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
      await plainSql(`delete from users where email = 'kept2@example.test'`);
      await plainSql(`NOTIFY "${writesChannel(server.config.databaseSchema)}", '*'`);
      const next = (await call(server, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
      expect(next).toBe(first - 1);
    },
  );
});

// The embedded database has one connection: nothing can read beside an open transaction there.
describe.runIf(process.env.DATABASE_URL)('a transaction of the server', () => {
  it('lets nothing read while it was open outlive its commit', async () => {
    const { db } = server.database;
    const companyId = server.company.companyId;
    const named = (name: string) => and(eq(workspaces.companyId, companyId), eq(workspaces.name, name));
    await withTenant(companyId, async () => {
      expect((await cappedCount(db, workspaces, named('In a transaction'))).value).toBe(0);
      await db.transaction(async (tx) => {
        await tx.insert(workspaces).values({ companyId, name: 'In a transaction' });
        // Beside the transaction its row is not there yet: the count kept before holds.
        statements = [];
        expect((await cappedCount(db, workspaces, named('In a transaction'))).value).toBe(0);
        expect(ran(/^select count\(\*\) from \(select 1 from "workspaces"/)).toBe(0);
        // Counted afresh on another connection of the pool while the transaction is open, and kept.
        expect((await cappedCount(db, workspaces, and(named('In a transaction'), eq(workspaces.isActive, true)))).value).toBe(0);
      });
      expect((await cappedCount(db, workspaces, named('In a transaction'))).value).toBe(1);
      expect((await cappedCount(db, workspaces, and(named('In a transaction'), eq(workspaces.isActive, true)))).value).toBe(1);
    });
  });
});

describe.runIf(process.env.DATABASE_URL)('write announcements', () => {
  it("name the tables and the company a server's statements wrote, once committed, or the whole table", async () => {
    const heard = await listenToAnnouncements();
    const companyId = server.company.companyId;
    const { db } = server.database;
    try {
      await withTenant(companyId, async () => {
        await db.insert(workspaces).values({ companyId, name: 'Announced one' });
        await db.update(workspaces).set({ description: 'x' }).where(eq(workspaces.name, 'nothing at all'));
        await db.transaction(async (tx) => {
          await tx.update(workspaces).set({ description: 'y' }).where(eq(workspaces.name, 'Announced one'));
          await tx.insert(roles).values({ companyId, name: 'Announced role' });
        });
        // A rollback announces nothing.
        await db
          .transaction(async (tx) => {
            await tx.insert(workspaces).values({ companyId, name: 'Never there' });
            throw new Error('undone');
          })
          .catch(() => {});
      });
      await asSystem(
        'a test',
        async () => await db.update(workspaces).set({ description: 'z' }).where(eq(workspaces.name, 'Announced one')),
      );
      const payloads = (await heard.all()).map((payload) => payload.slice(payload.indexOf('|') + 1));
      expect(payloads).toEqual([
        `workspaces:${companyId}`,
        // A statement that touched no row is announced all the same: the server cannot tell.
        `workspaces:${companyId}`,
        `workspaces:${companyId};roles:${companyId}`,
        'workspaces',
      ]);
    } finally {
      await heard.stop();
    }
  });
});

/** SQL as psql would send it: on a connection of its own (PostgreSQL), or straight to PGlite, past Drizzle. */
async function plainSql(text: string): Promise<void> {
  if (server.database.kind === 'pglite') {
    await server.database.pglite!.exec(text);
    return;
  }
  const client = new pg.Client({ connectionString: server.config.databaseUrl, options: `-c search_path=${server.config.databaseSchema}` });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The payloads announced on the schema's channel, in order. */
async function listenToAnnouncements(): Promise<{ all(): Promise<string[]>; stop(): Promise<void> }> {
  const channel = writesChannel(server.database.kind === 'pglite' ? 'public' : server.config.databaseSchema);
  const payloads: string[] = [];
  if (server.database.kind === 'pglite') {
    const unlisten = await server.database.pglite!.listen(channel, (payload) => payloads.push(payload));
    // PGlite hands a commit's notifications over before the statement returns.
    return { all: async () => payloads, stop: unlisten };
  }
  const client = new pg.Client({ connectionString: server.config.databaseUrl });
  await client.connect();
  let ends = 0;
  client.on('notification', (message) => payloads.push(message.payload ?? ''));
  await client.query(`LISTEN "${channel}"`);
  return {
    async all() {
      // A notification of our own comes back after every one committed before it.
      const end = `end ${++ends}`;
      await client.query(`NOTIFY "${channel}", '${end}'`);
      while (!payloads.includes(end)) await new Promise((resolve) => setImmediate(resolve));
      return payloads.filter((payload) => !payload.startsWith('end '));
    },
    stop: () => client.end(),
  };
}
