import { Alert, Box, MenuItem, TextField, Typography, useTheme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { RUN_STATUSES } from '../../../common/schemas/workflows';
import { daysBefore, runsOfDay, runsSince, TABLES_PATH, today } from './chartLinks';
import { ChartFrame } from './ChartParts';
import type { RunStatus } from './chartsApi';
import { useChartText } from './chartTexts';
import { DonutChart } from './DonutChart';
import { StackedBarChart } from './StackedBarChart';
import { useDailyRuns, usePieCharts } from './useDashboardCharts';

/** Each run status and check result in the theme's colours (the status chips' meanings). */
export function useStatusColours() {
  const { palette } = useTheme();
  const runs: Record<RunStatus, string> = {
    succeeded: palette.success.main,
    failed: palette.error.main,
    timed_out: palette.warning.main,
    canceled: palette.grey[500],
    running: palette.info.main,
    queued: palette.secondary.main,
  };
  const checks: Record<string, string> = {
    passed: palette.success.main,
    warned: palette.warning.main,
    failed: palette.error.main,
    error: palette.grey[700],
  };
  return { runs, checks };
}

/** The runs of each day of a range by status: a stacked bar chart, from the last 14 days, one status or all. */
export function RunsByDayChart() {
  const text = useChartText();
  const translate = useTranslate();
  const colours = useStatusColours();
  const { range, setRange, valid, status, setStatus, query } = useDailyRuns();
  const statusLabel = (name: string) => translate(`resources.job-runs.statuses.${name}`, { _: name });
  const series = RUN_STATUSES.filter((name) => !status || name === status).map((name) => ({
    key: name,
    label: statusLabel(name),
    color: colours.runs[name],
  }));
  const days = query.data ?? [];
  const empty = days.every((day) => RUN_STATUSES.every((name) => day[name] === 0));
  const controls = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <TextField
        type="date"
        size="small"
        label={text('from')}
        value={range.from}
        error={!valid}
        onChange={(event) => setRange({ ...range, from: event.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        size="small"
        label={text('to')}
        value={range.to}
        error={!valid}
        onChange={(event) => setRange({ ...range, to: event.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        select
        size="small"
        label={text('status')}
        value={status}
        onChange={(event) => setStatus(event.target.value as RunStatus | '')}
        sx={{ minWidth: 160 }}
      >
        <MenuItem value="">{text('all_statuses')}</MenuItem>
        {RUN_STATUSES.map((name) => (
          <MenuItem key={name} value={name}>
            {statusLabel(name)}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
  let body;
  if (!valid) body = <Alert severity="info">{text('range_invalid')}</Alert>;
  else if (empty) body = <Typography variant="body2">{text('no_runs')}</Typography>;
  else body = <StackedBarChart title={text('runs_by_day')} days={days} series={series} linkOf={runsOfDay} />;
  return (
    <ChartFrame title={text('runs_by_day')} pending={valid && query.isPending} failed={query.isError} actions={controls}>
      {body}
    </ChartFrame>
  );
}

/** Runs by status and checks by result over the last 30 days: two rings from one call. */
export function RunPies() {
  const text = useChartText();
  const translate = useTranslate();
  const colours = useStatusColours();
  const query = usePieCharts();
  const since = daysBefore(today(), 29);
  const runs = (query.data?.runsByStatus ?? []).map(({ status, count }) => ({
    key: status,
    label: translate(`resources.job-runs.statuses.${status}`, { _: status }),
    count,
    color: colours.runs[status as RunStatus] ?? colours.runs.canceled,
    link: runsSince(since, status),
  }));
  const checks = (query.data?.checksByResult ?? []).map(({ status, count }) => ({
    key: status,
    label: translate(`resources.tables.run_status.${status}`, { _: status }),
    count,
    color: colours.checks[status] ?? colours.checks.error,
    link: TABLES_PATH,
  }));
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <ChartFrame title={text('runs_by_status')} pending={query.isPending} failed={query.isError}>
        <DonutChart title={text('runs_by_status')} slices={runs} emptyText={text('nothing')} />
      </ChartFrame>
      <ChartFrame title={text('checks_by_result')} pending={query.isPending} failed={query.isError}>
        <DonutChart title={text('checks_by_result')} slices={checks} emptyText={text('nothing')} />
      </ChartFrame>
    </Box>
  );
}
