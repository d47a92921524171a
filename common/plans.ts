/**
 * The plans a company can be on, and what each allows (docs/api/subscription.md). Both halves read
 * this: the server enforces the limits, the console shows them. A limit of `null` is no limit.
 *
 * Which plans can be bought through Stripe is the server's configuration (STRIPE_PRICE_TEAM,
 * STRIPE_PRICE_BUSINESS), not this file's: the prices below are what the console shows.
 */

export const PLAN_IDS = ['free', 'team', 'business', 'unlimited'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** What a plan counts: people, workflows, and runs queued in a calendar month (UTC). */
export const LIMIT_KEYS = ['users', 'workflows', 'runsPerMonth'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

export type PlanLimits = Record<LimitKey, number | null>;

export interface PlanPrice {
  /** In the currency's main unit, per interval. */
  amount: number;
  currency: string;
  interval: 'month';
}

export interface Plan {
  id: PlanId;
  name: string;
  description: string;
  limits: PlanLimits;
  /** What the console shows; null for a plan that is assigned, never sold. */
  price: PlanPrice | null;
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    description: 'For trying the console with a small team.',
    limits: { users: 5, workflows: 3, runsPerMonth: 100 },
    price: { amount: 0, currency: 'USD', interval: 'month' },
  },
  team: {
    id: 'team',
    name: 'Team',
    description: 'For a data team running its daily pipelines.',
    limits: { users: 25, workflows: 50, runsPerMonth: 5_000 },
    price: { amount: 49, currency: 'USD', interval: 'month' },
  },
  business: {
    id: 'business',
    name: 'Business',
    description: 'For a whole company: every workflow it needs, run at scale.',
    limits: { users: 500, workflows: null, runsPerMonth: 100_000 },
    price: { amount: 199, currency: 'USD', interval: 'month' },
  },
  unlimited: {
    id: 'unlimited',
    name: 'Unlimited',
    description: 'No limits: the plan of a self-hosted instance, assigned by its operator.',
    limits: { users: null, workflows: null, runsPerMonth: null },
    price: null,
  },
};

/** The plan of a company without a subscription on an instance without Stripe: the demo is never blocked. */
export const SELF_HOSTED_DEFAULT_PLAN: PlanId = 'unlimited';
/** The plan of a company without a subscription on an instance that sells plans through Stripe. */
export const HOSTED_DEFAULT_PLAN: PlanId = 'free';

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

/** Plans in order of what they allow, smallest first (the order of PLAN_IDS). */
export function planRank(id: PlanId): number {
  return PLAN_IDS.indexOf(id);
}

/** How a limit reads in a sentence: "5 users", "3 workflows", "100 runs a month". */
export function describeLimit(key: LimitKey, value: number): string {
  const count = value.toLocaleString('en-US');
  switch (key) {
    case 'users':
      return `${count} ${value === 1 ? 'user' : 'users'}`;
    case 'workflows':
      return `${count} ${value === 1 ? 'workflow' : 'workflows'}`;
    case 'runsPerMonth':
      return `${count} ${value === 1 ? 'run' : 'runs'} a month`;
  }
}
