import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Box, IconButton, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Page } from './api';
import { hasNextPage, PER_PAGE } from './hooks';

/** Previous/next over a paged sub-list (the dictionary, the rules), with where the page is. */
export function Pager({ data, page, setPage }: { data: Page<unknown> | undefined; page: number; setPage: (page: number) => void }) {
  const translate = useTranslate();
  if (!data) return null;
  const rows = data.rows.length;
  const from = page * PER_PAGE + 1;
  const to = from + rows - 1;
  const range =
    rows === 0
      ? translate('app.list.empty_range')
      : data.count !== undefined
        ? translate(data.countExact === false ? 'app.list.range_capped' : 'app.list.range', {
            from,
            to,
            total: data.count.toLocaleString('en'),
          })
        : translate('app.list.range_open', { from, to });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, pt: 1 }}>
      <Typography variant="body2" aria-live="polite" data-range>
        {range}
      </Typography>
      <IconButton aria-label={translate('ra.navigation.previous')} disabled={page === 0} onClick={() => setPage(page - 1)}>
        <ChevronLeftIcon />
      </IconButton>
      <IconButton aria-label={translate('ra.navigation.next')} disabled={!hasNextPage(data, page)} onClick={() => setPage(page + 1)}>
        <ChevronRightIcon />
      </IconButton>
    </Box>
  );
}
