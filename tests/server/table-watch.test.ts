import { describe, expect, it } from 'vitest';
import { tablesRead, TableWatch, WatchedCache } from '../../server/db/table-watch';

describe('the table watch', () => {
  const written = (statement: string, tables = ['users', 'roles']) => {
    const watch = new TableWatch();
    const mark = watch.mark(tables);
    watch.observe(statement);
    return !watch.unchanged(mark);
  };

  it('sees the table each write names, as Drizzle and people write them', () => {
    expect(written('insert into "users" ("id") values ($1)', ['users'])).toBe(true);
    expect(written('update "users" set "name" = $1 where "id" = $2', ['users'])).toBe(true);
    expect(written('delete from "users" where "id" = $1', ['users'])).toBe(true);
    expect(written('  INSERT INTO system_audits (company_id) select 1', ['system_audits'])).toBe(true);
    expect(written('update only "bench"."users" set x = 1', ['users'])).toBe(true);
  });

  it('leaves other tables alone', () => {
    expect(written('insert into "sessions" ("id") values ($1)', ['users', 'roles'])).toBe(false);
    expect(written('update "workspaces" set "name" = $1', ['users'])).toBe(false);
  });

  it('takes reads as reads, a CTE that only reads included', () => {
    for (const statement of [
      'select * from "users"',
      'with x as (select 1) select * from x',
      'begin',
      'rollback',
      'set search_path = a',
      'analyze "users"',
    ]) {
      expect(written(statement), statement).toBe(false);
    }
  });

  it('outdates everything on a commit, a writing CTE, DDL or anything it does not know', () => {
    for (const statement of [
      'commit',
      'with gone as (delete from "users" returning id) select count(*) from gone',
      'truncate "roles"',
      'alter table "users" add column x int',
      'copy users from stdin',
      'do $$ begin end $$',
    ]) {
      expect(written(statement, ['anything']), statement).toBe(true);
    }
  });

  it('finds the tables a query reads, in joins and subqueries too', () => {
    const text =
      'select count(*) from (select 1 from "users" left join "roles" on "roles"."id" = "users"."role_id" where exists (select 1 from "workspace_members" where x)) "capped"';
    expect(tablesRead(text).sort()).toEqual(['roles', 'users', 'workspace_members']);
    expect(tablesRead('select 1 from "bench"."system_audits"')).toEqual(['system_audits']);
  });
});

describe('answers kept under the watch', () => {
  const make = (now = { t: 0 }) => {
    const watch = new TableWatch();
    const cache = new WatchedCache<number>(watch, { ttlMs: 1000, maxEntries: 3, now: () => now.t });
    return { watch, cache, now };
  };

  it('keeps an answer until a table it read is written', async () => {
    const { watch, cache } = make();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.through('k', ['users'], load)).toBe(1);
    expect(await cache.through('k', ['users'], load)).toBe(1);
    watch.observe('insert into "roles" ("id") values ($1)');
    expect(await cache.through('k', ['users'], load)).toBe(1);
    watch.observe('update "users" set "x" = $1');
    expect(await cache.through('k', ['users'], load)).toBe(2);
    expect(loads).toBe(2);
  });

  it('does not keep an answer read while its table was being written', async () => {
    const { watch, cache } = make();
    const value = await cache.through('k', ['users'], async () => {
      watch.observe('delete from "users" where "id" = $1');
      return 7;
    });
    expect(value).toBe(7);
    expect(cache.get('k')).toBeUndefined();
  });

  it('loads an answer once for calls that want it at the same time, unless a table was written meanwhile', async () => {
    const { watch, cache } = make();
    let loads = 0;
    const releases: Array<() => void> = [];
    const load = () =>
      new Promise<number>((resolve) => {
        loads += 1;
        releases.push(() => resolve(loads));
      });
    const first = cache.through('k', ['users'], load);
    const second = cache.through('k', ['users'], load);
    expect(loads).toBe(1);
    watch.observe('insert into "users" ("id") values ($1)');
    const third = cache.through('k', ['users'], load);
    expect(loads).toBe(2);
    releases.forEach((release) => release());
    expect(await Promise.all([first, second, third])).toEqual([2, 2, 2]);
    // The first load began before the write: it is not kept; the one begun after it is.
    expect(cache.get('k')).toBe(2);
  });

  it('lets a failed load fail the calls that waited for it, and the next call load again', async () => {
    const { cache } = make();
    let loads = 0;
    const failing = () => {
      loads += 1;
      return Promise.reject(new Error('connection lost'));
    };
    const results = await Promise.allSettled([cache.through('k', ['users'], failing), cache.through('k', ['users'], failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    expect(await cache.through('k', ['users'], async () => 5)).toBe(5);
  });

  it('forgets answers past their time, and the oldest first when full', async () => {
    const { cache, now, watch } = make();
    cache.set('a', 1, watch.mark(['t']));
    now.t = 999;
    expect(cache.get('a')).toBe(1);
    now.t = 1000;
    expect(cache.get('a')).toBeUndefined();
    for (const key of ['b', 'c', 'd', 'e']) cache.set(key, 1, watch.mark(['t']));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('e')).toBe(1);
  });
});
