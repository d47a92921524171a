import { Alert, Box, Paper, Skeleton, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { useOperationCatalogue } from '../../../resources/apikeys/api';
import { failureText } from '../../framework/feedback';
import { OperationBrowser } from './OperationBrowser';
import { OperationView } from './OperationView';
import { PageLoading } from '../../framework/Spinner';

const SELECTED = 'operation';

/**
 * The open API explorer: the operations an API key may be granted (`GET /openapi`), one in
 * detail (`GET /openapi/{id}`), and a call to try it with a key. The chosen operation is in the
 * address (`?operation=get_users_offset_limit`) so it can be shared. Needs `apikeys` read, as
 * the catalogue does.
 */
export default function ApiExplorerPage() {
  const translate = useTranslate();
  const { canAccess, isPending: checking } = useCanAccess({ resource: 'apikeys', action: 'list' });
  const catalogue = useOperationCatalogue(canAccess === true);
  const [params, setParams] = useSearchParams();
  const selected = params.get(SELECTED);
  // The key typed once serves every operation tried on this page, and goes with it.
  const [apiKey, setApiKey] = useState('');

  const select = (id: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(SELECTED, id);
        return next;
      },
      { replace: false },
    );

  if (checking) return <PageLoading />;
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('resources.apikeys.explorer.title')} />
      <Typography variant="h5" component="h1">
        {translate('resources.apikeys.explorer.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('resources.apikeys.explorer.intro')}
      </Typography>
      {canAccess !== true ? (
        <Alert severity="warning">{translate('resources.apikeys.explorer.no_access')}</Alert>
      ) : catalogue.isError ? (
        <Alert severity="error">{translate('resources.apikeys.explorer.load_error', { message: failureText(catalogue.error) })}</Alert>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(280px, 380px) 1fr' }, alignItems: 'start' }}>
          <Paper variant="outlined" sx={{ p: 1.5 }}>
            {catalogue.isPending ? (
              <Skeleton
                variant="rectangular"
                height={320}
                role="progressbar"
                aria-label={translate('resources.apikeys.explorer.loading')}
              />
            ) : (
              <OperationBrowser operations={catalogue.data} selected={selected} onSelect={select} />
            )}
          </Paper>
          <Box sx={{ minWidth: 0 }}>
            {selected ? (
              <OperationView id={selected} apiKey={apiKey} onApiKeyChange={setApiKey} />
            ) : (
              <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
                {translate('resources.apikeys.explorer.choose')}
              </Typography>
            )}
          </Box>
        </Box>
      )}
    </Box>
  );
}
