import {
  Box,
  Button,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { formatWhen, RunStatusChip } from './cells';
import { usePaginationTexts } from '../../src/framework/list/usePaginationTexts';
import { RUNS_PAGE, useRunHistory } from './hooks';
import type { QualityRun } from './types';

/**
 * The table's past data-quality runs, kept by the server: when, how each was started and what it
 * came to; opening one shows its results and the failing rows each rule kept.
 */
export function RunHistory({ tableId, onOpen }: { tableId: string; onOpen: (run: QualityRun) => void }) {
  const translate = useTranslate();
  const paginationTexts = usePaginationTexts();
  const history = useRunHistory(tableId, onOpen);
  if (!history.available) return null;
  const title = translate('resources.tables.quality.history');
  const data = history.runs.data;
  return (
    <Box component="section" aria-label={title} sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {history.runs.isError && (
        <Typography variant="body2" color="error" role="status">
          {failureText(history.runs.error)}
        </Typography>
      )}
      {history.runs.isPending && <CircularProgress size={20} aria-label={translate('ra.page.loading')} />}
      {data && data.count === 0 && <Typography variant="body2">{translate('resources.tables.quality.history_empty')}</Typography>}
      {data && data.count > 0 && (
        <>
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.tables.quality.ended')}</TableCell>
                <TableCell>{translate('resources.tables.quality.trigger')}</TableCell>
                <TableCell>{translate('resources.tables.quality.status')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.rows.map((run) => {
                const when = formatWhen(run.endedAt ?? run.startedAt);
                return (
                  <TableRow key={run.id} data-run={run.id}>
                    <TableCell>{when}</TableCell>
                    <TableCell>{translate(`resources.tables.quality.triggers.${run.trigger}`, { _: run.trigger })}</TableCell>
                    <TableCell>
                      <RunStatusChip status={run.status} />
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        onClick={() => void history.open(run.id)}
                        disabled={history.opening !== null}
                        aria-busy={history.opening === run.id}
                        aria-label={translate('resources.tables.quality.open_run_of', { when })}
                      >
                        {translate('resources.tables.quality.open_run')}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          {data.count > RUNS_PAGE && (
            <TablePagination
              component="div"
              count={data.count}
              page={history.page}
              rowsPerPage={RUNS_PAGE}
              rowsPerPageOptions={[RUNS_PAGE]}
              onPageChange={(_, next) => history.setPage(next)}
              {...paginationTexts}
            />
          )}
        </>
      )}
    </Box>
  );
}
