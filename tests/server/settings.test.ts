import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import {
  accessEvents,
  companies,
  companySettings,
  jobRuns,
  jobRunSteps,
  qualityResults,
  qualityRuns,
  systemAudits,
  users,
} from '../../server/db/schema';
import { purgeExpiredRecords } from '../../server/settings/retention';
import { DEFAULT_PASSWORD_POLICY } from '../../common/password-policy';
import {
  call,
  createActiveUser,
  createOtherCompany,
  freshIp,
  inviteUser,
  readLastMail,
  signIn,
  signInAdmin,
  signInFully,
  tokenFromMail,
  totpNow,
  userWithPolicies,
} from './helpers';
import { headerOf, startCapturingSmtp, type CapturingSmtp } from './smtp-capture';

const DENIED = 'Resource Access not provided';
const SMTP_USER = 'mailer@acme.test';
const SMTP_PASSWORD = 'Smtp-secret-771';

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let smtp: CapturingSmtp;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  smtp = await startCapturingSmtp({ username: SMTP_USER, password: SMTP_PASSWORD });
});
afterAll(async () => {
  await smtp?.close();
  await server?.close();
});
// Each test starts from the defaults of the main company, whatever the one before left.
afterEach(async () => {
  await resetService();
  await resetEmail();
});

const getSettings = (token = adminToken) => call(server, 'GET', '/settings', { token });
const putSettings = (id: string, body: unknown, token = adminToken) => call(server, 'PUT', `/settings/${id}`, { token, body });
const testMail = (body: unknown, token = adminToken) => call(server, 'POST', '/settings/email/test', { token, body });

async function settingsRows(companyId = server.company.companyId) {
  return server.db.select().from(companySettings).where(eq(companySettings.companyId, companyId)).orderBy(companySettings.key);
}

async function auditCount(): Promise<number> {
  return (await server.db.select({ n: count() }).from(systemAudits))[0].n;
}

async function lastSettingsAudit(companyId = server.company.companyId) {
  const [row] = await server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.companyId, companyId), eq(systemAudits.model, 'settings')))
    .orderBy(desc(systemAudits.createdAt))
    .limit(1);
  return row;
}

/** Back to the defaults between tests that change the service group. */
async function resetService(companyId = server.company.companyId) {
  await server.db.delete(companySettings).where(and(eq(companySettings.companyId, companyId), eq(companySettings.key, 'service')));
  await server.db.update(companies).set({ requireTwoFactor: false }).where(eq(companies.id, companyId));
}

async function resetEmail(companyId = server.company.companyId) {
  await server.db.delete(companySettings).where(and(eq(companySettings.companyId, companyId), eq(companySettings.key, 'email')));
}

const smtpSettings = (overrides: Record<string, unknown> = {}) => ({
  host: smtp.host,
  port: smtp.port,
  secure: false,
  username: SMTP_USER,
  password: SMTP_PASSWORD,
  fromAddress: 'data@acme.test',
  fromName: 'Acme Data',
  ...overrides,
});

describe('GET /settings', () => {
  it('answers both groups with their defaults before anything is set; the session lifetime is the server’s', async () => {
    const res = await getSettings();
    expect(res.statusCode, res.body).toBe(200);
    const [service, email] = res.json().data;
    expect(service).toMatchObject({
      id: 'service',
      label: 'Service settings',
      updatedAt: null,
      updatedBy: null,
      values: {
        sessionLifetimeMinutes: server.config.sessionTtlMinutes,
        passwordPolicy: DEFAULT_PASSWORD_POLICY,
        requireTwoFactor: false,
        allowedEmailDomains: [],
        auditRetentionDays: null,
        runRetentionDays: null,
      },
    });
    expect(service.defaults).toEqual(service.values);
    expect(email).toMatchObject({
      id: 'email',
      label: 'Email settings',
      values: { host: '', port: 587, secure: false, username: '', fromAddress: '', fromName: '', passwordSet: false },
      instanceTransport: 'outbox',
    });
    const one = await call(server, 'GET', '/settings/email', { token: adminToken });
    expect(one.json()).toEqual({ message: 'Email settings', data: email });
    const unknown = await call(server, 'GET', '/settings/colours', { token: adminToken });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Settings group not found');
  });

  it('takes settings/read to read and settings/update to change; others get 403', async () => {
    const reader = await userWithPolicies(server, adminToken, 'settings.reader@acme.test', [{ resource: 'settings', actions: ['read'] }]);
    const nobody = await userWithPolicies(server, adminToken, 'settings.nobody@acme.test', [{ resource: 'users', actions: ['read'] }]);
    expect((await getSettings(reader.token)).statusCode).toBe(200);
    for (const [method, path, token, body] of [
      ['GET', '/settings', nobody.token, undefined],
      ['GET', '/settings/service', nobody.token, undefined],
      ['PUT', '/settings/service', reader.token, { requireTwoFactor: true }],
      ['PUT', '/settings/email', reader.token, { host: 'smtp.acme.test' }],
      ['POST', '/settings/email/test', reader.token, {}],
    ] as const) {
      const res = await call(server, method, path, { token, body });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().message).toBe(DENIED);
    }
    expect(await settingsRows()).toEqual([]);
    // Any signed-in user may read the password rules their forms show.
    const policy = await call(server, 'GET', '/settings/password-policy', { token: nobody.token });
    expect(policy.json()).toEqual({ message: 'Password policy', data: DEFAULT_PASSWORD_POLICY });
  });
});

describe('PUT /settings/service', () => {
  it('saves the settings given, keeps the others, audits before and after, and leaves other companies alone', async () => {
    const res = await putSettings('service', {
      sessionLifetimeMinutes: 90,
      passwordPolicy: { minLength: 12, requireSymbol: true },
      allowedEmailDomains: ['@ACME.test', 'partner.example', 'acme.test'],
      auditRetentionDays: 365,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Service settings saved');
    const saved = res.json().data;
    expect(saved.values).toEqual({
      sessionLifetimeMinutes: 90,
      passwordPolicy: { ...DEFAULT_PASSWORD_POLICY, minLength: 12, requireSymbol: true },
      requireTwoFactor: false,
      allowedEmailDomains: ['acme.test', 'partner.example'],
      auditRetentionDays: 365,
      runRetentionDays: null,
      qualitySampleRows: 20,
    });
    expect(saved).toMatchObject({ updatedBy: server.company.adminUserId, updatedByName: 'Ada Admin', updatedAt: expect.any(String) });

    const audit = await lastSettingsAudit();
    expect(audit).toMatchObject({ operation: 'update', recordId: 'service', userId: server.company.adminUserId });
    expect(audit.changes).toEqual({
      before: {
        sessionLifetimeMinutes: server.config.sessionTtlMinutes,
        passwordPolicy: DEFAULT_PASSWORD_POLICY,
        allowedEmailDomains: [],
        auditRetentionDays: null,
      },
      after: {
        sessionLifetimeMinutes: 90,
        passwordPolicy: { ...DEFAULT_PASSWORD_POLICY, minLength: 12, requireSymbol: true },
        allowedEmailDomains: ['acme.test', 'partner.example'],
        auditRetentionDays: 365,
      },
    });

    // A second change keeps the first one's values.
    const again = await putSettings('service', { runRetentionDays: 30 });
    expect(again.json().data.values).toMatchObject({ sessionLifetimeMinutes: 90, auditRetentionDays: 365, runRetentionDays: 30 });

    // Back to the server's default: the company follows SESSION_TTL_MINUTES again rather than a copy of it.
    await putSettings('service', { sessionLifetimeMinutes: server.config.sessionTtlMinutes });
    expect((await settingsRows())[0].values).not.toHaveProperty('sessionLifetimeMinutes');

    const theirs = await getSettings(other.adminToken);
    expect(theirs.json().data[0].values).toMatchObject({
      sessionLifetimeMinutes: server.config.sessionTtlMinutes,
      allowedEmailDomains: [],
      runRetentionDays: null,
    });
    expect(await settingsRows(other.companyId)).toEqual([]);
  });

  it('refuses bad values with a message naming the field, and stores nothing', async () => {
    await putSettings('service', { sessionLifetimeMinutes: 60 });
    const before = { rows: await settingsRows(), audits: await auditCount() };
    const cases: [unknown, RegExp][] = [
      [{ sessionLifetimeMinutes: 10 }, /^sessionLifetimeMinutes: must be at least 15$/],
      [{ sessionLifetimeMinutes: 50_000 }, /^sessionLifetimeMinutes: must be at most 43,200$/],
      [{ sessionLifetimeMinutes: '60' }, /^sessionLifetimeMinutes: must be a number$/],
      [{ passwordPolicy: { minLength: 7 } }, /^passwordPolicy\.minLength: must be at least 8$/],
      [{ passwordPolicy: { requireDigit: 'yes' } }, /^passwordPolicy\.requireDigit: must be true or false$/],
      [{ passwordPolicy: { mustRhyme: true } }, /^passwordPolicy\.mustRhyme: is not a setting$/],
      [
        { allowedEmailDomains: ['acme.test', 'not a domain'] },
        /^allowedEmailDomains: "not a domain" is not a domain name such as example\.com$/,
      ],
      [{ allowedEmailDomains: 'acme.test' }, /^allowedEmailDomains: must be a list of domain names$/],
      [{ auditRetentionDays: 7 }, /^auditRetentionDays: must be at least 30$/],
      [{ runRetentionDays: 4000 }, /^runRetentionDays: must be at most 3,650$/],
      [{ requireTwoFactor: 1 }, /^requireTwoFactor: must be true or false$/],
      [{ theme: 'dark' }, /^theme: is not a setting$/],
      [[1, 2], /^body: must be a JSON object of settings$/],
      // One bad field refuses the whole change: the good one beside it is not stored either.
      [{ sessionLifetimeMinutes: 120, runRetentionDays: 1 }, /^runRetentionDays: must be at least 7$/],
    ];
    for (const [body, message] of cases) {
      const res = await putSettings('service', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect({ rows: await settingsRows(), audits: await auditCount() }).toEqual(before);
  });
});

describe('PUT /settings/email', () => {
  it('seals the password, never answers it, keeps it when left blank and audits it as "(changed)"', async () => {
    const res = await putSettings('email', smtpSettings());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(SMTP_PASSWORD);
    expect(res.json().data.values).toEqual({ ...smtpSettings({ password: undefined }), passwordSet: true });
    const [row] = await settingsRows();
    expect(row.secretsEnc).toBeTruthy();
    expect(JSON.stringify(row)).not.toContain(SMTP_PASSWORD);
    const audit = await lastSettingsAudit();
    expect(audit.recordId).toBe('email');
    expect(audit.changes).toMatchObject({ before: { password: '(not set)', host: '' }, after: { password: '(changed)', host: smtp.host } });
    expect(JSON.stringify(audit.changes)).not.toContain(SMTP_PASSWORD);

    // GET /settings never carries it either.
    expect((await getSettings()).body).not.toContain(SMTP_PASSWORD);

    // Blank (or left out): the stored password stays, sealed as it was.
    const blank = await putSettings('email', { ...smtpSettings(), password: '', fromName: 'Acme Data Team', passwordSet: true });
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json().data.values).toMatchObject({ fromName: 'Acme Data Team', passwordSet: true });
    expect((await settingsRows())[0].secretsEnc).toBe(row.secretsEnc);
    expect((await lastSettingsAudit()).changes).toEqual({ before: { fromName: 'Acme Data' }, after: { fromName: 'Acme Data Team' } });

    // No username: the server takes mail without signing in, so no password is kept.
    const anonymous = await putSettings('email', { username: '' });
    expect(anonymous.json().data.values).toMatchObject({ username: '', passwordSet: false });
    expect((await settingsRows())[0].secretsEnc).toBeNull();
    expect((await lastSettingsAudit()).changes).toMatchObject({ after: { username: '', password: '(removed)' } });
  });

  it('refuses bad or incomplete settings naming the field, and stores nothing', async () => {
    const before = { rows: await settingsRows(), audits: await auditCount() };
    const cases: [unknown, RegExp][] = [
      [{ host: 'smtp.acme.test' }, /^fromAddress: is required when an SMTP host is set$/],
      [{ host: 'smtp.acme.test', fromAddress: 'data@acme.test', username: 'someone' }, /^password: is required with a username$/],
      [{ host: 'not a host', fromAddress: 'data@acme.test' }, /^host: must be a host name or an IP address/],
      [{ host: 'smtp.acme.test', port: 70000, fromAddress: 'data@acme.test' }, /^port: must be at most 65,535$/],
      [{ fromAddress: 'nobody' }, /^fromAddress: must be a valid email address$/],
      [{ fromName: 'Evil\r\nBcc: x@y.z' }, /^fromName: must not contain line breaks/],
      [{ secure: 'tls' }, /^secure: must be true or false$/],
      [{ relay: true }, /^relay: is not a setting$/],
    ];
    for (const [body, message] of cases) {
      const res = await putSettings('email', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect({ rows: await settingsRows(), audits: await auditCount() }).toEqual(before);
  });
});

describe('POST /settings/email/test', () => {
  it('sends a real mail through the stored settings and answers what the server said', async () => {
    await putSettings('email', smtpSettings());
    const arriving = smtp.nextMail();
    const res = await testMail({ to: 'ops@acme.test' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: `A test mail was sent to ops@acme.test through ${smtp.host}:${smtp.port}`,
      data: { ok: true, to: 'ops@acme.test', server: `${smtp.host}:${smtp.port}`, detail: expect.stringMatching(/^250 /) },
    });
    const mail = await arriving;
    expect(mail).toMatchObject({ from: 'data@acme.test', to: ['ops@acme.test'], user: SMTP_USER });
    expect(headerOf(mail.raw, 'From')).toBe('Acme Data <data@acme.test>');
    expect(headerOf(mail.raw, 'Subject')).toBe('Test mail from the email settings of Acme');
    // Quoted-printable may break long lines: read the body as it was written.
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain('sent by Ada Admin');
    expect((await lastSettingsAudit()).changes).toMatchObject({ to: 'ops@acme.test', ok: true, unsaved: false });

    // Without `to`, it goes to the caller.
    const mine = smtp.nextMail();
    expect((await testMail({})).json().data).toMatchObject({ ok: true, to: server.company.adminEmail });
    expect((await mine).to).toEqual([server.company.adminEmail]);
  });

  it("tries unsaved settings laid over the stored ones, and answers the SMTP server's own refusal", async () => {
    await putSettings('email', smtpSettings());
    const stored = await settingsRows();
    const wrong = await testMail({ to: 'ops@acme.test', settings: { password: 'Not-the-password-1' } });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json().data).toMatchObject({
      ok: false,
      detail: 'The mail server did not accept the sign-in: 535 Invalid username or password',
    });
    expect(wrong.json().message).toMatch(
      /^The test mail could not be sent through 127\.0\.0\.1:\d+: The mail server did not accept the sign-in: 535/,
    );

    // A blank password in the unsaved settings is the stored one.
    const blank = await testMail({ to: 'ops@acme.test', settings: { ...smtpSettings(), password: '', fromName: 'Unsaved Name' } });
    expect(blank.json().data.ok).toBe(true);

    // Another server, not saved: nothing listens there.
    const closed = await startCapturingSmtp();
    const deadPort = closed.port;
    await closed.close();
    const refused = await testMail({ settings: { port: deadPort } });
    expect(refused.json().data).toMatchObject({ ok: false, detail: `Could not reach the mail server at 127.0.0.1:${deadPort}` });
    // None of it was saved.
    expect(await settingsRows()).toEqual(stored);

    const bad = await testMail({ settings: { port: 'twenty-five' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('port: must be a number');
    await resetEmail();
    const none = await testMail({});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/^host: is required/);
  });
});

describe("the company's mail goes out through its own SMTP server", () => {
  it('sends invitations through the settings, follows a change at once, and leaves other companies on the outbox', async () => {
    await putSettings('email', smtpSettings());
    const arriving = smtp.nextMail();
    await inviteUser(server, adminToken, { email: 'routed@acme.test' });
    const mail = await arriving;
    expect(mail).toMatchObject({ to: ['routed@acme.test'], from: 'data@acme.test', user: SMTP_USER });
    expect(headerOf(mail.raw, 'Subject')).toBe('Your DataOps Console account for Acme');
    expect(await readLastMail(server.db, 'routed@acme.test')).toMatchObject({ status: 'sent', error: null });

    // Another company has no settings: its mail stays in the outbox as before.
    const roleId = (await call(server, 'GET', '/roles/active', { token: other.adminToken }))
      .json()
      .data.find((r: { name: string }) => r.name === 'Member').id;
    const theirs = await call(server, 'POST', '/user', {
      token: other.adminToken,
      body: { email: 'kept@globex.test', firstName: 'Kim', roleId },
    });
    expect(theirs.statusCode).toBe(201);
    expect(await readLastMail(server.db, 'kept@globex.test')).toMatchObject({ status: 'stored' });

    // A change of settings drops the kept transport: the next mail goes to the new server.
    const second = await startCapturingSmtp();
    try {
      await putSettings('email', { port: second.port, username: '' });
      const moved = second.nextMail();
      await inviteUser(server, adminToken, { email: 'moved@acme.test' });
      expect((await moved).to).toEqual(['moved@acme.test']);
      expect(smtp.received.some((received) => received.to.includes('moved@acme.test'))).toBe(false);
    } finally {
      await second.close();
    }

    // A server that refuses: the mail is kept as failed with its words.
    await putSettings('email', { port: smtp.port, username: SMTP_USER, password: 'Wrong-password-9' });
    await inviteUser(server, adminToken, { email: 'refused@acme.test' });
    expect(await readLastMail(server.db, 'refused@acme.test')).toMatchObject({ status: 'failed', error: expect.stringMatching(/535/) });

    // No host: back to the instance's way (here, the outbox).
    await putSettings('email', { host: '' });
    await inviteUser(server, adminToken, { email: 'outbox.again@acme.test' });
    expect(await readLastMail(server.db, 'outbox.again@acme.test')).toMatchObject({ status: 'stored' });
  });
});

describe('enforcement of the service settings', () => {
  it('gives new full sessions the company’s lifetime', async () => {
    await putSettings('service', { sessionLifetimeMinutes: 30 });
    const member = await createActiveUser(server, adminToken, { email: 'short.session@acme.test' });
    const user = await signInFully(server, member);
    const minutes = (new Date(user.expiresAt!).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30);

    // Another company keeps the server's lifetime.
    const theirs = await signInFully(server, {
      email: other.adminEmail,
      password: server.company.adminPassword,
      companyHostname: other.hostname,
    });
    expect((new Date(theirs.expiresAt!).getTime() - Date.now()) / 60_000).toBeGreaterThan(server.config.sessionTtlMinutes - 2);

    // An impersonation lasts no longer than the company's lifetime either.
    // (The admin's own session, opened before, lasts the server's 480 minutes.)
    await putSettings('service', { sessionLifetimeMinutes: 20 });
    const as = await call(server, 'POST', '/user/impersonate', { token: adminToken, body: { userId: member.id } });
    expect(as.statusCode, as.body).toBe(200);
    expect((new Date(as.json().user.expiresAt).getTime() - Date.now()) / 60_000).toBeLessThanOrEqual(20);
  });

  it('sends users without two-factor through enrolment when the setting is on, and keeps one truth with the company row', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'enrol.me@acme.test' });
    expect((await signInFully(server, member)).setupOTP).toBe(false);

    const on = await putSettings('service', { requireTwoFactor: true, sessionLifetimeMinutes: 45 });
    expect(on.json().data.values.requireTwoFactor).toBe(true);
    const [company] = await server.db.select().from(companies).where(eq(companies.id, server.company.companyId));
    expect(company.requireTwoFactor).toBe(true);
    expect((await settingsRows())[0].values).not.toHaveProperty('requireTwoFactor');
    expect((await settingsRows())[0].values).toMatchObject({ sessionLifetimeMinutes: 45 });

    const res = await signIn(server, member);
    expect(res.json().user).toMatchObject({ auth: false, setupOTP: true });
    // And the session the enrolment completes has the company's lifetime.
    const half = res.json().user.token as string;
    const setup = await call(server, 'GET', '/user/otp/setup', { token: half });
    const done = await call(server, 'POST', '/user/otp/register', { token: half, body: { otp: await totpNow(setup.json().data.secret) } });
    expect(done.statusCode, done.body).toBe(200);
    expect((new Date(done.json().user.expiresAt).getTime() - Date.now()) / 60_000).toBeLessThanOrEqual(45);

    // The company row is what GET answers, whoever wrote it.
    await server.db.update(companies).set({ requireTwoFactor: false }).where(eq(companies.id, server.company.companyId));
    expect((await getSettings()).json().data[0].values.requireTwoFactor).toBe(false);
    const plain = await createActiveUser(server, adminToken, { email: 'no.enrol@acme.test' });
    expect((await signInFully(server, plain)).setupOTP).toBe(false);
  });

  it('holds every new password to the company’s rules, naming what is missing', async () => {
    await putSettings('service', {
      passwordPolicy: { minLength: 12, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: true },
    });
    const weak = 'lower123';
    const lacking = /^newPassword: Password must be at least 12 characters long and contain an uppercase letter and a symbol$/;
    const strong = 'Strong-enough-pass-42';

    // Activation.
    const invitation = await inviteUser(server, adminToken, { email: 'policy.invitee@acme.test' });
    const verify = await call(server, 'POST', '/user/verify', { body: { token: invitation.token } });
    expect(verify.json().data.passwordPolicy).toEqual({
      minLength: 12,
      requireUppercase: true,
      requireLowercase: true,
      requireDigit: true,
      requireSymbol: true,
    });
    const weakActivation = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword, newPassword: weak },
    });
    expect(weakActivation.statusCode).toBe(400);
    expect(weakActivation.json().message).toMatch(lacking);
    const activated = await call(server, 'POST', '/user/password/create', {
      body: { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword, newPassword: strong },
    });
    expect(activated.statusCode, activated.body).toBe(200);

    // Change of one's own password.
    const session = await signInFully(server, { email: invitation.email, password: strong });
    const weakChange = await call(server, 'POST', '/user/password', {
      token: session.accessToken,
      body: { oldPassword: strong, newPassword: weak },
    });
    expect(weakChange.statusCode).toBe(400);
    expect(weakChange.json().message).toMatch(lacking);
    expect(
      (
        await call(server, 'POST', '/user/password', {
          token: session.accessToken,
          body: { oldPassword: strong, newPassword: 'Changed-pass-4242' },
        })
      ).statusCode,
    ).toBe(200);

    // Reset through the mailed link.
    await call(server, 'POST', '/user/password/forgot', { body: { email: invitation.email, companyHostname: 'acme' }, ip: freshIp() });
    const clientId = tokenFromMail(await readLastMail(server.db, invitation.email), '/auth/reset-password');
    const check = await call(server, 'POST', '/user/password/token/verify', { body: { token: clientId } });
    expect(check.json().data.passwordPolicy.minLength).toBe(12);
    const weakReset = await call(server, 'POST', '/user/password/reset', {
      body: { email: invitation.email, newPassword: 'Short-1', clientId },
    });
    expect(weakReset.statusCode).toBe(400);
    expect(weakReset.json().message).toBe('newPassword: Password must be at least 12 characters long');
    expect(
      (await call(server, 'POST', '/user/password/reset', { body: { email: invitation.email, newPassword: 'Reset-pass-2024', clientId } }))
        .statusCode,
    ).toBe(200);

    // A demo account an admin creates.
    const demo = {
      email: 'policy.demo@acme.test',
      username: 'policy.demo',
      firstName: 'Demo',
      password: 'demopass1234',
      roleId: server.company.memberRoleId,
    };
    const weakDemo = await call(server, 'POST', '/client/createUser', { token: adminToken, body: demo });
    expect(weakDemo.statusCode).toBe(400);
    expect(weakDemo.json().message).toBe('password: Password must contain an uppercase letter and a symbol');
    expect(
      (await call(server, 'POST', '/client/createUser', { token: adminToken, body: { ...demo, password: 'Demo-pass-1234' } })).statusCode,
    ).toBe(201);

    // The rules every signed-in user's forms show.
    const mine = await signInFully(server, { email: invitation.email, password: 'Reset-pass-2024' });
    expect((await call(server, 'GET', '/settings/password-policy', { token: mine.accessToken })).json().data).toMatchObject({
      minLength: 12,
      requireSymbol: true,
    });

    // Onboarding another company keeps the instance default, whatever this company chose.
    const onboarded = await call(server, 'POST', '/company', {
      body: {
        companyName: 'Initech',
        companyHostname: 'initech',
        adminEmail: 'admin@initech.test',
        adminPassword: 'plainpass12',
        firstName: 'Ina',
        lastName: 'Tech',
      },
      ip: freshIp(),
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
  });

  it('lets a company loosen the rules as well as tighten them', async () => {
    const demo = {
      email: 'loose.demo@acme.test',
      username: 'loose.demo',
      firstName: 'Loose',
      password: 'lettersonly',
      roleId: server.company.memberRoleId,
    };
    const refused = await call(server, 'POST', '/client/createUser', { token: adminToken, body: demo });
    expect(refused.json().message).toBe('password: Password must contain both letters and digits');
    await putSettings('service', { passwordPolicy: { minLength: 8, requireDigit: false } });
    const created = await call(server, 'POST', '/client/createUser', { token: adminToken, body: demo });
    expect(created.statusCode, created.body).toBe(201);
  });

  it("refuses invitations and demo accounts outside the company's allowed domains", async () => {
    await putSettings('service', { allowedEmailDomains: ['acme.test', 'partner.example'] });
    const before = (await server.db.select({ n: count() }).from(users))[0].n;
    const outside = await call(server, 'POST', '/user', {
      token: adminToken,
      body: { email: 'someone@elsewhere.example', firstName: 'Out', roleId: server.company.memberRoleId },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe(
      "email: elsewhere.example is not one of the company's allowed domains (acme.test, partner.example)",
    );
    const demo = await call(server, 'POST', '/client/createUser', {
      token: adminToken,
      body: {
        email: 'demo@sub.acme.test',
        username: 'outside.demo',
        firstName: 'Out',
        password: 'Outside-pass-1',
        roleId: server.company.memberRoleId,
      },
    });
    expect(demo.statusCode).toBe(400);
    expect(demo.json().message).toMatch(/^email: sub\.acme\.test is not one of the company's allowed domains/);
    expect((await server.db.select({ n: count() }).from(users))[0].n).toBe(before);

    const inside = await call(server, 'POST', '/user', {
      token: adminToken,
      body: { email: 'guest@Partner.example', firstName: 'In', roleId: server.company.memberRoleId },
    });
    expect(inside.statusCode, inside.body).toBe(201);

    // The other company has no list: any domain.
    const roleId = (await call(server, 'GET', '/roles/active', { token: other.adminToken }))
      .json()
      .data.find((r: { name: string }) => r.name === 'Member').id;
    const theirs = await call(server, 'POST', '/user', {
      token: other.adminToken,
      body: { email: 'anyone@elsewhere.example', firstName: 'Any', roleId },
    });
    expect(theirs.statusCode).toBe(201);
  });
});

describe('retention', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const ago = (days: number) => new Date(Date.now() - days * DAY);

  async function seedHistory(companyId: string) {
    const workflowId = crypto.randomUUID();
    const tableId = crypto.randomUUID();
    const audit = (days: number) => ({ companyId, model: 'seed', operation: 'old', createdAt: ago(days) });
    await server.db.insert(systemAudits).values([audit(400), audit(400), audit(400), audit(400), audit(100), audit(1)]);
    const event = (days: number) => ({ companyId, event: 'signin', status: 'success', createdAt: ago(days) });
    await server.db.insert(accessEvents).values([event(500), event(400), event(10)]);
    const run = (days: number, status: string, ended: boolean) => ({
      companyId,
      workflowId,
      status,
      trigger: 'manual',
      queuedAt: ago(days),
      startedAt: ago(days),
      endedAt: ended ? ago(days) : null,
    });
    const runs = await server.db
      .insert(jobRuns)
      .values([
        run(90, 'succeeded', true),
        run(80, 'failed', true),
        run(70, 'canceled', true),
        run(90, 'running', false),
        run(5, 'succeeded', true),
      ])
      .returning({ id: jobRuns.id });
    await server.db
      .insert(jobRunSteps)
      .values(runs.map((r, position) => ({ companyId, runId: r.id, position, taskId: 't1', name: 'Copy', type: 'copy' })));
    const checks = await server.db
      .insert(qualityRuns)
      .values(
        [runs[0], runs[4]].map((r) => ({ companyId, tableId, jobRunId: r.id, trigger: 'workflow', status: 'passed', endedAt: new Date() })),
      )
      .returning({ id: qualityRuns.id });
    await server.db.insert(qualityResults).values(
      checks.map((c) => ({
        companyId,
        runId: c.id,
        ruleId: crypto.randomUUID(),
        tableId,
        ruleName: 'Not null',
        functionName: 'not_null',
        severity: 'error',
        status: 'passed',
        startedAt: new Date(),
        endedAt: new Date(),
      })),
    );
    return { runs: runs.map((r) => r.id), checks: checks.map((c) => c.id) };
  }

  const tally = async (companyId: string) => {
    const n = async (
      table: typeof systemAudits | typeof accessEvents | typeof jobRuns | typeof jobRunSteps | typeof qualityRuns | typeof qualityResults,
    ) => (await server.db.select({ n: count() }).from(table).where(eq(table.companyId, companyId)))[0].n;
    return {
      audits: await n(systemAudits),
      accessEvents: await n(accessEvents),
      runs: await n(jobRuns),
      runSteps: await n(jobRunSteps),
      qualityRuns: await n(qualityRuns),
      qualityResults: await n(qualityResults),
    };
  };

  it('deletes, in batches, the audits, access events and ended runs older than the company keeps them; others stay', async () => {
    const third = await createOtherCompany(server, 'umbrella');
    const mine = await seedHistory(third.companyId);
    await seedHistory(other.companyId);
    const res = await putSettings('service', { auditRetentionDays: 365, runRetentionDays: 30 }, third.adminToken);
    expect(res.statusCode, res.body).toBe(200);
    const before = { mine: await tally(third.companyId), theirs: await tally(other.companyId) };

    const report = await purgeExpiredRecords(server.db, { batchSize: 2 });
    expect(report).toMatchObject({ audits: 4, accessEvents: 2, runs: 3, runSteps: 3, qualityRuns: 1, qualityResults: 1 });

    expect(await tally(third.companyId)).toEqual({
      audits: before.mine.audits - 4 + 1, // the purge records itself
      accessEvents: before.mine.accessEvents - 2,
      runs: before.mine.runs - 3,
      runSteps: before.mine.runSteps - 3,
      qualityRuns: before.mine.qualityRuns - 1,
      qualityResults: before.mine.qualityResults - 1,
    });
    // The running one and the recent one stay, with their steps and checks.
    const left = await server.db
      .select({ id: jobRuns.id, status: jobRuns.status })
      .from(jobRuns)
      .where(eq(jobRuns.companyId, third.companyId));
    expect(left.map((r) => r.id).sort()).toEqual([mine.runs[3], mine.runs[4]].sort());
    const checksLeft = await server.db.select({ id: qualityRuns.id }).from(qualityRuns).where(eq(qualityRuns.companyId, third.companyId));
    expect(checksLeft.map((c) => c.id)).toEqual([mine.checks[1]]);
    // A company that keeps everything (no retention set) loses nothing.
    expect(await tally(other.companyId)).toEqual(before.theirs);

    const [entry] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, third.companyId), eq(systemAudits.operation, 'retention_purge')));
    expect(entry.changes).toMatchObject({ audits: 4, accessEvents: 2, runs: 3, auditRetentionDays: 365, runRetentionDays: 30 });

    // A second pass has nothing left to do.
    expect(await purgeExpiredRecords(server.db)).toMatchObject({ audits: 0, accessEvents: 0, runs: 0 });
  });

  it('purges each company once per interval however many servers pass, the others leaving it to the claim', async () => {
    const fourth = await createOtherCompany(server, 'hooli');
    await seedHistory(fourth.companyId);
    expect((await putSettings('service', { auditRetentionDays: 365 }, fourth.adminToken)).statusCode).toBe(200);
    const hour = 60 * 60 * 1000;
    const now = new Date();
    const purgeEntries = async () =>
      (
        await server.db
          .select({ id: systemAudits.id })
          .from(systemAudits)
          .where(and(eq(systemAudits.companyId, fourth.companyId), eq(systemAudits.operation, 'retention_purge')))
      ).length;
    const oldAudits = async () =>
      (
        await server.db
          .select({ n: count() })
          .from(systemAudits)
          .where(and(eq(systemAudits.companyId, fourth.companyId), eq(systemAudits.operation, 'old')))
      )[0].n;

    // Three servers' timers at the same moment: the rows go once, with one audit entry.
    const reports = await Promise.all([1, 2, 3].map(() => purgeExpiredRecords(server.db, { now, claimForMs: hour })));
    expect(reports.reduce((sum, report) => sum + report.claimedElsewhere, 0)).toBeGreaterThanOrEqual(2);
    expect(await purgeEntries()).toBe(1);
    const left = await oldAudits();

    // Rows expiring later in the hour wait for the next claim: a server starting meanwhile leaves them.
    await server.db.insert(systemAudits).values({ companyId: fourth.companyId, model: 'seed', operation: 'old', createdAt: ago(400) });
    const meanwhile = await purgeExpiredRecords(server.db, { now: new Date(now.getTime() + hour / 2), claimForMs: hour });
    expect(meanwhile.claimedElsewhere).toBeGreaterThanOrEqual(1);
    expect(await oldAudits()).toBe(left + 1);

    // An hour on, the company is claimed and purged again.
    await purgeExpiredRecords(server.db, { now: new Date(now.getTime() + hour), claimForMs: hour });
    expect(await oldAudits()).toBe(left);
    expect(await purgeEntries()).toBe(2);
  });
});
