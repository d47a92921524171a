import type Stripe from 'stripe';
import { PLAN_IDS, type PlanId } from '../../common/plans';
import { HttpError } from '../http/errors';
import type { StripeSettings } from './config';
import type { SubscriptionStatus } from './store';

/**
 * Stripe's side of plans: the SDK client, and how Stripe's objects read as our subscription
 * (docs/api/subscription.md). Only the official SDK talks to Stripe.
 */

/** The expansions a checkout session is read with: its price, and the subscription it made. */
export const SESSION_EXPANSIONS = ['line_items', 'subscription'];

/** Time limit of one call to Stripe; the console waits on it. */
const STRIPE_TIMEOUT_MS = 20_000;

/** The SDK is loaded only where Stripe is configured: a server without it never holds its ~20 MB. */
const loadStripe = async () => (await import('stripe')).default;

export async function createStripeClient(settings: StripeSettings): Promise<Stripe> {
  const base = settings.apiBase;
  const StripeClient = await loadStripe();
  return new StripeClient(settings.secretKey, {
    timeout: STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 1,
    appInfo: { name: 'DataOps Console' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/** The plan a Stripe price sells, or null for a price that is none of this server's plans. */
export function planOfPrice(settings: StripeSettings, priceId: string | null | undefined): PlanId | null {
  if (!priceId) return null;
  return PLAN_IDS.find((plan) => settings.prices[plan] === priceId) ?? null;
}

/** Stripe's subscription statuses, as ours: a paused or lapsed subscription no longer gives its plan. */
export function statusOf(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'past_due':
      return 'past_due';
    case 'incomplete':
      return 'incomplete';
    case 'unpaid':
      return 'past_due';
    default:
      return 'canceled';
  }
}

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** What a Stripe subscription says of our subscription row; `plan` is null when its price is not one of ours. */
export function readSubscription(settings: StripeSettings, subscription: Stripe.Subscription) {
  const items = subscription.items?.data ?? [];
  const plan = items.map((item) => planOfPrice(settings, item.price?.id)).find((found) => found !== null) ?? null;
  const periodEnds = items.map((item) => item.current_period_end).filter((end): end is number => typeof end === 'number');
  return {
    plan,
    status: statusOf(subscription.status),
    customerId: idOf(subscription.customer),
    subscriptionId: subscription.id,
    currentPeriodEnd: periodEnds.length ? new Date(Math.max(...periodEnds) * 1000) : null,
    companyId: typeof subscription.metadata?.companyId === 'string' ? subscription.metadata.companyId : null,
  };
}

/** Calls Stripe; its refusals and outages become a 502/503 whose message says it was Stripe. */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // A call to Stripe was made, so its SDK is loaded already.
    const Stripe = await loadStripe();
    if (error instanceof Stripe.errors.StripeConnectionError) {
      throw new HttpError(503, `Stripe could not be reached to ${what}; try again in a moment`);
    }
    if (error instanceof Stripe.errors.StripeError) {
      // Something Stripe has no record of is missing here too; any other refusal is Stripe's.
      throw new HttpError(error.statusCode === 404 ? 404 : 502, `Stripe refused to ${what}: ${error.message}`);
    }
    throw error;
  }
}
