/**
 * What the server has written, table by table, so that answers read from the database can be
 * kept in memory exactly as long as they are true.
 *
 * Every statement the database runs through Drizzle passes `observe` first (Drizzle's logger
 * hook; transactions included): `insert into "t"`, `update "t"`, `delete from "t"` move table t's
 * version on; a `commit`, and any statement not recognised (DDL, `truncate`, `copy`, a CTE that
 * writes) move the epoch on, which outdates everything. A transaction's rows only become visible
 * at its commit, so the commit outdates what was read while it was open.
 *
 * A kept answer carries the mark of the tables it read, taken before reading them; it is used
 * only while none of those tables has been written since and it is younger than its time limit.
 * Not seen: writes by another process on the same PostgreSQL database (several servers behind one
 * database, or psql). Those answers catch up within their caches' time limits (a few seconds).
 */

export interface Mark {
  tables: readonly string[];
  versions: number[];
  epoch: number;
}

/** Statements that never change a table's rows. */
const READ_ONLY = new Set([
  'select',
  'begin',
  'start',
  'set',
  'show',
  'savepoint',
  'release',
  'rollback',
  'explain',
  'analyze',
  'checkpoint',
  'vacuum',
  'values',
  'fetch',
  'prepare',
  'deallocate',
  'listen',
  'unlisten',
  'notify',
  'discard',
  'reset',
]);

const NAME = String.raw`(?:"[^"]+"|[\w$]+)`;
const WRITE_TARGET = new RegExp(
  String.raw`^\s*(?:insert\s+into|update(?:\s+only)?|delete\s+from(?:\s+only)?)\s+(${NAME}(?:\s*\.\s*${NAME})?)`,
  'i',
);
const WRITING_CTE = /\b(?:insert\s+into|update\s+(?:only\s+)?["\w$]|delete\s+from)\b/i;
const READ_TABLES = new RegExp(String.raw`\b(?:from|join)\s+(${NAME}(?:\s*\.\s*${NAME})?)`, 'gi');

/** `"benchdev"."users"` → `users`: tables are told apart by name; a schema prefix adds nothing. */
function tableName(reference: string): string {
  const last = reference.split('.').pop() ?? reference;
  return last.trim().replace(/^"|"$/g, '').toLowerCase();
}

/** The tables a statement reads: its FROM and JOIN targets, subqueries' included. */
export function tablesRead(statement: string): string[] {
  const tables = new Set<string>();
  for (const match of statement.matchAll(READ_TABLES)) tables.add(tableName(match[1]));
  return [...tables];
}

export class TableWatch {
  private readonly versions = new Map<string, number>();
  private epoch = 0;

  /** Told of every statement before it runs. */
  observe(statement: string): void {
    const head = /^\s*([a-z]+)/i.exec(statement)?.[1]?.toLowerCase() ?? '';
    // A select cannot write (the server calls no functions with side effects on the tables it keeps answers of).
    if (READ_ONLY.has(head)) return;
    if (head === 'with' && !WRITING_CTE.test(statement)) return;
    if (head === 'insert' || head === 'update' || head === 'delete') {
      const target = WRITE_TARGET.exec(statement);
      if (target) {
        const table = tableName(target[1]);
        this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
        return;
      }
    }
    this.epoch += 1;
  }

  /** The state of these tables now, to be taken before reading them. */
  mark(tables: readonly string[]): Mark {
    return { tables, versions: tables.map((t) => this.versions.get(t) ?? 0), epoch: this.epoch };
  }

  /** Whether none of the marked tables has been written since the mark was taken. */
  unchanged(mark: Mark): boolean {
    return mark.epoch === this.epoch && mark.tables.every((table, i) => (this.versions.get(table) ?? 0) === mark.versions[i]);
  }
}

interface Entry<V> {
  value: V;
  mark: Mark;
  expiresAt: number;
}

export interface WatchedCacheOptions {
  /** The longest an answer is kept, for writes this process cannot see. */
  ttlMs: number;
  /** The most answers kept; the oldest goes first. */
  maxEntries: number;
  now?: () => number;
}

/** Answers kept until a table they read is written (or their time is up). */
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

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now() || !this.watch.unchanged(entry.mark)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps an answer read after `mark` was taken; nothing is kept if a table it read was written meanwhile. */
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
   * The kept answer, or a fresh one from `load` (kept for next time). Calls that want the same
   * answer while it is being loaded wait for that load rather than running their own, as long as
   * none of its tables has been written since it began: ten clients opening the same new filter
   * at once count it once.
   */
  async through(key: string, tables: readonly string[], load: () => Promise<V>): Promise<V> {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const pending = this.loading.get(key);
    if (pending && this.watch.unchanged(pending.mark)) return pending.value;
    const mark = this.watch.mark(tables);
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

/** Ties a watch to the Drizzle database whose statements it sees. */
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

  /** The kept answer, or a fresh one from `load` (kept for next time). A handle with no watch (a transaction's) always loads. */
  read(db: object, key: string, tables: readonly string[], load: () => Promise<V>): Promise<V> {
    const watch = tableWatchOf(db);
    if (!watch) return load();
    let cache = this.caches.get(watch);
    if (!cache) this.caches.set(watch, (cache = new WatchedCache<V>(watch, this.options)));
    return cache.through(key, tables, load);
  }
}
