import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { missingExtras } from '../../server/db/client';
import { call, inviteUser, signInAdmin } from './helpers';

/** The users search index is an extra: without pg_trgm the server still searches, and says what it lacks. */

let server: TestServer;
let adminToken: string;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  await inviteUser(server, adminToken, { email: 'grace.hopper@acme.test', firstName: 'Grace', lastName: 'Hopper' });
});
afterAll(async () => server?.close());

const search = async (text: string) => {
  const res = await call(server, 'POST', '/users/filter/10/0/DESC/createdAt', { token: adminToken, body: { search: text } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.rows.map((row: { email: string }) => row.email);
};

describe('the users search index', () => {
  it('is made by the migrations, and found missing once dropped, while searches keep their answers', async () => {
    expect(await missingExtras(server.db)).toEqual([]);
    const withIndex = [await search('hopper'), await search('Grace Hop'), await search('nobody-like-this')];
    expect(withIndex).toEqual([['grace.hopper@acme.test'], ['grace.hopper@acme.test'], []]);

    await server.db.execute(sql`drop index users_search_trgm_idx`);
    expect(await missingExtras(server.db)).toEqual(['users_search_trgm_idx']);
    expect([await search('hopper'), await search('Grace Hop'), await search('nobody-like-this')]).toEqual(withIndex);
  });
});
