import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, companies } from '../../server/db/schema';
import { signAccessToken } from '../../server/auth/tokens';
import { createTestServer, type TestServer } from './harness';
import {
  accessEventsOf,
  call as callApi,
  createActiveUser,
  createOtherCompany,
  currentStep,
  freshIp,
  otherCode,
  sessionIdOf,
  signIn as signInApi,
  signInAdmin,
  signInFully,
  totpAt,
  userWithPolicies,
  type CallOptions,
  type Credentials,
} from './helpers';

/**
 * The authentication requirements, each tried the way an attacker would, end to end through the
 * HTTP API. The areas' own files prove the ordinary behaviour and more variants:
 * auth-signin.test.ts (throttling, token checks), auth-otp.test.ts (enrolment, codes),
 * auth-password.test.ts (reset and change), sessions.test.ts (logout, impersonation),
 * users-admin.test.ts (deactivation, deletion), apikeys.test.ts (keys).
 */

let server: TestServer;
let adminToken: string;

/** Every answer this file receives, to prove at the end that none of them set a cookie. */
const answers: LightMyRequestResponse[] = [];
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
async function call(method: Method, path: string, options: CallOptions = {}) {
  const res = await callApi(server, method, path, options);
  answers.push(res);
  return res;
}
async function signIn(credentials: Credentials) {
  const res = await signInApi(server, credentials);
  answers.push(res);
  return res;
}
const profile = (token: string | undefined, headers?: Record<string, string>) => call('GET', '/user/profile', { token, headers });

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
});
afterAll(async () => {
  await server?.close();
});

const INVALID_TOKEN = { message: 'Invalid JWT token' };
const ACCESS_DENIED = 'Resource Access not provided';
const KEY_REFUSED = 'This API key is not valid, or is deactivated or expired';
const NOT_GRANTED = 'This API key is not allowed to call this operation';

describe('guessing passwords', () => {
  it('slows guesses at one account, even from many addresses, refuses the right password meanwhile, and records every attempt', async () => {
    const victim = await createActiveUser(server, adminToken, { email: 'victim@acme.test' });
    const attempts: Array<{ ip: string; status: number }> = [];
    const guess = async (password: string) => {
      const ip = freshIp();
      const res = await signIn({ email: victim.email, password, ip });
      attempts.push({ ip, status: res.statusCode });
      return res;
    };
    for (let i = 0; i < 5; i++) expect((await guess(`Guess-${i}-password`)).statusCode).toBe(401);
    const slowed = await guess('Guess-5-password');
    expect(slowed.statusCode).toBe(429);
    const wait = Number(slowed.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(slowed.json()).toMatchObject({
      message: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in/),
      retryAfterSeconds: wait,
    });

    // While blocked, the right password tells the attacker nothing: the same 429, no token.
    const right = await guess(victim.password);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    expect(right.body).not.toMatch(/token/i);
    expect((await guess('Guess-6-password')).statusCode).toBe(429);

    // One access event per attempt, each with the address it came from.
    const events = (await accessEventsOf(server.db, victim.email)).filter((e) => e.event === 'signin');
    expect(events).toHaveLength(attempts.length);
    expect(events.map((e) => e.ip)).toEqual(attempts.map((a) => a.ip));
    expect(events.map((e) => `${e.status}:${e.reason}`)).toEqual([
      ...Array(6).fill('failure:bad_password'),
      'blocked:throttled',
      'blocked:throttled',
    ]);
  });

  it('slows one address spraying passwords across many accounts, known and unknown, and records every attempt', async () => {
    const ip = freshIp();
    // One guess per account, so no account's own counter trips: only the address's can.
    const known = await Promise.all([1, 2, 3].map((n) => createActiveUser(server, adminToken, { email: `sprayed.known${n}@acme.test` })));
    const targets = [...known.map((u) => u.email), ...Array.from({ length: 19 }, (_, i) => `sprayed${i}@acme.test`)];
    const statuses: number[] = [];
    for (const [i, email] of targets.entries()) statuses.push((await signIn({ email, password: `Spray-${i}-password`, ip })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
    const blocked = await signIn({ email: server.company.adminEmail, password: server.company.adminPassword, ip });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(blocked.json().message).toMatch(/from this address/);

    const fromThere = (await Promise.all([...targets, server.company.adminEmail].map((email) => accessEventsOf(server.db, email))))
      .flat()
      .filter((e) => e.ip === ip);
    expect(fromThere).toHaveLength(targets.length + 1);
    expect(fromThere.filter((e) => e.status === 'blocked')).toHaveLength(2);
    // The block is the address's: the admin still signs in from elsewhere.
    expect((await signIn({ email: server.company.adminEmail, password: server.company.adminPassword, ip: freshIp() })).statusCode).toBe(
      200,
    );
  });
});

describe('two-factor codes', () => {
  async function enrolled(email: string) {
    const user = await createActiveUser(server, adminToken, { email });
    const { token } = await signInFully(server, user);
    const { secret } = (await call('GET', '/user/otp/setup', { token })).json().data;
    const step = currentStep();
    expect((await call('POST', '/user/otp/register', { token, body: { otp: await totpAt(secret, step) } })).statusCode).toBe(200);
    return { ...user, secret, step };
  }
  const passwordStep = async (user: { email: string; password: string }) => {
    const res = await signIn({ ...user, ip: freshIp() });
    expect(res.json().user).toMatchObject({ auth: false, requireOTP: true });
    return res.json().user.token as string;
  };

  it('refuses a code seen once (shoulder-surfed or phished) on a second sign-in, and any earlier code', async () => {
    const user = await enrolled('replayed@acme.test');
    const used = await totpAt(user.secret, user.step + 1);
    const victimHalf = await passwordStep(user);
    expect((await call('POST', '/user/otp/verify', { token: victimHalf, body: { otp: used } })).statusCode).toBe(200);

    // The attacker has the password and the code just typed.
    const attackerHalf = await passwordStep(user);
    for (const otp of [used, await totpAt(user.secret, user.step)]) {
      const replay = await call('POST', '/user/otp/verify', { token: attackerHalf, body: { otp } });
      expect(replay.statusCode).toBe(400);
      expect(replay.json().message).toBe('This code has already been used');
    }
    // The half token opens nothing else in the meantime.
    expect((await profile(attackerHalf)).statusCode).toBe(401);
    const events = (await accessEventsOf(server.db, user.email)).filter((e) => e.event === 'otp');
    expect(events.filter((e) => e.reason === 'replayed_code')).toHaveLength(2);
  });

  it('slows guessing of codes per user, across fresh sign-ins, and refuses the right code meanwhile', async () => {
    const user = await enrolled('code.guess@acme.test');
    const right = await totpAt(user.secret, currentStep());
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 6; i++) {
      // A new half session per guess: the counter is the user's, not the session's.
      const half = await passwordStep(user);
      last = await call('POST', '/user/otp/verify', { token: half, body: { otp: otherCode(right) } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    const half = await passwordStep(user);
    const correct = await call('POST', '/user/otp/verify', { token: half, body: { otp: await totpAt(user.secret, user.step + 1) } });
    expect(correct.statusCode).toBe(429);
    const events = (await accessEventsOf(server.db, user.email)).filter((e) => e.event === 'otp');
    expect(events.map((e) => `${e.status}:${e.reason}`)).toEqual([...Array(6).fill('failure:bad_code'), 'blocked:throttled']);
  });
});

describe('a stolen or stale token', () => {
  it('is refused after its owner logs out', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'logout@acme.test' });
    const { token } = await signInFully(server, user);
    expect((await call('PUT', '/session/logout', { token })).statusCode).toBe(200);
    const res = await profile(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID_TOKEN);
  });

  it('is refused, on every other device, once the password is changed (and after a reset: auth-password.test.ts)', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'changed@acme.test' });
    const stolen = (await signInFully(server, user)).token;
    const own = (await signInFully(server, user)).token;
    const changed = await call('POST', '/user/password', {
      token: own,
      body: { oldPassword: user.password, newPassword: 'Fresh-password-77' },
    });
    expect(changed.statusCode).toBe(200);
    for (const token of [stolen, own]) expect((await profile(token)).statusCode).toBe(401);
  });

  it('is refused once an admin deactivates or deletes the user, or ends the session', async () => {
    const deactivated = await createActiveUser(server, adminToken, { email: 'deactivated@acme.test' });
    const first = (await signInFully(server, deactivated)).token;
    expect((await call('PUT', `/user/profile/${deactivated.id}`, { token: adminToken, body: { isActive: false } })).statusCode).toBe(200);
    expect((await profile(first)).json()).toEqual(INVALID_TOKEN);

    const deleted = await createActiveUser(server, adminToken, { email: 'deleted@acme.test' });
    const second = (await signInFully(server, deleted)).token;
    expect((await call('DELETE', `/users/${deleted.id}`, { token: adminToken })).statusCode).toBe(200);
    expect((await profile(second)).statusCode).toBe(401);

    const ended = await createActiveUser(server, adminToken, { email: 'ended@acme.test' });
    const third = (await signInFully(server, ended)).token;
    expect((await call('PUT', '/session/logout', { token: adminToken, body: { sessionId: sessionIdOf(third) } })).statusCode).toBe(200);
    expect((await profile(third)).statusCode).toBe(401);
  });

  it('is refused once its company is deactivated (by the operator: no API route deactivates a company)', async () => {
    const other = await createOtherCompany(server, 'closing');
    expect((await profile(other.adminToken)).statusCode).toBe(200);
    await server.db.update(companies).set({ isActive: false }).where(eq(companies.id, other.companyId));
    expect((await profile(other.adminToken)).json()).toEqual(INVALID_TOKEN);
  });

  it('is refused when expired, forged, signed with another secret, unsigned (alg none) or edited', async () => {
    const { token } = await signInAdmin(server);
    const [header, body] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const key = server.app.ctx.secrets.tokenKey;
    const sessionClaims = { sid: claims.sid, sub: claims.sub, cid: claims.cid, stg: 'full' as const };
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const hmac = (secret: Uint8Array | string, input: string, algorithm = 'sha256') =>
      crypto.createHmac(algorithm, secret).update(input).digest('base64url');

    const expired = await signAccessToken(key, sessionClaims, new Date(Date.now() - 60_000));
    const otherSecret = await signAccessToken(crypto.randomBytes(32), sessionClaims, new Date(Date.now() + 3600_000));
    const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${body}.`;
    const algNoneSigned = `${b64({ alg: 'none', typ: 'JWT' })}.${body}.${token.split('.')[2]}`;
    const member = await createActiveUser(server, adminToken, { email: 'someone.else@acme.test' });
    const editedBody = b64({ ...claims, sub: member.id, exp: claims.exp + 3600 });
    const edited = `${header}.${editedBody}.${token.split('.')[2]}`;
    const hs512Header = b64({ alg: 'HS512', typ: 'JWT' });
    const hs512 = `${hs512Header}.${body}.${hmac(key, `${hs512Header}.${body}`, 'sha512')}`;
    const guessedSecret = `${header}.${body}.${hmac('secret', `${header}.${body}`)}`;
    for (const [name, forged] of Object.entries({
      expired,
      otherSecret,
      algNone,
      algNoneSigned,
      edited,
      hs512,
      guessedSecret,
      garbage: 'a.b.c',
    })) {
      const res = await profile(forged);
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual(INVALID_TOKEN);
    }
    expect((await profile(token)).statusCode).toBe(200);
  });
});

describe('impersonation', () => {
  it('is refused to anyone but an admin, even one who may manage users', async () => {
    const manager = await userWithPolicies(server, adminToken, 'user.manager@acme.test', [
      { resource: 'users', actions: ['read', 'create', 'update', 'delete'] },
    ]);
    for (const target of [server.company.adminUserId, (await createActiveUser(server, adminToken, { email: 'target@acme.test' })).id]) {
      const res = await call('POST', '/user/impersonate', { token: manager.token, body: { userId: target } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(ACCESS_DENIED);
    }
  });

  it("is refused for a user of another company, as if the user did not exist; and gives only the target's rights", async () => {
    const other = await createOtherCompany(server, 'faraway');
    const res = await call('POST', '/user/impersonate', { token: adminToken, body: { userId: other.adminUserId } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('User not found');

    const target = await createActiveUser(server, adminToken, { email: 'impersonated@acme.test' });
    const inside = (await call('POST', '/user/impersonate', { token: adminToken, body: { userId: target.id } })).json().user.token;
    // Inside the impersonation of a member the admin holds the member's rights: no way back up.
    const nested = await call('POST', '/user/impersonate', { token: inside, body: { userId: server.company.adminUserId } });
    expect(nested.statusCode).toBe(403);
  });
});

describe('API keys', () => {
  async function key(operations: string[]) {
    const res = await call('POST', '/apikey', { token: adminToken, body: { name: `Key ${crypto.randomUUID()}`, operations } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; key: string };
  }
  const withKey = (k: string, body?: unknown) => ({ headers: { 'x-api-key': k }, body });

  it('granted only GET /users, cannot write users, read one, or reach other areas', async () => {
    const { key: directory } = await key(['get_users_offset_limit']);
    expect((await call('GET', '/users/0/10', withKey(directory))).statusCode).toBe(200);
    const someone = await createActiveUser(server, adminToken, { email: 'keyed@acme.test' });
    const tries: Array<[Method, string, unknown?]> = [
      ['POST', '/user', { email: 'planted@acme.test', firstName: 'P', lastName: 'L', roleId: server.company.adminRoleId }],
      ['DELETE', `/users/${someone.id}`],
      ['PUT', `/user/profile/${someone.id}`, { isActive: false }],
      ['GET', `/users/${someone.id}`],
      ['GET', '/workspaces'],
      ['GET', '/connections/0/10'],
      ['POST', '/roles', { name: 'Backdoor' }],
    ];
    for (const [method, path, body] of tries) {
      const res = await call(method, path, withKey(directory, body));
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().message).toBe(NOT_GRANTED);
    }
    expect((await profile(undefined, { 'x-api-key': directory })).statusCode).toBe(403);
  });

  it('can never be granted, nor use, the families that manage sign-in, sessions, impersonation and keys', async () => {
    const never = ['post_user_impersonate', 'put_session_logout', 'post_user_password', 'post_apikey', 'get_apikeys_offset_limit'];
    for (const operation of never) {
      const res = await call('POST', '/apikey', { token: adminToken, body: { name: `Wide ${operation}`, operations: [operation] } });
      expect(res.statusCode, operation).toBe(400);
      expect(res.json().message).toMatch(/^operations: not operations a key may be granted/);
    }
    // Even a grant written straight into the database opens none of them.
    const planted = await key(['get_users_offset_limit']);
    await server.db
      .update(apiKeys)
      .set({ operations: ['get_users_offset_limit', ...never] })
      .where(eq(apiKeys.id, planted.id));
    const tries: Array<[Method, string, unknown]> = [
      ['POST', '/user/impersonate', { userId: server.company.adminUserId }],
      ['PUT', '/session/logout', {}],
      ['POST', '/user/password', { oldPassword: 'x', newPassword: 'Whatever-pass-1' }],
      ['POST', '/apikey', { name: 'Minted', operations: ['get_users_offset_limit'] }],
      ['GET', '/apikeys/0/10', undefined],
    ];
    for (const [method, path, body] of tries) {
      const res = await call(method, path, withKey(planted.key, body));
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().message).toBe(NOT_GRANTED);
    }
  });

  it('is refused once revoked, deleted or expired', async () => {
    const works = async (k: string) => (await call('GET', '/users/0/10', withKey(k))).statusCode;
    const revoked = await key(['get_users_offset_limit']);
    expect((await call('PUT', `/apikey/deactivate/${revoked.id}`, { token: adminToken })).statusCode).toBe(200);
    const deleted = await key(['get_users_offset_limit']);
    expect((await call('DELETE', `/apikey/${deleted.id}`, { token: adminToken })).statusCode).toBe(200);
    const expired = await key(['get_users_offset_limit']);
    await server.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.id));
    for (const k of [revoked, deleted, expired]) {
      const res = await call('GET', '/users/0/10', withKey(k.key));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(KEY_REFUSED);
    }
    // A guessed secret behind a real prefix is refused the same way.
    const live = await key(['get_users_offset_limit']);
    expect(await works(live.key)).toBe(200);
    expect(await works(`${live.key.slice(0, 17)}${'A'.repeat(43)}`)).toBe(401);
  });
});

describe('credentials only in the x-access-token header', () => {
  it('refuses a valid token sent in a Cookie header, or anywhere else', async () => {
    const { token } = await signInAdmin(server);
    for (const [name, headers] of Object.entries<Record<string, string>>({
      cookie: { cookie: `x-access-token=${token}` },
      cookies: { cookie: `token=${token}; accessToken=${token}; session=${token}` },
      bearer: { authorization: `Bearer ${token}` },
    })) {
      const res = await profile(undefined, headers);
      expect(res.statusCode, name).toBe(401);
      expect(res.json()).toEqual(INVALID_TOKEN);
    }
    expect((await call('GET', `/user/profile?token=${token}&x-access-token=${token}`)).statusCode).toBe(401);
    expect((await profile(token)).statusCode).toBe(200);
  });

  it('never set a cookie on any answer of this file', () => {
    expect(answers.length).toBeGreaterThan(100);
    const withCookie = answers.filter((res) => res.headers['set-cookie'] !== undefined);
    expect(withCookie.map((res) => `${res.statusCode} ${res.body.slice(0, 80)}`)).toEqual([]);
  });
});
