import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY } from '../../common/password-policy';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { authTokens, roles, systemAudits, users } from '../../server/db/schema';
import { TEMPORARY_PASSWORD_MISMATCH } from '../../common/messages';
import { provisionCompany } from '../../server/tenancy/provision';
import {
  accessEventsOf,
  call,
  createActiveUser,
  freshIp,
  HOSTILE,
  inviteUser,
  mailsTo,
  MEMBER_PASSWORD,
  readLastMail,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
  temporaryPasswordFromMail,
  tokenFromMail,
  userRow,
} from './helpers';

const ACTIVATION_INVALID = 'This activation link is invalid or has expired';
const RESEND_MESSAGE = 'If this account is waiting to be activated, a new temporary password and activation link have been mailed to it.';

let server: TestServer;
let adminToken: string;
let memberToken: string;
beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
  const member = await createActiveUser(server, adminToken, { email: 'plain.member@acme.test' });
  memberToken = (await signInFully(server, member)).token;
});
afterAll(async () => {
  await server?.close();
});

const invite = (body: Record<string, unknown>, token = adminToken) => call(server, 'POST', '/user', { token, body });

describe('POST /user (invitation)', () => {
  it('creates an invited user with a temporary password and mails the activation link', async () => {
    const res = await invite({
      email: 'New.Person@acme.test',
      firstName: 'Anne-Marie',
      lastName: "O'Neil",
      roleId: server.company.memberRoleId,
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toEqual({ id: expect.any(String), email: 'new.person@acme.test', status: 'invited' });

    const row = await userRow(server.db, data.id);
    expect(row).toMatchObject({
      email: 'new.person@acme.test',
      firstName: 'Anne-Marie',
      lastName: "O'Neil",
      status: 'invited',
      createdBy: server.company.adminUserId,
    });
    const mail = await readLastMail(server.db, 'new.person@acme.test');
    expect(mail).toMatchObject({
      kind: 'activation',
      subject: 'Your DataOps Console account for Acme',
      companyId: server.company.companyId,
    });
    const temporary = temporaryPasswordFromMail(mail);
    expect(temporary).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(temporary);
    expect(mail.text).toMatch(/http:\/\/localhost(:\d+)?\/auth\/activate-user-account\?token=[A-Za-z0-9_-]{43}/);
    expect(mail.text).toContain('valid for 7 days');
    expect(mail.html).toContain(temporary);

    const [token] = await server.db.select().from(authTokens).where(eq(authTokens.userId, data.id));
    expect(token.kind).toBe('activation');
    const days = (token.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, data.id), eq(systemAudits.operation, 'create')));
    expect(audit).toMatchObject({ model: 'user', userId: server.company.adminUserId });
    expect(audit.changes).toMatchObject({
      after: { email: 'new.person@acme.test', roleId: server.company.memberRoleId, status: 'invited' },
    });
    expect(JSON.stringify(audit.changes)).not.toContain(temporary);
  });

  it('refuses an email already in the company, but not one of another company', async () => {
    await inviteUser(server, adminToken, { email: 'dup@acme.test' });
    const before = await snapshot(server.db);
    const again = await invite({ email: 'DUP@acme.test', firstName: 'Du', lastName: 'Plicate', roleId: server.company.memberRoleId });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A user with this email already exists');
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('only takes a role of the same company', async () => {
    const other = await provisionCompany(server.db, {
      name: 'Elsewhere',
      hostname: 'elsewhere',
      admin: { email: 'boss@elsewhere.test', password: 'Elsewhere-pass-1', firstName: 'El', lastName: 'Se' },
    });
    const before = await snapshot(server.db);
    for (const roleId of [other.memberRoleId, '00000000-0000-4000-8000-000000000000']) {
      const res = await invite({ email: 'role.check@acme.test', firstName: 'Ro', lastName: 'Le', roleId });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('roleId: no such role');
    }
    const [role] = await server.db
      .insert(roles)
      .values({ companyId: server.company.companyId, name: 'Retired', isActive: false })
      .returning();
    const retired = await invite({ email: 'role.check@acme.test', firstName: 'Ro', lastName: 'Le', roleId: role.id });
    expect(retired.statusCode).toBe(400);
    expect(retired.json().message).toBe('roleId: this role is deactivated');
    expect((await snapshot(server.db)).users).toEqual(before.users);
  });

  it('is for admins only', async () => {
    const before = await snapshot(server.db);
    const res = await invite(
      { email: 'sneaky@acme.test', firstName: 'Sn', lastName: 'Eaky', roleId: server.company.adminRoleId },
      memberToken,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Resource Access not provided');
    const anonymous = await call(server, 'POST', '/user', { body: { email: 'x@acme.test' } });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('names bad fields, refuses SQL, HTML and huge bodies, and stores nothing', async () => {
    const before = await snapshot(server.db);
    const good = { email: 'valid@acme.test', firstName: 'Val', lastName: 'Id', roleId: server.company.memberRoleId };
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /email: is required; firstName: is required.*; roleId: /],
      [{ ...good, email: HOSTILE.sql }, 400, /^email: must be a valid email address$/],
      [{ ...good, firstName: HOSTILE.html }, 400, /^firstName: may only contain letters, spaces, apostrophes, hyphens and periods$/],
      [{ ...good, lastName: HOSTILE.sql }, 400, /^lastName: may only contain letters, spaces, apostrophes, hyphens and periods$/],
      [{ ...good, firstName: '   ' }, 400, /^firstName: is required$/],
      [{ ...good, firstName: 'x'.repeat(101) }, 400, /^firstName: must be at most 100 characters/],
      [{ ...good, roleId: HOSTILE.sql }, 400, /^roleId: must be a valid id$/],
      [{ ...good, roleId: undefined }, 400, /^roleId: Choose a role$/],
      [{ ...good, roleId: '' }, 400, /^roleId: Choose a role$/],
      [{ ...good, roleId: 12 }, 400, /^roleId: /],
      [{ ...good, firstName: HOSTILE.huge }, 413, /too large/],
    ];
    for (const [body, status, message] of cases) {
      const res = await invite(body as Record<string, unknown>);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('accepts a missing last name', async () => {
    const res = await invite({ email: 'mononym@acme.test', firstName: 'Teller', roleId: server.company.memberRoleId });
    expect(res.statusCode).toBe(201);
    expect((await userRow(server.db, res.json().data.id)).lastName).toBe('');
  });
});

describe('activation', () => {
  it('checks the link, then sets the password with the temporary one from the mail', async () => {
    const invitation = await inviteUser(server, adminToken, { email: 'activate.me@acme.test' });
    const verify = await call(server, 'POST', '/user/verify', { body: { token: invitation.token } });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data).toEqual({
      email: 'activate.me@acme.test',
      companyHostname: 'acme',
      passwordPolicy: DEFAULT_PASSWORD_POLICY,
    });

    const res = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword, newPassword: 'My-own-pass-99' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/account is active/);
    const row = await userRow(server.db, invitation.id);
    expect(row.status).toBe('active');
    expect(row.passwordChangedAt).not.toBeNull();
    const user = await signInFully(server, { email: invitation.email, password: 'My-own-pass-99' });
    expect(user.roleName).toBe('Member');
    expect((await signIn(server, { email: invitation.email, password: invitation.temporaryPassword, ip: freshIp() })).statusCode).toBe(401);

    // The link is spent.
    expect((await call(server, 'POST', '/user/verify', { body: { token: invitation.token } })).json().message).toBe(ACTIVATION_INVALID);
    const reuse = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword, newPassword: 'Other-pass-99' },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe(ACTIVATION_INVALID);

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, invitation.id), eq(systemAudits.operation, 'activate')));
    expect(audit).toBeDefined();
    const [event] = (await accessEventsOf(server.db, invitation.email)).filter((e) => e.event === 'password_create');
    expect(event).toMatchObject({ status: 'success' });
  });

  it('refuses a wrong temporary password with the exact text the console reacts to', async () => {
    const invitation = await inviteUser(server, adminToken, { email: 'wrong.temp@acme.test' });
    const before = await userRow(server.db, invitation.id);
    const res = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: invitation.token, oldPassword: 'Not-the-temporary-1', newPassword: 'My-own-pass-99' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: TEMPORARY_PASSWORD_MISMATCH });
    expect(res.json().message).toBe("The Temporary Password doesn't match");
    expect(await userRow(server.db, invitation.id)).toEqual(before);
    const [event] = (await accessEventsOf(server.db, invitation.email)).filter((e) => e.event === 'password_create');
    expect(event).toMatchObject({ status: 'failure', reason: 'bad_temporary_password' });
  });

  it('refuses bad input and a new password equal to the temporary one', async () => {
    const invitation = await inviteUser(server, adminToken, { email: 'picky@acme.test' });
    const before = await snapshot(server.db);
    const body = { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword };
    const cases: [unknown, number, RegExp][] = [
      [{ ...body, newPassword: invitation.temporaryPassword }, 400, /^newPassword: must be different from the temporary password$/],
      [{ ...body, newPassword: 'weak' }, 400, /^newPassword: Password must be at least 10/],
      [{ ...body }, 400, /^newPassword: is required$/],
      [{ ...body, defaultPasswordToken: HOSTILE.sql, newPassword: 'My-own-pass-99' }, 400, /^defaultPasswordToken: is not a link token/],
      [{ ...body, defaultPasswordToken: 'C'.repeat(43), newPassword: 'My-own-pass-99' }, 400, new RegExp(`^${ACTIVATION_INVALID}$`)],
      [{ ...body, newPassword: HOSTILE.huge }, 413, /too large/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call(server, 'POST', '/user/password/create', { body: payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const missing = await call(server, 'POST', '/user/verify', { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('token: is required');
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('refuses the link of an invitation the admin deactivated, or one that expired', async () => {
    const invitation = await inviteUser(server, adminToken, { email: 'withdrawn@acme.test' });
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, invitation.id));
    expect((await call(server, 'POST', '/user/verify', { body: { token: invitation.token } })).json().message).toBe(ACTIVATION_INVALID);
    await server.db.update(users).set({ isActive: true }).where(eq(users.id, invitation.id));
    await server.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(authTokens.userId, invitation.id));
    const res = await call(server, 'POST', '/user/verify', { body: { token: invitation.token } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(ACTIVATION_INVALID);
  });
});

describe('POST /user/token/resend', () => {
  it('mails an invited user a new temporary password and link; the old ones stop working', async () => {
    const first = await inviteUser(server, adminToken, { email: 'lost.mail@acme.test' });
    const res = await call(server, 'POST', '/user/token/resend', {
      body: { email: 'lost.mail@acme.test', companyHostname: 'acme' },
      ip: freshIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: RESEND_MESSAGE });
    const mail = await readLastMail(server.db, first.email);
    const token = tokenFromMail(mail, '/auth/activate-user-account');
    const temporary = temporaryPasswordFromMail(mail);
    expect(token).not.toBe(first.token);
    expect(temporary).not.toBe(first.temporaryPassword);

    expect((await call(server, 'POST', '/user/verify', { body: { token: first.token } })).statusCode).toBe(400);
    const oldTemp = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: token, oldPassword: first.temporaryPassword, newPassword: 'Fresh-start-11' },
    });
    expect(oldTemp.json().message).toBe(TEMPORARY_PASSWORD_MISMATCH);
    const ok = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: token, oldPassword: temporary, newPassword: 'Fresh-start-11' },
    });
    expect(ok.statusCode).toBe(200);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, first.id), eq(systemAudits.operation, 'resend_invitation')));
    expect(audit).toBeDefined();
  });

  it('answers the same and mails nothing for active, unknown and foreign accounts', async () => {
    const before = await snapshot(server.db);
    for (const [email, companyHostname] of [
      ['admin@acme.test', 'acme'],
      ['nobody@acme.test', 'acme'],
      ['lost.mail@acme.test', 'elsewhere-not-here'],
    ]) {
      const res = await call(server, 'POST', '/user/token/resend', { body: { email, companyHostname }, ip: freshIp() });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(RESEND_MESSAGE);
    }
    const after = await snapshot(server.db);
    expect(after).toEqual(before);
  });

  it('names bad fields', async () => {
    const res = await call(server, 'POST', '/user/token/resend', { body: { email: HOSTILE.html, companyHostname: HOSTILE.sql } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^email: must be a valid email address; companyHostname: /);
  });

  it('stops mailing after 5 an hour for one account', async () => {
    const invitation = await inviteUser(server, adminToken, { email: 'resend.often@acme.test' });
    for (let i = 0; i < 7; i++) {
      await call(server, 'POST', '/user/token/resend', { body: { email: invitation.email, companyHostname: 'acme' }, ip: freshIp() });
    }
    // The invitation itself, then five resends.
    expect(await mailsTo(server.db, invitation.email)).toHaveLength(6);
  });
});

describe('GET /user/profile and /users/active', () => {
  it('gives the caller their own profile', async () => {
    const res = await call(server, 'GET', '/user/profile', { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({
      id: server.company.adminUserId,
      email: 'admin@acme.test',
      firstName: 'Ada',
      lastName: 'Admin',
      username: null,
      roleId: server.company.adminRoleId,
      roleName: 'Admin',
      isAdmin: true,
      otpEnabled: false,
      companyName: 'Acme',
      companyHostname: 'acme',
      impersonator: null,
    });
  });

  it('lists the active users of the company only', async () => {
    await inviteUser(server, adminToken, { email: 'listed.not@acme.test' });
    const off = await createActiveUser(server, adminToken, { email: 'listed.off@acme.test' });
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, off.id));
    const res = await call(server, 'GET', '/users/active', { token: memberToken });
    expect(res.statusCode).toBe(200);
    const emails = res.json().users.map((u: { email: string }) => u.email);
    expect(emails).toContain('admin@acme.test');
    expect(emails).toContain('plain.member@acme.test');
    expect(emails).not.toContain('listed.not@acme.test');
    expect(emails).not.toContain('listed.off@acme.test');
    expect(emails).not.toContain('boss@elsewhere.test');
    const admin = res.json().users.find((u: { email: string }) => u.email === 'admin@acme.test');
    expect(admin).toEqual({
      id: server.company.adminUserId,
      email: 'admin@acme.test',
      firstName: 'Ada',
      lastName: 'Admin',
      roleName: 'Admin',
      isAdmin: true,
    });
  });
});

describe('preferences', () => {
  it('stores values per key, merging with the others', async () => {
    const empty = await call(server, 'GET', '/user/preferences', { token: memberToken });
    expect(empty.json().data).toEqual({});
    const layout = { columns: ['name', 'createdAt'], pageSize: 25 };
    const put = await call(server, 'PUT', '/user/preferences/users.table', { token: memberToken, body: { value: layout } });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toEqual({ 'users.table': layout });
    await call(server, 'PUT', '/user/preferences/theme', { token: memberToken, body: { value: 'dark' } });
    await call(server, 'PUT', '/user/preferences/theme', { token: memberToken, body: { value: 'light' } });
    const all = await call(server, 'GET', '/user/preferences', { token: memberToken });
    expect(all.json().data).toEqual({ 'users.table': layout, theme: 'light' });
    const one = await call(server, 'GET', '/user/preferences/theme', { token: memberToken });
    expect(one.json().data).toEqual({ theme: 'light' });
    const none = await call(server, 'GET', '/user/preferences/unset-key', { token: memberToken });
    expect(none.json().data).toEqual({ 'unset-key': null });
    // Another user's preferences are their own.
    expect((await call(server, 'GET', '/user/preferences', { token: adminToken })).json().data).toEqual({});
    // Values are stored as given; the console escapes what it shows.
    const html = await call(server, 'PUT', '/user/preferences/note', { token: memberToken, body: { value: HOSTILE.html } });
    expect(html.json().data).toEqual({ note: HOSTILE.html });
  });

  it('refuses bad keys, missing values and values over 16 KB', async () => {
    const before = await snapshot(server.db);
    const cases: [string, unknown, number, RegExp][] = [
      ['bad%20key', { value: 1 }, 400, /^key: must be 1 to 100 letters, digits/],
      [encodeURIComponent(HOSTILE.sql), { value: 1 }, 400, /^key: must be 1 to 100 letters, digits/],
      [encodeURIComponent(HOSTILE.html), { value: 1 }, 400, /^key: /],
      ['k'.repeat(101), { value: 1 }, 400, /^key: /],
      ['fine', {}, 400, /^value: is required/],
      ['fine', { value: 'x'.repeat(16 * 1024) }, 400, /^value: must be at most 16 KB of JSON$/],
      ['fine', { value: HOSTILE.huge }, 413, /too large/],
    ];
    for (const [key, body, status, message] of cases) {
      const res = await call(server, 'PUT', `/user/preferences/${key}`, { token: memberToken, body });
      expect(res.statusCode, key.slice(0, 40)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    const justUnder = await call(server, 'PUT', '/user/preferences/big', {
      token: memberToken,
      body: { value: 'x'.repeat(16 * 1024 - 2) },
    });
    expect(justUnder.statusCode).toBe(200);
  });

  it('keeps at most 50 keys per user', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'hoarder@acme.test', password: MEMBER_PASSWORD });
    const token = (await signInFully(server, user)).token;
    for (let i = 0; i < 50; i++) {
      expect((await call(server, 'PUT', `/user/preferences/k${i}`, { token, body: { value: i } })).statusCode).toBe(200);
    }
    const over = await call(server, 'PUT', '/user/preferences/k50', { token, body: { value: 50 } });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/at most 50 different preferences/);
    // Replacing an existing key is still fine.
    expect((await call(server, 'PUT', '/user/preferences/k7', { token, body: { value: 'seven' } })).statusCode).toBe(200);
  });
});
