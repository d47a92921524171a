import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { failureText } from '../../framework/feedback';
import { useCheckoutOutcome, useSubscription } from './api';
import { CurrentPlan } from './CurrentPlan';
import { GrantForm } from './GrantForm';
import { PlanCatalogue } from './PlanCatalogue';

/** Back from Stripe Checkout (`?sessionId=…`, or `?checkout=canceled`): what became of the payment. */
function CheckoutReturn() {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const sessionId = params.get('sessionId');
  const outcome = useCheckoutOutcome(sessionId);
  if (params.get('checkout') === 'canceled') return <Alert severity="info">{translate('app.subscription.checkout.canceled')}</Alert>;
  if (!sessionId) return null;
  if (outcome.isPending) return <Alert severity="info">{translate('app.subscription.checkout.checking')}</Alert>;
  if (outcome.isError) return <Alert severity="error">{failureText(outcome.error)}</Alert>;
  const { data } = outcome.data;
  const severity = data.applied ? 'success' : data.status === 'expired' ? 'warning' : 'info';
  return (
    <Alert severity={severity} role="status">
      {outcome.data.message}
    </Alert>
  );
}

/**
 * The company's plan (`/subscription`): the plan in force and its limits beside what the company
 * uses, the plans this server offers with Stripe Checkout for those sold here, and the form that
 * applies an operator's plan grant. Those who may read but not update the subscription only look.
 */
export default function SubscriptionPage() {
  const translate = useTranslate();
  const subscription = useSubscription();
  const { canAccess: canUpdate, isPending: checking } = useCanAccess({ resource: 'subscription', action: 'update' });
  const title = translate('app.subscription.title');
  const data = subscription.data;
  return (
    <Box sx={{ py: 2, maxWidth: 1100 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>
        <CheckoutReturn />
        {subscription.isError ? (
          <Alert severity="error">{failureText(subscription.error)}</Alert>
        ) : !data || checking ? (
          <CircularProgress aria-label={translate('ra.page.loading')} />
        ) : (
          <>
            {!canUpdate && <Alert severity="info">{translate('app.subscription.read_only')}</Alert>}
            <CurrentPlan subscription={data} />
            {canUpdate && !data.checkoutAvailable && <Alert severity="info">{translate('app.subscription.no_checkout')}</Alert>}
            <PlanCatalogue subscription={data} canUpdate={canUpdate === true} onChanged={subscription.replace} />
            {canUpdate && <GrantForm onApplied={subscription.replace} />}
          </>
        )}
      </Stack>
    </Box>
  );
}
