import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMysqlConnector } from '../../../server/connectors/mysql';
import { openPostgresConnector } from '../../../server/connectors/postgresql';
import type { TableSource } from '../../../server/connectors/types';
import { configFromUrl, MYSQL_URL, onMysql, onPostgres, POSTGRES_URL, randomName, skipMysql, skipPostgres } from './db-helpers';
import { testReach } from './test-context';

/**
 * A pooled connection serves one statement after another, each maybe a different company's rule:
 * nothing one statement leaves on the session (a setting, a lock, a variable) may reach the next.
 * These statements are the server's own, trusted ones (set_config and user variables are refused
 * in SQL a company writes); each pair runs on one connection, which the tests check by its id.
 */

const quick = { timeoutMs: 10_000 };
const quickReadOnly = { timeoutMs: 10_000, readOnly: true };

describe.skipIf(skipPostgres)('a pooled PostgreSQL session', () => {
  let source: TableSource;
  beforeAll(() => {
    source = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL), { reach: testReach() });
  });
  afterAll(async () => source?.close());

  it.each([
    ['a statement', quick],
    ['a read-only statement', quickReadOnly],
  ])('comes back from %s without the settings and advisory locks it left', async (_label, options) => {
    const [left] = await source.query(
      "select pg_backend_pid() as pid, set_config('application_name', 'left behind', false) as name, pg_advisory_lock(424242)::text as locked",
      [],
      options,
    );
    const [next] = await source.query(
      "select pg_backend_pid() as pid, current_setting('application_name') as name, (select count(*)::int from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()) as locks",
      [],
      options,
    );
    expect(next!.pid, 'the same pooled client').toBe(left!.pid);
    expect(next).toMatchObject({ name: 'DataOps Console', locks: 0 });
    // Another session can take the lock: it was freed, not merely hidden.
    expect(
      await onPostgres(
        async (client) => (await client.query('select pg_try_advisory_lock(424242) as taken, pg_advisory_unlock(424242) as freed')).rows[0],
      ),
    ).toEqual({
      taken: true,
      freed: true,
    });
  });

  it('keeps serving statements, several at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => source.query<{ n: number }>('select $1::int as n', [index], quickReadOnly)),
    );
    expect(answers.map(([row]) => row!.n)).toEqual(Array.from({ length: 12 }, (_, index) => index));
  });

  describe('under a role whose strings read backslashes as escapes', () => {
    const role = randomName('scs_off');
    let escaping: TableSource;
    beforeAll(async () => {
      await onPostgres(async (client) => {
        await client.query(`create role ${role} login`);
        await client.query(`alter role ${role} set standard_conforming_strings = off`);
      });
      escaping = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL, { user: role, password: '' }), { reach: testReach() });
    });
    afterAll(async () => {
      await escaping?.close();
      await onPostgres((client) => client.query(`drop role if exists ${role}`));
    });

    it('reads a read-only statement’s strings as the company SQL check read them: a backslash is a backslash', async () => {
      const text = "select current_setting('standard_conforming_strings') as setting, length('a\\b') as chars";
      expect(await escaping.query(text, [], quick)).toEqual([{ setting: 'off', chars: 2 }]);
      expect(await escaping.query(text, [], quickReadOnly)).toEqual([{ setting: 'on', chars: 3 }]);
    });
  });
});

describe.skipIf(skipMysql)('a pooled MariaDB session', () => {
  const database = randomName('pooled');
  let source: TableSource;
  beforeAll(async () => {
    await onMysql((connection) => connection.query(`create database ${database}`));
    source = openMysqlConnector(configFromUrl('mysql', MYSQL_URL, { database }), { reach: testReach() });
  });
  afterAll(async () => {
    await source?.close();
    await onMysql((connection) => connection.query(`drop database if exists ${database}`));
  });

  it.each([
    ['a statement', quick],
    ['a read-only statement', quickReadOnly],
  ])('comes back from %s without the variables, named locks and settings it left', async (_label, options) => {
    const lock = randomName('pooled_lock');
    const [left] = await source.query(`select connection_id() as id, @kept := 42 as kept, get_lock('${lock}', 0) as locked`, [], options);
    expect(left).toMatchObject({ kept: 42, locked: 1 });
    await source.query('set session wait_timeout = 77', [], quick);
    const [next] = await source.query(
      `select connection_id() as id, @kept as kept, is_used_lock('${lock}') as holder, @@session.wait_timeout as wait`,
      [],
      options,
    );
    expect(next!.id, 'the same pooled connection').toBe(left!.id);
    expect(next).toMatchObject({ kept: null, holder: null });
    expect(Number(next!.wait)).not.toBe(77);
  });

  it('keeps serving statements, several at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => source.query<{ n: number }>('select ? as n', [index], quickReadOnly)),
    );
    expect(answers.map(([row]) => Number(row!.n))).toEqual(Array.from({ length: 12 }, (_, index) => index));
  });
});
