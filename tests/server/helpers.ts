import { count, desc, eq } from 'drizzle-orm';
import { generate } from 'otplib';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../server/db/client';
import {
  accessEvents,
  authTokens,
  mailOutbox,
  rolePages,
  rolePolicies,
  roles,
  sessions,
  systemAudits,
  users,
} from '../../server/db/schema';
import { provisionCompany } from '../../server/tenancy/provision';
import type { SessionUser } from '../../server/auth/session-user';
import type { TestServer } from './harness';

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** The caller's address; throttling counts per address, so tests that fail a lot use their own. */
  ip?: string;
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** One API call: `call(server, 'POST', '/signin', { body })`. */
export function call(server: TestServer, method: Method, path: string, options: CallOptions = {}): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method,
    url: `/api/v1${path}`,
    headers: { ...(options.token ? { 'x-access-token': options.token } : {}), ...options.headers },
    payload: options.body as never,
    remoteAddress: options.ip,
  });
}

let lastAddress = 0;
/** A documentation-range address no other test in the file uses. */
export function freshIp(): string {
  lastAddress += 1;
  return `198.51.${100 + Math.floor(lastAddress / 250)}.${(lastAddress % 250) + 1}`;
}

export interface Credentials {
  email: string;
  password: string;
  companyHostname?: string;
  ip?: string;
}

export function signIn(server: TestServer, credentials: Credentials): Promise<LightMyRequestResponse> {
  const { ip, ...body } = credentials;
  return call(server, 'POST', '/signin', { body: { companyHostname: server.company.hostname, ...body }, ip });
}

/** Signs in and expects a full session; returns the session user. */
export async function signInFully(server: TestServer, credentials: Credentials): Promise<SessionUser> {
  const res = await signIn(server, credentials);
  expect(res.statusCode, res.body).toBe(200);
  const user = res.json().user as SessionUser;
  expect(user.auth).toBe(true);
  return user;
}

export function signInAdmin(server: TestServer): Promise<SessionUser> {
  return signInFully(server, { email: server.company.adminEmail, password: server.company.adminPassword });
}

export type MailRow = typeof mailOutbox.$inferSelect;

export async function readLastMail(db: Db, to: string): Promise<MailRow> {
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  expect(mail, `a mail to ${to}`).toBeDefined();
  return mail;
}

export async function mailsTo(db: Db, to: string): Promise<MailRow[]> {
  return db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
}

/** The token of a link such as `/auth/reset-password?token=…` in a mail's text. */
export function tokenFromMail(mail: MailRow, path: string): string {
  const match = new RegExp(`${path.replace(/[/?]/g, '\\$&')}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  expect(match, `a ${path} link in the mail`).not.toBeNull();
  return match![1];
}

export function temporaryPasswordFromMail(mail: MailRow): string {
  const match = /Temporary password: (\S+)/.exec(mail.text);
  expect(match, 'a temporary password in the mail').not.toBeNull();
  return match![1];
}

export interface Invitation {
  id: string;
  email: string;
  temporaryPassword: string;
  token: string;
}

export async function inviteUser(
  server: TestServer,
  adminToken: string,
  invitee: { email: string; firstName?: string; lastName?: string; roleId?: string },
): Promise<Invitation> {
  const res = await call(server, 'POST', '/user', {
    token: adminToken,
    body: { firstName: 'Ivy', lastName: 'Invitee', roleId: server.company.memberRoleId, ...invitee },
  });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await readLastMail(server.db, invitee.email.toLowerCase());
  return {
    id: res.json().data.id,
    email: invitee.email.toLowerCase(),
    temporaryPassword: temporaryPasswordFromMail(mail),
    token: tokenFromMail(mail, '/auth/activate-user-account'),
  };
}

export const MEMBER_PASSWORD = 'Member-pass-123';

/** Invites and activates a user; returns the user's id, email and password. */
export async function createActiveUser(
  server: TestServer,
  adminToken: string,
  invitee: { email: string; password?: string; roleId?: string; firstName?: string },
): Promise<{ id: string; email: string; password: string }> {
  const password = invitee.password ?? MEMBER_PASSWORD;
  const invitation = await inviteUser(server, adminToken, invitee);
  const res = await call(server, 'POST', '/user/password/create', {
    body: { defaultPasswordToken: invitation.token, oldPassword: invitation.temporaryPassword, newPassword: password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: invitation.id, email: invitation.email, password };
}

/** The code an authenticator app shows now, or `steps` periods of 30 s later. */
export function totpNow(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** The TOTP time step of now. */
export function currentStep(): number {
  return Math.floor(Date.now() / 30_000);
}

/** The code of one exact time step, so tests do not depend on when a step rolls over. */
export function totpAt(secret: string, step: number): Promise<string> {
  return generate({ secret, epoch: step * 30 });
}

/** A six-digit code that is not `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 500_001) % 1_000_000).padStart(6, '0');
}

export async function userRow(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function sessionRow(db: Db, id: string) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row;
}

/** The session id an access token names (tests use it to look the row up). */
export function sessionIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;
}

/** Row counts and the users table, for "a refused request changed nothing". */
export async function snapshot(db: Db) {
  const tally = async (table: typeof users | typeof sessions | typeof authTokens | typeof mailOutbox | typeof systemAudits) =>
    (await db.select({ n: count() }).from(table))[0].n;
  return {
    users: await db.select().from(users).orderBy(users.id),
    sessions: await tally(sessions),
    authTokens: await tally(authTokens),
    mails: await tally(mailOutbox),
    audits: await tally(systemAudits),
  };
}

export async function accessEventsOf(db: Db, email: string) {
  return db.select().from(accessEvents).where(eq(accessEvents.email, email)).orderBy(accessEvents.createdAt);
}

/** Requests that must be refused whatever route they are sent to. */
export const HOSTILE = {
  sql: "' OR 1=1 --",
  html: '<script>alert(1)</script>',
  huge: 'x'.repeat(10 * 1024 * 1024),
};

/** A second company on the same server, for "another tenant's record is a 404" tests. */
export async function createOtherCompany(server: TestServer, hostname = 'globex') {
  const adminEmail = `admin@${hostname}.test`;
  const company = await provisionCompany(server.db, {
    name: hostname.charAt(0).toUpperCase() + hostname.slice(1),
    hostname,
    admin: { email: adminEmail, password: server.company.adminPassword, firstName: 'Other', lastName: 'Admin' },
  });
  const admin = await signInFully(server, { email: adminEmail, password: server.company.adminPassword, companyHostname: hostname });
  return { ...company, hostname, adminEmail, adminToken: admin.accessToken! };
}

/**
 * A signed-in user whose role holds exactly these policies (and these pages), made directly in
 * the database so that a test of one area does not depend on the roles routes.
 */
export async function userWithPolicies(
  server: TestServer,
  adminToken: string,
  email: string,
  policies: Array<{ resource: string; actions: string[] }>,
  pageIds: string[] = ['dashboard'],
): Promise<{ id: string; email: string; password: string; roleId: string; token: string }> {
  const [role] = await server.db
    .insert(roles)
    .values({ companyId: server.company.companyId, name: `Role for ${email}`, type: 'custom' })
    .returning();
  if (policies.length > 0) {
    await server.db.insert(rolePolicies).values(policies.map((p) => ({ companyId: server.company.companyId, roleId: role.id, ...p })));
  }
  if (pageIds.length > 0) {
    await server.db.insert(rolePages).values(pageIds.map((pageId) => ({ companyId: server.company.companyId, roleId: role.id, pageId })));
  }
  const user = await createActiveUser(server, adminToken, { email, roleId: role.id });
  const session = await signInFully(server, { email: user.email, password: user.password });
  return { ...user, roleId: role.id, token: session.accessToken! };
}
