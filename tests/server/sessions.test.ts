import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { accessEvents, systemAudits, users } from '../../server/db/schema';
import { provisionCompany } from '../../server/tenancy/provision';
import {
  accessEventsOf,
  call,
  createActiveUser,
  HOSTILE,
  inviteUser,
  sessionIdOf,
  sessionRow,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
} from './helpers';

let server: TestServer;
let adminToken: string;
let member: { id: string; email: string; password: string };
beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
  member = await createActiveUser(server, adminToken, { email: 'mia.member@acme.test', firstName: 'Mia' });
});
afterAll(async () => {
  await server?.close();
});

const logout = (token: string | undefined, body?: unknown) => call(server, 'PUT', '/session/logout', { token, body });
const impersonate = (token: string, userId: unknown) => call(server, 'POST', '/user/impersonate', { token, body: { userId } });

describe('PUT /session/logout', () => {
  it('ends the caller’s own session, with or without an empty body', async () => {
    for (const body of [undefined, {}]) {
      const { token } = await signInFully(server, member);
      const res = await logout(token, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Signed out' });
      const row = await sessionRow(server.db, sessionIdOf(token));
      expect(row).toMatchObject({ endReason: 'logout', isDeleted: true });
      expect(row.endedAt).not.toBeNull();
      const after = await call(server, 'GET', '/user/profile', { token });
      expect(after.statusCode).toBe(401);
      expect(after.json().message).toBe('Invalid JWT token');
      expect((await logout(token)).statusCode).toBe(401);
    }
    const events = (await accessEventsOf(server.db, member.email)).filter((e) => e.event === 'logout');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ status: 'success', userId: member.id });
  });

  it('lets a half-finished sign-in be abandoned', async () => {
    const strict = await createActiveUser(server, adminToken, { email: 'half.way@acme.test' });
    await server.db.update(users).set({ otpRequired: true }).where(eq(users.id, strict.id));
    const half = (await signIn(server, strict)).json().user.token;
    const res = await logout(half);
    expect(res.statusCode).toBe(200);
    expect((await call(server, 'GET', '/user/otp/setup', { token: half })).statusCode).toBe(401);
  });

  it('lets an admin end another session of the company', async () => {
    const target = (await signInFully(server, member)).token;
    const sessionId = sessionIdOf(target);
    const res = await logout(adminToken, { sessionId });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('The session of mia.member@acme.test has been ended');
    expect((await call(server, 'GET', '/user/profile', { token: target })).statusCode).toBe(401);
    expect((await call(server, 'GET', '/user/profile', { token: adminToken })).statusCode).toBe(200);
    expect(await sessionRow(server.db, sessionId)).toMatchObject({ endReason: 'ended_by_admin', isDeleted: true });
    const [event] = (await accessEventsOf(server.db, member.email)).filter((e) => e.event === 'session_end');
    expect(event).toMatchObject({ status: 'success', userId: member.id, reason: 'ended_by_admin' });
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, sessionId), eq(systemAudits.model, 'session')));
    expect(audit).toMatchObject({ operation: 'end', userId: server.company.adminUserId });

    const again = await logout(adminToken, { sessionId });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('sessionId: this session has already ended');
  });

  it('does not let an admin reach sessions of another company, nor a member end others’ sessions', async () => {
    await provisionCompany(server.db, {
      name: 'Rival',
      hostname: 'rival',
      admin: { email: 'boss@rival.test', password: 'Rival-password-1', firstName: 'Ri', lastName: 'Val' },
    });
    const rival = (await signIn(server, { email: 'boss@rival.test', password: 'Rival-password-1', companyHostname: 'rival' })).json().user
      .token;
    const foreign = await logout(adminToken, { sessionId: sessionIdOf(rival) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Session not found');
    const unknown = await logout(adminToken, { sessionId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect((await call(server, 'GET', '/user/profile', { token: rival })).statusCode).toBe(200);

    const memberToken = (await signInFully(server, member)).token;
    const denied = await logout(memberToken, { sessionId: sessionIdOf(adminToken) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');
    expect((await call(server, 'GET', '/user/profile', { token: adminToken })).statusCode).toBe(200);
  });

  it('names a bad sessionId and ends nothing', async () => {
    const before = await snapshot(server.db);
    for (const sessionId of [HOSTILE.sql, HOSTILE.html, 42]) {
      const res = await logout(adminToken, { sessionId });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^sessionId: /);
    }
    const huge = await logout(adminToken, { sessionId: HOSTILE.huge });
    expect(huge.statusCode).toBe(413);
    expect(await snapshot(server.db)).toEqual(before);
    expect((await logout(undefined)).statusCode).toBe(401);
  });
});

describe('POST /user/impersonate', () => {
  it('opens a session as the user, with the admin named as impersonator', async () => {
    const res = await impersonate(adminToken, member.id);
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      id: member.id,
      email: member.email,
      isAdmin: false,
      auth: true,
      requireOTP: false,
      impersonator: { id: server.company.adminUserId, email: 'admin@acme.test', name: 'Ada Admin' },
    });
    const profile = await call(server, 'GET', '/user/profile', { token: user.token });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user).toMatchObject({ id: member.id, email: member.email, impersonator: { id: server.company.adminUserId } });
    // The admin's own session goes on.
    expect((await call(server, 'GET', '/user/profile', { token: adminToken })).json().user.id).toBe(server.company.adminUserId);

    const session = await sessionRow(server.db, sessionIdOf(user.token));
    expect(session).toMatchObject({
      userId: member.id,
      stage: 'full',
      impersonatorUserId: server.company.adminUserId,
      impersonatorSessionId: sessionIdOf(adminToken),
    });
    expect(session.expiresAt.getTime()).toBeLessThanOrEqual((await sessionRow(server.db, sessionIdOf(adminToken))).expiresAt.getTime());

    const [event] = await server.db
      .select()
      .from(accessEvents)
      .where(and(eq(accessEvents.event, 'impersonation'), eq(accessEvents.userId, member.id)));
    expect(event).toMatchObject({ status: 'success', impersonatorUserId: server.company.adminUserId });
    const [audit] = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, session.id));
    expect(audit).toMatchObject({
      model: 'session',
      operation: 'impersonate',
      userId: member.id,
      impersonatorUserId: server.company.adminUserId,
    });
  });

  it('skips the two-factor step of the user', async () => {
    const guarded = await createActiveUser(server, adminToken, { email: 'guarded@acme.test' });
    await server.db.update(users).set({ otpEnabled: true, otpSecretEnc: 'v1.x.y.z' }).where(eq(users.id, guarded.id));
    expect((await signIn(server, guarded)).json().user.requireOTP).toBe(true);
    const res = await impersonate(adminToken, guarded.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ auth: true, requireOTP: false, otpEnabled: true });
  });

  it('marks what is done while impersonating with both identities, and keeps the owner’s own settings out of reach', async () => {
    const second = await createActiveUser(server, adminToken, { email: 'second.admin@acme.test', roleId: server.company.adminRoleId });
    const acting = (await impersonate(adminToken, second.id)).json().user.token;
    const invited = await call(server, 'POST', '/user', {
      token: acting,
      body: { email: 'via.impersonation@acme.test', firstName: 'Via', lastName: 'Proxy', roleId: server.company.memberRoleId },
    });
    expect(invited.statusCode).toBe(201);
    const [audit] = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, invited.json().data.id));
    expect(audit).toMatchObject({ userId: second.id, impersonatorUserId: server.company.adminUserId });

    const password = await call(server, 'POST', '/user/password', {
      token: acting,
      body: { oldPassword: second.password, newPassword: 'Hijacked-pass-1' },
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().message).toBe('This is not allowed while impersonating another user');
    expect((await call(server, 'GET', '/user/otp/setup', { token: acting })).statusCode).toBe(403);

    const nested = await impersonate(acting, member.id);
    expect(nested.statusCode).toBe(400);
    expect(nested.json().message).toBe('End the current impersonation first');

    // Ending it is an impersonation_end event; the admin stays signed in.
    expect((await logout(acting)).statusCode).toBe(200);
    const [ended] = await server.db
      .select()
      .from(accessEvents)
      .where(and(eq(accessEvents.event, 'impersonation_end'), eq(accessEvents.userId, second.id)));
    expect(ended).toMatchObject({ impersonatorUserId: server.company.adminUserId });
    expect((await call(server, 'GET', '/user/profile', { token: adminToken })).statusCode).toBe(200);
  });

  it('refuses non-admins, oneself, inactive, invited and unknown users', async () => {
    const before = await snapshot(server.db);
    const memberToken = (await signInFully(server, member)).token;
    const afterSignIn = await snapshot(server.db);
    const denied = await impersonate(memberToken, server.company.adminUserId);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Resource Access not provided');

    const self = await impersonate(adminToken, server.company.adminUserId);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('userId: you cannot impersonate yourself');

    const invitation = await inviteUser(server, adminToken, { email: 'not.active.yet@acme.test' });
    const pending = await impersonate(adminToken, invitation.id);
    expect(pending.statusCode).toBe(400);
    expect(pending.json().message).toBe('userId: this user has not activated the account yet');

    const off = await createActiveUser(server, adminToken, { email: 'switched.off@acme.test' });
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, off.id));
    const inactive = await impersonate(adminToken, off.id);
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().message).toBe('userId: this user is deactivated');

    const other = await provisionCompany(server.db, {
      name: 'Faraway',
      hostname: 'faraway',
      admin: { email: 'boss@faraway.test', password: 'Faraway-pass-1', firstName: 'Fa', lastName: 'R' },
    });
    for (const userId of [other.adminUserId, '00000000-0000-4000-8000-000000000000']) {
      const res = await impersonate(adminToken, userId);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('User not found');
    }
    for (const userId of [HOSTILE.sql, HOSTILE.html, undefined]) {
      const res = await impersonate(adminToken, userId);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^userId: /);
    }
    // None of the refusals opened a session.
    expect(before.sessions + 1).toBe(afterSignIn.sessions);
    const { sessions: now } = await snapshot(server.db);
    expect(now).toBe(afterSignIn.sessions);
  });

  it('stops working when the admin behind it is deactivated or changes password', async () => {
    const boss = await createActiveUser(server, adminToken, { email: 'boss.two@acme.test', roleId: server.company.adminRoleId });
    const bossToken = (await signInFully(server, boss)).token;
    const first = (await impersonate(bossToken, member.id)).json().user.token;
    expect((await call(server, 'GET', '/user/profile', { token: first })).statusCode).toBe(200);
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, boss.id));
    expect((await call(server, 'GET', '/user/profile', { token: first })).statusCode).toBe(401);
    await server.db.update(users).set({ isActive: true }).where(eq(users.id, boss.id));

    const second = (await impersonate(bossToken, member.id)).json().user.token;
    const changed = await call(server, 'POST', '/user/password', {
      token: bossToken,
      body: { oldPassword: boss.password, newPassword: 'Boss-new-pass-9' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await call(server, 'GET', '/user/profile', { token: second })).statusCode).toBe(401);
    expect(await sessionRow(server.db, sessionIdOf(second))).toMatchObject({ endReason: 'password_changed' });
  });
});
