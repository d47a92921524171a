import { Alert, Box, Card, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { LIMIT_KEYS, type LimitKey } from '../../../common/plans';
import type { Subscription } from './api';
import { formatCount, formatDay } from './format';

/** How full a limit is: a warning from 80 %, an error at the limit. */
function barColour(used: number, allowed: number): 'primary' | 'warning' | 'error' {
  if (used >= allowed) return 'error';
  return used >= allowed * 0.8 ? 'warning' : 'primary';
}

function UsageBar({ limit, subscription, locale }: { limit: LimitKey; subscription: Subscription; locale: string }) {
  const translate = useTranslate();
  const used = subscription.usage[limit];
  const allowed = subscription.limits[limit];
  const label = translate(`app.subscription.limit.${limit}`);
  const figures =
    allowed === null
      ? translate('app.subscription.used_unlimited', { used: formatCount(used, locale) })
      : translate('app.subscription.used_of', { used: formatCount(used, locale), allowed: formatCount(allowed, locale) });
  const full = allowed !== null && used >= allowed;
  return (
    <Box data-limit={limit}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2" id={`usage-${limit}`}>
          {label}
        </Typography>
        <Typography variant="body2" color={full ? 'error' : 'text.secondary'}>
          {figures}
        </Typography>
      </Stack>
      <LinearProgress
        variant="determinate"
        aria-labelledby={`usage-${limit}`}
        aria-valuetext={figures}
        value={allowed === null ? 0 : Math.min(100, allowed === 0 ? 100 : (used / allowed) * 100)}
        color={allowed === null ? 'primary' : barColour(used, allowed)}
        sx={{ height: 8, borderRadius: 1 }}
      />
      {full && (
        <Typography variant="caption" color="error">
          {translate('app.subscription.at_limit')}
        </Typography>
      )}
    </Box>
  );
}

/** The plan in force, how it came, and each limit beside what the company uses of it. */
export function CurrentPlan({ subscription }: { subscription: Subscription }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const { status, provider } = subscription;
  const lapsed = subscription.isDefault && subscription.subscribedPlan && (status === 'canceled' || status === 'incomplete');
  const subscribedName = subscription.plans.find((plan) => plan.id === subscription.subscribedPlan)?.name ?? subscription.subscribedPlan;
  return (
    <Card variant="outlined" component="section" aria-labelledby="current-plan-title">
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {translate('app.subscription.current')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h6" component="h2" id="current-plan-title">
            {translate('app.subscription.on_plan', { plan: subscription.planName })}
          </Typography>
          {!subscription.isDefault && (
            <Chip
              size="small"
              label={translate(`app.subscription.status.${status}`)}
              color={status === 'past_due' ? 'warning' : 'success'}
              variant="outlined"
            />
          )}
          {!subscription.isDefault && <Chip size="small" label={translate(`app.subscription.provider.${provider}`)} variant="outlined" />}
        </Stack>
        {lapsed ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('app.subscription.lapsed', {
              plan: subscribedName,
              status: translate(`app.subscription.status.${status}`).toLowerCase(),
              current: subscription.planName,
            })}
          </Alert>
        ) : subscription.isDefault ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.subscription.default_plan')}
          </Typography>
        ) : null}
        {status === 'past_due' && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('app.subscription.past_due')}
          </Alert>
        )}
        {subscription.currentPeriodEnd && !subscription.isDefault && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.subscription.period_end', { date: formatDay(subscription.currentPeriodEnd, locale) })}
          </Typography>
        )}
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {translate('app.subscription.usage')}
        </Typography>
        <Stack spacing={2}>
          {LIMIT_KEYS.map((limit) => (
            <UsageBar key={limit} limit={limit} subscription={subscription} locale={locale} />
          ))}
        </Stack>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1.5 }}>
          {translate('app.subscription.runs_reset', { date: formatDay(subscription.runsResetAt, locale, true) })}
        </Typography>
      </CardContent>
    </Card>
  );
}
