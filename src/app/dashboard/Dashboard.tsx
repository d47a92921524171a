import { Box, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useSessionUser } from '../session';
import { DashboardCards } from './DashboardCards';
import { DashboardCharts } from './DashboardCharts';
import { GettingStarted } from './GettingStarted';
import { PeoplePanel } from './PeoplePanel';
import { DashboardToastsProvider, useDashboardCards } from './useDashboard';

/** /dashboard: a welcome, what the company holds, its charts, and for admins their own cards and people. */
export function Dashboard() {
  return (
    <DashboardToastsProvider>
      <DashboardContent />
    </DashboardToastsProvider>
  );
}

function DashboardContent() {
  const user = useSessionUser();
  const translate = useTranslate();
  const isAdmin = user?.isAdmin === true;
  const topCards = useDashboardCards('top');
  const adminCards = useDashboardCards('admin', isAdmin);
  return (
    <Box sx={{ py: 1 }}>
      <Title title="app.dashboard.title" />
      <Box sx={{ mb: 3 }}>
        <Typography variant="h5" component="h1">
          {user?.firstName ? translate('app.dashboard.welcome', { name: user.firstName }) : translate('app.dashboard.welcome_anonymous')}
        </Typography>
        {user?.companyName && (
          <Typography color="text.secondary">
            {translate('app.dashboard.tenant', { company: user.companyName, hostname: user.companyHostname ?? '' })}
          </Typography>
        )}
      </Box>
      <GettingStarted enabled={isAdmin} />
      <DashboardCards title="app.dashboard.holds" query={topCards} />
      <DashboardCharts isAdmin={isAdmin} />
      {isAdmin && <DashboardCards title="app.dashboard.administration" query={adminCards} />}
      {isAdmin && <PeoplePanel currentUserId={user?.id} />}
    </Box>
  );
}
