import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Box, IconButton, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { pageRange } from '../list/pageRange';
import type { RelatedListState } from './useRelatedList';

/** Previous/next over a related list, with where the page is ("11–20 of 23", "11–20 of 10,000+"). */
export function RelatedPager({
  list,
}: {
  list: Pick<RelatedListState<unknown>, 'rows' | 'total' | 'cappedCount' | 'hasNextPage' | 'page' | 'perPage' | 'setPage'>;
}) {
  const translate = useTranslate();
  const { rows, total, cappedCount, page, perPage, setPage } = list;
  if (!rows) return null;
  const range = pageRange(translate, { page, perPage, rows: rows.length, total, cappedCount });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, pt: 1 }}>
      <Typography variant="body2" aria-live="polite" data-range>
        {range}
      </Typography>
      <IconButton aria-label={translate('ra.navigation.previous')} disabled={page === 1} onClick={() => setPage(page - 1)}>
        <ChevronLeftIcon />
      </IconButton>
      <IconButton aria-label={translate('ra.navigation.next')} disabled={!list.hasNextPage} onClick={() => setPage(page + 1)}>
        <ChevronRightIcon />
      </IconButton>
    </Box>
  );
}
