import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness';
import { call, freshIp, readLastMail } from './helpers';

/** Links in mails must never point where a forged Host header says. */
let server: TestServer;
beforeAll(async () => {
  server = await createTestServer({ port: 8080 });
});
afterAll(async () => {
  await server?.close();
});

async function resetLinkFor(host: string): Promise<string> {
  const res = await call(server, 'POST', '/user/password/forgot', {
    body: { email: server.company.adminEmail, companyHostname: server.company.hostname },
    headers: { host },
    ip: freshIp(),
  });
  expect(res.statusCode).toBe(200);
  const mail = await readLastMail(server.db, server.company.adminEmail);
  return mail.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/)![0];
}

describe('links in mails', () => {
  it('use the address the request came to when it names this machine', async () => {
    expect(await resetLinkFor('localhost:5173')).toMatch(/^http:\/\/localhost:5173\/auth\/reset-password\?token=/);
    expect(await resetLinkFor('127.0.0.1:8080')).toMatch(/^http:\/\/127\.0\.0\.1:8080\/auth\/reset-password/);
  });

  it('ignore a Host header naming another machine', async () => {
    expect(await resetLinkFor('evil.example')).toMatch(/^http:\/\/localhost:8080\/auth\/reset-password\?token=/);
  });

  it('use PUBLIC_URL when it is set', async () => {
    const configured = await createTestServer({ publicUrl: 'https://console.example.com' });
    try {
      await call(configured, 'POST', '/user/password/forgot', {
        body: { email: configured.company.adminEmail, companyHostname: configured.company.hostname },
        headers: { host: 'localhost:8080' },
      });
      const mail = await readLastMail(configured.db, configured.company.adminEmail);
      expect(mail.text).toContain('https://console.example.com/auth/reset-password?token=');
    } finally {
      await configured.close();
    }
  });
});
