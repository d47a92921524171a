import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { createTestServer, type TestServer } from './harness';
import { accessEvents, companies, sessions, throttles, users } from '../../server/db/schema';
import { createSecrets } from '../../server/auth/secrets';
import { signAccessToken } from '../../server/auth/tokens';
import { provisionCompany } from '../../server/tenancy/provision';
import {
  accessEventsOf,
  call,
  createActiveUser,
  freshIp,
  HOSTILE,
  inviteUser,
  sessionIdOf,
  sessionRow,
  signIn,
  signInAdmin,
  snapshot,
  userRow,
} from './helpers';

// The real argon2, watched: the sign-in of an unknown email must verify one hash like a known one does.
const argon2 = vi.hoisted(() => ({ verified: [] as string[] }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (hashed: string, password: string) => {
      argon2.verified.push(hashed);
      return real.verify(hashed, password);
    },
  };
});

const INVALID_CREDENTIALS = 'Invalid email, password or company host name';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
});
afterAll(async () => {
  await server?.close();
});

const admin = () => ({ email: server.company.adminEmail, password: server.company.adminPassword });

describe('POST /signin', () => {
  it('signs the admin in with a session user the console can store', async () => {
    const res = await signIn(server, { email: 'ADMIN@acme.test ', password: server.company.adminPassword, companyHostname: ' ACME' });
    expect(res.statusCode).toBe(200);
    const { message, user } = res.json();
    expect(message).toBe('Signed in');
    expect(user).toMatchObject({
      id: server.company.adminUserId,
      email: 'admin@acme.test',
      firstName: 'Ada',
      companyId: server.company.companyId,
      companyName: 'Acme',
      companyHostname: 'acme',
      roleId: server.company.adminRoleId,
      roleName: 'Admin',
      isAdmin: true,
      auth: true,
      requireOTP: false,
      setupOTP: false,
      otpEnabled: false,
      impersonator: null,
    });
    expect(user.token).toBe(user.accessToken);
    expect(user.ga_user_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.ga_user_id).not.toBe(user.id);
    const urls = user.navItems.userNavItemJson.items.flatMap((group: { children: { url: string }[] }) => group.children.map((c) => c.url));
    expect(urls).toContain('/dashboard');
    expect(urls).toContain('/outbox');

    const session = await sessionRow(server.db, sessionIdOf(user.token));
    expect(session).toMatchObject({ userId: server.company.adminUserId, stage: 'full', endedAt: null });
    const minutes = (session.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(server.config.sessionTtlMinutes - 2);
    expect(minutes).toBeLessThanOrEqual(server.config.sessionTtlMinutes);
    expect(new Date(user.expiresAt).getTime()).toBe(session.expiresAt.getTime());
    expect((await userRow(server.db, server.company.adminUserId)).lastLoginAt!.getTime()).toBeGreaterThan(Date.now() - 10_000);

    // The token opens the routes of a full session.
    const profile = await call(server, 'GET', '/user/profile', { token: user.token });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.email).toBe('admin@acme.test');
  });

  it('gives a member only the pages of the member role', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'nav.member@acme.test' });
    const res = await signIn(server, member);
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user.isAdmin).toBe(false);
    expect(user.roleName).toBe('Member');
    const urls = user.navItems.userNavItemJson.items.flatMap((group: { children: { url: string }[] }) => group.children.map((c) => c.url));
    // The member reads the company's data work.
    expect(urls).toEqual([
      '/dashboard',
      '/notifications',
      '/connections',
      '/source-destinations',
      '/tables',
      '/workflows',
      '/job-runs',
      '/reports',
    ]);
  });

  it('answers a wrong password, an unknown email and an unknown company alike, and records each attempt', async () => {
    const ip = freshIp();
    const wrong = await signIn(server, { ...admin(), password: 'Wrong-password-1', ip });
    const unknown = await signIn(server, { email: 'nobody@acme.test', password: 'Wrong-password-1', ip });
    const noCompany = await signIn(server, { ...admin(), companyHostname: 'no-such-company', ip });
    for (const res of [wrong, unknown, noCompany]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: INVALID_CREDENTIALS });
    }
    const adminEvents = await accessEventsOf(server.db, 'admin@acme.test');
    expect(adminEvents.filter((e) => e.event === 'signin' && e.status === 'failure').map((e) => e.reason)).toEqual(
      expect.arrayContaining(['bad_password', 'unknown_company']),
    );
    const [unknownEvent] = await accessEventsOf(server.db, 'nobody@acme.test');
    expect(unknownEvent).toMatchObject({
      event: 'signin',
      status: 'failure',
      reason: 'unknown_account',
      companyId: server.company.companyId,
      userId: null,
      ip,
    });
    const successes = adminEvents.filter((e) => e.event === 'signin' && e.status === 'success');
    expect(successes.length).toBeGreaterThan(0);
  });

  it('costs an unknown email the same argon2 work as a known one', async () => {
    const ip = freshIp();
    const verifiedBy = async (email: string) => {
      argon2.verified.length = 0;
      const res = await signIn(server, { email, password: 'Wrong-password-1', ip });
      expect(res.statusCode).toBe(401);
      return [...argon2.verified];
    };
    const known = await verifiedBy('admin@acme.test');
    const unknown = await verifiedBy('ghost@acme.test');
    // One verification each, against hashes of the same cost: without the decoy the unknown email would verify nothing.
    expect(known).toHaveLength(1);
    expect(unknown).toHaveLength(1);
    const cost = (hashed: string) => hashed.split('$').slice(1, 4).join('$');
    expect(cost(unknown[0])).toBe(cost(known[0]));
    expect(cost(known[0])).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1$/);
  });

  it('refuses a deactivated account with its own message, but only to someone who knows the password', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'gone@acme.test' });
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, member.id));
    const right = await signIn(server, member);
    expect(right.statusCode).toBe(403);
    expect(right.json().message).toBe('Your account is deactivated. Contact your administrator.');
    const wrong = await signIn(server, { ...member, password: 'Not-the-password-1', ip: freshIp() });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(INVALID_CREDENTIALS);

    await server.db.update(users).set({ isActive: true, status: 'inactive' }).where(eq(users.id, member.id));
    expect((await signIn(server, member)).statusCode).toBe(403);
    const events = await accessEventsOf(server.db, 'gone@acme.test');
    expect(events.filter((e) => e.reason === 'deactivated')).toHaveLength(2);
  });

  it('refuses an account whose invitation is not accepted yet', async () => {
    const invitation = await inviteUser(server, adminToken, { email: 'pending@acme.test' });
    const res = await signIn(server, { email: invitation.email, password: invitation.temporaryPassword });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is not activated yet. Use the link in your invitation email.');
    const [event] = await accessEventsOf(server.db, 'pending@acme.test');
    expect(event).toMatchObject({ event: 'signin', status: 'failure', reason: 'not_activated' });
  });

  it('refuses users of a deactivated company', async () => {
    const other = await provisionCompany(server.db, {
      name: 'Dormant',
      hostname: 'dormant',
      admin: { email: 'boss@dormant.test', password: 'Dormant-pass-1', firstName: 'Bo', lastName: 'Ss' },
    });
    const before = await signIn(server, { email: 'boss@dormant.test', password: 'Dormant-pass-1', companyHostname: 'dormant' });
    expect(before.statusCode).toBe(200);
    await server.db.update(companies).set({ isActive: false }).where(eq(companies.id, other.companyId));
    const after = await signIn(server, { email: 'boss@dormant.test', password: 'Dormant-pass-1', companyHostname: 'dormant' });
    expect(after.statusCode).toBe(403);
    // The session opened before the company was deactivated stops working too.
    const profile = await call(server, 'GET', '/user/profile', { token: before.json().user.token });
    expect(profile.statusCode).toBe(401);
  });

  it('does not let a user of one company into another with the same email', async () => {
    await provisionCompany(server.db, {
      name: 'Twin',
      hostname: 'twin',
      admin: { email: 'admin@acme.test', password: 'Twin-password-1', firstName: 'Tw', lastName: 'In' },
    });
    const res = await signIn(server, { ...admin(), companyHostname: 'twin', ip: freshIp() });
    expect(res.statusCode).toBe(401);
    const twin = await signIn(server, { email: 'admin@acme.test', password: 'Twin-password-1', companyHostname: 'twin' });
    expect(twin.statusCode).toBe(200);
    expect(twin.json().user.companyHostname).toBe('twin');
  });
});

describe('POST /signin throttling', () => {
  it('blocks an account after 5 failures, says when to retry, and refuses even the right password meanwhile', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'slow@acme.test' });
    const statuses: number[] = [];
    let blocked;
    for (let i = 0; i < 6; i++) {
      // Each attempt from a new address: the account's own counter is what blocks.
      const res = await signIn(server, { ...member, password: `Wrong-password-${i}`, ip: freshIp() });
      statuses.push(res.statusCode);
      blocked = res;
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(blocked!.json().message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds?\.$/);
    expect(blocked!.json().retryAfterSeconds).toBeGreaterThan(0);
    expect(Number(blocked!.headers['retry-after'])).toBe(blocked!.json().retryAfterSeconds);

    const right = await signIn(server, { ...member, ip: freshIp() });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/Try again in/);
    const events = await accessEventsOf(server.db, 'slow@acme.test');
    expect(events.filter((e) => e.event === 'signin' && e.status === 'blocked')).toHaveLength(1);
    expect(events.filter((e) => e.event === 'signin' && e.status === 'failure' && e.reason === 'bad_password')).toHaveLength(6);

    // When the block has passed, the right password works and the counter starts afresh.
    await server.db
      .update(throttles)
      .set({ blockedUntil: new Date(Date.now() - 1000) })
      .where(eq(throttles.key, 'signin:acct:acme:slow@acme.test'));
    const later = await signIn(server, { ...member, ip: freshIp() });
    expect(later.statusCode).toBe(200);
    expect(await server.db.select().from(throttles).where(eq(throttles.key, 'signin:acct:acme:slow@acme.test'))).toHaveLength(0);
  });

  it('blocks an address that fails on many accounts', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await signIn(server, { email: `spray${i}@acme.test`, password: 'Guess-password-1', ip });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(statuses[21]).toBe(429);
    const res = await signIn(server, { ...admin(), ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/from this address/);
    // Another address is not affected.
    expect((await signIn(server, { ...admin(), ip: freshIp() })).statusCode).toBe(200);
  });
});

describe('POST /signin input', () => {
  it('names the missing or malformed fields', async () => {
    const missing = await call(server, 'POST', '/signin', { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/email: is required/);
    expect(missing.json().message).toMatch(/password: is required/);
    expect(missing.json().message).toMatch(/companyHostname: is required/);

    const types = await call(server, 'POST', '/signin', { body: { email: 42, password: ['x'], companyHostname: true } });
    expect(types.statusCode).toBe(400);
    expect(types.json().message).toMatch(/email/);
    expect(types.json().message).toMatch(/password/);

    const noBody = await call(server, 'POST', '/signin');
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().message).toMatch(/body/);

    const text = await call(server, 'POST', '/signin', { body: 'email=a', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toMatch(/^body: /);
    const form = await call(server, 'POST', '/signin', {
      body: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
  });

  it('refuses SQL and HTML in fields without touching the data', async () => {
    const before = await snapshot(server.db);
    const ip = freshIp();
    const sqlEmail = await signIn(server, { email: HOSTILE.sql, password: 'x', ip });
    expect(sqlEmail.statusCode).toBe(400);
    expect(sqlEmail.json().message).toBe('email: must be a valid email address');
    const sqlHost = await signIn(server, { ...admin(), companyHostname: HOSTILE.sql, ip });
    expect(sqlHost.statusCode).toBe(400);
    expect(sqlHost.json().message).toMatch(/^companyHostname: Company host name may use/);
    const htmlEmail = await signIn(server, { email: HOSTILE.html, password: 'x', ip });
    expect(htmlEmail.statusCode).toBe(400);
    expect(htmlEmail.json().message).toMatch(/^email:/);
    // A password is whatever the user typed: hostile text in it is simply a wrong password.
    const sqlPassword = await signIn(server, { ...admin(), password: HOSTILE.sql, ip });
    expect(sqlPassword.statusCode).toBe(401);
    expect(sqlPassword.json().message).toBe(INVALID_CREDENTIALS);
    const after = await snapshot(server.db);
    expect(after.users).toEqual(before.users);
    expect(after.sessions).toBe(before.sessions);
  });

  it('refuses a 10 MB body with 413', async () => {
    const res = await signIn(server, { ...admin(), password: HOSTILE.huge });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/too large/);
  });
});

describe('access tokens', () => {
  it('refuses a missing, malformed, forged or expired token with "Invalid JWT token"', async () => {
    const session = sessionIdOf(adminToken);
    const claims = { sid: session, sub: server.company.adminUserId, cid: server.company.companyId, stg: 'full' as const };
    const otherKey = createSecrets('another-instance-secret-of-at-least-32-chars').tokenKey;
    const forged = await signAccessToken(otherKey, claims, new Date(Date.now() + 3600_000));
    const noneAlg = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${adminToken.split('.')[1]}.`;
    const expired = await new SignJWT({ sid: session, cid: claims.cid, stg: 'full' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuer('dataops-console')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(otherKey);
    for (const token of [undefined, 'not-a-jwt', forged, noneAlg, expired]) {
      const res = await call(server, 'GET', '/user/profile', { token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid JWT token' });
    }
    expect((await call(server, 'GET', '/user/profile', { token: adminToken })).statusCode).toBe(200);
  });

  it('refuses a token once its session has expired', async () => {
    const { token } = await signInAdmin(server);
    await server.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, sessionIdOf(token)));
    expect((await call(server, 'GET', '/user/profile', { token })).statusCode).toBe(401);
  });

  it('refuses the session of a user deactivated meanwhile, on the very next call', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'flip@acme.test' });
    const res = await signIn(server, member);
    const token = res.json().user.token;
    expect((await call(server, 'GET', '/user/profile', { token })).statusCode).toBe(200);
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, member.id));
    const after = await call(server, 'GET', '/user/profile', { token });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Invalid JWT token');
    await server.db.update(users).set({ isActive: true }).where(eq(users.id, member.id));
  });

  it('keeps lastSeenAt fresh, writing at most once a minute', async () => {
    const { token } = await signInAdmin(server);
    const id = sessionIdOf(token);
    const old = new Date(Date.now() - 5 * 60_000);
    await server.db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.id, id));
    await call(server, 'GET', '/user/profile', { token });
    const touched = (await sessionRow(server.db, id)).lastSeenAt;
    expect(touched.getTime()).toBeGreaterThan(Date.now() - 10_000);
    await call(server, 'GET', '/user/profile', { token });
    expect((await sessionRow(server.db, id)).lastSeenAt.getTime()).toBe(touched.getTime());
  });
});

describe('access events', () => {
  it('records the address and browser of a sign-in', async () => {
    const ip = freshIp();
    await server.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      remoteAddress: ip,
      headers: { 'user-agent': 'TestBrowser/1.0' },
      payload: { ...admin(), companyHostname: 'acme' },
    });
    const [event] = await server.db
      .select()
      .from(accessEvents)
      .where(and(eq(accessEvents.ip, ip), eq(accessEvents.event, 'signin')));
    expect(event).toMatchObject({ status: 'success', userAgent: 'TestBrowser/1.0', userId: server.company.adminUserId });
  });
});
