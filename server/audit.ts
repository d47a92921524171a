import type { ACCESS_EVENT_KINDS, ACCESS_EVENT_REASONS, ACCESS_EVENT_STATUSES } from '../common/contract/access-events';
import type { FastifyRequest } from 'fastify';
import type { Db } from './db/client';
import { accessEvents, NO_COMPANY, systemAudits } from './db/schema';

export interface AuditEntry {
  companyId: string;
  model: string;
  operation: string;
  recordId?: string | null;
  /** What changed; never secrets or password hashes. */
  changes?: Record<string, unknown> | null;
  /** Defaults to the caller of the request. */
  userId?: string | null;
  impersonatorUserId?: string | null;
  /** Defaults to the API key the request was made with, if any. */
  apiKeyId?: string | null;
}

/** Writes a system-audit entry for a mutation (call it inside the mutation's transaction). */
export async function recordAudit(db: Db, request: FastifyRequest | null, entry: AuditEntry): Promise<void> {
  await db.insert(systemAudits).values({
    companyId: entry.companyId,
    userId: entry.userId ?? request?.auth?.userId ?? null,
    impersonatorUserId: entry.impersonatorUserId ?? request?.auth?.impersonatorUserId ?? null,
    apiKeyId: entry.apiKeyId ?? request?.auth?.apiKeyId ?? null,
    model: entry.model,
    operation: entry.operation,
    recordId: entry.recordId ?? null,
    changes: entry.changes ?? null,
    ip: request?.ip ?? null,
  });
}

export interface AccessEvent {
  companyId: string | null;
  userId?: string | null;
  email?: string | null;
  event: (typeof ACCESS_EVENT_KINDS)[number];
  status: (typeof ACCESS_EVENT_STATUSES)[number];
  reason?: (typeof ACCESS_EVENT_REASONS)[number] | null;
  impersonatorUserId?: string | null;
}

/** Records a security access event: every sign-in attempt, OTP check, password change, logout and impersonation. */
export async function recordAccessEvent(db: Db, request: FastifyRequest | null, event: AccessEvent): Promise<void> {
  const userAgent = request?.headers['user-agent'];
  await db.insert(accessEvents).values({
    companyId: event.companyId ?? NO_COMPANY,
    userId: event.userId ?? null,
    email: event.email ?? null,
    event: event.event,
    status: event.status,
    reason: event.reason ?? null,
    ip: request?.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : null,
    impersonatorUserId: event.impersonatorUserId ?? null,
  });
}
