import { Box } from '@mui/material';
import { useCanAccess } from 'react-admin';
import { ConnectionsByType } from './ConnectionsByType';
import { RunPies, RunsByDayChart } from './RunCharts';
import { SignInsChart } from './SignInsChart';

/**
 * The dashboard's charts, each for whom may read the list behind it: the runs (policy
 * `workflows`), the connections, and for admins the sign-ins. Each loads on its own; one that
 * fails says so (and toasts) while the others show.
 */
export function DashboardCharts({ isAdmin }: { isAdmin: boolean }) {
  const { canAccess: mayReadRuns } = useCanAccess({ resource: 'job-runs', action: 'list' });
  const { canAccess: mayReadConnections } = useCanAccess({ resource: 'connections', action: 'list' });
  if (!mayReadRuns && !mayReadConnections && !isAdmin) return null;
  return (
    <Box sx={{ display: 'grid', gap: 3, mb: 3 }}>
      {mayReadRuns && <RunsByDayChart />}
      {mayReadRuns && <RunPies />}
      {mayReadConnections && <ConnectionsByType />}
      {isAdmin && <SignInsChart />}
    </Box>
  );
}
