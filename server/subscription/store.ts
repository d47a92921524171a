import { and, count, eq, gte } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { isPlanId, LIMIT_KEYS, PLANS, type LimitKey, type Plan, type PlanId } from '../../common/plans';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { jobRuns, subscriptions, users, workflows } from '../db/schema';
import type { PlanSettings } from './config';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'incomplete';
export type Provider = 'self' | 'stripe';

/** Statuses in which the subscribed plan applies; otherwise (canceled, incomplete) the company is on the default plan. */
const IN_FORCE: readonly string[] = ['active', 'trialing', 'past_due'];

/** What a company is on now, and why. */
export interface SubscriptionState {
  /** The plan whose limits apply. */
  plan: Plan;
  /** No subscription row, or one no longer in force: the instance's default plan applies. */
  isDefault: boolean;
  /** The stored subscription, if any. */
  row: SubscriptionRow | null;
}

export async function subscriptionRow(db: Db, companyId: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.companyId, companyId));
  return row ?? null;
}

/** The stored plan applies: its subscription is active, on trial, or past due while Stripe retries. */
export function isInForce(row: SubscriptionRow): boolean {
  return IN_FORCE.includes(row.status) && isPlanId(row.plan);
}

export function stateOf(row: SubscriptionRow | null, settings: Pick<PlanSettings, 'defaultPlan'>): SubscriptionState {
  if (row && isInForce(row)) return { plan: PLANS[row.plan as PlanId], isDefault: false, row };
  return { plan: PLANS[settings.defaultPlan], isDefault: true, row };
}

export async function subscriptionState(
  db: Db,
  settings: Pick<PlanSettings, 'defaultPlan'>,
  companyId: string,
): Promise<SubscriptionState> {
  return stateOf(await subscriptionRow(db, companyId), settings);
}

/** The first instant of the calendar month (UTC) of `at`, and of the next one: the window runs are counted in. */
export function monthWindow(at = new Date()): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)),
    end: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
  };
}

/**
 * How much of one limit a company uses: its users (every account, invited, active or
 * deactivated: each holds a seat until deleted), its workflows (active or not), and the runs
 * queued this calendar month (UTC), retries included. Each is a count over an index that starts
 * with company_id (users_company_created_idx, workflows_company_created_idx,
 * job_runs_company_queued_idx).
 */
export async function usageOf(db: Db, companyId: string, key: LimitKey, at = new Date()): Promise<number> {
  switch (key) {
    case 'users':
      return (await db.select({ n: count() }).from(users).where(eq(users.companyId, companyId)))[0].n;
    case 'workflows':
      return (await db.select({ n: count() }).from(workflows).where(eq(workflows.companyId, companyId)))[0].n;
    case 'runsPerMonth':
      return (
        await db
          .select({ n: count() })
          .from(jobRuns)
          .where(and(eq(jobRuns.companyId, companyId), gte(jobRuns.queuedAt, monthWindow(at).start)))
      )[0].n;
  }
}

export async function allUsage(db: Db, companyId: string, at = new Date()): Promise<Record<LimitKey, number>> {
  const values = await Promise.all(LIMIT_KEYS.map((key) => usageOf(db, companyId, key, at)));
  return Object.fromEntries(LIMIT_KEYS.map((key, i) => [key, values[i]])) as Record<LimitKey, number>;
}

export interface SubscriptionChange {
  plan: PlanId;
  status: SubscriptionStatus;
  provider: Provider;
  customerId?: string | null;
  subscriptionId?: string | null;
  currentPeriodEnd?: Date | null;
}

/** The fields an audit entry shows of a subscription. */
function audited(row: Partial<SubscriptionRow> | null) {
  if (!row) return null;
  return {
    plan: row.plan,
    status: row.status,
    provider: row.provider,
    customerId: row.customerId ?? null,
    subscriptionId: row.subscriptionId ?? null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
  };
}

/**
 * Writes a company's subscription (call inside a transaction) and its audit entry. Fields left
 * out of `change` keep their stored value (a Stripe customer stays known after a plan grant).
 */
export async function saveSubscription(
  db: Db,
  request: FastifyRequest | null,
  companyId: string,
  change: SubscriptionChange,
  audit: { operation: string; userId?: string | null },
): Promise<SubscriptionRow> {
  const before = await subscriptionRow(db, companyId);
  const next = {
    plan: change.plan,
    status: change.status,
    provider: change.provider,
    customerId: change.customerId === undefined ? (before?.customerId ?? null) : change.customerId,
    subscriptionId: change.subscriptionId === undefined ? (before?.subscriptionId ?? null) : change.subscriptionId,
    currentPeriodEnd: change.currentPeriodEnd === undefined ? (before?.currentPeriodEnd ?? null) : change.currentPeriodEnd,
  };
  // The same news twice (the return from Checkout and its webhook) is written once.
  if (before && JSON.stringify(audited(before)) === JSON.stringify(audited(next))) return before;
  const values = {
    ...next,
    updatedBy: audit.userId === undefined ? (request?.auth?.userId ?? null) : audit.userId,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(subscriptions)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: subscriptions.companyId, set: values })
    .returning();
  await recordAudit(db, request, {
    companyId,
    model: 'subscription',
    operation: audit.operation,
    recordId: companyId,
    userId: audit.userId,
    changes: { before: audited(before), after: audited(row) },
  });
  return row;
}
