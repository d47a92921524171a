import { Alert, Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { displayName } from '../../providers/impersonation';
import { useImpersonationSession } from './useImpersonation';

/** Across the top while an admin is signed in as someone else, with the way back. */
export function ImpersonationBanner() {
  const { user, impersonator, returning, returnToMyAccount } = useImpersonationSession();
  const translate = useTranslate();
  if (!impersonator) return null;
  return (
    <Alert
      severity="warning"
      variant="filled"
      role="status"
      sx={{ borderRadius: 0, py: 0, alignItems: 'center' }}
      action={
        <Button color="inherit" size="small" variant="outlined" disabled={returning} onClick={returnToMyAccount}>
          {translate('app.impersonation.return')}
        </Button>
      }
    >
      {translate('app.impersonation.banner', {
        name: displayName(user),
        email: user?.email ?? '',
        admin: displayName(impersonator),
      })}
    </Alert>
  );
}
