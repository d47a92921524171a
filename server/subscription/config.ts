import { HOSTED_DEFAULT_PLAN, isPlanId, PLAN_IDS, SELF_HOSTED_DEFAULT_PLAN, type PlanId } from '../../common/plans';

/** Stripe, when STRIPE_SECRET_KEY is set: plans are sold through Checkout and kept in step by webhooks. */
export interface StripeSettings {
  secretKey: string;
  /** Verifies the Stripe-Signature of POST /subscription/webhook; without it webhooks are refused (503). */
  webhookSecret: string | undefined;
  /** The Stripe price of each plan sold (STRIPE_PRICE_TEAM, STRIPE_PRICE_BUSINESS); a plan without one is not sold. */
  prices: Partial<Record<PlanId, string>>;
  /** Another address for Stripe's API (STRIPE_API_BASE): tests point it at a local server. */
  apiBase: URL | undefined;
}

/** The plans' part of the configuration (docs/api/subscription.md). */
export interface PlanSettings {
  /** The plan of a company that has no subscription (DEFAULT_PLAN). */
  defaultPlan: PlanId;
  stripe: StripeSettings | null;
}

/** The environment variables of a plan's Stripe price. */
const PRICE_VARIABLES: Partial<Record<PlanId, string>> = { team: 'STRIPE_PRICE_TEAM', business: 'STRIPE_PRICE_BUSINESS' };

export function readPlanSettings(env: NodeJS.ProcessEnv): PlanSettings {
  const stripe = readStripe(env);
  const chosen = env.DEFAULT_PLAN?.trim().toLowerCase();
  if (chosen && !isPlanId(chosen)) {
    throw new Error(`DEFAULT_PLAN must be one of ${PLAN_IDS.join(', ')}, got "${env.DEFAULT_PLAN}"`);
  }
  return { defaultPlan: chosen ? (chosen as PlanId) : stripe ? HOSTED_DEFAULT_PLAN : SELF_HOSTED_DEFAULT_PLAN, stripe };
}

function readStripe(env: NodeJS.ProcessEnv): StripeSettings | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return null;
  const prices: Partial<Record<PlanId, string>> = {};
  for (const [plan, variable] of Object.entries(PRICE_VARIABLES) as [PlanId, string][]) {
    const price = env[variable]?.trim();
    if (!price) continue;
    if (!/^price_[A-Za-z0-9_]+$/.test(price)) throw new Error(`${variable} must be a Stripe price id (price_…), got "${price}"`);
    prices[plan] = price;
  }
  let apiBase: URL | undefined;
  if (env.STRIPE_API_BASE) {
    try {
      apiBase = new URL(env.STRIPE_API_BASE);
    } catch {
      throw new Error(`STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111, got "${env.STRIPE_API_BASE}"`);
    }
    if (apiBase.protocol !== 'http:' && apiBase.protocol !== 'https:')
      throw new Error('STRIPE_API_BASE must start with http:// or https://');
  }
  return { secretKey, webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined, prices, apiBase };
}
