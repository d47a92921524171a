import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { openDatabase, selectRows, type Database } from '../../server/db/client';
import { sql } from 'drizzle-orm';
import { writesChannel } from '../../server/db/write-announcements';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, inviteUser, sessionIdOf, signInAdmin, signInFully, userWithPolicies } from './helpers';

/**
 * Two API servers on one PostgreSQL, as behind a load balancer: each with its own pool, table
 * watch and listening connection. What one of them writes is seen by the other at the
 * very next call, although the other had the answer kept in memory (server/db/table-watch.ts,
 * server/db/change-feed.ts). Server B listens through a TCP relay the test can cut, to see it
 * without its listener.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(Boolean(databaseUrl))('two servers on one PostgreSQL', () => {
  let a: TestServer;
  let b: { app: FastifyInstance; database: Database };
  let relay: Relay;
  let adminToken: string;
  let statementsOnB: string[] = [];

  beforeAll(async () => {
    a = await createTestServer();
    adminToken = (await signInAdmin(a)).accessToken!;
    relay = await startRelay(new URL(databaseUrl!));
    const listenUrl = new URL(databaseUrl!);
    listenUrl.hostname = '127.0.0.1';
    listenUrl.port = String(relay.port);
    const database = await openDatabase({ databaseUrl, schema: a.config.databaseSchema, listenUrl: listenUrl.toString() });
    const app = await buildApp({ ...a.app.ctx, db: database.db }, { checkAnswers: true });
    await app.ready();
    b = { app, database };
    expect(database.watch.live).toBe(true);
    const client = (database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      const first = args[0];
      statementsOnB.push(typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? ''));
      return query(...args);
    };
  }, 120_000);

  afterAll(async () => {
    await b?.app.close();
    await b?.database.close();
    await relay?.close();
    await a?.close();
  });

  beforeEach(() => {
    statementsOnB = [];
  });

  const onB = (method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<LightMyRequestResponse> =>
    b.app.inject({ method, url: `/api/v1${path}`, headers: { 'x-access-token': token }, payload: body as never });
  const ranOnB = (pattern: RegExp) => statementsOnB.filter((s) => pattern.test(s)).length;
  const SESSION_LOOKUP = /from "sessions" inner join "users"/;
  const USERS_COUNT = /^select count\(\*\) from \(select 1 from "users"/;

  /**
   * Waits until B has heard every write A committed so far. A's calls answer only once their
   * announcements are committed, but B hears them a moment later: one arriving after B's next read
   * began would outdate what that read keeps (rightly, as far as B can tell), and the check that
   * B's second call asks nothing would depend on timing.
   */
  const heardOnB = async () => expect(await b.database.watch.caughtUp()).toBe(true);

  /** A signed-in member whose session server B has kept: its second call there asks the database nothing. */
  async function keptOnB(email: string): Promise<{ id: string; email: string; password: string; token: string }> {
    const member = await createActiveUser(a, adminToken, { email });
    const token = (await signInFully(a, member)).accessToken!;
    await heardOnB();
    expect((await onB('GET', '/user/profile', token)).statusCode).toBe(200);
    statementsOnB = [];
    expect((await onB('GET', '/user/profile', token)).statusCode).toBe(200);
    expect(ranOnB(SESSION_LOOKUP)).toBe(0);
    return { ...member, token };
  }

  const refusedOnB = async (token: string) => {
    const res = await onB('GET', '/user/profile', token);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid JWT token');
  };

  it('refuses a session logged out through the other server at the next call', async () => {
    const member = await keptOnB('two-logout@acme.test');
    expect((await call(a, 'PUT', '/session/logout', { token: member.token })).statusCode).toBe(200);
    await refusedOnB(member.token);
  });

  it('refuses a session an admin ended through the other server', async () => {
    const member = await keptOnB('two-ended@acme.test');
    const ended = await call(a, 'PUT', '/session/logout', { token: adminToken, body: { sessionId: sessionIdOf(member.token) } });
    expect(ended.statusCode, ended.body).toBe(200);
    await refusedOnB(member.token);
  });

  it('refuses the sessions of a password changed through the other server', async () => {
    const member = await keptOnB('two-password@acme.test');
    const changed = await call(a, 'POST', '/user/password', {
      token: member.token,
      body: { oldPassword: member.password, newPassword: 'Changed-pass-42' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await refusedOnB(member.token);
  });

  it('refuses a user deactivated through the other server', async () => {
    const member = await keptOnB('two-deactivated@acme.test');
    const res = await call(a, 'PUT', `/user/profile/${member.id}`, { token: adminToken, body: { isActive: false } });
    expect(res.statusCode, res.body).toBe(200);
    await refusedOnB(member.token);
  });

  it('applies a grant revoked through the other server', async () => {
    const reader = await userWithPolicies(a, adminToken, 'two-reader@acme.test', [{ resource: 'users', actions: ['read'] }]);
    await heardOnB();
    expect((await onB('GET', '/users/0/1', reader.token)).statusCode).toBe(200);
    statementsOnB = [];
    expect((await onB('GET', '/users/0/1', reader.token)).statusCode).toBe(200);
    expect(ranOnB(/from "role_policies"/)).toBe(0);
    const revoked = await call(a, 'PUT', `/policies/assign/${reader.roleId}`, { token: adminToken, body: { policies: [] } });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const denied = await onB('GET', '/users/0/1', reader.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
  });

  it('follows in a kept list count a user invited through the other server', async () => {
    await heardOnB();
    const before = (await onB('GET', '/users/0/1', adminToken)).json().data.count as number;
    statementsOnB = [];
    expect((await onB('GET', '/users/0/1', adminToken)).json().data.count).toBe(before);
    expect(ranOnB(USERS_COUNT)).toBe(0);
    await inviteUser(a, adminToken, { email: 'two-invited@acme.test' });
    expect((await onB('GET', '/users/0/1', adminToken)).json().data.count).toBe(before + 1);
  });

  it('sees on both servers a write made with plain SQL as the tables’ owner, once the operator says so', async () => {
    const member = await keptOnB('two-psql@acme.test');
    expect((await call(a, 'GET', '/user/profile', { token: member.token })).statusCode).toBe(200);
    expect((await call(a, 'GET', '/user/profile', { token: member.token })).statusCode).toBe(200);
    const countOnA = (await call(a, 'GET', '/users/0/1', { token: adminToken })).json().data.count as number;
    const countOnB = (await onB('GET', '/users/0/1', adminToken)).json().data.count as number;
    expect(countOnB).toBe(countOnA);

    const psql = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${a.config.databaseSchema}` });
    await psql.connect();
    try {
      await psql.query(`update sessions set ended_at = now() where id = $1`, [sessionIdOf(member.token)]);
      await psql.query(`delete from users where email = 'two-invited@acme.test'`);
      // What the servers did not write they hear of from the operator (docs/operations.md).
      await psql.query(`NOTIFY "${writesChannel(a.config.databaseSchema)}", '*'`);
    } finally {
      await psql.end();
    }
    expect((await call(a, 'GET', '/user/profile', { token: member.token })).statusCode).toBe(401);
    await refusedOnB(member.token);
    expect((await call(a, 'GET', '/users/0/1', { token: adminToken })).json().data.count).toBe(countOnA - 1);
    expect((await onB('GET', '/users/0/1', adminToken)).json().data.count).toBe(countOnA - 1);
  });

  it('keeps nothing while its listener is gone, and drops what it kept when it listens again', async () => {
    const survivor = await keptOnB('two-survivor@acme.test');
    const missedNow = await keptOnB('two-missed-now@acme.test');
    const missedWhileDown = await keptOnB('two-missed-down@acme.test');
    const watch = b.database.watch;

    relay.refuse(true);
    const [{ killed }] = await selectRows<{ killed: boolean }>(
      a.db,
      sql`select coalesce(bool_or(pg_terminate_backend(pid)), false) as killed from pg_stat_activity
          where application_name = 'dataops change feed' and client_port = any(${`{${relay.upstreamPorts().join(',')}}`}::int[])`,
    );
    expect(killed).toBe(true);
    // Whether B has noticed the loss yet or not, nothing stale is served.
    expect((await call(a, 'PUT', '/session/logout', { token: missedNow.token })).statusCode).toBe(200);
    await refusedOnB(missedNow.token);
    await vi.waitFor(() => expect(watch.live).toBe(false));

    statementsOnB = [];
    expect((await onB('GET', '/user/profile', survivor.token)).statusCode).toBe(200);
    expect((await onB('GET', '/user/profile', survivor.token)).statusCode).toBe(200);
    expect(ranOnB(SESSION_LOOKUP)).toBe(2);

    // A write B cannot hear of, to a session it kept before it lost its listener.
    expect((await call(a, 'PUT', '/session/logout', { token: missedWhileDown.token })).statusCode).toBe(200);
    relay.refuse(false);
    await vi.waitFor(() => expect(watch.live).toBe(true), { timeout: 15_000, interval: 20 });
    await refusedOnB(missedWhileDown.token);

    statementsOnB = [];
    expect((await onB('GET', '/user/profile', survivor.token)).statusCode).toBe(200);
    expect((await onB('GET', '/user/profile', survivor.token)).statusCode).toBe(200);
    expect(ranOnB(SESSION_LOOKUP)).toBe(1);
  });
});

interface Relay {
  port: number;
  /** While true, new connections are refused (those open stay). */
  refuse(on: boolean): void;
  /** The local ports of the relay's open connections to PostgreSQL (pg_stat_activity.client_port). */
  upstreamPorts(): number[];
  close(): Promise<void>;
}

/** A TCP relay to the database, standing for the network between a server and PostgreSQL. */
async function startRelay(target: URL): Promise<Relay> {
  let refusing = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((downstream) => {
    if (refusing) return void downstream.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    open.add(upstream);
    const close = () => {
      open.delete(upstream);
      downstream.destroy();
      upstream.destroy();
    };
    for (const socket of [downstream, upstream]) {
      socket.on('error', close);
      socket.on('close', close);
    }
    downstream.pipe(upstream).pipe(downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    refuse: (on) => void (refusing = on),
    upstreamPorts: () => [...open].map((socket) => socket.localPort).filter((port): port is number => port !== undefined),
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
