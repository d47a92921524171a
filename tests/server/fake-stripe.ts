import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './connectors/fixtures-remote/local-server';

/**
 * A local stand-in for the part of Stripe's API the server uses, answering as Stripe's API
 * reference says: form-encoded requests with bracketed keys (`line_items[0][price]`), a Bearer
 * secret key, JSON objects carrying `object: 'checkout.session'` and the like, `expand[]` on
 * retrieval, and `{ error: { type, message } }` for refusals. The test moves a session along by
 * hand (`complete`, `expire`), as a payer would on Stripe's page.
 */

export const FAKE_STRIPE_KEY = 'sk_test_dataops_fake_key';
export const FAKE_WEBHOOK_SECRET = 'whsec_dataops_fake_secret';
export const FAKE_PRICES = { team: 'price_team_monthly', business: 'price_business_monthly' } as const;

type Json = Record<string, unknown>;

export interface FakeStripe {
  server: LocalServer;
  url: string;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  /** The form fields of the calls made, parsed into objects, with their method and path. */
  calls(): Array<{ method: string; path: string; form: Json }>;
  /** The payer paid: the session completes with a new customer (or the given one) and an active subscription. */
  complete(sessionId: string, options?: { customer?: string; periodEnd?: Date }): { customer: string; subscription: string };
  expire(sessionId: string): void;
  /** The next call is answered with this Stripe error. */
  failNext(status: number, message: string): void;
  /** An event as Stripe sends it to a webhook endpoint, and its Stripe-Signature header. */
  signedEvent(type: string, object: Json, options?: { id?: string; secret?: string }): { payload: string; signature: string; id: string };
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=x` → `{ a: { b: [ { c: 'x' } ] } }`, as Stripe reads its form bodies. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(parts[index + 1]);
      const slot = Array.isArray(node) ? (part === '' ? node.length : Number(part)) : part;
      const container = node as Record<string | number, unknown>;
      if (last) {
        container[slot] = value;
      } else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown> | unknown[];
      }
    });
  }
  return root;
}

function stripeError(response: ServerResponse, status: number, message: string, extra: Json = {}) {
  sendJson(response, status, {
    error: { type: status === 401 ? 'invalid_request_error' : status >= 500 ? 'api_error' : 'invalid_request_error', message, ...extra },
  });
}

function priceObject(id: string): Json {
  return { id, object: 'price', active: true, currency: 'usd', recurring: { interval: 'month', interval_count: 1 }, type: 'recurring' };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const lineItems = new Map<string, string>();
  /** subscription_data[metadata] of each session: what its subscription will carry. */
  const subscriptionMetadata = new Map<string, Json>();
  const received: Array<{ method: string; path: string; form: Json }> = [];
  let failure: { status: number; message: string } | null = null;

  const expanded = (session: Json, expand: string[]): Json => {
    const out: Json = { ...session };
    if (expand.includes('line_items')) {
      const price = lineItems.get(String(session.id));
      out.line_items = {
        object: 'list',
        data: price ? [{ id: newId('li'), object: 'item', price: priceObject(price), quantity: 1, currency: 'usd' }] : [],
        has_more: false,
        url: `/v1/checkout/sessions/${session.id}/line_items`,
      };
    }
    if (expand.includes('subscription') && typeof session.subscription === 'string')
      out.subscription = subscriptions.get(session.subscription) ?? session.subscription;
    return out;
  };

  const expansions = (request: ReceivedRequest): string[] => {
    const fromQuery = [...request.query.entries()].filter(([key]) => key.startsWith('expand')).map(([, value]) => value);
    const fromBody = (parseStripeForm(request.body.toString()).expand as string[] | undefined) ?? [];
    return [...fromQuery, ...fromBody];
  };

  const server = await startLocalServer((request, response) => {
    const form = request.method === 'GET' ? {} : parseStripeForm(request.body.toString());
    received.push({ method: request.method, path: request.path, form });
    if (request.headers.authorization !== `Bearer ${FAKE_STRIPE_KEY}`) {
      return stripeError(response, 401, 'Invalid API Key provided');
    }
    if (failure) {
      const { status, message } = failure;
      failure = null;
      return stripeError(response, status, message);
    }
    let match: RegExpExecArray | null;
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
      const items = form.line_items as Array<{ price?: string; quantity?: string }> | undefined;
      if (form.mode !== 'subscription')
        return stripeError(response, 400, 'This test server only starts subscription sessions', { param: 'mode' });
      if (!items?.[0]?.price) return stripeError(response, 400, 'Missing required param: line_items[0][price].', { param: 'line_items' });
      if (!Object.values(FAKE_PRICES).includes(items[0].price as never))
        return stripeError(response, 400, `No such price: '${items[0].price}'`, {
          param: 'line_items[0][price]',
          code: 'resource_missing',
        });
      if (!form.success_url) return stripeError(response, 400, 'Missing required param: success_url.', { param: 'success_url' });
      const id = `cs_test_${crypto.randomBytes(16).toString('hex')}`;
      const session: Json = {
        id,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: form.client_reference_id ?? null,
        customer: form.customer ?? null,
        customer_email: form.customer_email ?? null,
        subscription: null,
        success_url: form.success_url,
        cancel_url: form.cancel_url ?? null,
        url: `https://checkout.stripe.test/c/pay/${id}`,
        metadata: form.metadata ?? {},
        created: now(),
        expires_at: now() + 86_400,
        livemode: false,
      };
      sessions.set(id, session);
      lineItems.set(id, items[0].price);
      subscriptionMetadata.set(id, ((form.subscription_data as Json | undefined)?.metadata as Json | undefined) ?? {});
      return sendJson(response, 200, expanded(session, expansions(request)));
    }
    if (request.method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path))) {
      const session = sessions.get(match[1]);
      if (!session)
        return stripeError(response, 404, `No such checkout.session: '${match[1]}'`, { code: 'resource_missing', param: 'session' });
      return sendJson(response, 200, expanded(session, expansions(request)));
    }
    if ((match = /^\/v1\/subscriptions\/([^/]+)$/.exec(request.path))) {
      const subscription = subscriptions.get(match[1]);
      if (!subscription)
        return stripeError(response, 404, `No such subscription: '${match[1]}'`, { code: 'resource_missing', param: 'id' });
      if (request.method === 'POST') {
        const items = subscription.items as { data: Json[] };
        for (const change of (form.items as Array<{ id?: string; price?: string }> | undefined) ?? []) {
          const item = items.data.find((candidate) => candidate.id === change.id);
          if (!item) return stripeError(response, 400, `No such subscription item: '${change.id}'`, { param: 'items' });
          if (change.price) item.price = priceObject(change.price);
        }
        if (form.metadata) subscription.metadata = { ...(subscription.metadata as Json), ...(form.metadata as Json) };
      }
      return sendJson(response, 200, subscription);
    }
    return stripeError(response, 404, `Unrecognized request URL (${request.method}: ${request.path}).`);
  });

  const signer = new Stripe(FAKE_STRIPE_KEY);
  return {
    server,
    url: server.url,
    sessions,
    subscriptions,
    calls: () => received,
    complete(sessionId, options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const customer = options.customer ?? (session.customer as string | null) ?? newId('cus');
      const subscriptionId = newId('sub');
      const periodEnd = Math.floor((options.periodEnd ?? new Date(Date.now() + 30 * 86_400_000)).getTime() / 1000);
      subscriptions.set(subscriptionId, {
        id: subscriptionId,
        object: 'subscription',
        customer,
        status: 'active',
        metadata: subscriptionMetadata.get(sessionId) ?? {},
        items: {
          object: 'list',
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              price: priceObject(lineItems.get(sessionId)!),
              quantity: 1,
              current_period_start: now(),
              current_period_end: periodEnd,
            },
          ],
          has_more: false,
        },
        created: now(),
        livemode: false,
      });
      Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscriptionId });
      return { customer, subscription: subscriptionId };
    },
    expire(sessionId) {
      Object.assign(sessions.get(sessionId)!, { status: 'expired' });
    },
    failNext(status, message) {
      failure = { status, message };
    },
    signedEvent(type, object, options = {}) {
      const id = options.id ?? newId('evt');
      const payload = JSON.stringify({
        id,
        object: 'event',
        type,
        data: { object },
        created: now(),
        livemode: false,
        api_version: Stripe.API_VERSION ?? null,
        pending_webhooks: 1,
      });
      const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? FAKE_WEBHOOK_SECRET });
      return { payload, signature, id };
    },
    close: () => server.close(),
  };
}
