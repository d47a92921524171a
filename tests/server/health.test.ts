import { chmod } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin, userWithPolicies } from './helpers';

/** /health answers everyone; an admin also learns whether the data directory is the server's alone. */

let server: TestServer;
let adminToken: string;
let memberToken: string;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  memberToken = (await userWithPolicies(server, adminToken, 'reader@acme.test', [{ resource: 'users', actions: ['read'] }])).token;
});

afterAll(async () => {
  await server?.close();
});

describe('GET /health', () => {
  it('answers ok, and nothing more, to anyone but an admin', async () => {
    for (const token of [undefined, memberToken, 'not-a-token', `${adminToken}x`]) {
      const res = await call(server, 'GET', '/health', { token });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'ok' });
    }
  });

  it("tells a signed-in admin where the data directory is and whether it is the server's alone", async () => {
    const dataDir = server.config.dataDir;
    await chmod(dataDir, 0o700);
    const res = await call(server, 'GET', '/health', { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.vary).toMatch(/x-access-token/);
    expect(res.json()).toEqual({ message: 'ok', details: { dataDirectory: { path: dataDir, private: true } } });

    await chmod(dataDir, 0o755);
    try {
      expect((await call(server, 'GET', '/health', { token: adminToken })).json().details).toEqual({
        dataDirectory: {
          path: dataDir,
          private: false,
          problem: `the data directory ${dataDir} can be read by other accounts of this machine (mode 0755); run: chmod 700 ${dataDir}`,
        },
      });
    } finally {
      await chmod(dataDir, 0o700);
    }
  });
});
