import AddIcon from '@mui/icons-material/Add';
import ShareIcon from '@mui/icons-material/Share';
import {
  Alert,
  Box,
  Button,
  Card,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { failureText } from '../../framework/feedback';
import { usePaginationTexts } from '../../framework/list/usePaginationTexts';
import { ShareDialog } from '../../framework/share/ShareDialog';
import { listReports, type ReportRow } from './api';
import { MakeReportDialog } from './MakeReportDialog';
import { ReportDetails } from './ReportDetails';
import { AttachmentButtons, HeadlineFigures, useReportTexts } from './parts';

const PAGE_SIZES = [10, 25, 50];
const REPORTS_KEY = ['reports', 'list'];

/**
 * The company's reports (`/reports`): past weekly and on-demand reports with their figures and
 * files, "Make a report now", and sharing a report with colleagues. `?report=<id>` (the link of a
 * share) opens that report's details; someone without reports/read sees only a report shared with them.
 */
export default function ReportsPage() {
  const translate = useTranslate();
  const paginationTexts = usePaginationTexts();
  const texts = useReportTexts();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const shown = params.get('report');
  const { canAccess: mayRead, isPending: readPending } = useCanAccess({ resource: 'reports', action: 'read' });
  const { canAccess: mayCreate } = useCanAccess({ resource: 'reports', action: 'create' });
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(PAGE_SIZES[0]);
  const [making, setMaking] = useState(false);
  const [sharing, setSharing] = useState<ReportRow | null>(null);

  const list = useQuery({
    queryKey: [...REPORTS_KEY, page, perPage],
    queryFn: ({ signal }) => listReports(page * perPage, perPage, signal),
    enabled: mayRead === true,
    placeholderData: keepPreviousData,
    retry: false,
  });

  const show = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('report', id);
        else next.delete('report');
        return next;
      },
      { replace: !id },
    );

  const title = translate('resources.reports.title');
  const rows = list.data?.rows ?? [];
  return (
    <Box sx={{ py: 2 }}>
      <Title title={title} />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mb: 1, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
      >
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {mayCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setMaking(true)}>
            {translate('resources.reports.make.open')}
          </Button>
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 880 }}>
        {translate('resources.reports.intro')}
      </Typography>

      <Stack spacing={2}>
        {shown && <ReportDetails key={shown} id={shown} onClose={() => show(null)} />}
        {readPending ? (
          <CircularProgress aria-label={translate('ra.page.loading')} />
        ) : !mayRead ? (
          !shown && <Alert severity="info">{translate('resources.reports.no_access')}</Alert>
        ) : list.isError ? (
          <Alert severity="error">{translate('resources.reports.load_error', { message: failureText(list.error) })}</Alert>
        ) : (
          <Card variant="outlined">
            <TableContainer>
              <Table aria-label={translate('resources.reports.list')} size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('resources.reports.columns.period')}</TableCell>
                    <TableCell>{translate('resources.reports.columns.kind')}</TableCell>
                    <TableCell>{translate('resources.reports.columns.created')}</TableCell>
                    <TableCell>{translate('resources.reports.columns.figures')}</TableCell>
                    <TableCell>{translate('resources.reports.columns.files')}</TableCell>
                    <TableCell align="right">{translate('resources.reports.columns.actions')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {list.isPending ? (
                    <TableRow>
                      <TableCell colSpan={6}>
                        <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
                      </TableCell>
                    </TableRow>
                  ) : rows.length === 0 ? (
                    <TableRow>
                      <TableCell colSpan={6}>{translate('resources.reports.empty')}</TableCell>
                    </TableRow>
                  ) : (
                    rows.map((report) => (
                      <TableRow key={report.id} data-report={report.id} selected={report.id === shown}>
                        <TableCell>
                          <Typography variant="body2" sx={{ fontWeight: 600 }}>
                            {report.periodLabel}
                          </Typography>
                          <Typography variant="caption" color="text.secondary">
                            {report.timezone}
                          </Typography>
                        </TableCell>
                        <TableCell>{texts.kind(report)}</TableCell>
                        <TableCell>
                          <time dateTime={report.createdAt}>{new Date(report.createdAt).toLocaleString()}</time>
                          <Typography variant="caption" color="text.secondary" component="div">
                            {texts.madeBy(report)}
                          </Typography>
                        </TableCell>
                        <TableCell sx={{ maxWidth: 420 }}>
                          <HeadlineFigures figures={report.headline} />
                        </TableCell>
                        <TableCell>
                          <AttachmentButtons report={report} />
                        </TableCell>
                        <TableCell align="right">
                          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                            <Button
                              size="small"
                              onClick={() => show(report.id)}
                              aria-label={translate('resources.reports.open', { period: report.periodLabel })}
                            >
                              {translate('resources.reports.details.open')}
                            </Button>
                            {mayCreate && (
                              <Button
                                size="small"
                                startIcon={<ShareIcon />}
                                onClick={() => setSharing(report)}
                                aria-label={translate('resources.reports.share.report', { period: report.periodLabel })}
                              >
                                {translate('resources.reports.share.submit')}
                              </Button>
                            )}
                          </Stack>
                        </TableCell>
                      </TableRow>
                    ))
                  )}
                </TableBody>
              </Table>
            </TableContainer>
            <TablePagination
              component="div"
              count={list.data?.countExact === false ? -1 : (list.data?.count ?? 0)}
              page={page}
              onPageChange={(_, next) => setPage(next)}
              rowsPerPage={perPage}
              rowsPerPageOptions={PAGE_SIZES}
              onRowsPerPageChange={(event) => {
                setPerPage(Number(event.target.value));
                setPage(0);
              }}
              {...paginationTexts}
            />
          </Card>
        )}
      </Stack>

      <MakeReportDialog
        open={making}
        onClose={() => setMaking(false)}
        onMade={() => {
          setPage(0);
          void queryClient.invalidateQueries({ queryKey: REPORTS_KEY });
        }}
      />
      {sharing && (
        <ShareDialog
          open
          onClose={() => setSharing(null)}
          target={{ kind: 'report', reportId: sharing.id, title: `${texts.title(sharing)}: ${sharing.periodLabel}` }}
        />
      )}
    </Box>
  );
}
