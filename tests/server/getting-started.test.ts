import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, inviteUser, signInAdmin } from './helpers';
import { connections } from '../../server/db/schema';

let server: TestServer;
let adminToken: string;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token!;
});
afterAll(async () => {
  await server?.close();
});

const stepsOf = async (token: string) => {
  const res = await call(server, 'GET', '/company/getting-started', { token });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries((res.json().data.steps as { key: string; done: boolean }[]).map((s) => [s.key, s.done]));
};

describe('GET /company/getting-started', () => {
  it("ticks each step from the company's own data, and no other company's", async () => {
    expect(await stepsOf(adminToken)).toEqual({ connection: false, table: false, rules: false, workflow: false, colleague: false });

    await server.db.insert(connections).values({ companyId: server.company.companyId, name: 'Warehouse', type: 'postgres' });
    await inviteUser(server, adminToken, { email: 'colleague@acme.test' });
    expect(await stepsOf(adminToken)).toEqual({ connection: true, table: false, rules: false, workflow: false, colleague: true });

    const other = await createOtherCompany(server, 'initech');
    expect(await stepsOf(other.adminToken)).toEqual({ connection: false, table: false, rules: false, workflow: false, colleague: false });
    expect((await call(server, 'GET', '/company/getting-started')).statusCode).toBe(401);
  });
});
