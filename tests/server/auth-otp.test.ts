import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { companies, systemAudits, users } from '../../server/db/schema';
import { provisionCompany } from '../../server/tenancy/provision';
import {
  accessEventsOf,
  call,
  createActiveUser,
  currentStep,
  HOSTILE,
  otherCode,
  sessionIdOf,
  sessionRow,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
  totpAt,
  userRow,
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
  /** The step of the code that confirmed enrolment. */
  step: number;
}

/** A member who turned two-factor on from a full session. */
async function enrolledMember(email: string): Promise<Enrolled> {
  const member = await createActiveUser(server, adminToken, { email });
  const { token } = await signInFully(server, member);
  const setup = await call(server, 'GET', '/user/otp/setup', { token });
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json().data;
  const step = currentStep();
  const res = await call(server, 'POST', '/user/otp/register', { token, body: { otp: await totpAt(secret, step) } });
  expect(res.statusCode, res.body).toBe(200);
  return { ...member, secret, step };
}

describe('two-factor enrolment from a full session', () => {
  it('offers a secret and QR code, confirms it with a first code, and stays signed in', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'tf.enrol@acme.test' });
    const { token } = await signInFully(server, member);

    const setup = await call(server, 'GET', '/user/otp/setup', { token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCodeDataUrl } = setup.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/DataOps%20Console:acme:tf.enrol%40acme.test?secret=${secret}&issuer=DataOps%20Console`);
    expect(qrCodeDataUrl).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]{200,}$/);
    let row = await userRow(server.db, member.id);
    expect(row.otpPendingSecretEnc).toBeTruthy();
    expect(row.otpPendingSecretEnc).not.toContain(secret); // encrypted at rest
    expect(row.otpEnabled).toBe(false);

    const wrong = await call(server, 'POST', '/user/otp/register', {
      token,
      body: { otp: otherCode(await totpAt(secret, currentStep())) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The code is not valid');
    expect((await userRow(server.db, member.id)).otpEnabled).toBe(false);

    const step = currentStep();
    const res = await call(server, 'POST', '/user/otp/register', { token, body: { otp: await totpAt(secret, step) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Two-factor authentication is on');
    const { user } = res.json();
    expect(user).toMatchObject({ auth: true, otpEnabled: true, requireOTP: false, setupOTP: false });
    expect(sessionIdOf(user.token)).toBe(sessionIdOf(token)); // the same session, still open
    expect((await call(server, 'GET', '/user/profile', { token })).json().user.otpEnabled).toBe(true);

    row = await userRow(server.db, member.id);
    expect(row.otpEnabled).toBe(true);
    expect(row.otpSecretEnc).toBeTruthy();
    expect(row.otpSecretEnc).not.toContain(secret);
    expect(row.otpPendingSecretEnc).toBeNull();
    expect(row.otpLastStep).toBe(step);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, member.id), eq(systemAudits.operation, 'enable_two_factor')));
    expect(audit).toMatchObject({ model: 'user', userId: member.id });
    const events = await accessEventsOf(server.db, member.email);
    expect(events.filter((e) => e.event === 'otp_setup').map((e) => [e.status, e.reason])).toEqual([
      ['failure', 'bad_code'],
      ['success', null],
    ]);
  });

  it('will not start again while two-factor is on, and needs a started set-up to register', async () => {
    const member = await enrolledMember('tf.twice@acme.test');
    const res = await signIn(server, member);
    const otpToken = res.json().user.token;
    const full = await call(server, 'POST', '/user/otp/verify', {
      token: otpToken,
      body: { otp: await totpAt(member.secret, member.step + 1) },
    });
    const token = full.json().user.token;
    const again = await call(server, 'GET', '/user/otp/setup', { token });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already on/);

    const fresh = await createActiveUser(server, adminToken, { email: 'tf.nosetup@acme.test' });
    const freshToken = (await signInFully(server, fresh)).token;
    const register = await call(server, 'POST', '/user/otp/register', { token: freshToken, body: { otp: '123456' } });
    expect(register.statusCode).toBe(400);
    expect(register.json().message).toMatch(/Start the set-up first/);
  });

  it('takes only the latest QR code when set-up is restarted', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'tf.restart@acme.test' });
    const { token } = await signInFully(server, member);
    const first = (await call(server, 'GET', '/user/otp/setup', { token })).json().data.secret;
    const second = (await call(server, 'GET', '/user/otp/setup', { token })).json().data.secret;
    expect(second).not.toBe(first);
    const stale = await call(server, 'POST', '/user/otp/register', { token, body: { otp: await totpAt(first, currentStep()) } });
    expect(stale.statusCode).toBe(400);
    const ok = await call(server, 'POST', '/user/otp/register', { token, body: { otp: await totpAt(second, currentStep()) } });
    expect(ok.statusCode).toBe(200);
  });
});

describe('signing in with two-factor on', () => {
  it('asks for the code, refuses a replayed one, accepts the next step, and replaces the half session', async () => {
    const member = await enrolledMember('tf.signin@acme.test');
    const res = await signIn(server, member);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Enter the code from your authenticator app');
    const half = res.json().user;
    expect(half).toMatchObject({ auth: false, requireOTP: true, setupOTP: false, otpEnabled: true });
    expect(half.navItems.userNavItemJson.items).toEqual([]);
    const halfSession = await sessionRow(server.db, sessionIdOf(half.token));
    expect(halfSession.stage).toBe('otp');
    const minutes = (halfSession.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(8);
    expect(minutes).toBeLessThanOrEqual(10);

    // The half token opens nothing but the code check.
    for (const [method, path] of [
      ['GET', '/user/profile'],
      ['GET', '/user/otp/setup'],
      ['GET', '/dashboard/topCards'],
    ] as const) {
      const blocked = await call(server, method, path, { token: half.token });
      expect(blocked.statusCode, path).toBe(401);
      expect(blocked.json().message).toBe('Invalid JWT token');
    }

    // The enrolment code's step is spent.
    const replay = await call(server, 'POST', '/user/otp/verify', {
      token: half.token,
      body: { otp: await totpAt(member.secret, member.step) },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('This code has already been used');

    const next = member.step + 1;
    const ok = await call(server, 'POST', '/user/otp/verify', { token: half.token, body: { otp: await totpAt(member.secret, next) } });
    expect(ok.statusCode, ok.body).toBe(200);
    const full = ok.json().user;
    expect(full).toMatchObject({ auth: true, requireOTP: false, otpEnabled: true });
    expect(full.navItems.userNavItemJson.items.length).toBeGreaterThan(0);
    expect((await call(server, 'GET', '/user/profile', { token: full.token })).statusCode).toBe(200);
    expect(await sessionRow(server.db, sessionIdOf(half.token))).toMatchObject({ endReason: 'replaced' });
    expect(
      (await call(server, 'POST', '/user/otp/verify', { token: half.token, body: { otp: await totpAt(member.secret, next + 1) } }))
        .statusCode,
    ).toBe(401);
    const row = await userRow(server.db, member.id);
    expect(row.otpLastStep).toBe(next);
    expect(row.lastLoginAt!.getTime()).toBeGreaterThan(Date.now() - 10_000);

    // That code cannot open a second session either.
    const again = await signIn(server, member);
    const reuse = await call(server, 'POST', '/user/otp/verify', {
      token: again.json().user.token,
      body: { otp: await totpAt(member.secret, next) },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().message).toBe('This code has already been used');

    const events = await accessEventsOf(server.db, member.email);
    expect(events.filter((e) => e.event === 'otp').map((e) => [e.status, e.reason])).toEqual(
      expect.arrayContaining([
        ['failure', 'replayed_code'],
        ['success', null],
      ]),
    );
    expect(events.some((e) => e.event === 'signin' && e.status === 'success' && e.reason === 'otp_required')).toBe(true);
  });

  it('blocks a user after 5 wrong codes, even for the right code', async () => {
    const member = await enrolledMember('tf.guess@acme.test');
    const token = (await signIn(server, member)).json().user.token;
    const right = await totpAt(member.secret, currentStep());
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await call(server, 'POST', '/user/otp/verify', { token, body: { otp: otherCode(right) } });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(last!.json().message).toMatch(/^Too many failed codes\. Try again in \d+ seconds?\.$/);
    expect(last!.headers['retry-after']).toBeDefined();
    const blocked = await call(server, 'POST', '/user/otp/verify', {
      token,
      body: { otp: await totpAt(member.secret, currentStep() + 1) },
    });
    expect(blocked.statusCode).toBe(429);
    const events = await accessEventsOf(server.db, member.email);
    expect(events.filter((e) => e.event === 'otp' && e.reason === 'bad_code')).toHaveLength(6);
    expect(events.filter((e) => e.event === 'otp' && e.status === 'blocked')).toHaveLength(1);
  });

  it('validates the code field and changes nothing on bad input', async () => {
    const member = await enrolledMember('tf.input@acme.test');
    const token = (await signIn(server, member)).json().user.token;
    const before = await snapshot(server.db);
    const cases: [unknown, RegExp][] = [
      [{}, /^otp: is required \(or a recoveryCode\)$/],
      [{ otp: 123456 }, /^otp: must be a string of 6 digits$/],
      [{ otp: '12345' }, /^otp: must be the 6 digits/],
      [{ otp: HOSTILE.sql }, /^otp: must be the 6 digits/],
      [{ otp: HOSTILE.html }, /^otp: must be the 6 digits/],
    ];
    for (const [body, message] of cases) {
      const res = await call(server, 'POST', '/user/otp/verify', { token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const huge = await call(server, 'POST', '/user/otp/verify', { token, body: { otp: HOSTILE.huge } });
    expect(huge.statusCode).toBe(413);
    const after = await snapshot(server.db);
    expect(after).toEqual(before);
  });

  it('does not accept a full token on the code check', async () => {
    const res = await call(server, 'POST', '/user/otp/verify', { token: adminToken, body: { otp: '123456' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('two-factor required by the company or by an admin', () => {
  it('sends the user through enrolment, and the first code completes the sign-in', async () => {
    const strict = await provisionCompany(server.db, {
      name: 'Strict',
      hostname: 'strict',
      admin: { email: 'boss@strict.test', password: 'Strict-pass-12', firstName: 'Sam', lastName: 'Strict' },
    });
    await server.db.update(companies).set({ requireTwoFactor: true }).where(eq(companies.id, strict.companyId));
    const res = await signIn(server, { email: 'boss@strict.test', password: 'Strict-pass-12', companyHostname: 'strict' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Set up two-factor authentication to continue');
    const half = res.json().user;
    expect(half).toMatchObject({ auth: false, requireOTP: false, setupOTP: true });
    expect((await call(server, 'GET', '/user/profile', { token: half.token })).statusCode).toBe(401);

    const setup = await call(server, 'GET', '/user/otp/setup', { token: half.token });
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json().data;
    const done = await call(server, 'POST', '/user/otp/register', {
      token: half.token,
      body: { otp: await totpAt(secret, currentStep()) },
    });
    expect(done.statusCode).toBe(200);
    const full = done.json().user;
    expect(full).toMatchObject({ auth: true, setupOTP: false, otpEnabled: true, companyHostname: 'strict' });
    expect(sessionIdOf(full.token)).not.toBe(sessionIdOf(half.token));
    expect((await call(server, 'GET', '/user/profile', { token: full.token })).statusCode).toBe(200);
    expect((await call(server, 'GET', '/user/otp/setup', { token: half.token })).statusCode).toBe(401);

    // The company's rule keeps it on.
    const off = await call(server, 'POST', '/user/otp/disable', {
      token: full.token,
      body: { password: 'Strict-pass-12', otp: await totpAt(secret, currentStep() + 1) },
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toMatch(/company requires two-factor/);
    expect((await userRow(server.db, strict.adminUserId)).otpEnabled).toBe(true);
  });

  it('does the same for one user an admin required it of', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'tf.required@acme.test' });
    await server.db.update(users).set({ otpRequired: true }).where(eq(users.id, member.id));
    const res = await signIn(server, member);
    expect(res.json().user.setupOTP).toBe(true);
    expect(await sessionRow(server.db, sessionIdOf(res.json().user.token))).toMatchObject({ stage: 'otp_setup' });
  });
});

describe('POST /user/otp/disable', () => {
  it('needs the password and a current code, then turns two-factor off', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'tf.off@acme.test' });
    const { token } = await signInFully(server, member);
    const { secret } = (await call(server, 'GET', '/user/otp/setup', { token })).json().data;
    // Enrolled with the previous step's code, so that the current one is still unspent.
    const step = currentStep();
    expect((await call(server, 'POST', '/user/otp/register', { token, body: { otp: await totpAt(secret, step - 1) } })).statusCode).toBe(
      200,
    );
    const code = await totpAt(secret, step);

    const wrong = await call(server, 'POST', '/user/otp/disable', { token, body: { password: 'Not-my-password-1', otp: code } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('password: is not correct');
    expect((await userRow(server.db, member.id)).otpEnabled).toBe(true);
    const missing = await call(server, 'POST', '/user/otp/disable', { token, body: { otp: code } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('password: is required');
    const noCode = await call(server, 'POST', '/user/otp/disable', { token, body: { password: member.password } });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toBe('otp: is required (or a recoveryCode)');
    const badCode = await call(server, 'POST', '/user/otp/disable', { token, body: { password: member.password, otp: otherCode(code) } });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().message).toBe('The code is not valid');
    expect((await userRow(server.db, member.id)).otpEnabled).toBe(true);

    const ok = await call(server, 'POST', '/user/otp/disable', { token, body: { password: member.password, otp: code } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('Two-factor authentication is off');
    const row = await userRow(server.db, member.id);
    expect(row).toMatchObject({ otpEnabled: false, otpSecretEnc: null, otpPendingSecretEnc: null });
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, member.id), eq(systemAudits.operation, 'disable_two_factor')));
    expect(audit).toBeDefined();
    const events = await accessEventsOf(server.db, member.email);
    expect(events.some((e) => e.event === 'otp_setup' && e.status === 'success' && e.reason === 'disabled')).toBe(true);

    // Sign-in is one step again.
    expect((await signIn(server, member)).json().user.auth).toBe(true);
    const again = await call(server, 'POST', '/user/otp/disable', {
      token,
      body: { password: member.password, otp: await totpAt(secret, step + 1) },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Two-factor authentication is not on');
  });
});
