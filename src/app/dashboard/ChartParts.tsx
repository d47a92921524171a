import { Alert, Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import type { MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router';
import { useChartText } from './chartTexts';

/** A chart's card: its title (its name as a region), a skeleton while it loads, a note when its call failed. */
export function ChartFrame({
  title,
  pending,
  failed,
  actions,
  children,
}: {
  title: string;
  pending: boolean;
  failed: boolean;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const text = useChartText();
  return (
    <Card component="section" aria-label={title} aria-busy={pending} sx={{ height: '100%' }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 1.5 }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {actions}
        </Box>
        {pending ? (
          <Skeleton variant="rectangular" height={160} />
        ) : failed ? (
          <Alert severity="warning" variant="outlined">
            {text('unavailable')}
          </Alert>
        ) : (
          children
        )}
      </CardContent>
    </Card>
  );
}

/**
 * A mark of a chart (a bar, a slice) as a link to the list behind it: a real link (focusable,
 * named by its figure) that moves within the console without a reload.
 */
export function ChartLink({ to, label, children }: { to: string; label: string; children: ReactNode }) {
  const href = useHref(to);
  const navigate = useNavigate();
  const follow = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={href} aria-label={label} onClick={follow} style={{ cursor: 'pointer' }}>
      {children}
    </a>
  );
}

/** A coloured square before a series' name. */
export function Swatch({ color }: { color: string }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{ display: 'inline-block', width: 12, height: 12, borderRadius: '2px', bgcolor: color, flex: '0 0 auto' }}
    />
  );
}

export function percent(share: number): string {
  return `${(share * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`;
}
