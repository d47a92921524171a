import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Alert, Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { OutboundButton } from '../../src/framework/OutboundLink';
import { useDatabricksState } from './hooks';
import type { JobRun } from './types';

/** Only a web address becomes a link (not a `javascript:` one, whatever a server says). */
function isWebAddress(value: string | null): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value);
}

/** A Databricks run's state as Databricks reports it, with the link to its own run page. */
export function DatabricksPanel({ run }: { run: JobRun }) {
  const translate = useTranslate();
  const state = useDatabricksState(run);
  const title = translate('resources.job-runs.databricks.title');
  let body;
  if (state.isPending)
    body = (
      <Skeleton variant="rectangular" height={48} role="progressbar" aria-label={translate('resources.job-runs.databricks.loading')} />
    );
  else if (state.isError) body = <Alert severity="error">{failureText(state.error)}</Alert>;
  else {
    const data = state.data;
    const line = (label: string, value: string | null) => (
      <Box>
        <Typography component="dt" variant="caption" color="text.secondary">
          {translate(`resources.job-runs.databricks.${label}`)}
        </Typography>
        <Typography component="dd" variant="body2" sx={{ m: 0 }} data-databricks={label}>
          {value || '—'}
        </Typography>
      </Box>
    );
    body = (
      <>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' }}>
          {line('run_id', data.externalRunId)}
          {line('life_cycle', data.lifeCycleState)}
          {line('result', data.resultState)}
          {line('message', data.stateMessage)}
        </Box>
        {isWebAddress(data.runPageUrl) && (
          <OutboundButton href={data.runPageUrl} endIcon={<OpenInNewIcon />} sx={{ mt: 1 }}>
            {translate('resources.job-runs.databricks.open')}
          </OutboundButton>
        )}
      </>
    );
  }
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
