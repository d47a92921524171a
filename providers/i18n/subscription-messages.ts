import type { StringMap } from 'react-admin';

/** The Subscription page's English texts (`app.subscription.*`): plans, usage, checkout and grants. */
export const subscriptionMessages = {
  app: {
    subscription: {
      title: 'Subscription',
      current: 'Current plan',
      on_plan: '%{plan} plan',
      default_plan: "Your company has no subscription of its own: it is on this server's default plan.",
      lapsed: 'The %{plan} subscription is %{status}, so the company is on the %{current} plan.',
      past_due: 'The last payment failed. The plan stays in force while Stripe tries again: update the payment method with Stripe.',
      status: {
        active: 'Active',
        trialing: 'Trial',
        past_due: 'Payment due',
        canceled: 'Canceled',
        incomplete: 'Incomplete',
      },
      provider: {
        self: 'Assigned by the operator',
        stripe: 'Paid through Stripe',
      },
      period_end: 'The current period ends on %{date}.',
      usage: 'Usage',
      limit: {
        users: 'Users',
        workflows: 'Workflows',
        runsPerMonth: 'Runs this month',
      },
      used_of: '%{used} of %{allowed}',
      used_unlimited: '%{used} (no limit)',
      at_limit: 'Limit reached: nothing more can be added until one is removed or the plan is upgraded.',
      runs_reset: 'Runs are counted per calendar month (UTC); the count starts again on %{date}.',
      plans: 'Plans',
      price_month: '%{price} a month',
      feature: {
        users: 'Up to %{count} users',
        workflows: 'Up to %{count} workflows',
        runsPerMonth: '%{count} runs a month',
        unlimited_users: 'Unlimited users',
        unlimited_workflows: 'Unlimited workflows',
        unlimited_runsPerMonth: 'Unlimited runs',
      },
      current_plan: 'Current plan',
      upgrade: 'Upgrade to %{plan}',
      switch: 'Switch to %{plan}',
      opening_checkout: 'Opening Stripe Checkout…',
      by_grant: 'Through a plan grant from your operator',
      back_to_free: 'To return to %{plan}, cancel the subscription with Stripe',
      no_checkout: 'Plans are not sold on this server: ask its operator for a plan grant and paste it below.',
      read_only: 'You can see the plan; changing it needs the permission to update the subscription.',
      checkout: {
        checking: 'Checking the payment with Stripe…',
        canceled: 'The checkout was canceled; nothing was charged.',
      },
      grant: {
        title: 'Paste a plan grant',
        help: 'Your operator makes one with "npm run plan -- <host name> <plan> --grant". Paste it here to apply its plan to your company.',
        label: 'Plan grant',
        apply: 'Apply grant',
        required: 'Paste the grant first',
      },
    },
  },
} satisfies StringMap;
