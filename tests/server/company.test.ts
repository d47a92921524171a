import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { companies, users } from '../../server/db/schema';
import { ONBOARDING_SUCCESS_MESSAGE } from '../../common/messages';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
});

const body = {
  companyName: 'Globex',
  companyHostname: 'Globex',
  adminEmail: 'Hank@Globex.test',
  adminPassword: 'Quite-secret-9',
  firstName: 'Hank',
  lastName: 'Scorpio',
};

describe('POST /api/v1/company', () => {
  it('onboards a company with its first admin', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/v1/company', payload: body });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(ONBOARDING_SUCCESS_MESSAGE);
    const [company] = await server.db.select().from(companies).where(eq(companies.hostname, 'globex'));
    expect(company.name).toBe('Globex');
    const [admin] = await server.db.select().from(users).where(eq(users.companyId, company.id));
    expect(admin.email).toBe('hank@globex.test');
    expect(admin.status).toBe('active');
    expect(admin.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a host name in use, and changes nothing', async () => {
    const before = await server.db.select().from(companies);
    const res = await server.app.inject({ method: 'POST', url: '/api/v1/company', payload: { ...body, companyHostname: 'acme' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/host name is already in use/);
    expect(await server.db.select().from(companies)).toHaveLength(before.length);
  });

  it('names the field that is wrong', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/company',
      payload: { ...body, companyHostname: 'bad host!', adminEmail: 'nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/companyHostname/);
    expect(res.json().message).toMatch(/adminEmail/);
  });

  it('refuses a weak password with the rule it breaks', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/company',
      payload: { ...body, companyHostname: 'weak', adminPassword: 'short' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/adminPassword: Password must be at least 10 characters/);
  });

  it('refuses a body that is not JSON, and one that is too large', async () => {
    const bad = await server.app.inject({
      method: 'POST',
      url: '/api/v1/company',
      headers: { 'content-type': 'application/json' },
      payload: '{"companyName":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not valid JSON/);
    const huge = await server.app.inject({
      method: 'POST',
      url: '/api/v1/company',
      payload: { ...body, companyName: 'x'.repeat(10 * 1024 * 1024) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toMatch(/too large/);
  });

  it('is rate-limited per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/company',
        remoteAddress: '203.0.113.9',
        payload: { ...body, companyHostname: `rate-${i}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(statuses[5]).toBe(429);
    const [blocked] = await server.db.select().from(companies).where(eq(companies.hostname, 'rate-5'));
    expect(blocked).toBeUndefined();
  });

  it('can be turned off', async () => {
    const closed = await createTestServer({ allowCompanySignup: false });
    try {
      const res = await closed.app.inject({ method: 'POST', url: '/api/v1/company', payload: { ...body, companyHostname: 'closed' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/sign-up is turned off/);
    } finally {
      await closed.close();
    }
  });
});

describe('unknown routes', () => {
  it('answer 404 with a message', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/No API route GET \/api\/v1\/nope/);
  });
});
