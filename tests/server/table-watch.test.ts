import { describe, expect, it, vi } from 'vitest';
import {
  attachTableWatch,
  dependencyKeys,
  KeptAnswers,
  tablesRead,
  TableWatch,
  WatchedCache,
  type WriteFeed,
} from '../../server/db/table-watch';
import { Barriers } from '../../server/db/change-feed';
import { announcementPayloads, EVERYTHING, parseAnnouncements, tableWritten, transactionStep } from '../../server/db/write-announcements';
import { asSystem, withTenant } from '../../server/db/tenant-scope';

const A = 'company-a';
const B = 'company-b';

/** A feed whose barriers the test lets come back when it wants, as announcements in flight would. */
function heldFeed() {
  const waiting: Array<(caughtUp: boolean) => void> = [];
  const feed: WriteFeed = { caughtUp: () => new Promise<boolean>((resolve) => waiting.push(resolve)) };
  return {
    feed,
    get waiting() {
      return waiting.length;
    },
    release(caughtUp = true) {
      waiting.splice(0).forEach((resolve) => resolve(caughtUp));
    },
  };
}

const atOnce: WriteFeed = { caughtUp: () => true };

function liveWatch(feed: WriteFeed = atOnce): TableWatch {
  const watch = new TableWatch();
  watch.resume(feed);
  return watch;
}

describe('announcements', () => {
  it('name tables and their companies, or whole tables, packed as few as fit', () => {
    const payloads = announcementPayloads([
      { table: 'users', companies: ['a'] },
      { table: 'users', companies: ['b', 'a'] },
      { table: 'roles' },
      { table: 'roles', companies: ['a'] },
    ]);
    expect(payloads).toEqual(['roles;users:a,b']);
    expect(parseAnnouncements(payloads[0]!)).toEqual([{ table: 'roles' }, { table: 'users', companies: ['a', 'b'] }]);
  });

  it('stand for everything when a write could not be read, or a payload is not theirs', () => {
    expect(announcementPayloads([{ table: 'users', companies: ['a'] }, EVERYTHING])).toEqual([EVERYTHING]);
    expect(parseAnnouncements('*')).toEqual([EVERYTHING]);
    expect(parseAnnouncements('Robert"); drop table users')).toEqual([EVERYTHING]);
  });

  it('fit the 8000 bytes of a notification: a table of too many companies is announced whole', () => {
    const many = Array.from({ length: 400 }, (_, i) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`);
    const payloads = announcementPayloads([
      { table: 'users', companies: many },
      ...Array.from({ length: 300 }, (_, i) => ({ table: `table_${i}`, companies: [many[i]!] })),
    ]);
    for (const payload of payloads) expect(payload.length).toBeLessThanOrEqual(7900);
    const told = payloads.flatMap(parseAnnouncements);
    expect(told).toContainEqual({ table: 'users' });
    expect(told).toContainEqual({ table: 'table_299', companies: [many[299]] });
  });
});

describe('statements', () => {
  it('name the table each write names, as Drizzle and people write them', () => {
    expect(tableWritten('insert into "users" ("id") values ($1)')).toBe('users');
    expect(tableWritten('update "users" set "name" = $1 where "id" = $2')).toBe('users');
    expect(tableWritten('delete from "users" where "id" = $1')).toBe('users');
    expect(tableWritten('  INSERT INTO system_audits (company_id) select 1')).toBe('system_audits');
    expect(tableWritten('update only "bench"."users" set x = 1')).toBe('users');
  });

  it('take reads and transaction steps as writing nothing, a CTE that only reads included', () => {
    for (const statement of [
      'select * from "users"',
      'with x as (select 1) select * from x',
      'begin',
      'commit',
      'rollback',
      'set search_path = a',
      'analyze "users"',
    ]) {
      expect(tableWritten(statement), statement).toBe(null);
    }
  });

  it('take a writing CTE, DDL or anything unknown as writing everything', () => {
    for (const statement of [
      'with gone as (delete from "users" returning id) select count(*) from gone',
      'truncate "roles"',
      'alter table "users" add column x int',
      'copy users from stdin',
      'do $$ begin end $$',
    ]) {
      expect(tableWritten(statement), statement).toBe(EVERYTHING);
    }
  });

  it("tell a transaction's start and end, and that a rollback to a savepoint ends nothing", () => {
    expect(transactionStep('begin')).toBe('begin');
    expect(transactionStep('start transaction isolation level serializable')).toBe('begin');
    expect(transactionStep('COMMIT')).toBe('commit');
    expect(transactionStep('rollback')).toBe('rollback');
    expect(transactionStep('rollback to savepoint a')).toBe(null);
    expect(transactionStep('select 1')).toBe(null);
  });

  it("are applied in the scope they run in: a company's own rows of a company table, else the whole table", () => {
    const companyTables = new Set(['users']);
    const watch = liveWatch();
    const markA = watch.markKeys(dependencyKeys(['users'], A));
    const markB = watch.markKeys(dependencyKeys(['users'], B));
    expect(withTenant(A, () => watch.observe('update "users" set x = 1', companyTables))).toEqual({ table: 'users', companies: [A] });
    expect(watch.unchanged(markA)).toBe(false);
    expect(watch.unchanged(markB)).toBe(true);
    // Outside row-level security a company's statement could reach any row.
    const markOther = watch.markKeys(dependencyKeys(['pages'], B));
    expect(withTenant(A, () => watch.observe('update "pages" set x = 1', companyTables))).toEqual({ table: 'pages' });
    expect(watch.unchanged(markOther)).toBe(false);
    expect(asSystem('a test', () => watch.observe('delete from "users"', companyTables))).toEqual({ table: 'users' });
    expect(watch.unchanged(markB)).toBe(false);
    // Nothing kept reads the shared call counts.
    expect(watch.observe('insert into "rate_limits" values (1)', companyTables)).toBe(null);
  });
});

describe('the table watch', () => {
  const outdated = (tables: string[], company: string | undefined, write: (watch: TableWatch) => void) => {
    const watch = liveWatch();
    const mark = watch.markKeys(dependencyKeys(tables, company));
    write(watch);
    return !watch.unchanged(mark);
  };

  it("outdates a company's answers by writes to its rows of the tables they read", () => {
    expect(outdated(['users'], A, (w) => w.applyWrite('users', [B, A]))).toBe(true);
    expect(outdated(['users', 'roles'], A, (w) => w.applyWrite('roles', [A]))).toBe(true);
  });

  it("leaves them alone for another company's rows, rows of no company and other tables", () => {
    expect(outdated(['users'], A, (w) => w.applyWrite('users', [B]))).toBe(false);
    expect(outdated(['users'], A, (w) => w.applyWrite('users', []))).toBe(false);
    expect(outdated(['users'], A, (w) => w.applyWrite('sessions', [A]))).toBe(false);
  });

  it('outdates every company by a write to a whole table', () => {
    expect(outdated(['users'], A, (w) => w.applyWrite('users'))).toBe(true);
    expect(outdated(['users'], B, (w) => w.applyWrite('users'))).toBe(true);
  });

  it('outdates answers read across companies by any write to their tables', () => {
    expect(outdated(['users'], undefined, (w) => w.applyWrite('users', [B]))).toBe(true);
    expect(outdated(['users'], undefined, (w) => w.applyWrite('users', []))).toBe(true);
    expect(outdated(['users'], undefined, (w) => w.applyWrite('roles', [B]))).toBe(false);
  });

  it('reads the company from the scope of the code that takes the mark', () => {
    const watch = liveWatch();
    const ofA = withTenant(A, () => watch.mark(['users']));
    const across = asSystem('a test', () => watch.mark(['users']));
    watch.applyWrite('users', [B]);
    expect(watch.unchanged(ofA)).toBe(true);
    expect(watch.unchanged(across)).toBe(false);
  });

  it('keeps nothing while not listening, and drops everything when listening again', () => {
    const watch = new TableWatch();
    const before = watch.markKeys(dependencyKeys(['users'], A));
    expect(watch.unchanged(before)).toBe(false);
    watch.resume(atOnce);
    const kept = watch.markKeys(dependencyKeys(['users'], A));
    expect(watch.unchanged(kept)).toBe(true);
    watch.lose();
    expect(watch.unchanged(kept)).toBe(false);
    expect(watch.caughtUp()).toBe(false);
    watch.resume(atOnce);
    expect(watch.unchanged(kept)).toBe(false);
  });

  it('forgets everything at once rather than grow without end', () => {
    const watch = liveWatch();
    const mark = watch.markKeys(dependencyKeys(['users'], A));
    for (let i = 0; i < 100_000; i++) watch.applyWrite('users', [`company-${i}`]);
    expect(watch.unchanged(mark)).toBe(false);
    const after = watch.markKeys(dependencyKeys(['users'], A));
    watch.applyWrite('users', ['company-1']);
    expect(watch.unchanged(after)).toBe(true);
  });

  it('finds the tables a query reads, in joins and subqueries too', () => {
    const text =
      'select count(*) from (select 1 from "users" left join "roles" on "roles"."id" = "users"."role_id" where exists (select 1 from "workspace_members" where x)) "capped"';
    expect(tablesRead(text).sort()).toEqual(['roles', 'users', 'workspace_members']);
    expect(tablesRead('select 1 from "bench"."system_audits"')).toEqual(['system_audits']);
  });
});

describe('answers kept under the watch', () => {
  const usersOfA = dependencyKeys(['users'], A);
  const make = (feed: WriteFeed = atOnce, now = { t: 0 }) => {
    const watch = liveWatch(feed);
    const cache = new WatchedCache<number>(watch, { ttlMs: 1000, maxEntries: 3, now: () => now.t });
    return { watch, cache, now };
  };

  it('keeps an answer until what it depends on is written', async () => {
    const { watch, cache } = make();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.through('k', usersOfA, load)).toBe(1);
    expect(await cache.through('k', usersOfA, load)).toBe(1);
    watch.applyWrite('roles', [A]);
    watch.applyWrite('users', [B]);
    expect(await cache.through('k', usersOfA, load)).toBe(1);
    watch.applyWrite('users', [A]);
    expect(await cache.through('k', usersOfA, load)).toBe(2);
    expect(loads).toBe(2);
  });

  it('uses a kept answer only once the feed has caught up with the writes committed before the call', async () => {
    const held = heldFeed();
    const { watch, cache } = make(held.feed);
    let loads = 0;
    const load = async () => ++loads;
    await cache.through('k', usersOfA, load);
    const reading = cache.through('k', usersOfA, load);
    await Promise.resolve();
    expect(held.waiting).toBe(1);
    // The announcement of a write committed before the call arrives while it waits.
    watch.applyWrite('users', [A]);
    held.release();
    expect(await reading).toBe(2);
  });

  it('loads without waiting when nothing is kept, and loads when the feed cannot catch up', async () => {
    const held = heldFeed();
    const { cache } = make(held.feed);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.through('k', usersOfA, load)).toBe(1);
    expect(held.waiting).toBe(0);
    const reading = cache.through('k', usersOfA, load);
    await Promise.resolve();
    held.release(false);
    expect(await reading).toBe(2);
  });

  it('keeps nothing while the watch is not listening: every read loads', async () => {
    const { watch, cache } = make();
    watch.lose();
    let loads = 0;
    const load = async () => ++loads;
    await cache.through('k', usersOfA, load);
    await cache.through('k', usersOfA, load);
    expect(loads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer read while what it depends on was being written', async () => {
    const { watch, cache } = make();
    const value = await cache.through('k', usersOfA, async () => {
      watch.applyWrite('users', [A]);
      return 7;
    });
    expect(value).toBe(7);
    expect(cache.peek('k')).toBeUndefined();
  });

  it('loads an answer once for calls that want it at the same time, unless it was written meanwhile', async () => {
    const { watch, cache } = make();
    let loads = 0;
    const releases: Array<() => void> = [];
    const load = () =>
      new Promise<number>((resolve) => {
        loads += 1;
        releases.push(() => resolve(loads));
      });
    const first = cache.through('k', usersOfA, load);
    const second = cache.through('k', usersOfA, load);
    await Promise.resolve();
    expect(loads).toBe(1);
    watch.applyWrite('users', [A]);
    const third = cache.through('k', usersOfA, load);
    await Promise.resolve();
    expect(loads).toBe(2);
    releases.forEach((release) => release());
    expect(await Promise.all([first, second, third])).toEqual([2, 2, 2]);
    // The first load began before the write: it is not kept; the one begun after it is.
    expect(cache.peek('k')).toBe(2);
  });

  it('lets a failed load fail the calls that waited for it, and the next call load again', async () => {
    const { cache } = make();
    let loads = 0;
    const failing = () => {
      loads += 1;
      return Promise.reject(new Error('connection lost'));
    };
    const results = await Promise.allSettled([cache.through('k', usersOfA, failing), cache.through('k', usersOfA, failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    expect(await cache.through('k', usersOfA, async () => 5)).toBe(5);
  });

  it('forgets answers past their time, and the oldest first when full', async () => {
    const { cache, now, watch } = make();
    cache.set('a', 1, watch.markKeys(usersOfA));
    now.t = 999;
    expect(cache.peek('a')).toBe(1);
    now.t = 1000;
    expect(cache.peek('a')).toBeUndefined();
    for (const key of ['b', 'c', 'd', 'e']) cache.set(key, 1, watch.markKeys(usersOfA));
    expect(cache.size).toBe(3);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('e')).toBe(1);
  });
});

describe('kept answers of one kind', () => {
  it('are kept per scope, and outdated by writes to the rows of that scope', async () => {
    const watch = liveWatch();
    const db = {};
    attachTableWatch(db, watch);
    const kept = new KeptAnswers<string>({ ttlMs: 60_000, maxEntries: 10 });
    let loads = 0;
    const read = () => kept.read(db, 'same key', ['users'], async () => `load ${++loads}`);
    expect(await withTenant(A, read)).toBe('load 1');
    expect(await withTenant(B, read)).toBe('load 2');
    expect(await asSystem('a test', read)).toBe('load 3');
    watch.applyWrite('users', [B]);
    expect(await withTenant(A, read)).toBe('load 1');
    expect(await withTenant(B, read)).toBe('load 4');
    expect(await asSystem('a test', read)).toBe('load 5');
  });
});

describe('barriers', () => {
  const make = () => {
    const sent: string[] = [];
    const timedOut = vi.fn();
    const barriers = new Barriers((token) => sent.push(token), 1_000, timedOut);
    return { sent, barriers, timedOut };
  };

  it('serve every read that began before one was sent with that one, and the others with the next', async () => {
    const { sent, barriers } = make();
    const settled: string[] = [];
    const read = (name: string) => barriers.wait().then((ok) => settled.push(`${name}:${ok}`));
    const a = read('a');
    // 'a' sent the first barrier; 'b' began after it went out, so it waits for the next.
    const later = [read('b'), read('c'), read('d')];
    expect(sent).toEqual(['1']);
    barriers.arrived('1');
    await a;
    expect(settled).toEqual(['a:true']);
    // One barrier goes out for everyone who gathered meanwhile.
    expect(sent).toEqual(['1', '2']);
    barriers.arrived('2');
    await Promise.all(later);
    expect(settled.sort()).toEqual(['a:true', 'b:true', 'c:true', 'd:true']);
    expect(sent).toEqual(['1', '2']);
  });

  it('ignore a token they are not waiting for', async () => {
    const { barriers } = make();
    let done = false;
    void barriers.wait().then(() => (done = true));
    barriers.arrived('7');
    await Promise.resolve();
    expect(done).toBe(false);
  });

  it('let everyone go without when the connection fails, and report one that never comes back', async () => {
    vi.useFakeTimers();
    try {
      const { barriers, timedOut } = make();
      const first = barriers.wait();
      const second = barriers.wait();
      vi.advanceTimersByTime(1_000);
      expect(timedOut).toHaveBeenCalledTimes(1);
      barriers.fail();
      expect(await Promise.all([first, second])).toEqual([false, false]);
    } finally {
      vi.useRealTimers();
    }
  });
});
