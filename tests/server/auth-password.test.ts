import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_POLICY } from '../../common/password-policy';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { authTokens, sessions, systemAudits, users } from '../../server/db/schema';
import { PASSWORD_UPDATED_MESSAGE } from '../../common/messages';
import {
  accessEventsOf,
  call,
  createActiveUser,
  freshIp,
  HOSTILE,
  inviteUser,
  mailsTo,
  readLastMail,
  sessionIdOf,
  sessionRow,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
  tokenFromMail,
  userRow,
} from './helpers';

const FORGOT_MESSAGE = 'If an active account with that email exists for this company, a link to reset its password has been mailed to it.';
const LINK_INVALID = 'This password reset link is invalid or has expired';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
});
afterAll(async () => {
  await server?.close();
});

function forgot(email: string, options: { companyHostname?: string; headers?: Record<string, string>; ip?: string } = {}) {
  return call(server, 'POST', '/user/password/forgot', {
    body: { email, companyHostname: options.companyHostname ?? 'acme' },
    headers: options.headers,
    ip: options.ip ?? freshIp(),
  });
}

/** Asks for a reset link and returns the token from the mail. */
async function resetTokenFor(email: string): Promise<string> {
  const res = await forgot(email);
  expect(res.statusCode).toBe(200);
  const mail = await readLastMail(server.db, email);
  expect(mail.kind).toBe('password_reset');
  return tokenFromMail(mail, '/auth/reset-password');
}

describe('POST /user/password/forgot', () => {
  it('mails a one-hour link to an active user, storing only a hash of its token', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'forgetful@acme.test' });
    const res = await forgot('Forgetful@ACME.test', { headers: { host: 'localhost:5173' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: FORGOT_MESSAGE });
    const mail = await readLastMail(server.db, member.email);
    expect(mail).toMatchObject({ kind: 'password_reset', subject: 'Reset your DataOps Console password', status: 'stored' });
    expect(mail.text).toMatch(/^Choose a new password: http:\/\/localhost:5173\/auth\/reset-password\?token=[A-Za-z0-9_-]{43}$/m);
    expect(mail.html).toContain('href="http://localhost:5173/auth/reset-password?token=');
    const token = tokenFromMail(mail, '/auth/reset-password');
    const [row] = await server.db
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.userId, member.id), eq(authTokens.kind, 'reset')));
    expect(row.tokenHash).not.toContain(token);
    expect(row.usedAt).toBeNull();
    const minutes = (row.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
    const [event] = (await accessEventsOf(server.db, member.email)).filter((e) => e.event === 'password_reset_request');
    expect(event).toMatchObject({ status: 'success', userId: member.id });
  });

  it('answers the same for unknown, invited and deactivated accounts, and mails nothing', async () => {
    await inviteUser(server, adminToken, { email: 'not.yet@acme.test' });
    const off = await createActiveUser(server, adminToken, { email: 'off@acme.test' });
    await server.db.update(users).set({ isActive: false }).where(eq(users.id, off.id));
    const before = await snapshot(server.db);
    for (const [email, companyHostname] of [
      ['nobody@acme.test', 'acme'],
      ['admin@acme.test', 'no-such-company'],
      ['not.yet@acme.test', 'acme'],
      ['off@acme.test', 'acme'],
    ]) {
      const res = await forgot(email, { companyHostname });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: FORGOT_MESSAGE });
    }
    const after = await snapshot(server.db);
    expect(after.mails).toBe(before.mails);
    expect(after.authTokens).toBe(before.authTokens);
    expect(await mailsTo(server.db, 'nobody@acme.test')).toHaveLength(0);
  });

  it('stops mailing one account after 5 requests an hour, still with the same answer', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'spammed@acme.test' });
    for (let i = 0; i < 7; i++) {
      const res = await forgot(member.email);
      expect(res.json().message).toBe(FORGOT_MESSAGE);
    }
    expect((await mailsTo(server.db, member.email)).filter((m) => m.kind === 'password_reset')).toHaveLength(5);
  });

  it('limits requests from one address', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await forgot(`who${i}@acme.test`, { ip })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('names bad fields and refuses SQL, HTML and huge bodies', async () => {
    const before = await snapshot(server.db);
    const cases: [unknown, RegExp][] = [
      [{}, /email: is required.*companyHostname: is required/],
      [{ email: HOSTILE.sql, companyHostname: 'acme' }, /^email: must be a valid email address$/],
      [{ email: 'admin@acme.test', companyHostname: HOSTILE.html }, /^companyHostname: Company host name may use/],
      [{ email: ['admin@acme.test'], companyHostname: 'acme' }, /^email: is required$/],
    ];
    for (const [body, message] of cases) {
      const res = await call(server, 'POST', '/user/password/forgot', { body, ip: freshIp() });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const huge = await call(server, 'POST', '/user/password/forgot', { body: { email: HOSTILE.huge, companyHostname: 'acme' } });
    expect(huge.statusCode).toBe(413);
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('uses PUBLIC_URL for links when it is set', async () => {
    const other = await createTestServer({ publicUrl: 'https://console.example.test' });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/v1/user/password/forgot',
        headers: { host: 'evil.example.test' },
        payload: { email: other.company.adminEmail, companyHostname: 'acme' },
      });
      expect(res.statusCode).toBe(200);
      const mail = await readLastMail(other.db, other.company.adminEmail);
      expect(mail.text).toContain('https://console.example.test/auth/reset-password?token=');
      expect(mail.text).not.toContain('evil.example.test');
    } finally {
      await other.close();
    }
  });
});

describe('POST /user/password/token/verify', () => {
  it('accepts the mailed token under either name and gives back the email and the grant', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'verify.reset@acme.test' });
    const token = await resetTokenFor(member.email);
    for (const body of [{ resetPasswordToken: token }, { token }]) {
      const res = await call(server, 'POST', '/user/password/token/verify', { body });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ email: member.email, clientId: token, passwordPolicy: DEFAULT_PASSWORD_POLICY });
    }
  });

  it('refuses unknown, malformed and missing tokens', async () => {
    const unknown = await call(server, 'POST', '/user/password/token/verify', { body: { token: 'A'.repeat(43) } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(LINK_INVALID);
    const sql = await call(server, 'POST', '/user/password/token/verify', { body: { token: HOSTILE.sql } });
    expect(sql.statusCode).toBe(400);
    expect(sql.json().message).toMatch(/^token: is not a link token/);
    const html = await call(server, 'POST', '/user/password/token/verify', { body: { resetPasswordToken: HOSTILE.html } });
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toMatch(/^resetPasswordToken: is not a link token/);
    const missing = await call(server, 'POST', '/user/password/token/verify', { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('resetPasswordToken: is required (or token)');
    const wrongType = await call(server, 'POST', '/user/password/token/verify', { body: { token: 5 } });
    expect(wrongType.json().message).toBe('token: must be a string');
  });

  it('refuses an expired token, and an older one once a newer link was mailed', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'expiry@acme.test' });
    const older = await resetTokenFor(member.email);
    const newer = await resetTokenFor(member.email);
    expect((await call(server, 'POST', '/user/password/token/verify', { body: { token: older } })).statusCode).toBe(400);
    expect((await call(server, 'POST', '/user/password/token/verify', { body: { token: newer } })).statusCode).toBe(200);
    await server.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.userId, member.id));
    const expired = await call(server, 'POST', '/user/password/token/verify', { body: { token: newer } });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(LINK_INVALID);
  });
});

describe('POST /user/password/reset', () => {
  it('sets the new password from the mailed link, spends the token and ends every session', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'resetter@acme.test' });
    const sessionA = (await signInFully(server, member)).token;
    const sessionB = (await signInFully(server, member)).token;
    const token = await resetTokenFor(member.email);
    const clientId = (await call(server, 'POST', '/user/password/token/verify', { body: { resetPasswordToken: token } })).json().data
      .clientId;

    const res = await call(server, 'POST', '/user/password/reset', {
      body: { email: member.email, newPassword: 'Brand-new-pass-7', clientId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/Sign in with your new password/);

    for (const old of [sessionA, sessionB]) {
      const after = await call(server, 'GET', '/user/profile', { token: old });
      expect(after.statusCode).toBe(401);
      expect(after.json().message).toBe('Invalid JWT token');
      expect(await sessionRow(server.db, sessionIdOf(old))).toMatchObject({ endReason: 'password_changed', isDeleted: true });
    }
    expect((await signIn(server, { ...member, ip: freshIp() })).statusCode).toBe(401);
    expect((await signIn(server, { email: member.email, password: 'Brand-new-pass-7' })).statusCode).toBe(200);
    expect((await userRow(server.db, member.id)).passwordChangedAt!.getTime()).toBeGreaterThan(Date.now() - 10_000);

    const again = await call(server, 'POST', '/user/password/reset', {
      body: { email: member.email, newPassword: 'Another-pass-77', clientId },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(LINK_INVALID);

    const [event] = (await accessEventsOf(server.db, member.email)).filter((e) => e.event === 'password_reset');
    expect(event).toMatchObject({ status: 'success', userId: member.id });
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, member.id), eq(systemAudits.operation, 'password_reset')));
    expect(audit).toMatchObject({ model: 'user', userId: member.id });
    expect(JSON.stringify(audit.changes ?? {})).not.toContain('Brand-new');
    expect((await readLastMail(server.db, member.email)).kind).toBe('password_changed');
  });

  it('lets a reset lift a sign-in block on the account', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'locked@acme.test' });
    for (let i = 0; i < 6; i++) await signIn(server, { ...member, password: `Wrong-pass-${i}9`, ip: freshIp() });
    expect((await signIn(server, { ...member, ip: freshIp() })).statusCode).toBe(429);
    const clientId = await resetTokenFor(member.email);
    await call(server, 'POST', '/user/password/reset', { body: { email: member.email, newPassword: 'Unlocked-pass-1', clientId } });
    expect((await signIn(server, { email: member.email, password: 'Unlocked-pass-1', ip: freshIp() })).statusCode).toBe(200);
  });

  it('refuses a wrong email, a weak or unchanged password, and changes nothing', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'careful@acme.test' });
    const clientId = await resetTokenFor(member.email);
    const before = await snapshot(server.db);
    const cases: [unknown, number, RegExp][] = [
      [
        { email: 'admin@acme.test', newPassword: 'Good-password-1', clientId },
        400,
        /^email: is not the address this reset link was sent to$/,
      ],
      [{ email: member.email, newPassword: 'short1', clientId }, 400, /^newPassword: Password must be at least 10 characters long$/],
      [
        { email: member.email, newPassword: 'onlyletterslong', clientId },
        400,
        /^newPassword: Password must contain both letters and digits$/,
      ],
      [{ email: member.email, newPassword: member.password, clientId }, 400, /^newPassword: must be different from the current password$/],
      [{ email: member.email, newPassword: 'Good-password-1', clientId: 'B'.repeat(43) }, 400, new RegExp(`^${LINK_INVALID}$`)],
      [{ email: member.email, newPassword: 'Good-password-1', clientId: HOSTILE.sql }, 400, /^clientId: is not a link token/],
      [{ email: HOSTILE.html, newPassword: 'Good-password-1', clientId }, 400, /^email: must be a valid email address$/],
      [{ email: member.email, clientId }, 400, /^newPassword: is required$/],
      [{ email: member.email, newPassword: HOSTILE.huge, clientId }, 413, /too large/],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(server, 'POST', '/user/password/reset', { body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    // The link still works after all that.
    expect((await call(server, 'POST', '/user/password/token/verify', { body: { token: clientId } })).statusCode).toBe(200);
  });
});

describe('POST /user/password (change, signed in)', () => {
  it('changes the password, ends every session including this one, and mails a notice', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'changer@acme.test' });
    const token = (await signInFully(server, member)).token;
    const other = (await signInFully(server, member)).token;
    const res = await call(server, 'POST', '/user/password', {
      token,
      body: { oldPassword: member.password, newPassword: 'Changed-pass-42' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: PASSWORD_UPDATED_MESSAGE });
    expect(res.json().message).toBe('Password Updated SuccessFully');
    for (const old of [token, other]) expect((await call(server, 'GET', '/user/profile', { token: old })).statusCode).toBe(401);
    const open = await server.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, member.id), eq(sessions.isDeleted, false)));
    expect(open).toHaveLength(0);
    expect((await signIn(server, { email: member.email, password: 'Changed-pass-42' })).statusCode).toBe(200);
    const mail = await readLastMail(server.db, member.email);
    expect(mail).toMatchObject({ kind: 'password_changed', subject: 'Your DataOps Console password was changed' });
    expect(mail.text).not.toContain('Changed-pass-42');
    const events = (await accessEventsOf(server.db, member.email)).filter((e) => e.event === 'password_change');
    expect(events.map((e) => e.status)).toEqual(['success']);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, member.id), eq(systemAudits.operation, 'password_change')));
    expect(audit.userId).toBe(member.id);
  });

  it('refuses a wrong current password with its message and records it', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'wrongold@acme.test' });
    const token = (await signInFully(server, member)).token;
    const before = await userRow(server.db, member.id);
    const res = await call(server, 'POST', '/user/password', {
      token,
      body: { oldPassword: 'Not-the-old-one-1', newPassword: 'Changed-pass-42' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The current password is not correct');
    expect(await userRow(server.db, member.id)).toEqual(before);
    expect((await call(server, 'GET', '/user/profile', { token })).statusCode).toBe(200);
    const [event] = (await accessEventsOf(server.db, member.email)).filter((e) => e.event === 'password_change');
    expect(event).toMatchObject({ status: 'failure', reason: 'bad_password' });
  });

  it('slows down guessing of the current password', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'guesser@acme.test' });
    const token = (await signInFully(server, member)).token;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call(server, 'POST', '/user/password', { token, body: { oldPassword: `Guess-${i}-pass`, newPassword: 'Changed-pass-42' } }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const right = await call(server, 'POST', '/user/password', {
      token,
      body: { oldPassword: member.password, newPassword: 'Changed-pass-42' },
    });
    expect(right.statusCode).toBe(429);
  });

  it('refuses an unchanged or weak new password and bad input, changing nothing', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'samepw@acme.test' });
    const token = (await signInFully(server, member)).token;
    const before = await snapshot(server.db);
    const cases: [unknown, number, RegExp][] = [
      [{ oldPassword: member.password, newPassword: member.password }, 400, /^newPassword: must be different from the current password$/],
      [
        { oldPassword: member.password, newPassword: 'tiny' },
        400,
        /^newPassword: Password must be at least 10 characters long and contain both letters and digits$/,
      ],
      [{ oldPassword: member.password }, 400, /^newPassword: is required$/],
      [{ newPassword: 'Changed-pass-42' }, 400, /^oldPassword: is required$/],
      [{ oldPassword: 7, newPassword: 8 }, 400, /oldPassword: is required; newPassword: is required/],
      [{ oldPassword: HOSTILE.sql, newPassword: 'Changed-pass-42' }, 400, /^The current password is not correct$/],
      [{ oldPassword: member.password, newPassword: HOSTILE.huge }, 413, /too large/],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(server, 'POST', '/user/password', { token, body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    const after = await snapshot(server.db);
    expect(after.users).toEqual(before.users);
    expect(after.sessions).toBe(before.sessions);
    expect(after.audits).toBe(before.audits);
  });

  it('needs a signed-in caller', async () => {
    const res = await call(server, 'POST', '/user/password', { body: { oldPassword: 'x', newPassword: 'Changed-pass-42' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid JWT token');
  });
});
