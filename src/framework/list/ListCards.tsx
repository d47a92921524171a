import { Box, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LinkBase, useCanAccess, useDataProvider, useResourceContext, useTranslate } from 'react-admin';
import type { DashboardCard, DeclaredDataProvider } from '../../../providers/dataProvider';
import { cardsKey, firstPageFreshness } from './firstPage';

const SKELETON_CARDS = 4;

function CardBody({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
        {value}
      </Typography>
    </CardContent>
  );
}

function SummaryCard({ card, resource }: { card: DashboardCard; resource: string }) {
  const translate = useTranslate();
  const body = (
    <CardBody
      label={translate(`resources.${resource}.cards.${card.key}`, { _: card.label })}
      value={Number(card.value).toLocaleString('en')}
    />
  );
  return (
    <Card data-card={card.key} variant="outlined">
      {card.link ? (
        <CardActionArea component={LinkBase} to={card.link}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/**
 * The list's summary (`…/cards`) above it. It reloads with the list (react-admin's refresh
 * invalidates every query); a failure leaves it out without a toast (spec section 8).
 */
export function ListCards() {
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  const { canAccess } = useCanAccess({ resource, action: 'list' });
  const query = useQuery({
    queryKey: cardsKey(resource),
    queryFn: () => dataProvider.getCards(resource),
    retry: false,
    enabled: canAccess === true,
    staleTime: firstPageFreshness,
  });
  if (!canAccess || query.isError || (query.data && query.data.length === 0)) return null;
  return (
    <Box
      component="section"
      aria-label={translate('app.list.cards')}
      aria-busy={query.isPending}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', mt: 2 }}
    >
      {query.isPending
        ? Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <Card key={index} variant="outlined" aria-hidden>
              <CardBody label={<Skeleton width="60%" />} value={<Skeleton width="40%" />} />
            </Card>
          ))
        : query.data!.map((card) => <SummaryCard key={card.key} card={card} resource={resource} />)}
    </Box>
  );
}
