import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { companies, recoveryCodes, systemAudits } from '../../server/db/schema';
import {
  accessEventsOf,
  call,
  createActiveUser,
  createOtherCompany,
  currentStep,
  mailsTo,
  sessionIdOf,
  sessionRow,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
  totpAt,
  userRow,
  userWithPolicies,
} from './helpers';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
});
afterAll(async () => {
  await server?.close();
});

interface Enrolled {
  id: string;
  email: string;
  password: string;
  secret: string;
  token: string;
  codes: string[];
}

/** A member who turned two-factor on from a full session (with the previous step's code, so the current one is unspent). */
async function enrolled(email: string): Promise<Enrolled> {
  const member = await createActiveUser(server, adminToken, { email });
  const { token } = await signInFully(server, member);
  const { secret } = (await call(server, 'GET', '/user/otp/setup', { token })).json().data;
  const res = await call(server, 'POST', '/user/otp/register', { token, body: { otp: await totpAt(secret, currentStep() - 1) } });
  expect(res.statusCode, res.body).toBe(200);
  return { ...member, secret, token, codes: res.json().recoveryCodes };
}

async function halfToken(member: { email: string; password: string }): Promise<string> {
  const res = await signIn(server, member);
  expect(res.json().user.requireOTP).toBe(true);
  return res.json().user.token;
}

describe('recovery codes', () => {
  it('gives ten codes when two-factor is turned on, stores only their hashes, and counts them', async () => {
    const member = await enrolled('rc.ten@acme.test');
    expect(member.codes).toHaveLength(10);
    expect(new Set(member.codes).size).toBe(10);
    for (const code of member.codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, member.id));
    expect(stored).toHaveLength(10);
    const texts = JSON.stringify(stored);
    for (const code of member.codes) {
      expect(texts).not.toContain(code);
      expect(texts).not.toContain(code.replace('-', ''));
    }
    const status = await call(server, 'GET', '/user/otp/status', { token: member.token });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().data).toEqual({ otpEnabled: true, otpRequired: false, recoveryCodesLeft: 10 });
  });

  it('signs in with a recovery code once; a used code stops working', async () => {
    const member = await enrolled('rc.signin@acme.test');
    const [first] = member.codes;
    const ok = await call(server, 'POST', '/user/otp/verify', {
      token: await halfToken(member),
      body: { recoveryCode: ` ${first.toUpperCase().replace('-', ' ')} ` },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const full = ok.json().user;
    expect(full).toMatchObject({ auth: true, requireOTP: false });
    const status = await call(server, 'GET', '/user/otp/status', { token: full.token });
    expect(status.json().data.recoveryCodesLeft).toBe(9);

    const reused = await call(server, 'POST', '/user/otp/verify', { token: await halfToken(member), body: { recoveryCode: first } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe('The recovery code is not valid or has already been used');

    const events = await accessEventsOf(server.db, member.email);
    const otp = events.filter((e) => e.event === 'otp').map((e) => [e.status, e.reason]);
    expect(otp).toEqual([
      ['success', 'recovery_code'],
      ['failure', 'bad_code'],
    ]);
  });

  it("refuses another user's code and bad input, changing nothing", async () => {
    const one = await enrolled('rc.one@acme.test');
    const two = await enrolled('rc.two@acme.test');
    const token = await halfToken(two);
    const before = await snapshot(server.db);
    const foreign = await call(server, 'POST', '/user/otp/verify', { token, body: { recoveryCode: one.codes[0] } });
    expect(foreign.statusCode).toBe(400);
    for (const [body, message] of [
      [{ recoveryCode: 'short' }, /^recoveryCode: must be one of your recovery codes/],
      [{ recoveryCode: 42 }, /^recoveryCode: must be a string$/],
      [{ otp: '123456', recoveryCode: one.codes[1] }, /^recoveryCode: give either otp or recoveryCode, not both$/],
    ] as const) {
      const res = await call(server, 'POST', '/user/otp/verify', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const after = await snapshot(server.db);
    expect(after.users).toEqual(before.users);
    expect(after.sessions).toBe(before.sessions);
    // One's own codes still work after the refusals.
    const own = await call(server, 'POST', '/user/otp/verify', { token, body: { recoveryCode: two.codes[0] } });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('regenerates ten new codes with the password only; the old ones stop working', async () => {
    const member = await enrolled('rc.regen@acme.test');
    const wrong = await call(server, 'POST', '/user/otp/recovery-codes', { token: member.token, body: { password: 'Not-the-password-1' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('password: is not correct');
    const missing = await call(server, 'POST', '/user/otp/recovery-codes', { token: member.token, body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('password: is required');

    const res = await call(server, 'POST', '/user/otp/recovery-codes', { token: member.token, body: { password: member.password } });
    expect(res.statusCode, res.body).toBe(200);
    const codes: string[] = res.json().data.codes;
    expect(codes).toHaveLength(10);
    expect(codes.some((c) => member.codes.includes(c))).toBe(false);
    const old = await call(server, 'POST', '/user/otp/verify', { token: await halfToken(member), body: { recoveryCode: member.codes[0] } });
    expect(old.statusCode).toBe(400);
    const fresh = await call(server, 'POST', '/user/otp/verify', { token: await halfToken(member), body: { recoveryCode: codes[0] } });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, member.id), eq(systemAudits.operation, 'regenerate_recovery_codes')));
    expect(audit).toBeDefined();
  });

  it('turns two-factor off with a recovery code, and the codes go with it', async () => {
    const member = await enrolled('rc.off@acme.test');
    const off = await call(server, 'POST', '/user/otp/disable', {
      token: member.token,
      body: { password: member.password, recoveryCode: member.codes[3] },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, member.id))).toHaveLength(0);
    const status = await call(server, 'GET', '/user/otp/status', { token: member.token });
    expect(status.json().data).toEqual({ otpEnabled: false, otpRequired: false, recoveryCodesLeft: 0 });
    const regen = await call(server, 'POST', '/user/otp/recovery-codes', { token: member.token, body: { password: member.password } });
    expect(regen.statusCode).toBe(400);
  });
});

describe("an admin's reset of someone's two-factor", () => {
  it('turns it off, ends their sessions, audits it and mails them; the next sign-in needs the password only', async () => {
    const member = await enrolled('reset.me@acme.test');
    const res = await call(server, 'POST', `/user/${member.id}/otp/reset`, { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The two-factor authentication of reset.me@acme.test has been reset, and they have been told by mail');
    expect(await userRow(server.db, member.id)).toMatchObject({ otpEnabled: false, otpSecretEnc: null });
    expect(await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, member.id))).toHaveLength(0);
    expect(await sessionRow(server.db, sessionIdOf(member.token))).toMatchObject({ endReason: 'ended_by_admin' });
    expect((await call(server, 'GET', '/user/profile', { token: member.token })).statusCode).toBe(401);

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, member.id), eq(systemAudits.operation, 'reset_two_factor')));
    expect(audit).toBeDefined();
    const events = await accessEventsOf(server.db, member.email);
    expect(events.some((e) => e.event === 'otp_setup' && e.reason === 'reset_by_admin')).toBe(true);
    const mails = await mailsTo(server.db, member.email);
    const mail = mails.find((m) => m.kind === 'two_factor_reset');
    expect(mail?.subject).toBe('Your DataOps Console two-factor authentication was reset');
    expect(mail?.text).toContain('You can sign in with your password alone');

    const again = await signIn(server, member);
    expect(again.json().user).toMatchObject({ auth: true, requireOTP: false, setupOTP: false });
  });

  it('sends the user through enrolment at the next sign-in when the company requires two-factor', async () => {
    const strictAdmin = await signInAdmin(server);
    const member = await enrolled('reset.strict@acme.test');
    await server.db.update(companies).set({ requireTwoFactor: true }).where(eq(companies.id, server.company.companyId));
    try {
      const res = await call(server, 'POST', `/user/${member.id}/otp/reset`, { token: strictAdmin.token });
      expect(res.statusCode, res.body).toBe(200);
      const mail = (await mailsTo(server.db, member.email)).find((m) => m.kind === 'two_factor_reset');
      expect(mail?.text).toContain('you will be asked to set up two-factor authentication again');
      const again = await signIn(server, member);
      expect(again.json().user).toMatchObject({ auth: false, requireOTP: false, setupOTP: true });
    } finally {
      await server.db.update(companies).set({ requireTwoFactor: false }).where(eq(companies.id, server.company.companyId));
    }
  });

  it('needs the users update permission, stays in the company, and refuses oneself', async () => {
    const member = await enrolled('reset.guarded@acme.test');
    const reader = await userWithPolicies(server, adminToken, 'reset.reader@acme.test', [{ resource: 'users', actions: ['read'] }]);
    const refused = await call(server, 'POST', `/user/${member.id}/otp/reset`, { token: reader.token });
    expect(refused.statusCode).toBe(403);
    const other = await createOtherCompany(server, 'resetco');
    const foreign = await call(server, 'POST', `/user/${member.id}/otp/reset`, { token: other.adminToken });
    expect(foreign.statusCode).toBe(404);
    const admin = await signInAdmin(server);
    const self = await call(server, 'POST', `/user/${admin.id}/otp/reset`, { token: admin.token });
    expect(self.statusCode).toBe(400);
    const badId = await call(server, 'POST', '/user/not-an-id/otp/reset', { token: admin.token });
    expect(badId.statusCode).toBe(400);
    expect((await userRow(server.db, member.id)).otpEnabled).toBe(true);
  });
});

describe('the company rule "two-factor for everyone"', () => {
  it('sends a user without two-factor to enrolment at sign-in, and keeps it from being turned off', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'rule.member@acme.test' });
    expect((await signIn(server, member)).json().user).toMatchObject({ auth: true, setupOTP: false });
    await server.db.update(companies).set({ requireTwoFactor: true }).where(eq(companies.id, server.company.companyId));
    try {
      const half = (await signIn(server, member)).json().user;
      expect(half).toMatchObject({ auth: false, setupOTP: true, requireOTP: false });
      const { secret } = (await call(server, 'GET', '/user/otp/setup', { token: half.token })).json().data;
      const step = currentStep();
      const done = await call(server, 'POST', '/user/otp/register', { token: half.token, body: { otp: await totpAt(secret, step - 1) } });
      expect(done.statusCode, done.body).toBe(200);
      const full = done.json().user;
      expect(done.json().recoveryCodes).toHaveLength(10);
      const status = await call(server, 'GET', '/user/otp/status', { token: full.token });
      expect(status.json().data).toMatchObject({ otpEnabled: true, otpRequired: true });
      const off = await call(server, 'POST', '/user/otp/disable', {
        token: full.token,
        body: { password: member.password, otp: await totpAt(secret, step) },
      });
      expect(off.statusCode).toBe(400);
      expect(off.json().message).toMatch(/company requires two-factor/);
    } finally {
      await server.db.update(companies).set({ requireTwoFactor: false }).where(eq(companies.id, server.company.companyId));
    }
  });
});
