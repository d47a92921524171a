import { PLAN_IDS, PLANS } from '../../common/plans';
import type { Db } from '../db/client';
import type { PlanSettings } from './config';
import { allUsage, monthWindow, stateOf, type SubscriptionRow } from './store';

/**
 * A company's subscription as GET /subscription answers it: the plan in force and its limits,
 * what the company uses of each, how the plan came (provider, status, period), and the plans
 * this server offers, each saying whether it can be bought here.
 */
export async function subscriptionView(db: Db, settings: PlanSettings, companyId: string, row: SubscriptionRow | null) {
  const now = new Date();
  const state = stateOf(row, settings);
  const usage = await allUsage(db, companyId, now);
  const prices = settings.stripe?.prices ?? {};
  return {
    plan: state.plan.id,
    planName: state.plan.name,
    limits: state.plan.limits,
    usage,
    /** When this month's runs stop counting. */
    runsResetAt: monthWindow(now).end.toISOString(),
    /** The instance's default plan applies (no subscription, or one canceled or unpaid). */
    isDefault: state.isDefault,
    /** The plan stored, which may differ from `plan` once its subscription has lapsed. */
    subscribedPlan: row?.plan ?? null,
    status: row?.status ?? 'active',
    provider: row?.provider ?? 'self',
    customerId: row?.customerId ?? null,
    currentPeriodEnd: row?.currentPeriodEnd?.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    checkoutAvailable: Object.keys(prices).length > 0,
    plans: PLAN_IDS.map((id) => ({ ...PLANS[id], current: id === state.plan.id, checkout: Boolean(prices[id]) })),
  };
}

export type SubscriptionView = Awaited<ReturnType<typeof subscriptionView>>;
