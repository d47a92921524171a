import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { apiKeys, users } from '../db/schema';
import { notFound } from '../http/errors';
import { userNameSql } from '../users/display-name';

const accessUsers = alias(users, 'key_access_users');
const creators = alias(users, 'key_creators');

/** What any answer shows of a key: never the key itself nor its hash. */
export const apiKeyColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  accessUserId: apiKeys.accessUserId,
  accessUserName: userNameSql(accessUsers),
  createdBy: apiKeys.createdBy,
  createdByName: userNameSql(creators),
  isActive: apiKeys.isActive,
  isDeleted: apiKeys.isDeleted,
  expiresAt: apiKeys.expiresAt,
  lastUsedAt: apiKeys.lastUsedAt,
  operations: apiKeys.operations,
  createdAt: apiKeys.createdAt,
  updatedAt: apiKeys.updatedAt,
};

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  accessUserId: string;
  accessUserName: string | null;
  createdBy: string | null;
  createdByName: string | null;
  isActive: boolean;
  isDeleted: boolean;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  operations: string[];
  createdAt: Date;
  updatedAt: Date;
}

export function selectApiKeys(db: Db) {
  return db
    .select(apiKeyColumns)
    .from(apiKeys)
    .leftJoin(accessUsers, and(eq(accessUsers.companyId, apiKeys.companyId), eq(accessUsers.id, apiKeys.accessUserId)))
    .leftJoin(creators, and(eq(creators.companyId, apiKeys.companyId), eq(creators.id, apiKeys.createdBy)));
}

export const companyKeys = (companyId: string, extra?: SQL) => and(eq(apiKeys.companyId, companyId), extra);

/** One key of the company, deleted ones too; null for another company's key. */
export async function readApiKey(db: Db, companyId: string, id: string): Promise<ApiKeyRow | null> {
  const [row] = await selectApiKeys(db).where(companyKeys(companyId, eq(apiKeys.id, id)));
  return row ?? null;
}

/** One key of the company (deleted ones too), or 404 "API key not found" — also for another company's key. */
export async function findApiKey(db: Db, companyId: string, id: string): Promise<ApiKeyRow> {
  const row = await readApiKey(db, companyId, id);
  if (!row) throw notFound('API key');
  return row;
}

/** Names of the API keys a page of rows mentions (deleted keys too: an audit entry outlives its key), in one query. */
export async function apiKeyNamesOf(
  db: Db,
  companyId: string,
  ids: ReadonlyArray<string | null | undefined>,
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name })
    .from(apiKeys)
    .where(companyKeys(companyId, inArray(apiKeys.id, wanted)));
  return new Map(rows.map((key) => [key.id, key.name]));
}
