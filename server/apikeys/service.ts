import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import type { Db } from '../db/client';
import { apiKeys, users } from '../db/schema';
import { badRequest, forbidden } from '../http/errors';
import type { OperationCatalogue } from './catalogue';
import { companyKeys, findApiKey, type ApiKeyRow } from './records';

/** The user a key may act as: an active user of the company; anyone but oneself only for an admin. */
export async function checkAccessUser(db: Db, auth: AuthContext, accessUserId: string) {
  if (accessUserId !== auth.userId && !auth.isAdmin) {
    throw badRequest('accessUserId: you may only make keys that act as yourself');
  }
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, auth.companyId), eq(users.id, accessUserId), eq(users.status, 'active'), eq(users.isActive, true)));
  if (!user) throw badRequest('accessUserId: no active user of the company has this id');
}

/** Grants must name operations of the catalogue; the answer names those that are not. */
export function checkOperations(catalogue: OperationCatalogue, operations: readonly string[] | undefined) {
  if (!operations) return;
  const unknown = catalogue.unknown(operations);
  if (unknown.length > 0) throw badRequest(`operations: not operations a key may be granted: ${unknown.join(', ')}`);
}

/**
 * A key of the company that is not deleted (a deleted key cannot be changed, nor come back).
 * Someone who is not an admin may only change keys that act as themselves: granting operations
 * to, or reactivating, a key acting as someone else would borrow that person's rights.
 */
export async function liveKey(db: Db, auth: AuthContext, id: string): Promise<ApiKeyRow> {
  const row = await findApiKey(db, auth.companyId, id);
  if (row.isDeleted) throw badRequest('This API key is deleted; it cannot be changed');
  if (!auth.isAdmin && row.accessUserId !== auth.userId) throw forbidden(FOREIGN_KEY_MESSAGE);
  return row;
}

export const FOREIGN_KEY_MESSAGE = 'Resource Access not provided: only an admin may change a key that acts as someone else';

/** Fields of a key worth an audit entry (never the key or its hash). */
export const auditView = (row: Pick<ApiKeyRow, 'name' | 'prefix' | 'accessUserId' | 'expiresAt' | 'operations' | 'isActive'>) => ({
  name: row.name,
  prefix: row.prefix,
  accessUserId: row.accessUserId,
  expiresAt: row.expiresAt?.toISOString() ?? null,
  operations: row.operations,
  isActive: row.isActive,
});

export function auditKey(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  operation: string,
  changes: Record<string, unknown>,
) {
  return recordAudit(db, request, { companyId: auth.companyId, model: 'apikey', operation, recordId: id, changes });
}

/** Changes a key and keeps its audit entry, in one transaction. */
export function changeKey(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  set: Partial<typeof apiKeys.$inferInsert>,
  operation: string,
  changes: Record<string, unknown>,
) {
  return db.transaction(async (tx) => {
    await tx
      .update(apiKeys)
      .set({ ...set, updatedAt: new Date() })
      .where(companyKeys(auth.companyId, eq(apiKeys.id, id)));
    await auditKey(tx, request, auth, id, operation, changes);
  });
}

/** Replaces the operations granted to a key. */
export async function assignOperations(
  db: Db,
  catalogue: OperationCatalogue,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  operations: string[],
): Promise<ApiKeyRow> {
  const current = await liveKey(db, auth, id);
  checkOperations(catalogue, operations);
  const sorted = [...operations].sort();
  if (sorted.join(',') !== [...current.operations].sort().join(',')) {
    await changeKey(db, request, auth, id, { operations: sorted }, 'assign_operations', {
      before: { operations: current.operations },
      after: { operations: sorted },
    });
  }
  return findApiKey(db, auth.companyId, id);
}
