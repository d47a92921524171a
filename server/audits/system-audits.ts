import { and, eq, gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ListSort } from '../../common/contract/routes';
import type { Db } from '../db/client';
import { systemAudits } from '../db/schema';
import { choicesOf, idChoiceFilter, orEmpty, searchText, textChoiceFilter, type Card, type Choice, type ListAnswer } from '../http/lists';
import { cappedCount, countCard, daysAgo, startOfTodayUtc } from './counts';
import { distinctByLooseScan } from './distinct';
import { listLog, logFilterBody, type Log } from './log-list';
import { namesOf, usersOf } from './people';
import { apiKeyNamesOf } from '../apikeys/records';
import type { SearchedList } from '../http/search';

export const auditFilterBody = logFilterBody({
  model: textChoiceFilter,
  operation: textChoiceFilter,
  user: idChoiceFilter,
});
export type AuditFilter = Partial<z.output<typeof auditFilterBody>>;

export interface AuditRow {
  id: string;
  model: string;
  operation: string;
  recordId: string | null;
  userId: string | null;
  userEmail: string | null;
  userName: string | null;
  impersonatorUserId: string | null;
  impersonatorEmail: string | null;
  /** The API key the change was made with, acting as the user; null for a signed-in session. */
  apiKeyId: string | null;
  apiKeyName: string | null;
  changes: Record<string, unknown> | null;
  ip: string | null;
  createdAt: Date;
}
type StoredAudit = Omit<AuditRow, 'userEmail' | 'userName' | 'impersonatorEmail' | 'apiKeyName'>;

/**
 * What an audit search matches: the record, model, operation and the changes' text, read through
 * system_audits_search_trgm_idx (migration 0007); the entries of the users whose email or name
 * holds the text are found beside them (log-list.ts).
 */
export const auditSearchText = searchText(
  orEmpty(systemAudits.recordId),
  systemAudits.model,
  systemAudits.operation,
  orEmpty(sql`${systemAudits.changes}::text`),
);

export const auditsSearch: SearchedList = {
  name: 'system_audits',
  table: systemAudits,
  idColumn: systemAudits.id,
  text: auditSearchText,
  companyColumn: systemAudits.companyId,
  newestColumn: systemAudits.createdAt,
};

/** How the system-audit lists read the table: who made each change, as whom, and with which API key. */
const auditLog: Log<StoredAudit, AuditRow> = {
  search: auditsSearch,
  columns: {
    id: systemAudits.id,
    model: systemAudits.model,
    operation: systemAudits.operation,
    recordId: systemAudits.recordId,
    userId: systemAudits.userId,
    impersonatorUserId: systemAudits.impersonatorUserId,
    apiKeyId: systemAudits.apiKeyId,
    changes: systemAudits.changes,
    ip: systemAudits.ip,
    createdAt: systemAudits.createdAt,
  },
  async named(db, companyId, rows) {
    const [names, keyNames] = await Promise.all([
      namesOf(
        db,
        companyId,
        rows.flatMap((r) => [r.userId, r.impersonatorUserId]),
      ),
      apiKeyNamesOf(
        db,
        companyId,
        rows.map((r) => r.apiKeyId),
      ),
    ]);
    return rows.map((r) => {
      const user = r.userId ? names.get(r.userId) : undefined;
      return {
        id: r.id,
        model: r.model,
        operation: r.operation,
        recordId: r.recordId,
        userId: r.userId,
        userEmail: user?.email ?? null,
        userName: user?.name ?? null,
        impersonatorUserId: r.impersonatorUserId,
        impersonatorEmail: r.impersonatorUserId ? (names.get(r.impersonatorUserId)?.email ?? null) : null,
        apiKeyId: r.apiKeyId,
        apiKeyName: r.apiKeyId ? (keyNames.get(r.apiKeyId) ?? null) : null,
        changes: r.changes,
        ip: r.ip,
        createdAt: r.createdAt,
      };
    });
  },
  sortColumns: { createdAt: systemAudits.createdAt, model: systemAudits.model, operation: systemAudits.operation },
  userColumn: systemAudits.userId,
};

/** The company's entries, newest first; (company_id, model, created_at) and (company_id, user_id, created_at) serve their filters. */
export function listAudits(
  db: Db,
  companyId: string,
  filter: AuditFilter,
  offset: number,
  limit: number,
  sort?: ListSort,
): Promise<ListAnswer<AuditRow>> {
  return listLog(
    db,
    auditLog,
    companyId,
    [
      { column: systemAudits.model, values: filter.model ?? [], indexed: true },
      { column: systemAudits.operation, values: filter.operation ?? [] },
      { column: systemAudits.userId, values: filter.user ?? [], indexed: true },
    ],
    filter,
    offset,
    limit,
    sort,
  );
}

export type AuditProps = {
  model: Choice[];
  operation: Choice[];
  user: Choice[];
};

/** The audit log's users, read from its (company_id, user_id, created_at, id) index. */
const auditUsers = {
  table: systemAudits,
  companyColumn: systemAudits.companyId,
  userColumn: systemAudits.userId,
  createdColumn: systemAudits.createdAt,
};

export async function auditProps(db: Db, companyId: string): Promise<AuditProps> {
  const [models, operations, user] = await Promise.all([
    distinctByLooseScan(db, 'system_audits', 'model', companyId),
    distinctByLooseScan(db, 'system_audits', 'operation', companyId),
    usersOf(db, companyId, auditUsers),
  ]);
  return { model: choicesOf(models), operation: choicesOf(operations), user };
}

export async function auditCards(db: Db, companyId: string, now = new Date()): Promise<Card[]> {
  const tenant = eq(systemAudits.companyId, companyId);
  const weekAgo = daysAgo(7, now);
  const [total, today, week, people] = await Promise.all([
    cappedCount(db, systemAudits, tenant),
    cappedCount(db, systemAudits, and(tenant, gte(systemAudits.createdAt, startOfTodayUtc(now)))),
    cappedCount(db, systemAudits, and(tenant, gte(systemAudits.createdAt, weekAgo))),
    usersOf(db, companyId, auditUsers, weekAgo),
  ]);
  return [
    countCard('total', 'Audit entries', total),
    countCard('today', 'Entries today', today),
    countCard('last7Days', 'Entries in the last 7 days', week),
    { key: 'users7Days', label: 'Users who made changes in the last 7 days', value: people.length },
  ];
}
