import { useTheme } from '@mui/material';
import { accessEventsOfDay } from './chartLinks';
import { ChartFrame } from './ChartParts';
import { useChartText } from './chartTexts';
import { StackedBarChart } from './StackedBarChart';
import { useSignIns } from './useDashboardCharts';

/** Admins: sign-ins and failed attempts per day over the last 14 days, each bar leading to those access events. */
export function SignInsChart() {
  const text = useChartText();
  const { palette } = useTheme();
  const query = useSignIns();
  const title = text('signins');
  const series = [
    { key: 'signins', label: text('signins_ok'), color: palette.success.main },
    { key: 'failures', label: text('signins_failed'), color: palette.error.main },
  ];
  return (
    <ChartFrame title={title} pending={query.isPending} failed={query.isError}>
      <StackedBarChart
        title={title}
        days={query.data ?? []}
        series={series}
        linkOf={(date, kind) => accessEventsOfDay(date, kind as 'signins' | 'failures')}
      />
    </ChartFrame>
  );
}
