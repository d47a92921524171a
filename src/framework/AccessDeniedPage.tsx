import LockOutlined from '@mui/icons-material/LockOutlined';
import { Box, Button, Link, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router';
import type { z } from 'zod';
import type { companyAdminsAnswer } from '../../common/contract/answers/company';
import { apiRequest } from '../../providers/http';

type CompanyAdmins = z.infer<typeof companyAdminsAnswer>['data'];

/** `GET /company/admins`: whom to ask. A server without the call answers no names, and the page says so in general words. */
async function loadCompanyAdmins(signal: AbortSignal): Promise<CompanyAdmins> {
  try {
    const answer = await apiRequest<{ data?: CompanyAdmins }>('/company/admins', { signal });
    return Array.isArray(answer?.data) ? answer.data : [];
  } catch {
    return [];
  }
}

/**
 * What a user sees on a page their role does not open: that it is so, and the company's admins
 * to ask (by name, with their email), rather than an empty screen.
 */
export function AccessDeniedPage() {
  const translate = useTranslate();
  const admins = useQuery({ queryKey: ['company', 'admins'], queryFn: ({ signal }) => loadCompanyAdmins(signal), staleTime: 60_000 });
  const named = admins.data ?? [];
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
      <Title title={translate('app.access_denied.title')} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 560, width: '100%' }} role="alert">
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2 }}>
          <LockOutlined color="action" aria-hidden />
          <Typography variant="h5" component="h1">
            {translate('app.access_denied.title')}
          </Typography>
        </Box>
        {admins.isPending ? null : named.length > 0 ? (
          <>
            <Typography>{translate('app.access_denied.body')}</Typography>
            <List aria-label={translate('app.access_denied.admins')} dense>
              {named.map((admin) => (
                <ListItem key={admin.email} disableGutters>
                  <ListItemText
                    primary={admin.name}
                    secondary={
                      <Link href={`mailto:${admin.email}`} underline="hover">
                        {admin.email}
                      </Link>
                    }
                  />
                </ListItem>
              ))}
            </List>
          </>
        ) : (
          <Typography>{translate('app.access_denied.body_no_admins')}</Typography>
        )}
        <Button component={RouterLink} to="/dashboard" variant="outlined" sx={{ mt: 1 }}>
          {translate('app.access_denied.dashboard')}
        </Button>
      </Paper>
    </Box>
  );
}
