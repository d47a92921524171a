import { z } from 'zod';
import { PLAN_IDS, type LimitKey } from '../../plans';
import { answer, timestamp } from '../answers';

/** The company's plan, its limits and usage, and buying a plan (docs/api/subscription.md; the plans are common/plans.ts). */

/** A subscription's state: in `active`, `trialing` and `past_due` its plan applies; otherwise the default plan does. */
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'incomplete'] as const;

/** How the plan came: assigned on this server (a plan grant, the operator), or bought through Stripe. */
export const SUBSCRIPTION_PROVIDERS = ['self', 'stripe'] as const;

/** A value per limit of LIMIT_KEYS. */
const byLimit = <T extends z.ZodType>(value: T) =>
  z.object({
    /** People: every account, invited, active or deactivated. */
    users: value,
    /** Workflows, active or not. */
    workflows: value,
    /** Runs queued in a calendar month (UTC), retries included. */
    runsPerMonth: value,
  } satisfies Record<LimitKey, T>);

/** What a plan allows, per limit (`users`, `workflows`, `runsPerMonth`); null is no limit. */
export const planLimits = byLimit(z.number().int().nullable());

/** One plan this server offers. */
export const offeredPlan = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  description: z.string(),
  limits: planLimits,
  /** What the console shows; null for a plan that is assigned, never sold. */
  price: z.object({ amount: z.number(), currency: z.string(), interval: z.literal('month') }).nullable(),
  /** The company is on it. */
  current: z.boolean(),
  /** It can be bought here through Stripe. */
  checkout: z.boolean(),
});

/** The company's subscription: `GET /subscription` and every change of plan. */
export const subscriptionView = z.object({
  /** The plan whose limits apply. */
  plan: z.enum(PLAN_IDS),
  planName: z.string(),
  limits: planLimits,
  /** What the company uses of each limit: its users, its workflows, the runs queued this calendar month (UTC). */
  usage: byLimit(z.number().int()),
  /** When this month's runs stop counting. */
  runsResetAt: timestamp,
  /** The instance's default plan applies (no subscription, or one canceled or unpaid). */
  isDefault: z.boolean(),
  /** The plan stored, which may differ from `plan` once its subscription has lapsed; null without a subscription. */
  subscribedPlan: z.string().nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  provider: z.enum(SUBSCRIPTION_PROVIDERS),
  /** Stripe's customer, once the company has bought a plan. */
  customerId: z.string().nullable(),
  /** When the paid period ends (Stripe subscriptions). */
  currentPeriodEnd: timestamp.nullable(),
  /** Null without a subscription. */
  updatedAt: timestamp.nullable(),
  /** This server sells plans through Stripe. */
  checkoutAvailable: z.boolean(),
  plans: z.array(offeredPlan),
});
export type SubscriptionView = z.infer<typeof subscriptionView>;

export const subscriptionAnswer = answer(subscriptionView);

/** `POST /subscription/checkout` (200): the plan changed at once (a company already paying through Stripe). */
export const planChangedAnswer = answer(z.object({ url: z.null(), sessionId: z.null(), subscription: subscriptionView }));

/** `POST /subscription/checkout` (201): a Stripe Checkout page to send the buyer to. */
export const checkoutStartedAnswer = answer(z.object({ url: z.string(), sessionId: z.string(), subscription: z.null() }));

/** `GET /checkoutSession`: what the checkout came to, and the subscription afterwards. */
export const checkoutOutcomeAnswer = answer(
  z.object({
    sessionId: z.string(),
    status: z.enum(['open', 'complete', 'expired']),
    /** Stripe's `payment_status`: `paid`, `unpaid`, `no_payment_required`. */
    paymentStatus: z.string(),
    /** The plan of the price sold; null when it is none of this server's. */
    plan: z.enum(PLAN_IDS).nullable(),
    /** The company's subscription was written: the checkout completed and is paid. */
    applied: z.boolean(),
    subscription: subscriptionView,
  }),
);
