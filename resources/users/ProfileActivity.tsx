import { Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useRecordContext, useTranslate } from 'react-admin';
import { ACTIVITY_DAYS, getActivityCards } from './api';
import type { User } from './types';

/**
 * What a user did over the last days (`GET /user/profile/cards/{id}/30`): sign-ins, failed
 * sign-ins, changes made, sessions open now. A failure leaves the row out, as list cards do.
 */
export function ProfileActivity({ userId }: { userId?: string; label?: false }) {
  const record = useRecordContext<User>();
  const id = userId ?? (record ? String(record.id) : undefined);
  const translate = useTranslate();
  const query = useQuery({
    queryKey: ['users', 'activity', id, ACTIVITY_DAYS],
    queryFn: ({ signal }) => getActivityCards(id!, ACTIVITY_DAYS, signal),
    enabled: Boolean(id),
    retry: false,
  });
  if (!id || query.isError || (query.data && query.data.length === 0)) return null;
  const heading = translate('resources.users.activity.title', { days: ACTIVITY_DAYS });
  return (
    <Box component="section" aria-label={heading} aria-busy={query.isPending} sx={{ mt: 2, width: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {heading}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))' }}>
        {(query.data ?? [null, null, null, null]).map((card, index) => (
          <Card key={card?.key ?? index} variant="outlined" data-card={card?.key}>
            <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
              <Typography variant="body2" color="text.secondary">
                {card ? translate(`resources.users.activity.cards.${card.key}`, { _: card.label }) : <Skeleton width="60%" />}
              </Typography>
              <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
                {card ? Number(card.value).toLocaleString('en') : <Skeleton width="40%" />}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
