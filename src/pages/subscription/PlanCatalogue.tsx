import { Box, Button, Card, CardActions, CardContent, Chip, Typography } from '@mui/material';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { LIMIT_KEYS } from '../../../common/plans';
import { alerts } from '../../../providers/alerts';
import { reloadAt } from '../../../providers/navigation';
import { failureText } from '../../framework/feedback';
import { startCheckout, type OfferedPlan, type Subscription } from './api';
import { formatCount, formatPrice } from './format';

function PlanFeatures({ plan, locale }: { plan: OfferedPlan; locale: string }) {
  const translate = useTranslate();
  return (
    <Box component="ul" sx={{ pl: 2.5, my: 1 }}>
      {LIMIT_KEYS.map((limit) => {
        const value = plan.limits[limit];
        return (
          <Typography component="li" variant="body2" key={limit}>
            {value === null
              ? translate(`app.subscription.feature.unlimited_${limit}`)
              : translate(`app.subscription.feature.${limit}`, { count: formatCount(value, locale) })}
          </Typography>
        );
      })}
    </Box>
  );
}

/**
 * The plans this server offers, as cards: what each allows and costs, and for those sold here an
 * Upgrade (or Switch) button that opens Stripe Checkout, or moves a running Stripe subscription
 * to that plan at once.
 */
export function PlanCatalogue({
  subscription,
  canUpdate,
  onChanged,
}: {
  subscription: Subscription;
  canUpdate: boolean;
  onChanged: (next: Subscription) => void;
}) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const [pending, setPending] = useState<string | null>(null);
  const currentRank = subscription.plans.findIndex((plan) => plan.current);

  const buy = async (plan: OfferedPlan) => {
    setPending(plan.id);
    try {
      const answer = await startCheckout(plan.id);
      if (answer.data.url) {
        alerts.loading(translate('app.subscription.opening_checkout'));
        reloadAt(answer.data.url);
        return;
      }
      if (answer.data.subscription) onChanged(answer.data.subscription);
      alerts.success(answer.message ?? '');
    } catch (error) {
      alerts.error(failureText(error));
    }
    setPending(null);
  };

  const freePlan = subscription.plans.find((plan) => plan.price?.amount === 0);
  return (
    <Box component="section" aria-labelledby="plans-title">
      <Typography variant="h6" component="h2" id="plans-title" sx={{ mb: 1 }}>
        {translate('app.subscription.plans')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: `repeat(${subscription.plans.length}, 1fr)` },
        }}
      >
        {subscription.plans.map((plan, rank) => (
          <Card
            key={plan.id}
            variant="outlined"
            component="article"
            aria-label={plan.name}
            sx={{
              display: 'flex',
              flexDirection: 'column',
              borderColor: plan.current ? 'primary.main' : undefined,
              borderWidth: plan.current ? 2 : 1,
            }}
          >
            <CardContent sx={{ flexGrow: 1 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography variant="h6" component="h3">
                  {plan.name}
                </Typography>
                {plan.current && <Chip size="small" color="primary" label={translate('app.subscription.current_plan')} />}
              </Box>
              {plan.price && (
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {translate('app.subscription.price_month', { price: formatPrice(plan.price, locale) })}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {plan.description}
              </Typography>
              <PlanFeatures plan={plan} locale={locale} />
            </CardContent>
            <CardActions sx={{ px: 2, pb: 2 }}>
              {plan.current ? null : plan.checkout && canUpdate ? (
                <Button variant={rank > currentRank ? 'contained' : 'outlined'} disabled={pending !== null} onClick={() => void buy(plan)}>
                  {translate(rank > currentRank ? 'app.subscription.upgrade' : 'app.subscription.switch', { plan: plan.name })}
                </Button>
              ) : plan.price === null || !subscription.checkoutAvailable ? (
                <Typography variant="caption" color="text.secondary">
                  {translate('app.subscription.by_grant')}
                </Typography>
              ) : plan.id === freePlan?.id && subscription.provider === 'stripe' ? (
                <Typography variant="caption" color="text.secondary">
                  {translate('app.subscription.back_to_free', { plan: plan.name })}
                </Typography>
              ) : null}
            </CardActions>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
