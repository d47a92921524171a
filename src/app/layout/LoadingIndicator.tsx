import { Box } from '@mui/material';
import { RefreshIconButton, useLoading } from 'react-admin';
import { Spinner } from '../../framework/Spinner';

/**
 * The app bar's refresh button, which spins while any call is in flight: react-admin's
 * LoadingIndicator, with a spinner that has a name.
 */
export function LoadingIndicator() {
  const loading = useLoading();
  return (
    <Box sx={{ position: 'relative' }}>
      <RefreshIconButton sx={loading ? { opacity: 0 } : undefined} />
      {loading && <Spinner color="inherit" size={16} thickness={6} sx={{ position: 'absolute', top: '30%', left: '30%' }} />}
    </Box>
  );
}
