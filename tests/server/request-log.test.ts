import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { scrubUrl } from '../../server/http/request-log';
import { createTestServer, type TestServer } from './harness';
import { readLastMail, tokenFromMail } from './helpers';

/**
 * One log line per request (request id, company, user, route, method, status, duration), the
 * request id on every answer, and no credential in the log: headers, bodies and the mailed
 * links' tokens are kept out whatever the request carries.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let consoleDir: string;
const extraApps: FastifyInstance[] = [];

beforeAll(async () => {
  server = await createTestServer();
  consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-console-'));
  fs.mkdirSync(path.join(consoleDir, 'assets'));
  fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log("console");');
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await server?.close();
  if (consoleDir) fs.rmSync(consoleDir, { recursive: true, force: true });
});

interface Logged {
  app: FastifyInstance;
  lines: Array<Record<string, unknown>>;
  /** Everything written, as written. */
  text(): string;
  requestLines(): Array<Record<string, unknown>>;
}

/** An app serving the API and the console whose log the test reads. */
async function loggedApp(level: string, extraRoutes?: (app: FastifyInstance) => void): Promise<Logged> {
  const raw: string[] = [];
  const app = await buildApp(
    { ...server.app.ctx, config: { ...server.config, consoleDir } },
    { serveConsole: true, logger: { level, stream: { write: (line: string) => void raw.push(line) } } },
  );
  extraRoutes?.(app);
  await app.ready();
  extraApps.push(app);
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    app,
    get lines() {
      return lines();
    },
    text: () => raw.join(''),
    requestLines: () => lines().filter((line) => line.msg === 'request'),
  };
}

describe('the request log', () => {
  let logged: Logged;
  let secrets: Record<string, string>;

  beforeAll(async () => {
    logged = await loggedApp('info', (app) => {
      // Code that logs a whole request carelessly: its credentials must still not reach the log.
      app.post('/careless', async (request) => {
        request.log.warn({ headers: request.headers, body: request.body, req: request }, 'a careless line');
        return { message: 'logged' };
      });
    });
    const { app } = logged;
    const signin = await app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: server.company.adminEmail, password: server.company.adminPassword, companyHostname: server.company.hostname },
    });
    expect(signin.statusCode, signin.body).toBe(200);
    const accessToken = signin.json().user.accessToken as string;

    const forgot = await app.inject({
      method: 'POST',
      url: '/api/v1/user/password/forgot',
      payload: { email: server.company.adminEmail, companyHostname: server.company.hostname },
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const resetToken = tokenFromMail(await readLastMail(server.db, server.company.adminEmail), '/auth/reset-password');

    secrets = {
      password: server.company.adminPassword,
      wrongPassword: 'Wrong-secret-password-77',
      accessToken,
      resetToken,
      apiKey: `dok_AbCdEfGhIjKl_${'k'.repeat(43)}`,
      bearer: 'bearer-credential-0123456789',
      cookie: 'cookie-credential-0123456789',
    };
  });

  const inject = (options: InjectOptions): Promise<LightMyRequestResponse> => logged.app.inject(options);

  it('writes one line per request with its id, company, user, route, status and duration', async () => {
    const res = await inject({
      method: 'GET',
      url: '/api/v1/roles/0/10',
      headers: { 'x-access-token': secrets.accessToken, 'x-request-id': 'trace-7f3a.1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-7f3a.1');
    const line = logged.requestLines().find((l) => l.reqId === 'trace-7f3a.1');
    expect(line).toMatchObject({
      level: 30,
      reqId: 'trace-7f3a.1',
      method: 'GET',
      route: '/api/v1/roles/:offset/:limit',
      url: '/api/v1/roles/0/10',
      statusCode: 200,
      companyId: server.company.companyId,
      userId: server.company.adminUserId,
    });
    expect(typeof line!.durationMs).toBe('number');
    expect(logged.requestLines().filter((l) => l.reqId === 'trace-7f3a.1')).toHaveLength(1);
  });

  it('keeps tokens, passwords, keys and cookies out of the log', async () => {
    const calls: InjectOptions[] = [
      {
        method: 'POST',
        url: '/api/v1/signin',
        payload: { email: server.company.adminEmail, password: secrets.wrongPassword, companyHostname: server.company.hostname },
        remoteAddress: '203.0.113.77',
      },
      { method: 'GET', url: `/auth/reset-password?token=${secrets.resetToken}`, headers: { accept: 'text/html' } },
      { method: 'POST', url: '/api/v1/user/password/token/verify', payload: { token: secrets.resetToken } },
      { method: 'GET', url: `/api/v1/health?lang=fr&access_token=${secrets.accessToken}` },
      { method: 'GET', url: '/api/v1/roles/0/10', headers: { 'x-api-key': secrets.apiKey } },
      {
        method: 'POST',
        url: '/careless',
        headers: {
          authorization: `Bearer ${secrets.bearer}`,
          cookie: `session=${secrets.cookie}`,
          'x-access-token': secrets.accessToken,
          'x-api-key': secrets.apiKey,
        },
        payload: { password: secrets.password, newPassword: secrets.wrongPassword, token: secrets.resetToken },
      },
    ];
    const ids: string[] = [];
    for (const [i, options] of calls.entries()) {
      const id = `secret-check-${i}`;
      ids.push(id);
      const res = await inject({ ...options, headers: { ...options.headers, 'x-request-id': id } });
      expect(res.statusCode, `${i}: ${res.body}`).toBeLessThan(500);
    }
    const text = logged.text();
    for (const [name, secret] of Object.entries(secrets)) expect(text.includes(secret), name).toBe(false);

    // The lines are there, saying what happened, with the secrets' places marked.
    const lineOf = (id: string) => logged.requestLines().find((l) => l.reqId === id);
    expect(lineOf(ids[0])).toMatchObject({ route: '/api/v1/signin', statusCode: 401, companyId: null, userId: null });
    expect(lineOf(ids[1])).toMatchObject({ url: '/auth/reset-password?token=[redacted]', statusCode: 200 });
    expect(lineOf(ids[2])).toMatchObject({ route: '/api/v1/user/password/token/verify', statusCode: 200 });
    expect(lineOf(ids[3])).toMatchObject({ url: '/api/v1/health?lang=fr&access_token=[redacted]', statusCode: 200 });
    expect(lineOf(ids[4])).toMatchObject({ route: '/api/v1/roles/:offset/:limit', statusCode: 401 });
    const careless = logged.lines.find((l) => l.msg === 'a careless line' && l.reqId === ids[5]) as {
      headers: Record<string, string>;
      body: Record<string, string>;
    };
    expect(careless.headers).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-access-token': '[redacted]',
      'x-api-key': '[redacted]',
    });
    expect(careless.body).toEqual({ password: '[redacted]', newPassword: '[redacted]', token: '[redacted]' });
  });

  it('gives every answer its request id: API, console, not found and errors', async () => {
    const answers = await Promise.all([
      inject({ method: 'GET', url: '/api/v1/health' }),
      inject({ method: 'GET', url: '/api/v1/roles/0/10' }),
      inject({ method: 'GET', url: '/api/v1/no-such-route' }),
      inject({ method: 'POST', url: '/api/v1/signin', payload: { email: 'not an email' } }),
      inject({ method: 'POST', url: '/api/v1/signin', headers: { 'content-type': 'application/json' }, payload: '{"broken' }),
      inject({ method: 'GET', url: '/dashboard', headers: { accept: 'text/html' } }),
      inject({ method: 'GET', url: '/assets/index-abc123.js' }),
      inject({ method: 'GET', url: '/metrics' }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 404, 400, 400, 200, 200, 404]);
    for (const res of answers) expect(res.headers['x-request-id'], `${res.statusCode} ${res.body.slice(0, 80)}`).toMatch(UUID);
    expect(new Set(answers.map((res) => res.headers['x-request-id'])).size).toBe(answers.length);
  });

  it('takes a caller’s request id only when it is a plain token', async () => {
    for (const given of ['a b', 'x'.repeat(129), '<script>', 'id"with"quotes', '']) {
      const res = await inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id'], JSON.stringify(given)).toMatch(UUID);
    }
    for (const given of [
      'x'.repeat(128),
      '01J9ZQ4K7Z8Y6X5W4V3T2S1R0Q',
      'f3b1e9a2-7c44-4d0e-9a51-2b8d1c0e6f47',
      'Root=1-5f84c7a5-abc.Parent=x',
    ]) {
      const res = await inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': given } });
      expect(res.headers['x-request-id']).toBe(given);
    }
  });
});

describe('the log level', () => {
  it('is info by default, so requests are logged', () => {
    expect(readConfig({}).logLevel).toBe('info');
    expect(readConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it('keeps the server’s own info lines out at info, and the request lines out at warn', async () => {
    const info = await loggedApp('info');
    info.app.log.info('start-up chatter');
    info.app.log.warn('a warning');
    await info.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(info.lines.map((l) => l.msg)).toEqual(['a warning', 'request']);

    const warn = await loggedApp('warn');
    await warn.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(warn.requestLines()).toEqual([]);

    const debug = await loggedApp('debug');
    debug.app.log.info('start-up detail');
    await debug.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(debug.lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['start-up detail', 'request']));
  });
});

describe('scrubUrl', () => {
  it('replaces the values of secret-looking query parameters and keeps the rest', () => {
    expect(scrubUrl('/users/0/10')).toBe('/users/0/10');
    expect(scrubUrl('/auth/activate-user-account?token=abc')).toBe('/auth/activate-user-account?token=[redacted]');
    expect(scrubUrl('/x?offset=10&resetPasswordToken=abc&sort=name&api_key=k&password=p&code=123456')).toBe(
      '/x?offset=10&resetPasswordToken=[redacted]&sort=name&api_key=[redacted]&password=[redacted]&code=[redacted]',
    );
    expect(scrubUrl('/x?%74oken=abc&flag')).toBe('/x?%74oken=[redacted]&flag');
    expect(scrubUrl('/x?to%ZZken=abc')).toBe('/x?to%ZZken=abc');
  });
});
