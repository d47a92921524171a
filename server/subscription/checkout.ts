import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import { PLANS, type PlanId } from '../../common/plans';
import type { AuthContext } from '../auth/guard';
import type { Db } from '../db/client';
import { checkoutSessions, companies, stripeEvents, subscriptions } from '../db/schema';
import { isUniqueViolation } from '../http/database-errors';
import { badRequest, conflict, HttpError, notFound } from '../http/errors';
import { notify } from '../notify';
import type { StripeSettings } from './config';
import { SUBSCRIPTION_PAGE } from './limits';
import { callStripe, idOf, planOfPrice, readSubscription, SESSION_EXPANSIONS } from './stripe';
import { isInForce, saveSubscription, subscriptionRow, subscriptionState, type SubscriptionRow } from './store';

/**
 * Provider `stripe` (docs/api/subscription.md): Checkout sessions started from the console, the
 * return from them, plan changes of a running subscription, and the webhooks that keep the
 * subscription in step with Stripe.
 */

export interface StripeDeps {
  db: Db;
  stripe: Stripe;
  settings: StripeSettings;
  defaultPlan: PlanId;
}

export const CHECKOUT_UNAVAILABLE_MESSAGE =
  'Plans cannot be bought on this server (it has no Stripe account); ask its operator for a plan grant';

/** The console page Stripe sends the payer back to; Stripe fills in {CHECKOUT_SESSION_ID}. */
export function returnUrls(base: string) {
  return {
    success: `${base}${SUBSCRIPTION_PAGE}?sessionId={CHECKOUT_SESSION_ID}`,
    cancel: `${base}${SUBSCRIPTION_PAGE}?checkout=canceled`,
  };
}

export type CheckoutStart = { kind: 'checkout'; sessionId: string; url: string } | { kind: 'changed'; row: SubscriptionRow };

/**
 * POST /subscription/checkout: a Checkout session for the plan's price (mode subscription, the
 * company as client_reference_id), kept in checkout_sessions. A company that already pays through
 * Stripe has its subscription moved to the new price instead (prorated), as a second subscription
 * would bill twice.
 */
export async function startCheckout(
  deps: StripeDeps,
  request: FastifyRequest,
  auth: AuthContext,
  plan: PlanId,
  linkBase: string,
): Promise<CheckoutStart> {
  const { db, stripe, settings } = deps;
  const price = settings.prices[plan];
  if (!price) throw badRequest(`plan: the ${PLANS[plan].name} plan cannot be bought on this server`);
  const state = await subscriptionState(db, { defaultPlan: deps.defaultPlan }, auth.companyId);
  if (state.plan.id === plan && !state.isDefault) throw badRequest(`plan: the company is already on the ${PLANS[plan].name} plan`);

  const row = state.row;
  if (row?.provider === 'stripe' && row.subscriptionId && isInForce(row)) {
    const current = await callStripe('read the subscription', () => stripe.subscriptions.retrieve(row.subscriptionId!));
    const item = current.items.data[0];
    if (!item) throw new HttpError(502, `Stripe's subscription ${current.id} has no item to change`);
    const updated = await callStripe('change the subscription', () =>
      stripe.subscriptions.update(current.id, {
        items: [{ id: item.id, price }],
        proration_behavior: 'create_prorations',
        metadata: { companyId: auth.companyId, plan },
      }),
    );
    const read = readSubscription(settings, updated);
    const saved = await db.transaction((tx) =>
      saveSubscription(
        tx,
        request,
        auth.companyId,
        {
          plan: read.plan ?? plan,
          status: read.status,
          provider: 'stripe',
          customerId: read.customerId,
          subscriptionId: read.subscriptionId,
          currentPeriodEnd: read.currentPeriodEnd,
        },
        { operation: 'plan_changed' },
      ),
    );
    return { kind: 'changed', row: saved };
  }

  const urls = returnUrls(linkBase);
  const session = await callStripe('start a checkout', () =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      client_reference_id: auth.companyId,
      success_url: urls.success,
      cancel_url: urls.cancel,
      // A company that paid before stays one Stripe customer.
      ...(row?.customerId ? { customer: row.customerId } : { customer_email: auth.email }),
      metadata: { companyId: auth.companyId, plan },
      subscription_data: { metadata: { companyId: auth.companyId, plan } },
    }),
  );
  if (!session.url) throw new HttpError(502, `Stripe started checkout session ${session.id} without a page to send the payer to`);
  await db
    .insert(checkoutSessions)
    .values({ id: session.id, companyId: auth.companyId, plan, status: session.status ?? 'open', createdBy: auth.userId });
  return { kind: 'checkout', sessionId: session.id, url: session.url };
}

/** A checkout session as Stripe has it now, with its price and the subscription it made. */
export function fetchCheckoutSession(stripe: Stripe, sessionId: string): Promise<Stripe.Checkout.Session> {
  return callStripe('read the checkout session', () => stripe.checkout.sessions.retrieve(sessionId, { expand: SESSION_EXPANSIONS }));
}

export interface CheckoutOutcome {
  sessionId: string;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: string;
  plan: PlanId | null;
  /** The company's subscription, written when the checkout completed. */
  applied: boolean;
}

/**
 * Writes what a checkout session says (call inside a transaction): when complete and paid, the
 * company is on the plan of its price, with Stripe's customer, subscription and period.
 */
export async function applyCheckoutSession(
  tx: Db,
  deps: Pick<StripeDeps, 'stripe' | 'settings'>,
  request: FastifyRequest | null,
  companyId: string,
  session: Stripe.Checkout.Session,
  subscription: Stripe.Subscription | null,
): Promise<CheckoutOutcome> {
  const status: CheckoutOutcome['status'] = session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open';
  const priceId = session.line_items?.data[0]?.price?.id;
  const plan = planOfPrice(deps.settings, priceId);
  const outcome: CheckoutOutcome = { sessionId: session.id, status, paymentStatus: session.payment_status, plan, applied: false };
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  const customerId = idOf(session.customer);
  if (status !== 'complete' || !paid) {
    await tx.update(checkoutSessions).set({ status }).where(eq(checkoutSessions.id, session.id));
    return outcome;
  }
  if (!plan)
    throw new HttpError(502, `Checkout session ${session.id} sold price ${priceId ?? '(none)'}, which is none of this server's plans`);
  const read = subscription ? readSubscription(deps.settings, subscription) : null;
  await tx
    .update(checkoutSessions)
    .set({ status, customerId, completedAt: new Date() })
    .where(and(eq(checkoutSessions.id, session.id), eq(checkoutSessions.companyId, companyId)));
  try {
    await saveSubscription(
      tx,
      request,
      companyId,
      {
        plan,
        status: read?.status ?? 'active',
        provider: 'stripe',
        customerId,
        subscriptionId: read?.subscriptionId ?? idOf(session.subscription),
        currentPeriodEnd: read?.currentPeriodEnd ?? null,
      },
      { operation: 'checkout_completed' },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`Stripe customer ${customerId} already pays for another company`);
    throw error;
  }
  return { ...outcome, applied: true };
}

/** The subscription of a session: expanded by SESSION_EXPANSIONS, or read when Stripe gave only its id. */
export async function subscriptionOfSession(stripe: Stripe, session: Stripe.Checkout.Session): Promise<Stripe.Subscription | null> {
  const value = session.subscription;
  if (!value) return null;
  if (typeof value !== 'string') return value;
  return callStripe('read the subscription', () => stripe.subscriptions.retrieve(value));
}

/** GET /checkoutSession?sessionId=…: the caller's company's session, read from Stripe and applied when complete. */
export async function returnFromCheckout(
  deps: StripeDeps,
  request: FastifyRequest,
  companyId: string,
  sessionId: string,
): Promise<CheckoutOutcome> {
  const [stored] = await deps.db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.companyId, companyId)));
  if (!stored) throw notFound('Checkout session');
  const session = await fetchCheckoutSession(deps.stripe, sessionId);
  if (session.client_reference_id !== companyId) throw notFound('Checkout session');
  const subscription = await subscriptionOfSession(deps.stripe, session);
  return deps.db.transaction((tx) => applyCheckoutSession(tx, deps, request, companyId, session, subscription));
}

// ---- Webhooks ------------------------------------------------------------------------------------

/** The webhook events applied; any other is acknowledged and left alone. */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
] as const;

export interface EventOutcome {
  /** What was done, for the answer Stripe keeps in its log. */
  message: string;
}

/** Runs `work` in the transaction that records the event, unless a delivery of it was already recorded. */
async function onceFor(db: Db, event: Stripe.Event, work: (tx: Db) => Promise<string>): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (recorded.length === 0) return { message: `Event ${event.id} was already processed` };
    return { message: await work(tx) };
  });
}

export async function eventSeen(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, eventId));
  return !!row;
}

async function companyExists(db: Db, companyId: string | null): Promise<boolean> {
  if (!companyId || !/^[0-9a-f-]{36}$/i.test(companyId)) return false;
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  return !!row;
}

async function rowOfCustomer(db: Db, customerId: string | null): Promise<SubscriptionRow | null> {
  if (!customerId) return null;
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.customerId, customerId));
  return row ?? null;
}

/** Applies one verified Stripe event; the caller has checked its signature. */
export async function applyStripeEvent(deps: StripeDeps, request: FastifyRequest, event: Stripe.Event): Promise<EventOutcome> {
  const { db, stripe, settings } = deps;
  if (await eventSeen(db, event.id)) return { message: `Event ${event.id} was already processed` };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = await fetchCheckoutSession(stripe, event.data.object.id);
      const companyId = session.client_reference_id;
      if (!(await companyExists(db, companyId)))
        return onceFor(db, event, async () => `Checkout session ${session.id} is not one of this server's companies; ignored`);
      const subscription = await subscriptionOfSession(stripe, session);
      return onceFor(db, event, async (tx) => {
        const outcome = await applyCheckoutSession(tx, deps, request, companyId!, session, subscription);
        return outcome.applied
          ? `The company is now on the ${PLANS[outcome.plan!].name} plan`
          : `Checkout session ${session.id} is ${outcome.status}, not paid yet`;
      });
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const read = readSubscription(settings, event.data.object);
      const byCustomer = await rowOfCustomer(db, read.customerId);
      const companyId = byCustomer?.companyId ?? ((await companyExists(db, read.companyId)) ? read.companyId : null);
      if (!companyId)
        return onceFor(db, event, async () => `Subscription ${read.subscriptionId} is not one of this server's companies; ignored`);
      return onceFor(db, event, async (tx) => {
        const row = await subscriptionRow(tx, companyId);
        // News of a subscription the company has since replaced changes nothing.
        if (row?.subscriptionId && row.subscriptionId !== read.subscriptionId && isInForce(row))
          return `Subscription ${read.subscriptionId} is no longer the company's; ignored`;
        const deleted = event.type === 'customer.subscription.deleted';
        const plan = read.plan ?? (row?.plan as PlanId | undefined);
        if (!plan) return `Subscription ${read.subscriptionId} sells none of this server's plans; ignored`;
        await saveSubscription(
          tx,
          request,
          companyId,
          {
            plan,
            status: deleted ? 'canceled' : read.status,
            provider: 'stripe',
            customerId: read.customerId,
            subscriptionId: read.subscriptionId,
            currentPeriodEnd: read.currentPeriodEnd,
          },
          { operation: deleted ? 'subscription_canceled' : 'subscription_updated', userId: null },
        );
        return deleted
          ? `Subscription ${read.subscriptionId} ended; the company is on the default plan`
          : `Subscription ${read.subscriptionId} is ${read.status}`;
      });
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const row = await rowOfCustomer(db, idOf(invoice.customer));
      if (!row) return onceFor(db, event, async () => `Invoice ${invoice.id} is not one of this server's companies; ignored`);
      return onceFor(db, event, async (tx) => {
        if (row.provider !== 'stripe' || !isInForce(row))
          return `Invoice ${invoice.id}: the company has no running subscription; nothing to do`;
        const planName = PLANS[row.plan as PlanId]?.name ?? row.plan;
        await saveSubscription(
          tx,
          request,
          row.companyId,
          { plan: row.plan as PlanId, status: 'past_due', provider: 'stripe' },
          { operation: 'payment_failed', userId: null },
        );
        await notify(tx, {
          companyId: row.companyId,
          to: 'admins',
          type: 'payment_failed',
          title: `The payment for the ${planName} plan failed`,
          message:
            'Stripe could not take the payment of the latest invoice. Update the payment method with Stripe: the plan stays in force while Stripe tries again.',
          link: SUBSCRIPTION_PAGE,
        });
        return `Invoice ${invoice.id} failed; the subscription is past due`;
      });
    }
    default:
      return onceFor(db, event, async () => `Event type ${event.type} is not used by this server; ignored`);
  }
}
