import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { createTestServer, type TestServer } from './harness';
import { missingExtras, selectRows } from '../../server/db/client';
import { accessEvents, systemAudits, users } from '../../server/db/schema';
import { searching } from '../../server/http/lists';
import { userSearchText } from '../../server/users/rows';
import { auditSearchText } from '../../server/audits/system-audits';
import { accessEventSearchText } from '../../server/audits/access-events';
import { call, inviteUser, signInAdmin } from './helpers';

/**
 * The searches of the big lists read trigram indexes made over exactly the expressions they
 * search; without pg_trgm the server still searches, and says what it lacks.
 */

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

/** The plan of a search when neither a sequential scan nor a plain index scan may serve it: only an index that answers `ilike` can. */
async function planOf(table: PgTable, text: SQL): Promise<string> {
  const query = server.db
    .select({ one: sql`1` })
    .from(table)
    .where(searching([text], 'hopper'));
  return server.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_indexscan = off`);
    const rows = await selectRows<{ 'QUERY PLAN': string }>(tx, sql`explain ${query}`);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe('the search indexes', () => {
  it.each([
    ['users', users, userSearchText, 'users_search_trgm_idx'],
    ['system audits', systemAudits, auditSearchText, 'system_audits_search_trgm_idx'],
    ['access events', accessEvents, accessEventSearchText, 'access_events_search_trgm_idx'],
  ] as const)('serve the %s search', async (_name, table, text, index) => {
    const plan = await planOf(table, text);
    expect(plan).toContain(index);
    expect(plan).not.toContain('Seq Scan');
  });

  it('are found missing once dropped, while searches keep their answers', async () => {
    expect(await missingExtras(server.db)).toEqual([]);
    const withIndex = [await search('hopper'), await search('Grace Hop'), await search('nobody-like-this')];
    expect(withIndex).toEqual([['grace.hopper@acme.test'], ['grace.hopper@acme.test'], []]);

    await server.db.execute(sql`drop index users_search_trgm_idx`);
    await server.db.execute(sql`drop index access_events_search_trgm_idx`);
    expect(await missingExtras(server.db)).toEqual(['users_search_trgm_idx', 'access_events_search_trgm_idx']);
    expect([await search('hopper'), await search('Grace Hop'), await search('nobody-like-this')]).toEqual(withIndex);
  });
});
