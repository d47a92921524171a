import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig, type Config } from '../../server/config';
import { SVG_CONTENT_SECURITY_POLICY } from '../../server/routes/company-profile';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';

/**
 * The headers of every answer (API, console page and files), the console's Content-Security-Policy
 * and CORS: closed by default, open only to the origins of CORS_ORIGINS. Browser-side proof that
 * the console runs under its policy: tests/e2e/csp.spec.ts.
 */

let server: TestServer;
let adminToken: string;
let consoleDir: string;
const extraApps: FastifyInstance[] = [];

const ASSET = 'assets/index-abc123.js';
const STYLES = 'assets/index-abc123.css';

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
  // A built console in miniature: the page, a script and a style sheet under assets/.
  consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataops-console-'));
  fs.mkdirSync(path.join(consoleDir, 'assets'));
  fs.writeFileSync(
    path.join(consoleDir, 'index.html'),
    `<!doctype html><html><head><script type="module" crossorigin src="/${ASSET}"></script><link rel="stylesheet" href="/${STYLES}"></head><body><div id="root"></div></body></html>`,
  );
  fs.writeFileSync(path.join(consoleDir, ASSET), 'console.log("console");');
  fs.writeFileSync(path.join(consoleDir, STYLES), 'body{margin:0}');
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await server?.close();
  if (consoleDir) fs.rmSync(consoleDir, { recursive: true, force: true });
});

/** Another app on the same database, with some settings changed and the console served. */
async function appWith(overrides: Partial<Config>): Promise<FastifyInstance> {
  const app = await buildApp({ ...server.app.ctx, config: { ...server.config, consoleDir, ...overrides } }, { serveConsole: true });
  await app.ready();
  extraApps.push(app);
  return app;
}

let consoleApp: FastifyInstance;
const consoleApp$ = async () => (consoleApp ??= await appWith({}));

/** A policy as a map of directive → sources. */
function directives(policy: string | string[] | number | undefined): Record<string, string[]> {
  expect(typeof policy, 'a Content-Security-Policy header').toBe('string');
  return Object.fromEntries(
    String(policy)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

const API_POLICY = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

function expectCommonHeaders(res: LightMyRequestResponse, resourcePolicy = 'same-origin') {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy']).toBe(resourcePolicy);
  const permissions = String(res.headers['permissions-policy']);
  for (const feature of ['camera', 'microphone', 'geolocation']) expect(permissions).toContain(`${feature}=()`);
  // Plain HTTP: a browser would ignore it, and a proxy that terminates TLS must say so first.
  expect(res.headers['strict-transport-security']).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
}

describe('API answers', () => {
  it('carry the headers and a policy that lets nothing run, whatever the status', async () => {
    const answers: Array<[number, LightMyRequestResponse]> = [
      [200, await call(server, 'GET', '/user/profile', { token: adminToken })],
      [200, await call(server, 'GET', '/health')],
      [400, await call(server, 'POST', '/signin', { body: {} })],
      [401, await call(server, 'GET', '/user/profile')],
      [404, await call(server, 'GET', '/no/such/route')],
      [413, await call(server, 'POST', '/signin', { body: { email: 'x'.repeat(2 * 1024 * 1024) } })],
    ];
    for (const [status, res] of answers) {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(directives(res.headers['content-security-policy'])).toEqual(API_POLICY);
      expectCommonHeaders(res);
    }
  });

  it('leave the SVG logo its own sandboxing policy, and still add the rest', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>';
    const boundary = `----form${crypto.randomBytes(8).toString('hex')}`;
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="logo.svg"\r\nContent-Type: image/svg+xml\r\n\r\n${svg}\r\n--${boundary}--\r\n`,
    );
    const saved = await call(server, 'PUT', '/company', {
      token: adminToken,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const logo = await call(server, 'GET', `/company/logo?hostname=${server.company.hostname}`);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.headers['content-security-policy']).toBe(SVG_CONTENT_SECURITY_POLICY);
    expectCommonHeaders(logo);
    const again = await call(server, 'GET', `/company/logo?hostname=${server.company.hostname}`, {
      headers: { 'if-none-match': String(logo.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(SVG_CONTENT_SECURITY_POLICY);
  });

  it('never set a cookie, not even on sign-in', async () => {
    const res = await call(server, 'POST', '/signin', {
      body: { email: server.company.adminEmail, password: server.company.adminPassword, companyHostname: 'acme' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expectCommonHeaders(res);
  });
});

describe('the console', () => {
  it('answers its page with the console policy, on / and on any deep link', async () => {
    const app = await consoleApp$();
    for (const url of ['/', '/dashboard', '/users/5/show', '/index.html']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      // emotion (MUI) writes <style> elements at run time, with the page's nonce; see docs/security.md.
      const nonce = /<meta name="csp-nonce" content="([A-Za-z0-9+/=]{24})">/.exec(res.body)?.[1];
      expect(nonce, 'the page carries its style nonce').toBeDefined();
      expect(directives(res.headers['content-security-policy'])).toEqual({
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", `'nonce-${nonce}'`],
        'style-src-attr': ["'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'report-uri': ['/api/v1/csp-reports'],
      });
      expectCommonHeaders(res);
      // A nonce is good for one answer: the page is never stored or revalidated.
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-cache');
      const again = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(/content="([^"]+)"/.exec(again.body)?.[1]).not.toBe(nonce);
    }
  });

  it('answers its files with the headers and the closed policy', async () => {
    const app = await consoleApp$();
    for (const [url, type] of [
      [`/${ASSET}`, /javascript/],
      [`/${STYLES}`, /^text\/css/],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(type);
      expect(directives(res.headers['content-security-policy'])).toEqual(API_POLICY);
      expectCommonHeaders(res);
    }
    const missing = await app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(directives(missing.headers['content-security-policy'])).toEqual(API_POLICY);
    expectCommonHeaders(missing);
  });

  it('sends no policy with a 304, so a file keeps the one it was stored with', async () => {
    const app = await consoleApp$();
    const first = await app.inject({ method: 'GET', url: `/${STYLES}` });
    expect(first.headers.etag).toBeDefined();
    const revalidated = await app.inject({ method: 'GET', url: `/${STYLES}`, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['content-security-policy']).toBeUndefined();
    expect(revalidated.headers['x-content-type-options']).toBe('nosniff');
  });

  it('has no inline script, style or event handler in its page template (the policy would block them)', () => {
    const html = fs.readFileSync(path.resolve(__dirname, '../../index.html'), 'utf8');
    for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) expect(tag, tag).toMatch(/\ssrc=/);
    expect(html).not.toMatch(/<script\b[^>]*>[^<\s]/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  it('lets CSP_EXTRA_ORIGINS add sources for scripts, images and connections, and nothing else', async () => {
    const config = readConfig({ CSP_EXTRA_ORIGINS: 'https://www.googletagmanager.com, https://*.google-analytics.com' });
    expect(config.cspExtraOrigins).toEqual(['https://www.googletagmanager.com', 'https://*.google-analytics.com']);
    const app = await appWith({ cspExtraOrigins: config.cspExtraOrigins });
    const res = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const policy = directives(res.headers['content-security-policy']);
    for (const directive of ['script-src', 'img-src', 'connect-src']) {
      expect(policy[directive]).toEqual(expect.arrayContaining(['https://www.googletagmanager.com', 'https://*.google-analytics.com']));
    }
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['style-src']).toEqual(["'self'", expect.stringMatching(/^'nonce-/)]);
    for (const bad of ['*', 'https://example.com/path', 'javascript:alert(1)', "'unsafe-eval'", 'https://a.com;script-src *']) {
      expect(() => readConfig({ CSP_EXTRA_ORIGINS: bad }), bad).toThrow(/CSP_EXTRA_ORIGINS must list origins/);
    }
  });

  it("writes GA_MEASUREMENT_ID into the page and lets the page reach Google's analytics, and refuses an id that is not one", async () => {
    const config = readConfig({ GA_MEASUREMENT_ID: 'G-ABC123XYZ9', CSP_EXTRA_ORIGINS: 'https://api.example.com' });
    expect(config.gaMeasurementId).toBe('G-ABC123XYZ9');
    const app = await appWith({ cspExtraOrigins: config.cspExtraOrigins, gaMeasurementId: config.gaMeasurementId });
    const res = await app.inject({ method: 'GET', url: '/users', headers: { accept: 'text/html' } });
    expect(res.body).toContain('<meta name="ga-measurement-id" content="G-ABC123XYZ9">');
    const policy = directives(res.headers['content-security-policy']);
    for (const directive of ['script-src', 'img-src', 'connect-src']) {
      expect(policy[directive]).toEqual(
        expect.arrayContaining(['https://api.example.com', 'https://*.googletagmanager.com', 'https://*.google-analytics.com']),
      );
    }
    // Without it, the page names no property and the policy no Google origin.
    const plain = await (await consoleApp$()).inject({ method: 'GET', url: '/users', headers: { accept: 'text/html' } });
    expect(plain.body).not.toContain('ga-measurement-id');
    expect(plain.headers['content-security-policy']).not.toContain('google');
    for (const bad of ['UA-12345-1', 'G-"><script>alert(1)</script>', 'G-abc', 'G-']) {
      expect(() => readConfig({ GA_MEASUREMENT_ID: bad }), bad).toThrow(/GA_MEASUREMENT_ID must be a Google Analytics 4 measurement id/);
    }
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent only for a request that came over HTTPS, as a trusted proxy reports it', async () => {
    // Without TRUST_PROXY a client's own X-Forwarded-Proto is not believed.
    const untrusted = await call(server, 'GET', '/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();

    const behindProxy = await appWith({ trustProxy: true });
    const https = await behindProxy.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
    const page = await behindProxy.inject({ method: 'GET', url: '/', headers: { accept: 'text/html', 'x-forwarded-proto': 'https' } });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    const http = await behindProxy.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('CORS', () => {
  const EVIL = 'https://evil.example';
  const preflight = (app: FastifyInstance, origin: string, url = '/api/v1/users/0/10') =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-access-token' },
    });

  it('is closed by default: no answer allows another origin, and a preflight is not granted', async () => {
    const app = await consoleApp$();
    const pre = await preflight(app, EVIL);
    expect(pre.statusCode).toBeGreaterThanOrEqual(400);
    for (const name of Object.keys(pre.headers)) expect(name).not.toMatch(/^access-control-/);
    const signInPreflight = await preflight(app, EVIL, '/api/v1/signin');
    for (const name of Object.keys(signInPreflight.headers)) expect(name).not.toMatch(/^access-control-/);

    const read = await call(server, 'GET', '/user/profile', { token: adminToken, headers: { origin: EVIL } });
    expect(read.statusCode).toBe(200);
    for (const name of Object.keys(read.headers)) expect(name).not.toMatch(/^access-control-/);
    const page = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html', origin: EVIL } });
    for (const name of Object.keys(page.headers)) expect(name).not.toMatch(/^access-control-/);
    expect(readConfig({}).corsOrigins).toEqual([]);
  });

  it('opens to the exact origins of CORS_ORIGINS, and only to them', async () => {
    const ALLOWED = 'https://admin.example.com';
    const config = readConfig({ CORS_ORIGINS: `${ALLOWED}/, http://localhost:5173` });
    expect(config.corsOrigins).toEqual([ALLOWED, 'http://localhost:5173']);
    const app = await appWith({ corsOrigins: config.corsOrigins });

    const pre = await preflight(app, ALLOWED);
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(pre.headers['access-control-allow-methods'])).toMatch(/\bDELETE\b/);
    expect(String(pre.headers['access-control-allow-headers']).split(/,\s*/)).toEqual(
      expect.arrayContaining(['x-access-token', 'x-api-key', 'content-type']),
    );
    // Credentials travel in headers, never in cookies: nothing asks the browser to send cookies.
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();

    const read = await app.inject({
      method: 'GET',
      url: '/api/v1/user/profile',
      headers: { origin: ALLOWED, 'x-access-token': adminToken },
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(read.headers['access-control-expose-headers'])).toMatch(/retry-after/);
    expect(String(read.headers.vary)).toMatch(/\bOrigin\b/);
    expect(read.headers['access-control-allow-credentials']).toBeUndefined();
    // A logo shown by a console on the allowed origin is an <img> from another origin.
    expect(read.headers['cross-origin-resource-policy']).toBe('cross-origin');

    for (const origin of [EVIL, 'https://admin.example.com.evil.example', 'http://admin.example.com', 'null']) {
      const refused = await preflight(app, origin);
      expect(refused.statusCode, origin).toBeGreaterThanOrEqual(400);
      for (const name of Object.keys(refused.headers)) expect(name).not.toMatch(/^access-control-/);
      const answer = await app.inject({ method: 'GET', url: '/api/v1/user/profile', headers: { origin, 'x-access-token': adminToken } });
      expect(answer.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(String(answer.headers.vary)).toMatch(/\bOrigin\b/);
    }
  });

  it('refuses CORS_ORIGINS entries that are not exact origins', () => {
    for (const bad of ['*', 'https://*.example.com', 'https://example.com/console', 'example.com', 'ftp://example.com']) {
      expect(() => readConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS must list origins/);
    }
  });
});

describe("the policy's reports", () => {
  const VIOLATION = 'Content-Security-Policy violation reported by a browser';
  let app: FastifyInstance;
  const logged: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    // An app whose log is read by the test.
    app = await buildApp(
      { ...server.app.ctx, config: { ...server.config, consoleDir } },
      { serveConsole: true, logger: { level: 'warn', stream: { write: (line: string) => void logged.push(JSON.parse(line)) } } },
    );
    await app.ready();
    extraApps.push(app);
  });

  const report = (fields: Record<string, unknown>, ip = '203.0.113.7') =>
    app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      remoteAddress: ip,
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': fields }),
    });
  const violations = () => logged.filter((line) => line.msg === VIOLATION);

  it("are taken from browsers without credentials and logged with the page's path, never its query", async () => {
    const res = await report({
      'document-uri': 'https://console.example.com/auth/reset-password?token=secret-reset-token',
      'effective-directive': 'script-src-elem',
      'blocked-uri': 'https://evil.example.net/x.js',
      'source-file': 'https://console.example.com/assets/index.js',
      'line-number': 12,
      'column-number': 4,
      disposition: 'enforce',
    });
    expect(res.statusCode).toBe(204);
    expect(violations().at(-1)?.cspViolation).toEqual({
      directive: 'script-src-elem',
      blocked: 'https://evil.example.net/x.js',
      page: '/auth/reset-password',
      source: 'https://console.example.com/assets/index.js:12:4',
      disposition: 'enforce',
    });
    expect(JSON.stringify(logged)).not.toContain('secret-reset-token');
  });

  it('log the same report once a minute, and at most 30 a minute from one address', async () => {
    const before = violations().length;
    for (let i = 0; i < 5; i++)
      expect(
        (await report({ 'effective-directive': 'img-src', 'blocked-uri': 'https://same.example/a.png' }, '198.51.100.1')).statusCode,
      ).toBe(204);
    expect(violations().length - before).toBe(1);
    for (let i = 0; i < 40; i++)
      expect(
        (await report({ 'effective-directive': 'img-src', 'blocked-uri': `https://many.example/${i}.png` }, '198.51.100.2')).statusCode,
      ).toBe(204);
    expect(violations().length - before).toBe(1 + 30);
  });

  it('refuse what is not a report, saying why', async () => {
    const notJson = await app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      headers: { 'content-type': 'application/csp-report' },
      payload: '{not json',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toMatch(/not JSON/);
    const noReport = await app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      headers: { 'content-type': 'application/csp-report' },
      payload: '{"something":1}',
    });
    expect(noReport.statusCode).toBe(400);
    expect(noReport.json().message).toMatch(/csp-report/);
    const huge = await app.inject({
      method: 'POST',
      url: '/api/v1/csp-reports',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': { 'blocked-uri': 'x'.repeat(20_000) } }),
    });
    expect(huge.statusCode).toBe(413);
  });
});
