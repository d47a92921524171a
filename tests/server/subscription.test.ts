import crypto from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config';
import { createSecrets } from '../../server/auth/secrets';
import {
  checkoutSessions,
  jobRuns,
  notifications,
  stripeEvents,
  subscriptions,
  systemAudits,
  users,
  workflows,
} from '../../server/db/schema';
import { GRANT_INVALID_MESSAGE, signPlanGrant } from '../../server/subscription/grants';
import { CHECKOUT_UNAVAILABLE_MESSAGE } from '../../server/subscription/checkout';
import { SCHEDULE_SKIPPED_NOTICE } from '../../server/subscription/limits';
import type { PlanId } from '../../common/plans';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, inviteUser, signInAdmin, snapshot, userWithPolicies } from './helpers';
import { FAKE_PRICES, FAKE_STRIPE_KEY, FAKE_WEBHOOK_SECRET, startFakeStripe, type FakeStripe } from './fake-stripe';
import { eventually, insertWorkflow, openRunnerWorld, type RunnerWorld } from './jobs/runner-fixture';

/*
 * Plans, their limits, plan grants and buying a plan through Stripe (docs/api/subscription.md),
 * end to end through the API: the limits on a Free company, grants signed as `npm run plan`
 * signs them, Stripe's Checkout and webhooks against a local server that answers as Stripe does.
 */

const DENIED = 'Resource Access not provided';
const PUBLIC_URL = 'https://console.acme.test';

const monthName = (at: Date) => at.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const firstOfNextMonth = (at: Date) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toLocaleString('en-US', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

async function tally(
  server: TestServer,
  table: typeof users | typeof workflows | typeof systemAudits | typeof stripeEvents,
  where?: ReturnType<typeof eq>,
) {
  return (await server.db.select({ n: count() }).from(table).where(where))[0].n;
}

async function subscriptionOf(server: TestServer, token: string) {
  const res = await call(server, 'GET', '/subscription', { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function subscriptionAudits(server: TestServer, companyId: string) {
  return server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.companyId, companyId), eq(systemAudits.model, 'subscription')))
    .orderBy(systemAudits.createdAt);
}

describe('configuration', () => {
  it('puts companies without a subscription on Unlimited without Stripe, on Free with it, or on DEFAULT_PLAN', () => {
    expect(readConfig({}).plans).toEqual({ defaultPlan: 'unlimited', stripe: null });
    const withStripe = readConfig({
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PRICE_TEAM: 'price_team',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    }).plans;
    expect(withStripe).toMatchObject({
      defaultPlan: 'free',
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', prices: { team: 'price_team' } },
    });
    expect(readConfig({ DEFAULT_PLAN: 'Team' }).plans.defaultPlan).toBe('team');
    expect(() => readConfig({ DEFAULT_PLAN: 'gold' })).toThrow('DEFAULT_PLAN must be one of free, team, business, unlimited, got "gold"');
    expect(() => readConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_BUSINESS: 'business' })).toThrow(
      'STRIPE_PRICE_BUSINESS must be a Stripe price id',
    );
    expect(() => readConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_API_BASE: 'not a url' })).toThrow('STRIPE_API_BASE must be a URL');
  });
});

describe('a self-hosted server (no Stripe, the default plan)', () => {
  let plain: TestServer;
  let adminToken: string;
  beforeAll(async () => {
    plain = await createTestServer();
    adminToken = (await signInAdmin(plain)).accessToken!;
  });
  afterAll(async () => plain?.close());

  it('has every company on Unlimited, offers no checkout, and never blocks the demo', async () => {
    const data = await subscriptionOf(plain, adminToken);
    expect(data).toMatchObject({
      plan: 'unlimited',
      planName: 'Unlimited',
      limits: { users: null, workflows: null, runsPerMonth: null },
      usage: { users: 1, workflows: 0, runsPerMonth: 0 },
      isDefault: true,
      status: 'active',
      provider: 'self',
      currentPeriodEnd: null,
      checkoutAvailable: false,
    });
    expect(data.plans.map((plan: { id: string; checkout: boolean }) => [plan.id, plan.checkout])).toEqual([
      ['free', false],
      ['team', false],
      ['business', false],
      ['unlimited', false],
    ]);
    for (let i = 0; i < 6; i++) await inviteUser(plain, adminToken, { email: `many.${i}@acme.test` });
    expect((await subscriptionOf(plain, adminToken)).usage.users).toBe(7);

    const checkout = await call(plain, 'POST', '/subscription/checkout', { token: adminToken, body: { plan: 'team' } });
    expect(checkout.statusCode).toBe(400);
    expect(checkout.json().message).toBe(CHECKOUT_UNAVAILABLE_MESSAGE);
    const back = await call(plain, 'GET', '/checkoutSession?sessionId=cs_test_123', { token: adminToken });
    expect(back.statusCode).toBe(400);
    const hook = await call(plain, 'POST', '/subscription/webhook', {
      body: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
    });
    expect(hook.statusCode).toBe(404);
  });

  it('needs subscription/read to look, subscription/update to buy or apply a grant', async () => {
    const reader = await userWithPolicies(plain, adminToken, 'plan.reader@acme.test', [{ resource: 'subscription', actions: ['read'] }]);
    const nobody = await userWithPolicies(plain, adminToken, 'plan.nobody@acme.test', []);
    expect((await call(plain, 'GET', '/subscription', { token: reader.token })).statusCode).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/subscription/checkout', { plan: 'team' }],
      ['POST', '/subscription/verify', { token: 'anything' }],
    ] as const) {
      const res = await call(plain, method, path, { token: reader.token, body });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().message).toBe(DENIED);
    }
    for (const path of ['/subscription', '/checkoutSession?sessionId=cs_test_1', '/subscription/customer/cus_1']) {
      const res = await call(plain, 'GET', path, { token: nobody.token });
      expect(res.statusCode, path).toBe(403);
      expect(res.json().message).toBe(DENIED);
    }
  });
});

describe('a hosted server selling plans through Stripe', () => {
  let fake: FakeStripe;
  let server: TestServer;
  let adminToken: string;
  let companyId: string;
  let pairId: string;
  let globex: Awaited<ReturnType<typeof createOtherCompany>>;

  const grant = async (
    plan: PlanId,
    options: { hostname?: string; validDays?: number; now?: Date; secrets?: ReturnType<typeof createSecrets> } = {},
  ) =>
    (
      await signPlanGrant(
        options.secrets ?? server.app.ctx.secrets,
        { hostname: options.hostname ?? 'acme', plan, validDays: options.validDays },
        options.now,
      )
    ).token;
  const redeem = (token: string, as = adminToken) => call(server, 'POST', '/subscription/verify', { token: as, body: { token } });
  const webhook = (payload: string, signature?: string) =>
    call(server, 'POST', '/subscription/webhook', {
      body: payload,
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
    });
  const newWorkflow = (name: string) =>
    call(server, 'POST', '/workflow', {
      token: adminToken,
      body: {
        name,
        pairId,
        tasks: [
          {
            id: 'copy',
            name: 'Copy events',
            type: 'copy',
            from: { table: 'public.events' },
            to: { table: 'public.events', mode: 'replace' },
          },
        ],
      },
    });

  beforeAll(async () => {
    fake = await startFakeStripe();
    server = await createTestServer({
      publicUrl: PUBLIC_URL,
      plans: {
        defaultPlan: 'free',
        stripe: { secretKey: FAKE_STRIPE_KEY, webhookSecret: FAKE_WEBHOOK_SECRET, prices: { ...FAKE_PRICES }, apiBase: new URL(fake.url) },
      },
    });
    adminToken = (await signInAdmin(server)).accessToken!;
    companyId = server.company.companyId;
    globex = await createOtherCompany(server);
    const tag = crypto.randomBytes(4).toString('hex');
    const made = async (body: Record<string, unknown>) =>
      (await call(server, 'POST', '/connections', { token: adminToken, body })).json().data.id as string;
    const sourceId = await made({ name: 'Events', type: 'embedded', settings: { database: `plans-source-${tag}` } });
    const destinationId = await made({
      name: 'Lake',
      type: 'embedded',
      isSource: false,
      isDestination: true,
      settings: { database: `plans-destination-${tag}` },
    });
    pairId = crypto.randomUUID();
    expect(
      (await call(server, 'PUT', `/source/destination/${pairId}`, { token: adminToken, body: { sourceId, destinationId } })).statusCode,
    ).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  describe('the limits of the Free plan', () => {
    it('shows Free with its limits, what is used, and the plans on sale', async () => {
      const data = await subscriptionOf(server, adminToken);
      expect(data).toMatchObject({
        plan: 'free',
        limits: { users: 5, workflows: 3, runsPerMonth: 100 },
        usage: { users: 1, workflows: 0, runsPerMonth: 0 },
        isDefault: true,
        checkoutAvailable: true,
      });
      expect(data.plans.filter((plan: { checkout: boolean }) => plan.checkout).map((plan: { id: string }) => plan.id)).toEqual([
        'team',
        'business',
      ]);
    });

    it('refuses the sixth user, invited or made as a demo account, with the reason, and stores nothing', async () => {
      for (let i = 1; i <= 4; i++) await inviteUser(server, adminToken, { email: `seat.${i}@acme.test` });
      const before = await snapshot(server.db);
      const refused = await call(server, 'POST', '/user', {
        token: adminToken,
        body: { email: 'seat.5@acme.test', firstName: 'One', lastName: 'Toomany', roleId: server.company.memberRoleId },
      });
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toEqual({
        message: 'Your plan (Free) allows 5 users and the company has 5. Delete a user or upgrade on the Subscription page.',
        limit: 'users',
        plan: 'free',
        allowed: 5,
        used: 5,
      });
      const demo = await call(server, 'POST', '/client/createUser', {
        token: adminToken,
        body: {
          email: 'demo.6@acme.test',
          username: 'demo6',
          firstName: 'Demo',
          lastName: 'Six',
          password: 'Demo-pass-1234',
          roleId: server.company.memberRoleId,
        },
      });
      expect(demo.statusCode).toBe(402);
      expect(demo.json().message).toBe(refused.json().message);
      expect(await snapshot(server.db)).toEqual(before);
      // Another company's seats are its own.
      await inviteUser(server, globex.adminToken, { email: 'first@globex.test', roleId: globex.memberRoleId });
    });

    it('refuses the fourth workflow with the reason, and stores nothing', async () => {
      for (const name of ['First', 'Second', 'Third']) expect((await newWorkflow(name)).statusCode).toBe(201);
      const audits = await tally(server, systemAudits);
      const refused = await newWorkflow('Fourth');
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toMatchObject({
        message: 'Your plan (Free) allows 3 workflows and the company has 3. Delete a workflow or upgrade on the Subscription page.',
        limit: 'workflows',
        allowed: 3,
        used: 3,
      });
      expect(await tally(server, workflows, eq(workflows.companyId, companyId))).toBe(3);
      expect(await tally(server, systemAudits)).toBe(audits);
    });

    it('refuses the 101st run of the month, by hand or by an API key, and counts last month apart', async () => {
      const [workflow] = await server.db.select().from(workflows).where(eq(workflows.companyId, companyId)).limit(1);
      const now = new Date();
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 3_600_000);
      const finishedRun = (queuedAt: Date) => ({
        companyId,
        workflowId: workflow.id,
        trigger: 'manual',
        status: 'succeeded',
        queuedAt,
        startedAt: queuedAt,
        endedAt: queuedAt,
      });
      await server.db
        .insert(jobRuns)
        .values([...Array.from({ length: 100 }, () => finishedRun(now)), ...Array.from({ length: 7 }, () => finishedRun(lastMonth))]);
      expect((await subscriptionOf(server, adminToken)).usage.runsPerMonth).toBe(100);

      const countRuns = async () => (await server.db.select({ n: count() }).from(jobRuns).where(eq(jobRuns.companyId, companyId)))[0].n;
      const stored = await countRuns();
      const refused = await call(server, 'POST', `/workflow/run/${workflow.id}`, { token: adminToken });
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toMatchObject({
        message:
          `Your plan (Free) allows 100 runs a month and the company has queued 100 in ${monthName(now)}. ` +
          `Runs can start again on ${firstOfNextMonth(now)} (UTC), or upgrade on the Subscription page.`,
        limit: 'runsPerMonth',
        allowed: 100,
        used: 100,
      });

      const key = await call(server, 'POST', '/apikey', {
        token: adminToken,
        body: { name: 'Nightly', operations: ['post_workflow_run_jobId'] },
      });
      expect(key.statusCode, key.body).toBe(201);
      const byKey = await call(server, 'POST', `/workflow/run/${workflow.id}`, { headers: { 'x-api-key': key.json().data.key } });
      expect(byKey.statusCode).toBe(402);
      expect(byKey.json().message).toBe(refused.json().message);
      expect(await countRuns()).toBe(stored);
      expect(
        (
          await server.db
            .select()
            .from(systemAudits)
            .where(and(eq(systemAudits.model, 'workflow'), eq(systemAudits.operation, 'run')))
        ).length,
      ).toBe(0);
    });
  });

  describe('plan grants (provider self)', () => {
    it('refuses a forged, altered, expired, foreign or mistaken token, and changes nothing', async () => {
      const before = await subscriptionOf(server, adminToken);
      const forged = await grant('business', { secrets: createSecrets(crypto.randomBytes(32).toString('base64url')) });
      const genuine = await grant('business');
      const [head, , signature] = genuine.split('.');
      const claims = JSON.parse(Buffer.from(genuine.split('.')[1], 'base64url').toString());
      const altered = [head, Buffer.from(JSON.stringify({ ...claims, plan: 'unlimited' })).toString('base64url'), signature].join('.');
      const expired = await grant('business', { validDays: 1, now: new Date(Date.now() - 3 * 86_400_000) });
      const expiredOn = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const cases: Array<[string, RegExp]> = [
        [forged, new RegExp(`^${GRANT_INVALID_MESSAGE.replace(/[()]/g, '\\$&')}$`)],
        [altered, /^token: this is not a valid plan grant of this server/],
        [expired, new RegExp(`^token: this plan grant expired on ${expiredOn} \\d\\d:\\d\\d UTC; ask your operator for a new one$`)],
        [await grant('business', { hostname: 'globex' }), /^token: this plan grant is for the company "globex", not for "acme"$/],
        [adminToken, /^token: this is not a valid plan grant of this server/],
        ['not even a token', /^token: this is not a valid plan grant of this server/],
      ];
      for (const [token, message] of cases) {
        const res = await redeem(token);
        expect(res.statusCode, token.slice(0, 30)).toBe(400);
        expect(res.json().message).toMatch(message);
      }
      expect((await redeem('')).json().message).toBe('token: is required');
      expect(await subscriptionOf(server, adminToken)).toEqual(before);
      expect(await subscriptionAudits(server, companyId)).toEqual([]);
    });

    it('applies a valid grant once: the plan changes, is audited, and its limits apply at once', async () => {
      const token = await grant('team');
      const res = await redeem(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('The company is now on the Team plan');
      expect(res.json().data).toMatchObject({
        plan: 'team',
        isDefault: false,
        provider: 'self',
        status: 'active',
        limits: { users: 25, workflows: 50, runsPerMonth: 5000 },
      });
      const [audit] = await subscriptionAudits(server, companyId);
      expect(audit).toMatchObject({
        operation: 'plan_grant',
        userId: server.company.adminUserId,
        changes: { before: null, after: { plan: 'team', provider: 'self', status: 'active' } },
      });
      expect(
        (
          await call(server, 'POST', '/user', {
            token: adminToken,
            body: { email: 'seat.5@acme.test', firstName: 'Now', lastName: 'Welcome', roleId: server.company.memberRoleId },
          })
        ).statusCode,
      ).toBe(201);
      expect((await newWorkflow('Fourth')).statusCode).toBe(201);

      const again = await redeem(token);
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('token: this plan grant has already been used');
      // A grant signed before the plan last changed cannot undo that change.
      const older = await grant('business', { now: new Date(Date.now() - 3_600_000) });
      const stale = await redeem(older);
      expect(stale.statusCode).toBe(400);
      expect(stale.json().message).toMatch(
        /^token: this plan grant was issued before the company's plan last changed \(\d{4}-\d\d-\d\d\); ask your operator for a new one$/,
      );
      expect((await subscriptionOf(server, adminToken)).plan).toBe('team');
    });
  });

  describe('Stripe Checkout', () => {
    let sessionId: string;
    let customerId: string;

    it('starts a subscription checkout for the price of the plan, back to the Subscription page', async () => {
      for (const [plan, message] of [
        ['team', 'plan: the company is already on the Team plan'],
        ['unlimited', 'plan: the Unlimited plan cannot be bought on this server'],
        ['free', 'plan: the Free plan cannot be bought on this server'],
      ] as const) {
        const res = await call(server, 'POST', '/subscription/checkout', { token: adminToken, body: { plan } });
        expect(res.statusCode, plan).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect((await call(server, 'POST', '/subscription/checkout', { token: adminToken, body: { plan: 'gold' } })).json().message).toMatch(
        /^plan: must be one of free, team, business, unlimited/,
      );
      expect(fake.calls()).toEqual([]);

      const res = await call(server, 'POST', '/subscription/checkout', { token: adminToken, body: { plan: 'business' } });
      expect(res.statusCode, res.body).toBe(201);
      sessionId = res.json().data.sessionId;
      expect(res.json()).toEqual({
        message: 'Checkout for the Business plan is ready',
        data: { url: `https://checkout.stripe.test/c/pay/${sessionId}`, sessionId, subscription: null },
      });
      const [sent] = fake.calls();
      expect(sent).toMatchObject({
        method: 'POST',
        path: '/v1/checkout/sessions',
        form: {
          mode: 'subscription',
          client_reference_id: companyId,
          line_items: [{ price: FAKE_PRICES.business, quantity: '1' }],
          success_url: `${PUBLIC_URL}/subscription?sessionId={CHECKOUT_SESSION_ID}`,
          cancel_url: `${PUBLIC_URL}/subscription?checkout=canceled`,
          customer_email: server.company.adminEmail,
          metadata: { companyId, plan: 'business' },
          subscription_data: { metadata: { companyId, plan: 'business' } },
        },
      });
      const [stored] = await server.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
      expect(stored).toMatchObject({
        companyId,
        plan: 'business',
        status: 'open',
        createdBy: server.company.adminUserId,
        completedAt: null,
      });
    });

    it('answers an unpaid session as open, and applies the plan, customer and period once it is paid', async () => {
      const open = await call(server, 'GET', `/checkoutSession?sessionId=${sessionId}`, { token: adminToken });
      expect(open.statusCode, open.body).toBe(200);
      expect(open.json()).toMatchObject({
        message: 'This checkout is not paid yet; finish it on the Stripe page, or start it again',
        data: { status: 'open', applied: false, subscription: { plan: 'team' } },
      });

      const periodEnd = new Date(Date.now() + 30 * 86_400_000);
      ({ customer: customerId } = fake.complete(sessionId, { periodEnd }));
      const paid = await call(server, 'GET', `/checkoutSession?sessionId=${sessionId}`, { token: adminToken });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json()).toMatchObject({
        message: 'Thank you: the company is now on the Business plan',
        data: {
          sessionId,
          status: 'complete',
          paymentStatus: 'paid',
          plan: 'business',
          applied: true,
          subscription: { plan: 'business', provider: 'stripe', status: 'active', customerId },
        },
      });
      expect(new Date(paid.json().data.subscription.currentPeriodEnd).getTime()).toBe(Math.floor(periodEnd.getTime() / 1000) * 1000);
      // The retrieval asked for the session's price and subscription.
      const retrieval = fake.server.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`).at(-1)!;
      expect([...retrieval.query.values()].sort()).toEqual(['line_items', 'subscription']);
      // Coming back to the page again changes nothing more.
      expect((await call(server, 'GET', `/checkoutSession?sessionId=${sessionId}`, { token: adminToken })).statusCode).toBe(200);
      expect((await subscriptionAudits(server, companyId)).map((a) => a.operation)).toEqual(['plan_grant', 'checkout_completed']);
      const [stored] = await server.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
      expect(stored).toMatchObject({ status: 'complete', customerId });
    });

    it("keeps a company's sessions and customer to itself", async () => {
      for (const path of [`/checkoutSession?sessionId=${sessionId}`, `/subscription/customer/${customerId}`]) {
        const res = await call(server, 'GET', path, { token: globex.adminToken });
        expect(res.statusCode, path).toBe(404);
      }
      expect((await call(server, 'GET', '/checkoutSession?sessionId=cs_test_unknown', { token: adminToken })).statusCode).toBe(404);
      const bad = await call(server, 'GET', '/checkoutSession?sessionId=../../v1/customers', { token: adminToken });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('sessionId: must be a Stripe checkout session id (cs_…)');
      const mine = await call(server, 'GET', `/subscription/customer/${customerId}`, { token: adminToken });
      expect(mine.statusCode).toBe(200);
      expect(mine.json().data).toMatchObject({ plan: 'business', customerId });
    });

    it('moves a paying company to another plan on its Stripe subscription, without a second checkout', async () => {
      const sessionsBefore = fake.sessions.size;
      const res = await call(server, 'POST', '/subscription/checkout', { token: adminToken, body: { plan: 'team' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        message: 'The company is now on the Team plan',
        data: { url: null, subscription: { plan: 'team', provider: 'stripe', customerId } },
      });
      expect(fake.sessions.size).toBe(sessionsBefore);
      const update = fake.calls().at(-1)!;
      expect(update.path).toMatch(/^\/v1\/subscriptions\/sub_/);
      expect(update.form).toMatchObject({ items: [{ price: FAKE_PRICES.team }], proration_behavior: 'create_prorations' });

      // Stripe refusing is told as Stripe's words; a grant cannot replace a paid subscription.
      fake.failNext(400, 'This subscription is locked by a pending update.');
      const refused = await call(server, 'POST', '/subscription/checkout', { token: adminToken, body: { plan: 'business' } });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().message).toBe('Stripe refused to read the subscription: This subscription is locked by a pending update.');
      const granted = await redeem(await grant('business'));
      expect(granted.statusCode).toBe(409);
      expect(granted.json().message).toBe(
        'The company pays for the Team plan through Stripe; cancel that subscription before applying a plan grant',
      );
    });
  });

  describe('Stripe webhooks', () => {
    it('refuses an event without a valid signature, and records nothing', async () => {
      const event = fake.signedEvent('customer.subscription.deleted', { id: 'sub_x', object: 'subscription' });
      const missing = await webhook(event.payload);
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe('Stripe-Signature: the header is missing');
      const forged = fake.signedEvent(
        'customer.subscription.deleted',
        { id: 'sub_x', object: 'subscription' },
        { secret: 'whsec_someone_else' },
      );
      const wrong = await webhook(forged.payload, forged.signature);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toMatch(/^Stripe-Signature: No signatures found matching the expected signature for payload/);
      const tampered = await webhook(event.payload.replace('sub_x', 'sub_y'), event.signature);
      expect(tampered.statusCode).toBe(400);
      expect(await tally(server, stripeEvents)).toBe(0);
    });

    it('applies a checkout completed elsewhere once, however often Stripe delivers it', async () => {
      const started = await call(server, 'POST', '/subscription/checkout', { token: globex.adminToken, body: { plan: 'team' } });
      expect(started.statusCode, started.body).toBe(201);
      const session = fake.sessions.get(started.json().data.sessionId)!;
      fake.complete(String(session.id));
      const event = fake.signedEvent('checkout.session.completed', { ...session });
      const first = await webhook(event.payload, event.signature);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ message: 'The company is now on the Team plan', received: true });
      expect((await subscriptionOf(server, globex.adminToken)).plan).toBe('team');
      const replay = await webhook(event.payload, event.signature);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual({ message: `Event ${event.id} was already processed`, received: true });
      expect((await subscriptionAudits(server, globex.companyId)).map((a) => a.operation)).toEqual(['checkout_completed']);
      expect(await tally(server, stripeEvents)).toBe(1);
    });

    it('marks a failed payment past due and tells the admins; follows changes and the end of the subscription', async () => {
      const [row] = await server.db.select().from(subscriptions).where(eq(subscriptions.companyId, companyId));
      const stripeSubscription = fake.subscriptions.get(row.subscriptionId!)!;

      const failed = fake.signedEvent('invoice.payment_failed', {
        id: 'in_1',
        object: 'invoice',
        customer: row.customerId,
        status: 'open',
      });
      expect((await webhook(failed.payload, failed.signature)).json().message).toBe('Invoice in_1 failed; the subscription is past due');
      expect(await subscriptionOf(server, adminToken)).toMatchObject({ plan: 'team', status: 'past_due', isDefault: false });
      const [notice] = await server.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.companyId, companyId), eq(notifications.type, 'payment_failed')));
      expect(notice).toMatchObject({
        userId: server.company.adminUserId,
        title: 'The payment for the Team plan failed',
        link: '/subscription',
      });

      const items = stripeSubscription.items as { data: Array<Record<string, unknown>> };
      items.data[0].price = { id: FAKE_PRICES.business, object: 'price' };
      const changed = fake.signedEvent('customer.subscription.updated', { ...stripeSubscription, status: 'active' });
      expect((await webhook(changed.payload, changed.signature)).statusCode).toBe(200);
      expect(await subscriptionOf(server, adminToken)).toMatchObject({ plan: 'business', status: 'active' });

      const ended = fake.signedEvent('customer.subscription.deleted', { ...stripeSubscription, status: 'canceled' });
      expect((await webhook(ended.payload, ended.signature)).json().message).toBe(
        `Subscription ${row.subscriptionId} ended; the company is on the default plan`,
      );
      expect(await subscriptionOf(server, adminToken)).toMatchObject({
        plan: 'free',
        isDefault: true,
        subscribedPlan: 'business',
        status: 'canceled',
        provider: 'stripe',
      });
      // Back on Free, the company over its limits keeps what it has but adds nothing.
      const refused = await call(server, 'POST', '/user', {
        token: adminToken,
        body: { email: 'seat.7@acme.test', firstName: 'Late', lastName: 'Comer', roleId: server.company.memberRoleId },
      });
      expect(refused.statusCode).toBe(402);
      expect(refused.json().message).toBe(
        'Your plan (Free) allows 5 users and the company has 6. Delete a user or upgrade on the Subscription page.',
      );

      const other = fake.signedEvent('customer.created', { id: 'cus_new', object: 'customer' });
      expect((await webhook(other.payload, other.signature)).json().message).toBe(
        'Event type customer.created is not used by this server; ignored',
      );
    });
  });
});

describe('scheduled runs over the monthly allowance', () => {
  let world: RunnerWorld;
  afterAll(async () => world?.close());

  it('are skipped without a run row, and the admins are told once a month', async () => {
    world = await openRunnerWorld();
    const clock = new TestClock(new Date().toISOString());
    const runner = world.runner({ clock, plans: { defaultPlan: 'free' } });
    await runner.start();
    const task = world.tasks.define(async () => ({}));
    const workflowId = await insertWorkflow(world, { name: 'Every minute', taskIds: [task], scheduleCron: '* * * * *' });
    const now = new Date();
    await world.db.insert(jobRuns).values(
      Array.from({ length: 100 }, () => ({
        companyId: world.company.companyId,
        workflowId,
        trigger: 'schedule',
        status: 'succeeded',
        queuedAt: now,
        endedAt: now,
      })),
    );
    await runner.syncSchedule(world.company.companyId, workflowId);
    const notices = () =>
      world.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.companyId, world.company.companyId), eq(notifications.type, SCHEDULE_SKIPPED_NOTICE)));

    await clock.tick(61_000);
    const [notice] = await eventually(async () => {
      const rows = await notices();
      return rows.length > 0 && rows;
    }, 'the notice of a skipped scheduled run');
    expect(notice).toMatchObject({
      userId: world.company.adminUserId,
      title: `Scheduled runs are skipped until ${firstOfNextMonth(now)}`,
      link: '/subscription',
    });
    expect(notice.message).toMatch(
      /^The schedule of workflow "Every minute" did not start a run, nor will other schedules this month\. Your plan \(Free\) allows 100 runs a month/,
    );

    await clock.tick(61_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await notices()).toHaveLength(1);
    const [{ n }] = await world.db.select({ n: count() }).from(jobRuns).where(eq(jobRuns.workflowId, workflowId));
    expect(n).toBe(100);
  });
});
