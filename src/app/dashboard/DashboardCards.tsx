import { Box, Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LinkBase, useTranslate } from 'react-admin';
import type { DashboardCard } from '../../../providers/dataProvider';
import { usePrepareListPage } from '../menu/usePrepareListPage';

const SKELETON_CARDS = 4;

function CardBody({ label, value }: { label: ReactNode; value: ReactNode }) {
  return (
    <CardContent>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        {label}
      </Typography>
      <Typography variant="h4" component="p" sx={{ fontWeight: 600 }}>
        {value}
      </Typography>
    </CardContent>
  );
}

function ValueCard({ card }: { card: DashboardCard }) {
  const translate = useTranslate();
  // A card linked to a list starts that list's first page as the user heads for it, as a menu entry does.
  const prepareHandlers = usePrepareListPage(card.link);
  const body = <CardBody label={translate(`app.dashboard.card.${card.key}`, { _: card.label })} value={card.value.toLocaleString()} />;
  return (
    <Card data-card={card.key} sx={{ height: '100%' }}>
      {card.link ? (
        <CardActionArea component={LinkBase} to={card.link} {...prepareHandlers} sx={{ height: '100%' }}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/** A titled grid of value cards, with skeletons while they load. */
export function DashboardCards({ title, query }: { title: string; query: UseQueryResult<DashboardCard[]> }) {
  const translate = useTranslate();
  const heading = translate(title);
  return (
    <Box component="section" aria-label={heading} aria-busy={query.isPending} sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {heading}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
        {query.isPending
          ? Array.from({ length: SKELETON_CARDS }, (_, index) => (
              <Card key={index} aria-hidden>
                <CardBody label={<Skeleton width="60%" />} value={<Skeleton width="40%" />} />
              </Card>
            ))
          : (query.data ?? []).map((card) => <ValueCard key={card.key} card={card} />)}
      </Box>
    </Box>
  );
}
