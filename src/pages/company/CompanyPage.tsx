import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { failureText } from '../../framework/feedback';
import { useCompanyProfile } from './api';
import { CompanyProfileForm } from './CompanyProfileForm';

/**
 * The company's own profile (`/company`): its logo, shown in the app bar and on the sign-in page,
 * and how it is reached and where it is. Read-only for those who may read it but not update it.
 */
export default function CompanyPage() {
  const translate = useTranslate();
  const profile = useCompanyProfile();
  const { canAccess: canUpdate, isPending: checking } = useCanAccess({ resource: 'company', action: 'update' });
  const title = translate('app.company.title');
  return (
    <Box sx={{ py: 2, maxWidth: 880 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {profile.isError ? (
        <Alert severity="error">{failureText(profile.error)}</Alert>
      ) : !profile.data || checking ? (
        <CircularProgress aria-label={translate('ra.page.loading')} />
      ) : (
        <>
          {!canUpdate && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate('app.company.read_only')}
            </Alert>
          )}
          <CompanyProfileForm profile={profile.data} canUpdate={canUpdate === true} onSaved={profile.replace} />
        </>
      )}
    </Box>
  );
}
