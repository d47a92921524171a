import { Box, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useSessionUser } from '../session';
import { DashboardCards } from './DashboardCards';
import { PeoplePanel } from './PeoplePanel';
import { useDashboardCards } from './useDashboard';

/** /dashboard: a welcome, what the company holds, and for admins their own cards and people. */
export function Dashboard() {
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
      <DashboardCards title="app.dashboard.holds" query={topCards} />
      {isAdmin && <DashboardCards title="app.dashboard.administration" query={adminCards} />}
      {isAdmin && <PeoplePanel currentUserId={user?.id} />}
    </Box>
  );
}

