import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Box, IconButton, MenuItem, Select, Typography } from '@mui/material';
import { useId } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { pageRange } from './pageRange';

export const ROWS_PER_PAGE = [10, 25, 50, 100];

/**
 * Paging by offset and limit. Past the server's count cap (`countExact: false`) the total
 * reads "10,000+" and the next page stays reachable while pages come back full.
 */
export function ConsolePagination() {
  const { page, perPage, total, data, meta, hasNextPage, hasPreviousPage, setPage, setPerPage, isPending } = useListContext();
  const translate = useTranslate();
  const labelId = useId();
  if (isPending) return null;
  const rows = data?.length ?? 0;
  const count = (meta as { count?: number } | undefined)?.count;
  const exact = total != null && (meta as { countExact?: boolean } | undefined)?.countExact !== false;
  const range = pageRange(translate, { page, perPage, rows, total: exact ? total : undefined, cappedCount: count ?? undefined });
  const canGoBack = hasPreviousPage ?? page > 1;
  const canGoOn = hasNextPage ?? (exact ? page * perPage < total! : rows >= perPage);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 2, py: 0.5, px: 2, flexWrap: 'wrap' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-rows-per-page>
        <Typography variant="body2" component="span" id={labelId} color="text.secondary">
          {translate('app.list.rows_per_page')}
        </Typography>
        <Select
          size="small"
          variant="standard"
          disableUnderline
          value={perPage}
          onChange={(event) => setPerPage(Number(event.target.value))}
          labelId={labelId}
          sx={{ fontSize: 'body2.fontSize', '& .MuiSelect-select': { py: 0.5 } }}
        >
          {(ROWS_PER_PAGE.includes(perPage) ? ROWS_PER_PAGE : [...ROWS_PER_PAGE, perPage].sort((a, b) => a - b)).map((option) => (
            <MenuItem key={option} value={option}>
              {option}
            </MenuItem>
          ))}
        </Select>
      </Box>
      <Typography variant="body2" aria-live="polite" data-range>
        {range}
      </Typography>
      <Box>
        <IconButton aria-label={translate('ra.navigation.previous')} disabled={!canGoBack} onClick={() => setPage(page - 1)}>
          <ChevronLeftIcon />
        </IconButton>
        <IconButton aria-label={translate('ra.navigation.next')} disabled={!canGoOn} onClick={() => setPage(page + 1)}>
          <ChevronRightIcon />
        </IconButton>
      </Box>
    </Box>
  );
}
