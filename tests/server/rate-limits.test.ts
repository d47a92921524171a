import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig, type Config } from '../../server/config';
import { openDatabase, selectRows, type Database } from '../../server/db/client';
import { rateLimiterOf, unsyncedAllowance, type RateLimiter } from '../../server/auth/rate-limit';
import { serverTextsFr } from '../../providers/i18n/fr/server-texts';
import { compileServerTexts, translateServerText } from '../../providers/i18n/serverTexts';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, createOtherCompany, sessionIdOf, signInAdmin, signInFully } from './helpers';

/**
 * Calls a minute per API key and per session (server/auth/rate-limit.ts), counted in the
 * database so that every server on it sees them. The limits here are small enough for every
 * call to be added to the shared count before the next one is admitted, and the limiter's clock
 * is held still at 10 s past a minute (and moved on by the tests), so no test depends on when
 * it runs.
 */
const SESSION_LIMIT = 5;
const KEY_LIMIT = 4;
const MINUTE = Date.UTC(2031, 4, 6, 12, 30, 0);

let server: TestServer;
let limiter: RateLimiter;
let adminToken: string;
const extraApps: FastifyInstance[] = [];
const extraDatabases: Database[] = [];

beforeAll(async () => {
  server = await createTestServer({ rateLimits: { apiKeyPerMinute: KEY_LIMIT, sessionPerMinute: SESSION_LIMIT } });
  limiter = rateLimiterOf(server.app)!;
  adminToken = (await signInAdmin(server)).accessToken!;
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  for (const database of extraDatabases) await database.close();
  await server?.close();
});
beforeEach(() => {
  limiter.clock = () => MINUTE + 10_000;
});

const listWorkspaces = (token: string) => call(server, 'GET', '/workspaces', { token });
const withKey = (key: string) => ({ headers: { 'x-api-key': key } });

/** A session of its own, so that each test starts from no calls. */
async function freshSession(): Promise<string> {
  return (await signInAdmin(server)).accessToken!;
}

/** Calls until one is refused (at most `max`); the statuses seen. */
async function callUntilRefused(send: () => Promise<LightMyRequestResponse>, max = 20) {
  const statuses: number[] = [];
  let refusal: LightMyRequestResponse | null = null;
  while (statuses.length < max) {
    const res = await send();
    statuses.push(res.statusCode);
    if (res.statusCode === 429) {
      refusal = res;
      break;
    }
    expect(res.statusCode, res.body).toBe(200);
  }
  return { statuses, refusal };
}

async function createKey(name: string): Promise<string> {
  const res = await call(server, 'POST', '/apikey', { token: adminToken, body: { name, operations: ['get_workspaces'] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.key as string;
}

it('adds every call to the shared count before the next one at these limits', () => {
  // The exact counts below rely on it; at the defaults a server adds calls in batches.
  expect([unsyncedAllowance(SESSION_LIMIT), unsyncedAllowance(KEY_LIMIT)]).toEqual([1, 1]);
  expect([unsyncedAllowance(600), unsyncedAllowance(1200), unsyncedAllowance(1_000_000)]).toEqual([12, 24, 50]);
});

it('reads its limits from the environment: generous by default, 0 for none', () => {
  expect(readConfig({}).rateLimits).toEqual({ apiKeyPerMinute: 600, sessionPerMinute: 1200 });
  expect(readConfig({ RATE_LIMIT_API_KEY_PER_MINUTE: '0', RATE_LIMIT_SESSION_PER_MINUTE: '90' }).rateLimits).toEqual({
    apiKeyPerMinute: 0,
    sessionPerMinute: 90,
  });
  expect(() => readConfig({ RATE_LIMIT_SESSION_PER_MINUTE: 'lots' })).toThrow(/RATE_LIMIT_SESSION_PER_MINUTE must be a whole number/);
});

describe('per session', () => {
  it('answers 429 past the limit, with Retry-After and the time left in the minute', async () => {
    const token = await freshSession();
    const { statuses, refusal } = await callUntilRefused(() => listWorkspaces(token));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(refusal!.headers['retry-after']).toBe('50');
    expect(refusal!.json()).toEqual({
      message: 'Too many requests for this session: at most 5 a minute. Try again in 50 seconds.',
      retryAfterSeconds: 50,
    });
    // Refused calls are not counted: the session stays refused only until the minute ends.
    limiter.clock = () => MINUTE + 59_500;
    const last = await listWorkspaces(token);
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBe('1');
    expect(last.json().message).toBe('Too many requests for this session: at most 5 a minute. Try again in 1 second.');
  });

  it('words the refusals in French in the console', () => {
    // The catalogue's "Too many {what}" would otherwise take them and leave half the text in English.
    const french = compileServerTexts(serverTextsFr);
    expect(translateServerText('Too many requests for this session: at most 1200 a minute. Try again in 12 seconds.', french)).toBe(
      'Trop de requêtes pour cette session : 1200 par minute au plus. Réessayez dans 12 secondes.',
    );
    expect(translateServerText('Too many requests for this API key: at most 600 a minute. Try again in 1 minute.', french)).toBe(
      'Trop de requêtes pour cette clé d’API : 600 par minute au plus. Réessayez dans 1 minute.',
    );
  });

  it('frees calls when the minute has passed', async () => {
    const token = await freshSession();
    expect((await callUntilRefused(() => listWorkspaces(token))).statuses).toHaveLength(SESSION_LIMIT + 1);
    limiter.clock = () => MINUTE + 60_000;
    const { statuses } = await callUntilRefused(() => listWorkspaces(token));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('leaves the other sessions of the company, and other companies, alone', async () => {
    const token = await freshSession();
    await callUntilRefused(() => listWorkspaces(token));
    expect((await listWorkspaces(token)).statusCode).toBe(429);

    const sameUser = await freshSession();
    const member = await createActiveUser(server, adminToken, { email: 'rate.member@acme.test' });
    const memberToken = (await signInFully(server, { email: member.email, password: member.password })).accessToken!;
    const other = await createOtherCompany(server, 'ratecorp');
    for (const [who, res] of [
      ['another session of the same user', await listWorkspaces(sameUser)],
      ['another user of the company', await call(server, 'GET', '/notifications/count', { token: memberToken })],
      ['another company', await listWorkspaces(other.adminToken)],
    ] as const) {
      expect({ who, status: res.statusCode }).toEqual({ who, status: 200 });
    }
    // The counts are the companies' own rows.
    await limiter.sync();
    const rows = await selectRows<{ company_id: string; calls: number }>(
      server.db,
      sql`select company_id, calls from rate_limits where subject like 'session:%' order by company_id`,
    );
    expect(new Set(rows.map((row) => row.company_id))).toEqual(new Set([server.company.companyId, other.companyId]));
  });

  it('does not count public routes such as health and sign-in', async () => {
    const token = await freshSession();
    for (let i = 0; i < SESSION_LIMIT * 2; i++) {
      expect((await call(server, 'GET', '/health', { token })).statusCode).toBe(200);
    }
    const { statuses } = await callUntilRefused(() => listWorkspaces(token));
    expect(statuses).toHaveLength(SESSION_LIMIT + 1);
  });
});

describe('per API key', () => {
  it('answers 429 past the key’s limit, leaving other keys and the sessions of the company alone', async () => {
    const key = await createKey('Busy');
    const other = await createKey('Quiet');
    const { statuses, refusal } = await callUntilRefused(() => call(server, 'GET', '/workspaces', withKey(key)));
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(refusal!.headers['retry-after']).toBe('50');
    expect(refusal!.json().message).toBe('Too many requests for this API key: at most 4 a minute. Try again in 50 seconds.');

    expect((await call(server, 'GET', '/workspaces', withKey(other))).statusCode).toBe(200);
    // The key acts as the admin, whose session is counted on its own.
    expect((await listWorkspaces(await freshSession())).statusCode).toBe(200);

    limiter.clock = () => MINUTE + 61_000;
    expect((await call(server, 'GET', '/workspaces', withKey(key))).statusCode).toBe(200);
  });
});

describe('several servers on one database', () => {
  /** A second server process on the same database: its own app, limiter and connections. */
  async function secondServer(overrides: Partial<Config> = {}): Promise<FastifyInstance> {
    let db = server.database.db;
    if (server.database.kind === 'postgres') {
      const database = await openDatabase({ databaseUrl: server.config.databaseUrl, schema: server.config.databaseSchema });
      extraDatabases.push(database);
      db = database.db;
    }
    const app = await buildApp({ ...server.app.ctx, db, config: { ...server.config, ...overrides } }, { checkAnswers: true });
    await app.ready();
    extraApps.push(app);
    return app;
  }

  it('share each session’s count, refusing past the limit by at most one call per server', async () => {
    const other = await secondServer();
    const otherLimiter = rateLimiterOf(other)!;
    otherLimiter.clock = limiter.clock;
    const token = await freshSession();
    const onOther = () => other.inject({ method: 'GET', url: '/api/v1/workspaces', headers: { 'x-access-token': token } });

    for (let i = 0; i < 3; i++) expect((await listWorkspaces(token)).statusCode).toBe(200);
    await limiter.sync();
    // The other server reads the first one's 3 calls at its first sync: 2 more, then refused.
    const there = await callUntilRefused(onOther);
    expect(there.statuses).toEqual([200, 200, 429]);
    expect(there.refusal!.json().message).toBe('Too many requests for this session: at most 5 a minute. Try again in 50 seconds.');
    // The first server had not read the other's calls: one more before its sync shows them.
    const here = await callUntilRefused(() => listWorkspaces(token));
    expect(here.statuses).toEqual([200, 429]);

    const [row] = await selectRows<{ calls: number }>(
      server.db,
      sql`select calls from rate_limits where subject = ${`session:${sessionIdOf(token)}`}`,
    );
    expect(row.calls).toBe(SESSION_LIMIT + 1);
  });

  it('admit exactly the limit from one server, however many calls come at once', async () => {
    const limit = 150;
    const batched = await secondServer({ rateLimits: { apiKeyPerMinute: 0, sessionPerMinute: limit } });
    rateLimiterOf(batched)!.clock = limiter.clock;
    expect(unsyncedAllowance(limit)).toBe(3);
    const token = await freshSession();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => batched.inject({ method: 'GET', url: '/api/v1/workspaces', headers: { 'x-access-token': token } })),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect({ ok: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 429).length }).toEqual({
      ok: limit,
      refused: 50,
    });
    await rateLimiterOf(batched)!.sync();
    const [row] = await selectRows<{ calls: number }>(
      server.db,
      sql`select calls from rate_limits where subject = ${`session:${sessionIdOf(token)}`}`,
    );
    expect(row.calls).toBe(limit);
  });

  it('count nothing when the limits are 0', async () => {
    const unlimited = await secondServer({ rateLimits: { apiKeyPerMinute: 0, sessionPerMinute: 0 } });
    expect(rateLimiterOf(unlimited)).toBeNull();
    const token = await freshSession();
    const key = await createKey('Unlimited');
    await limiter.sync();
    const before = await selectRows<{ n: number }>(server.db, sql`select count(*)::int as n from rate_limits`);
    for (let i = 0; i < SESSION_LIMIT * 3; i++) {
      const bySession = await unlimited.inject({ method: 'GET', url: '/api/v1/workspaces', headers: { 'x-access-token': token } });
      const byKey = await unlimited.inject({ method: 'GET', url: '/api/v1/workspaces', headers: { 'x-api-key': key } });
      expect([bySession.statusCode, byKey.statusCode]).toEqual([200, 200]);
    }
    const after = await selectRows<{ n: number }>(server.db, sql`select count(*)::int as n from rate_limits`);
    expect(after[0].n).toBe(before[0].n);
  });
});
