import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { PLAN_IDS, PLANS } from '../../../../common/plans';
import { alerts } from '../../../../providers/alerts';
import { reloadAt } from '../../../../providers/navigation';
import type { SessionUser } from '../../../../providers/types';
import type { Subscription } from '../../../../src/pages/subscription/api';
import { server } from '../../msw';
import { sessionUser } from '../../fixtures';
import { renderRegisteredPage } from '../renderRegisteredPage';

// Leaving for Stripe's page is a full page load, which jsdom cannot make: record where it would go.
vi.mock('../../../../providers/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../providers/navigation')>()),
  reloadAt: vi.fn(),
}));

const API = '/api/v1';
const TIMEOUT_MS = 30_000;
configure({ asyncUtilTimeout: 10_000 });

/** GET /subscription's answer as docs/api/subscription.md shows it, on `plan`, with Stripe's checkout unless told. */
function subscriptionOf(plan: (typeof PLAN_IDS)[number], overrides: Partial<Subscription> = {}): Subscription {
  const checkoutAvailable = overrides.checkoutAvailable ?? true;
  return {
    plan,
    planName: PLANS[plan].name,
    limits: PLANS[plan].limits,
    usage: { users: 5, workflows: 2, runsPerMonth: 80 },
    runsResetAt: '2026-12-01T00:00:00.000Z',
    isDefault: plan === 'free',
    subscribedPlan: plan === 'free' ? null : plan,
    status: 'active',
    provider: plan === 'free' ? 'self' : 'stripe',
    customerId: null,
    currentPeriodEnd: null,
    updatedAt: null,
    checkoutAvailable,
    plans: PLAN_IDS.map((id) => ({
      ...PLANS[id],
      current: id === plan,
      checkout: checkoutAvailable && (id === 'team' || id === 'business'),
    })),
    ...overrides,
  };
}

interface Sent {
  method: string;
  path: string;
  query: string;
  body?: unknown;
}

/**
 * The subscription routes over one stored answer, which the given handlers may replace (as the
 * server's own state changes after a checkout or a grant); every call is recorded first.
 */
function subscriptionApi(initial: Subscription, routes: (state: { set(next: Subscription): void }) => HttpHandler[] = () => []) {
  const sent: Sent[] = [];
  let current = initial;
  const state = { set: (next: Subscription) => (current = next) };
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const body = request.headers.get('content-type')?.includes('json') ? await request.clone().json() : undefined;
      sent.push({ method: request.method, path: url.pathname.slice(API.length), query: url.search, body });
      return undefined;
    }),
    ...routes(state),
    http.get(`${API}/subscription`, () => HttpResponse.json({ message: 'Subscription', data: current })),
  );
  return {
    sent,
    seen: (pattern: RegExp) => sent.filter((call) => pattern.test(`${call.method} ${call.path}`)),
  };
}

/** The console's page registry rendered as MainApp renders it. */
function renderPage(user: SessionUser = sessionUser(), at = '/subscription') {
  return renderRegisteredPage('/subscription', { user, at });
}

const card = (name: string) => screen.getByRole('article', { name });

beforeEach(() => {
  vi.mocked(reloadAt).mockClear();
  // Alerts outlive a screen; each test starts without one (cleared before rendering, not after, when nothing would re-render).
  alerts.clear();
});

describe('the Subscription page', { timeout: TIMEOUT_MS }, () => {
  it('shows the plan in force with each limit beside its use, and the plans with what they allow and cost', async () => {
    subscriptionApi(subscriptionOf('free'));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Free plan' })).toBeInTheDocument();
    expect(screen.getByText("Your company has no subscription of its own: it is on this server's default plan.")).toBeInTheDocument();

    const users = screen.getByRole('progressbar', { name: 'Users' });
    expect(users).toHaveAttribute('aria-valuenow', '100');
    expect(users).toHaveAttribute('aria-valuetext', '5 of 5');
    expect(screen.getByText('Limit reached: nothing more can be added until one is removed or the plan is upgraded.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Runs this month' })).toHaveAttribute('aria-valuetext', '80 of 100');
    expect(screen.getByText('Runs are counted per calendar month (UTC); the count starts again on December 1, 2026.')).toBeInTheDocument();

    const team = card('Team');
    expect(within(team).getByText('$49 a month')).toBeInTheDocument();
    expect(within(team).getByText('Up to 25 users')).toBeInTheDocument();
    expect(within(team).getByText('5,000 runs a month')).toBeInTheDocument();
    expect(within(card('Business')).getByText('Unlimited workflows')).toBeInTheDocument();
    expect(within(card('Free')).getByText('Current plan')).toBeInTheDocument();
    expect(within(card('Free')).queryByRole('button')).toBeNull();
    expect(within(card('Unlimited')).getByText('Through a plan grant from your operator')).toBeInTheDocument();
  });

  it('opens Stripe Checkout for the chosen plan', async () => {
    const api = subscriptionApi(subscriptionOf('free'), () => [
      http.post(`${API}/subscription/checkout`, () =>
        HttpResponse.json(
          {
            message: 'Checkout for the Team plan is ready',
            data: { url: 'https://checkout.stripe.test/c/pay/cs_test_1', sessionId: 'cs_test_1', subscription: null },
          },
          { status: 201 },
        ),
      ),
    ]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade to Team' }));
    await waitFor(() => expect(reloadAt).toHaveBeenCalledExactlyOnceWith('https://checkout.stripe.test/c/pay/cs_test_1'));
    expect(api.seen(/^POST/).map((call) => call.body)).toEqual([{ plan: 'team' }]);
    expect(await screen.findByText('Opening Stripe Checkout…')).toBeInTheDocument();
  });

  it("moves a paying company to another plan at once, and shows Stripe's refusal as the server words it", async () => {
    let refuse = true;
    const api = subscriptionApi(subscriptionOf('business', { usage: { users: 30, workflows: 60, runsPerMonth: 1200 } }), (state) => [
      http.post(`${API}/subscription/checkout`, () => {
        if (refuse)
          return HttpResponse.json({ message: 'Stripe refused to change the subscription: Your card was declined.' }, { status: 502 });
        state.set(subscriptionOf('team'));
        return HttpResponse.json({
          message: 'The company is now on the Team plan',
          data: { url: null, sessionId: null, subscription: subscriptionOf('team') },
        });
      }),
    ]);
    renderPage();
    const change = await screen.findByRole('button', { name: 'Switch to Team' });
    await userEvent.click(change);
    expect(await screen.findByText('Stripe refused to change the subscription: Your card was declined.')).toBeInTheDocument();
    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Switch to Team' }));
    expect(await screen.findByText('The company is now on the Team plan')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Team plan' })).toBeInTheDocument();
    expect(reloadAt).not.toHaveBeenCalled();
    expect(api.seen(/^POST/).map((call) => call.body)).toEqual([{ plan: 'team' }, { plan: 'team' }]);
  });

  it('back from Stripe with ?sessionId=, asks the server what became of the checkout and shows the new plan', async () => {
    const paid = subscriptionOf('team', { currentPeriodEnd: '2026-12-14T09:30:00.000Z' });
    const api = subscriptionApi(subscriptionOf('free'), (state) => [
      http.get(`${API}/checkoutSession`, async ({ request }) => {
        if (new URL(request.url).searchParams.get('sessionId') !== 'cs_test_paid')
          return HttpResponse.json({ message: 'Checkout session not found' }, { status: 404 });
        state.set(paid);
        return HttpResponse.json({
          message: 'Thank you: the company is now on the Team plan',
          data: { sessionId: 'cs_test_paid', status: 'complete', paymentStatus: 'paid', plan: 'team', applied: true, subscription: paid },
        });
      }),
    ]);
    renderPage(sessionUser(), '/subscription?sessionId=cs_test_paid');
    expect(await screen.findByRole('status')).toHaveTextContent('Thank you: the company is now on the Team plan');
    expect(await screen.findByRole('heading', { name: 'Team plan' })).toBeInTheDocument();
    expect(screen.getByText('Paid through Stripe')).toBeInTheDocument();
    expect(screen.getByText('The current period ends on December 14, 2026.')).toBeInTheDocument();
    expect(api.seen(/^GET \/checkoutSession/).map((call) => call.query)).toEqual(['?sessionId=cs_test_paid']);
  });

  it('says a canceled checkout charged nothing', async () => {
    subscriptionApi(subscriptionOf('free'));
    renderPage(sessionUser(), '/subscription?checkout=canceled');
    expect(await screen.findByText('The checkout was canceled; nothing was charged.')).toBeInTheDocument();
  });

  it("applies a pasted plan grant, showing the server's refusal on the field", async () => {
    const granted = subscriptionOf('business', { checkoutAvailable: false, provider: 'self' });
    const api = subscriptionApi(
      subscriptionOf('unlimited', { checkoutAvailable: false, isDefault: true, provider: 'self', subscribedPlan: null }),
      (state) => [
        http.post(`${API}/subscription/verify`, async ({ request }) => {
          const { token } = (await request.json()) as { token: string };
          if (token.endsWith('.old.grant'))
            return HttpResponse.json(
              { message: 'token: this plan grant expired on 2026-11-30 09:12 UTC; ask your operator for a new one' },
              { status: 400 },
            );
          state.set(granted);
          return HttpResponse.json({ message: 'The company is now on the Business plan', data: granted });
        }),
      ],
    );
    renderPage();
    expect(
      await screen.findByText('Plans are not sold on this server: ask its operator for a plan grant and paste it below.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Upgrade|Switch/ })).toBeNull();

    const field = screen.getByLabelText('Plan grant');
    await userEvent.click(screen.getByRole('button', { name: 'Apply grant' }));
    expect(await screen.findByText('Paste the grant first')).toBeInTheDocument();
    expect(api.seen(/^POST/)).toEqual([]);

    await userEvent.type(field, '  eyJhbGciOiJIUzI1NiJ9.old.grant  ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply grant' }));
    expect(await screen.findByText('this plan grant expired on 2026-11-30 09:12 UTC; ask your operator for a new one')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(field);
    await userEvent.type(field, 'eyJhbGciOiJIUzI1NiJ9.new.grant');
    await userEvent.click(screen.getByRole('button', { name: 'Apply grant' }));
    expect(await screen.findByText('The company is now on the Business plan')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Business plan' })).toBeInTheDocument();
    expect(screen.getByText('Assigned by the operator')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(api.seen(/^POST/).map((call) => call.body)).toEqual([
      { token: 'eyJhbGciOiJIUzI1NiJ9.old.grant' },
      { token: 'eyJhbGciOiJIUzI1NiJ9.new.grant' },
    ]);
  });

  it('lets someone who may only read the subscription look, without buying or granting', async () => {
    subscriptionApi(subscriptionOf('team'), () => [
      http.get(`${API}/authorization/user/policies`, () =>
        HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies: [{ resource: 'subscription', actions: ['read'] }] } }),
      ),
    ]);
    renderPage(sessionUser({ isAdmin: false }));
    expect(
      await screen.findByText('You can see the plan; changing it needs the permission to update the subscription.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Team plan' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Upgrade|Switch|Apply grant/ })).toBeNull();
    expect(screen.queryByLabelText('Plan grant')).toBeNull();
  });

  it('warns of a failed payment and of a subscription that has lapsed', async () => {
    subscriptionApi(subscriptionOf('team', { status: 'past_due' }));
    renderPage();
    expect(
      await screen.findByText(
        'The last payment failed. The plan stays in force while Stripe tries again: update the payment method with Stripe.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Payment due')).toBeInTheDocument();
  });

  it('tells a lapsed subscription apart from no subscription', async () => {
    subscriptionApi(subscriptionOf('free', { isDefault: true, subscribedPlan: 'team', status: 'canceled', provider: 'stripe' }));
    renderPage();
    expect(await screen.findByText('The Team subscription is canceled, so the company is on the Free plan.')).toBeInTheDocument();
    expect(within(card('Free')).getByText('Current plan')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade to Team' })).toBeInTheDocument();
  });
});
