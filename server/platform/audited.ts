import type { FastifyRequest } from 'fastify';
import { recordAudit, type AuditEntry } from '../audit';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../http/database-errors';
import { conflict } from '../http/errors';

/**
 * A write and its system-audit entry, in one transaction: neither is kept without the other.
 * The entry may depend on what the write gives back (the id of a created record, say).
 */
export function audited<Result>(
  db: Db,
  request: FastifyRequest,
  write: (tx: Db) => Promise<Result>,
  entry: AuditEntry | ((result: Result) => AuditEntry),
): Promise<Result> {
  return db.transaction(async (tx) => {
    const result = await write(tx);
    await recordAudit(tx, request, typeof entry === 'function' ? entry(result) : entry);
    return result;
  });
}

/** A record created with its `create` audit entry, whose `after` says what it holds: `insert` gives its id. */
export function auditedCreate(
  db: Db,
  request: FastifyRequest,
  entry: { companyId: string; model: string; after: Record<string, unknown> },
  insert: (tx: Db) => Promise<string>,
): Promise<string> {
  const { companyId, model, after } = entry;
  return audited(db, request, insert, (id) => ({ companyId, model, operation: 'create', recordId: id, changes: { after } }));
}

/** A write that breaks a unique key of its table is the 409 `taken` (`name: a workflow with this name already exists`). */
export async function unlessTaken<Result>(taken: string, write: () => Promise<Result>): Promise<Result> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(taken);
    throw err;
  }
}

/** What a change alters, for its audit entry: the fields whose value differs, as they were and as they are. */
export function fieldChanges<Fields extends object>(before: Fields, after: Fields) {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof Fields & string>) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      was[key] = before[key];
      now[key] = after[key];
    }
  }
  return { before: was, after: now };
}
