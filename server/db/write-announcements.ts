/**
 * What a statement writes, and how a server tells the others on the same PostgreSQL.
 *
 * Each server announces the writes it commits (server/db/scoped-connection.ts): once the commit
 * is done, and before the statement that committed returns to the code that ran it, it sends on
 * the schema's channel the tables written and the company they were written for (or none: the
 * whole table). Every server listens on that channel (change-feed.ts) and drops what the writes
 * outdate (table-watch.ts). The announcement is its own short transaction on the listening
 * connection, committed without waiting for the disk: PostgreSQL holds its one notification lock
 * from a notifying transaction's commit until that commit is flushed, so notifying from inside
 * the writing transactions made them commit one after the other.
 *
 * Writes made without the server (psql, another program) are not announced: the servers catch up
 * with them within their kept answers' time limits, or at once after `NOTIFY
 * "dataops_writes_<schema>", '*'` (docs/operations.md).
 */

/** Tables whose writes are not announced, because no answer kept in memory is read from them. */
export const UNANNOUNCED_TABLES = new Set(['__drizzle_migrations', 'rate_limits']);

/** The channel a schema's writes are announced on; PostgreSQL's names stop at 63 bytes. */
export function writesChannel(schema: string): string {
  return `dataops_writes_${schema}`.slice(0, 63);
}

/** A write: the table, and the company whose rows changed (none: any row of the table may have). */
export interface Announcement {
  table: string;
  /** Absent: the whole table. */
  companies?: string[];
}

/** The payload that outdates everything kept (a write the server could not read, or an operator's request). */
export const EVERYTHING = '*';

/** A notification's payload is at most 8000 bytes: announcements are packed into as few as fit. */
const MAX_PAYLOAD = 7900;

/**
 * Payloads for a set of writes: `table` (the whole table), `table:company,company`, or `*`; several
 * joined by `;`.
 */
export function announcementPayloads(writes: Iterable<Announcement | typeof EVERYTHING>): string[] {
  const whole = new Set<string>();
  const byTable = new Map<string, Set<string>>();
  for (const write of writes) {
    if (write === EVERYTHING) return [EVERYTHING];
    if (!write.companies) whole.add(write.table);
    else {
      let companies = byTable.get(write.table);
      if (!companies) byTable.set(write.table, (companies = new Set()));
      for (const company of write.companies) companies.add(company);
    }
  }
  const parts = [...whole];
  for (const [table, companies] of byTable) if (!whole.has(table)) parts.push(`${table}:${[...companies].join(',')}`);
  const payloads: string[] = [];
  let current = '';
  for (const part of parts) {
    // A part too long on its own (thousands of companies in one commit) stands for its whole table.
    const piece = part.length > MAX_PAYLOAD ? part.slice(0, part.indexOf(':')) : part;
    if (current && current.length + 1 + piece.length > MAX_PAYLOAD) {
      payloads.push(current);
      current = '';
    }
    current = current ? `${current};${piece}` : piece;
  }
  if (current) payloads.push(current);
  return payloads;
}

/** The writes a payload announces; `*` and anything unreadable stand for everything. */
export function parseAnnouncements(payload: string): Array<Announcement | typeof EVERYTHING> {
  const out: Array<Announcement | typeof EVERYTHING> = [];
  for (const part of payload.split(';')) {
    const colon = part.indexOf(':');
    const table = colon < 0 ? part : part.slice(0, colon);
    if (!/^[a-z_][a-z0-9_$]*$/.test(table)) return [EVERYTHING];
    if (colon < 0) out.push({ table });
    else
      out.push({
        table,
        companies: part
          .slice(colon + 1)
          .split(',')
          .filter(Boolean),
      });
  }
  return out;
}

/** Statements that never change a table's rows. */
const READ_ONLY = new Set([
  'select',
  'begin',
  'start',
  'commit',
  'end',
  'set',
  'show',
  'savepoint',
  'release',
  'rollback',
  'abort',
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

/** `"benchdev"."users"` → `users`: tables are told apart by name; a schema prefix adds nothing. */
export function tableName(reference: string): string {
  const last = reference.split('.').pop() ?? reference;
  return last.trim().replace(/^"|"$/g, '').toLowerCase();
}

/**
 * The table a statement writes: null for a statement that writes nothing, `*` for one that may
 * write what cannot be told from its text (DDL, truncate, copy, a CTE that writes).
 */
export function tableWritten(statement: string): string | typeof EVERYTHING | null {
  const head = /^\s*([a-z]+)/i.exec(statement)?.[1]?.toLowerCase() ?? '';
  // A select cannot write (the server calls no functions with side effects on the tables it keeps answers of).
  if (READ_ONLY.has(head)) return null;
  if (head === 'with' && !WRITING_CTE.test(statement)) return null;
  if (head === 'insert' || head === 'update' || head === 'delete') {
    const target = WRITE_TARGET.exec(statement);
    if (target) return tableName(target[1]);
  }
  return EVERYTHING;
}

/** How a statement moves a connection's transaction. */
export function transactionStep(statement: string): 'begin' | 'commit' | 'rollback' | null {
  const match = /^\s*(begin|start\s+transaction|commit|end|rollback|abort)\b(\s+to\b)?/i.exec(statement);
  if (!match) return null;
  const word = match[1].toLowerCase();
  if (word === 'begin' || word.startsWith('start')) return 'begin';
  if (word === 'commit' || word === 'end') return 'commit';
  // `rollback to savepoint` keeps the transaction open, and what it undid counts as written all the same.
  return match[2] ? null : 'rollback';
}
