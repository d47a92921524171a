import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { z } from 'zod';
import { PLAN_IDS, PLANS } from '../../common/plans';
import {
  checkoutOutcomeAnswer,
  checkoutStartedAnswer,
  planChangedAnswer,
  subscriptionAnswer,
} from '../../common/contract/answers/subscription';
import { sent } from '../platform/answers';
import { requireAuth } from '../auth/guard';
import { subscriptions } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import { mailLinkBase } from '../mail/templates';
import { redeemGrant } from '../subscription/assign';
import {
  applyStripeEvent,
  CHECKOUT_UNAVAILABLE_MESSAGE,
  returnFromCheckout,
  startCheckout,
  type StripeDeps,
} from '../subscription/checkout';
import { createStripeClient } from '../subscription/stripe';
import { subscriptionRow } from '../subscription/store';
import { subscriptionView } from '../subscription/view';

const TAGS = ['Subscription'];
const read = { policy: ['subscription', 'read'] as const };
/** Buying and granting plans is a person's act: never through an API key. */
const update = { policy: ['subscription', 'update'] as const, apiKeys: false };

const planField = z.enum(PLAN_IDS, { error: `must be one of ${PLAN_IDS.join(', ')}` });
const checkoutBody = z.object({ plan: planField }).strict();
const sessionQuery = z.object({
  sessionId: z.string({ error: 'is required' }).regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'must be a Stripe checkout session id (cs_…)'),
});
const customerParams = z.object({ id: z.string().regex(/^cus_[A-Za-z0-9_]{1,250}$/, 'must be a Stripe customer id (cus_…)') });
const grantBody = z
  .object({ token: z.string({ error: 'is required' }).trim().min(1, 'is required').max(4096, 'is too long to be a plan grant') })
  .strict();

/**
 * The company's plan, its limits and usage, plan grants, and buying a plan through Stripe
 * (docs/api/subscription.md).
 */
export async function subscriptionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, config, secrets } = api.ctx;
  const settings = config.plans;
  const stripe: Stripe | null = settings.stripe ? await createStripeClient(settings.stripe) : null;
  const stripeDeps = (): StripeDeps => {
    if (!stripe || !settings.stripe) throw badRequest(CHECKOUT_UNAVAILABLE_MESSAGE);
    return { db, stripe, settings: settings.stripe, defaultPlan: settings.defaultPlan };
  };
  const view = async (companyId: string) => subscriptionView(db, settings, companyId, await subscriptionRow(db, companyId));

  api.get(
    '/subscription',
    { config: read, schema: { summary: "The company's plan, limits and usage", tags: TAGS, response: { 200: sent(subscriptionAnswer) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Subscription', data: await view(companyId) };
    },
  );

  api.post(
    '/subscription/checkout',
    {
      config: update,
      schema: {
        summary: 'Buy a plan through Stripe Checkout',
        tags: TAGS,
        body: checkoutBody,
        response: { 200: sent(planChangedAnswer), 201: sent(checkoutStartedAnswer) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const started = await startCheckout(stripeDeps(), request, auth, request.body.plan, mailLinkBase(config, request));
      const name = PLANS[request.body.plan].name;
      if (started.kind === 'changed') {
        return {
          message: `The company is now on the ${name} plan`,
          data: { url: null, sessionId: null, subscription: await view(auth.companyId) },
        };
      }
      return reply.code(201).send({
        message: `Checkout for the ${name} plan is ready`,
        data: { url: started.url, sessionId: started.sessionId, subscription: null },
      });
    },
  );

  api.get(
    '/checkoutSession',
    {
      config: read,
      schema: {
        summary: 'The outcome of a Stripe checkout, applied when paid',
        tags: TAGS,
        querystring: sessionQuery,
        response: { 200: sent(checkoutOutcomeAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const outcome = await returnFromCheckout(stripeDeps(), request, companyId, request.query.sessionId);
      const planName = outcome.plan ? PLANS[outcome.plan].name : 'new';
      const message = outcome.applied
        ? `Thank you: the company is now on the ${planName} plan`
        : outcome.status === 'expired'
          ? 'This checkout expired without payment; start it again from the plans below'
          : 'This checkout is not paid yet; finish it on the Stripe page, or start it again';
      return { message, data: { ...outcome, subscription: await view(companyId) } };
    },
  );

  api.get(
    '/subscription/customer/:id',
    {
      config: read,
      schema: {
        summary: "The company's subscription by its Stripe customer",
        tags: TAGS,
        params: customerParams,
        response: { 200: sent(subscriptionAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.customerId, request.params.id)));
      if (!row) throw notFound('Subscription');
      return { message: 'Subscription', data: await subscriptionView(db, settings, companyId, row) };
    },
  );

  api.post(
    '/subscription/verify',
    { config: update, schema: { summary: 'Apply a plan grant', tags: TAGS, body: grantBody, response: { 200: sent(subscriptionAnswer) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const row = await redeemGrant(db, secrets, request, companyId, request.body.token);
      return { message: `The company is now on the ${PLANS[row.plan as keyof typeof PLANS].name} plan`, data: await view(companyId) };
    },
  );

  // Stripe's webhooks: the signature is checked over the raw bytes, so this route alone reads its body unparsed.
  await app.register(async (webhooks) => {
    webhooks.removeAllContentTypeParsers();
    webhooks.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhooks.post(
      '/subscription/webhook',
      {
        config: { public: true, acrossCompanies: 'a payment event names its company by its Stripe customer' },
        schema: { summary: 'Stripe webhook events', tags: TAGS, hide: true },
      },
      async (request) => {
        if (!stripe || !settings.stripe) throw notFound('Stripe webhook endpoint (Stripe is not configured on this server)');
        const secret = settings.stripe.webhookSecret;
        if (!secret) throw new HttpError(503, 'This server cannot verify Stripe webhooks: STRIPE_WEBHOOK_SECRET is not set');
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !signature) throw badRequest('Stripe-Signature: the header is missing');
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw badRequest('body: the event is missing');
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(request.body, signature, secret);
        } catch (error) {
          throw badRequest(`Stripe-Signature: ${(error as Error).message}`);
        }
        const outcome = await applyStripeEvent(stripeDeps(), request, event);
        return { message: outcome.message, received: true };
      },
    );
  });
}
