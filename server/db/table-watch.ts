import { currentScope } from './tenant-scope';
import { EVERYTHING, tableName, tableWritten, UNANNOUNCED_TABLES, type Announcement } from './write-announcements';

/** What a statement writes, in the scope the calling code runs in; null when it writes nothing kept answers read. */
export function writeOf(statement: string, companyTables?: ReadonlySet<string>): Announcement | typeof EVERYTHING | null {
  const table = tableWritten(statement);
  if (table === null || (table !== EVERYTHING && UNANNOUNCED_TABLES.has(table))) return null;
  return table === EVERYTHING ? EVERYTHING : announcementOf(table, companyTables);
}

/** A write to `table` in the scope the calling code runs in: one company's rows, or the whole table. */
function announcementOf(table: string, companyTables: ReadonlySet<string> | undefined): Announcement {
  const scope = currentScope();
  if (scope.kind === 'company' && companyTables?.has(table)) return { table, companies: [scope.companyId] };
  return { table };
}

/**
 * What has been written, table by table and company by company, on the database every server
 * shares, so that answers read from it can be kept in memory exactly as long as they are true.
 *
 * Writes reach the watch two ways. This process's own are applied as its statements run: once
 * committed on PostgreSQL (scoped-connection.ts), before each is sent on the embedded database
 * (Drizzle's logger), whose one connection runs nothing between a write and its commit. Other processes' are applied as they announce them after
 * their commits (write-announcements.ts), which each server hears on one connection of its own
 * (change-feed.ts).
 *
 * A kept answer depends on the tables it read: in a company's scope (tenant-scope.ts) on those
 * tables' rows of that company and on writes to a whole table; across companies (or in no scope)
 * on any write to them. It carries the watch's clock as it was before it was read, and is used only
 * while none of what it depends on has been written since.
 *
 * An announcement reaches this process a little after the commit it tells of, but before the
 * writing server answered its caller. Before a kept answer is used, the read waits until the feed
 * has caught up with every announcement made before the read began (a barrier: the listening
 * connection sends itself a notification and waits for it, which comes back after every
 * announcement committed before it). One barrier serves every read that began before it was sent.
 * A read that finds nothing kept loads without waiting.
 *
 * While the feed is not listening (not yet connected, or its connection lost) nothing kept is used
 * and nothing loaded is kept; when it listens again everything kept before is dropped, since
 * announcements were missed.
 */

/** Where the watch was before an answer was read, and what the answer depends on. */
export interface Mark {
  /** The dependencies, as keys of the watch's last writes. */
  keys: readonly string[];
  /** The watch's clock then; -1 when nothing read now may be kept. */
  at: number;
}

/** What tells the watch that it has seen every write committed before the call. */
export interface WriteFeed {
  /**
   * True once every write committed before the call has been applied (at once, or after a
   * barrier); false when the feed cannot tell (not listening), in which case nothing kept may be used.
   */
  caughtUp(): boolean | Promise<boolean>;
}

/** More dependencies written than this, and the watch forgets them all at once (which outdates everything kept). */
const MAX_WRITTEN = 100_000;

const WHOLE = '\u0000';
const ANY = '\u0000*';

/**
 * The keys an answer read from `tables` depends on: a company's rows of each table and writes to a
 * whole table, or, without a company, any write to the table.
 */
export function dependencyKeys(tables: readonly string[], companyId: string | undefined): string[] {
  const keys: string[] = [];
  for (const table of tables) {
    if (companyId) keys.push(`${table}\u0000${companyId}`, table + WHOLE);
    else keys.push(table + ANY);
  }
  return keys;
}

export class TableWatch {
  /** Moves on with every write applied. */
  private clock = 1;
  /** Marks taken before it are void: what was kept then cannot be trusted. */
  private floor = 1;
  private listening = false;
  /** The clock at the last write of each dependency key. */
  private readonly written = new Map<string, number>();
  private feed: WriteFeed | undefined;

  /** Whether writes are being heard now, so that answers may be kept. */
  get live(): boolean {
    return this.listening;
  }

  /** Applies an announced write: the companies whose rows of `table` changed, or (none given) the whole table. */
  applyWrite(table: string, companies?: readonly string[]): void {
    const at = ++this.clock;
    if (companies) for (const company of companies) this.written.set(`${table}\u0000${company}`, at);
    else this.written.set(table + WHOLE, at);
    this.written.set(table + ANY, at);
    if (this.written.size > MAX_WRITTEN) this.forgetAll();
  }

  /**
   * A statement this process runs, before it is sent: what it writes, in the scope it runs in,
   * applied at once. `companyTables` says which tables hold company rows under row-level security,
   * so that a company's statement can only have written its own; any other table is taken whole.
   */
  observe(statement: string, companyTables?: ReadonlySet<string>): Announcement | typeof EVERYTHING | null {
    const write = writeOf(statement, companyTables);
    if (write) this.apply(write);
    return write;
  }

  /** Applies a write told by an announcement or seen in a statement. */
  apply(write: Announcement | typeof EVERYTHING): void {
    if (write === EVERYTHING) this.forgetAll();
    else this.applyWrite(write.table, write.companies);
  }

  /** The feed listens from now on; what was kept before may have missed writes. */
  resume(feed: WriteFeed): void {
    this.feed = feed;
    this.floor = ++this.clock;
    this.listening = true;
  }

  /** The feed no longer hears writes: nothing kept may be used, nor anything loaded kept, until it resumes. */
  lose(): void {
    this.listening = false;
    this.floor = ++this.clock;
  }

  /** Outdates everything kept. */
  forgetAll(): void {
    this.written.clear();
    this.floor = ++this.clock;
  }

  /** Waits until every write committed before now has been applied; false when that cannot be known. */
  caughtUp(): boolean | Promise<boolean> {
    if (!this.listening || !this.feed) return false;
    return this.feed.caughtUp();
  }

  /** The state of these tables now, to be taken before reading them, in the scope the reading code runs in. */
  mark(tables: readonly string[]): Mark {
    const scope = currentScope();
    return this.markKeys(dependencyKeys(tables, scope.kind === 'company' ? scope.companyId : undefined));
  }

  markKeys(keys: readonly string[]): Mark {
    return { keys, at: this.listening ? this.clock : -1 };
  }

  /** Whether nothing the mark depends on has been written since it was taken (as far as applied). */
  unchanged(mark: Mark): boolean {
    if (mark.at < this.floor) return false;
    for (const key of mark.keys) if ((this.written.get(key) ?? 0) > mark.at) return false;
    return true;
  }
}

interface Entry<V> {
  value: V;
  mark: Mark;
  expiresAt: number;
}

export interface WatchedCacheOptions {
  /** The longest an answer is kept, whatever the watch says. */
  ttlMs: number;
  /** The most answers kept; the oldest goes first. */
  maxEntries: number;
  now?: () => number;
}

/** Answers kept until something they depend on is written (or their time is up). */
export class WatchedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, { mark: Mark; value: Promise<V> }>();
  private readonly now: () => number;

  constructor(
    readonly watch: TableWatch,
    private readonly options: WatchedCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The answer kept for `key` if it still holds as far as the watch has applied writes (no barrier). */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now() || !this.watch.unchanged(entry.mark)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps an answer read after `mark` was taken; nothing is kept if something it depends on was written meanwhile. */
  set(key: string, value: V, mark: Mark): void {
    if (!this.watch.unchanged(mark)) return;
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      // A Map iterates in insertion order: the first key is the oldest answer.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, mark, expiresAt: this.now() + this.options.ttlMs });
  }

  /**
   * The kept answer, or a fresh one from `load` (kept for next time). A kept answer is used only
   * once the watch has caught up with every write committed before this call. Calls that want the
   * same answer while it is being loaded wait for that load rather than running their own, as long
   * as nothing it depends on has been written since it began: ten clients opening the same new
   * filter at once count it once.
   */
  async through(key: string, keys: readonly string[], load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) this.entries.delete(key);
    if (this.entries.has(key) || this.loading.has(key)) {
      const waited = this.watch.caughtUp();
      if (typeof waited === 'boolean' ? waited : await waited) {
        const kept = this.peek(key);
        if (kept !== undefined) return kept;
        const pending = this.loading.get(key);
        if (pending && this.watch.unchanged(pending.mark)) return pending.value;
      } else {
        this.entries.delete(key);
      }
    }
    const mark = this.watch.markKeys(keys);
    const loading = { mark, value: load() };
    this.loading.set(key, loading);
    try {
      const value = await loading.value;
      this.set(key, value, mark);
      return value;
    } finally {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

const watches = new WeakMap<object, TableWatch>();

/** Ties a watch to the Drizzle database whose reads it keeps. */
export function attachTableWatch(db: object, watch: TableWatch): void {
  watches.set(db, watch);
}

/** The watch of a database opened by openDatabase; none for a transaction's handle (nothing read through it is kept). */
export function tableWatchOf(db: object): TableWatch | undefined {
  return watches.get(db);
}

/** Answers of one kind (counts, session rows, grants...), kept per watched database. */
export class KeptAnswers<V> {
  private readonly caches = new WeakMap<TableWatch, WatchedCache<V>>();

  constructor(private readonly options: WatchedCacheOptions) {}

  /**
   * The kept answer, or a fresh one from `load` (kept for next time), read in the scope the calling
   * code runs in: the answer is kept for that scope and depends on that company's rows of `tables`
   * (or, across companies, on any of their rows). A handle with no watch (a transaction's) always loads.
   */
  read(db: object, key: string, tables: readonly string[], load: () => Promise<V>): Promise<V> {
    const watch = tableWatchOf(db);
    if (!watch) return load();
    let cache = this.caches.get(watch);
    if (!cache) this.caches.set(watch, (cache = new WatchedCache<V>(watch, this.options)));
    const scope = currentScope();
    const companyId = scope.kind === 'company' ? scope.companyId : undefined;
    // On PostgreSQL the scope decides which rows a statement sees (row-level security): it is part of the question.
    return cache.through(`${companyId ?? scope.kind}\u0000${key}`, dependencyKeys(tables, companyId), load);
  }
}

/** The tables a statement reads: its FROM and JOIN targets, subqueries' included. */
export function tablesRead(statement: string): string[] {
  const tables = new Set<string>();
  for (const match of statement.matchAll(READ_TABLES)) tables.add(tableName(match[1]));
  return [...tables];
}

const NAME = String.raw`(?:"[^"]+"|[\w$]+)`;
const READ_TABLES = new RegExp(String.raw`\b(?:from|join)\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'gi');
