import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Card,
  CardContent,
  CircularProgress,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { RUN_STATUSES } from '../../../common/schemas/workflows';
import { failureText } from '../../framework/feedback';
import { getReport, type ReportDetail } from './api';
import { AttachmentButtons, HeadlineFigures, useReportTexts } from './parts';

const count = (value: number) => value.toLocaleString('en');
const QUALITY_STATUSES = ['passed', 'warned', 'failed', 'error'] as const;
/** Figures by status in a fixed order (a stored summary's keys come back in the database's order). */
const byStatus = (
  statuses: readonly string[],
  values: Record<string, number>,
  label: (status: string) => string,
): Array<[string, number]> => statuses.map((status) => [label(status), values[status] ?? 0]);

/** One section of figures: label and value pairs, then its tables. */
function Section({ title, figures, children }: { title: string; figures: Array<[string, number]>; children?: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', md: '1fr auto 1fr auto' }, columnGap: 2, rowGap: 0.25, m: 0 }}
      >
        {figures.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, textAlign: 'right', fontWeight: 600 }}>
              {count(value)}
            </Typography>
          </Box>
        ))}
      </Box>
      {children}
    </Box>
  );
}

function FigureTable({
  caption,
  columns,
  rows,
  empty,
}: {
  caption: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  empty: string;
}) {
  return (
    <Box sx={{ mt: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {caption}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      ) : (
        <Table size="small" aria-label={caption}>
          <TableHead>
            <TableRow>
              {columns.map((column, index) => (
                <TableCell key={column} align={index === columns.length - 1 ? 'right' : 'left'}>
                  {column}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => (
              <TableRow key={index}>
                {row.map((cell, cellIndex) => (
                  <TableCell key={cellIndex} align={typeof cell === 'number' ? 'right' : 'left'}>
                    {typeof cell === 'number' ? count(cell) : cell}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

function Figures({ report }: { report: ReportDetail }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.reports.figures.${key}`);
  const status = (value: string) => translate(`resources.reports.status.${value}`, { _: value });
  const { runs, quality, security, usage } = report.summary;
  return (
    <Stack spacing={2}>
      <Section
        title={t('runs')}
        figures={[[t('runs_total'), runs.total], ...byStatus(RUN_STATUSES, runs.byStatus, status), [t('rows_copied'), runs.rowsCopied]]}
      >
        <FigureTable
          caption={t('failing_workflows')}
          columns={[t('workflow'), t('failed_runs')]}
          rows={runs.failingWorkflows.map((workflow) => [workflow.name, workflow.failures])}
          empty={t('no_failed_runs')}
        />
      </Section>
      <Section
        title={t('quality')}
        figures={[
          [t('check_runs'), quality.runs],
          ...byStatus(QUALITY_STATUSES, quality.runsByStatus, (key) => `${t('check_runs')}: ${status(key)}`),
          [t('checks'), quality.checks],
          ...byStatus(QUALITY_STATUSES, quality.checksByResult, (key) => `${t('checks')}: ${status(key)}`),
        ]}
      >
        <FigureTable
          caption={t('failed_checks')}
          columns={[t('table'), t('rule'), t('failures')]}
          rows={quality.failedChecks.map((check) => [
            check.table,
            check.column ? `${check.rule} (${check.column})` : check.rule,
            check.failures,
          ])}
          empty={t('no_failed_checks')}
        />
      </Section>
      <Section
        title={t('security')}
        figures={[
          [t('sign_ins'), security.signIns],
          [t('failed_sign_ins'), security.failedSignIns],
          [t('blocked'), security.blocked],
          [t('failed_codes'), security.failedCodes],
          [t('new_sessions'), security.newSessions],
          [t('impersonations'), security.impersonations],
          [t('addresses'), security.addresses],
        ]}
      />
      <Section
        title={t('usage')}
        figures={[
          [t('active_users'), usage.activeUsers],
          [t('new_users'), usage.newUsers],
          [t('connections'), usage.connections.total],
          [t('connections_added'), usage.connections.added],
          [t('tables'), usage.tables.total],
          [t('tables_added'), usage.tables.added],
          [t('workflows'), usage.workflows.total],
          [t('workflows_added'), usage.workflows.added],
          [t('changes'), usage.changes],
          [t('api_key_changes'), usage.apiKeyChanges],
          [t('api_key_runs'), usage.apiKeyRuns],
        ]}
      />
    </Stack>
  );
}

/** A report's whole summary, opened from the list or from a share's link (`/reports?report=<id>`). */
export function ReportDetails({ id, onClose }: { id: string; onClose: () => void }) {
  const translate = useTranslate();
  const texts = useReportTexts();
  const report = useQuery({ queryKey: ['reports', 'one', id], queryFn: ({ signal }) => getReport(id, signal), retry: false });
  const data = report.data;
  const heading = data ? `${texts.title(data)}: ${data.periodLabel}` : translate('resources.reports.details.loading');
  return (
    <Card component="section" aria-label={heading} variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Box>
            <Typography variant="h6" component="h2">
              {heading}
            </Typography>
            {data && (
              <Typography variant="body2" color="text.secondary">
                {texts.madeBy(data)} · {translate('resources.reports.details.timezone', { zone: data.timezone })}
              </Typography>
            )}
          </Box>
          <IconButton onClick={onClose} aria-label={translate('resources.reports.details.close')}>
            <CloseIcon />
          </IconButton>
        </Stack>
        {report.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {failureText(report.error)}
          </Alert>
        ) : !data ? (
          <CircularProgress aria-label={translate('ra.page.loading')} sx={{ mt: 2 }} />
        ) : (
          <Stack spacing={2} sx={{ mt: 2 }}>
            <HeadlineFigures figures={data.headline} />
            <AttachmentButtons report={data} />
            <Figures report={data} />
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
