import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LimitKey, PlanLimits, PlanPrice } from '../../../common/plans';
import { apiRequest, type Answer } from '../../../providers/http';

/** The subscription's calls (docs/api/subscription.md). */

export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'incomplete';

export interface OfferedPlan {
  id: string;
  name: string;
  description: string;
  limits: PlanLimits;
  price: PlanPrice | null;
  /** The plan in force. */
  current: boolean;
  /** It can be bought through Stripe here. */
  checkout: boolean;
}

export interface Subscription {
  plan: string;
  planName: string;
  limits: PlanLimits;
  usage: Record<LimitKey, number>;
  runsResetAt: string;
  isDefault: boolean;
  subscribedPlan: string | null;
  status: SubscriptionStatus;
  provider: 'self' | 'stripe';
  customerId: string | null;
  currentPeriodEnd: string | null;
  updatedAt: string | null;
  checkoutAvailable: boolean;
  plans: OfferedPlan[];
}

export interface CheckoutStarted {
  /** Stripe Checkout's page; null when a running subscription was moved to the plan at once. */
  url: string | null;
  sessionId: string | null;
  subscription: Subscription | null;
}

export interface CheckoutOutcome {
  sessionId: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: string;
  plan: string | null;
  applied: boolean;
  subscription: Subscription;
}

export async function getSubscription(signal?: AbortSignal): Promise<Subscription> {
  return (await apiRequest<Answer<Subscription>>('/subscription', { signal })).data;
}

export async function startCheckout(plan: string): Promise<Answer<CheckoutStarted>> {
  return apiRequest<Answer<CheckoutStarted>>('/subscription/checkout', { method: 'POST', body: { plan } });
}

export async function getCheckoutOutcome(sessionId: string, signal?: AbortSignal): Promise<Answer<CheckoutOutcome>> {
  return apiRequest<Answer<CheckoutOutcome>>('/checkoutSession', { query: { sessionId }, signal });
}

export async function applyPlanGrant(token: string): Promise<Answer<Subscription>> {
  return apiRequest<Answer<Subscription>>('/subscription/verify', { method: 'POST', body: { token } });
}

export const SUBSCRIPTION_KEY = ['subscription'];

/** The company's subscription, and a way to lay a newer answer over it. */
export function useSubscription() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SUBSCRIPTION_KEY, queryFn: ({ signal }) => getSubscription(signal), retry: false });
  const replace = useCallback((next: Subscription) => queryClient.setQueryData<Subscription>(SUBSCRIPTION_KEY, next), [queryClient]);
  return { ...query, replace };
}

/**
 * Returning from Stripe Checkout with `?sessionId=`: what became of it (read once per session id).
 * Its answer holds the subscription as the checkout left it, newer than a read made meanwhile:
 * it replaces that read, and the subscription is read again.
 */
export function useCheckoutOutcome(sessionId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['subscription', 'checkout', sessionId],
    enabled: Boolean(sessionId),
    retry: false,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const answer = await getCheckoutOutcome(sessionId!, signal);
      await queryClient.cancelQueries({ queryKey: SUBSCRIPTION_KEY, exact: true });
      queryClient.setQueryData<Subscription>(SUBSCRIPTION_KEY, answer.data.subscription);
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY, exact: true });
      return answer;
    },
  });
}
