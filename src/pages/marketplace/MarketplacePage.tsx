import SearchIcon from '@mui/icons-material/Search';
import { Alert, Box, Button, InputAdornment, Skeleton, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import { failureText } from '../../framework/feedback';
import { categoriesOf, filterIntegrations, useMarketplace, type Integration } from './api';
import { ConfigureDialog, ConfigureNotAllowed } from './ConfigureDialog';
import { IntegrationCard } from './IntegrationCard';
import { PageLoading } from '../../framework/Spinner';

const CATEGORY = 'category';
const SEARCH = 'search';
const GRID = { display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))' } as const;

/**
 * The marketplace of integrations (`/marketplace`, policy `marketplace`): the catalogue of `GET
 * /marketplace` as cards grouped by category, each saying whether the company uses it, with a
 * filter by category and a search (both kept in the address, so a view can be shared), and
 * "Configure", which makes a connection of the integration and tests it (marketplace/create).
 */
export default function MarketplacePage() {
  const translate = useTranslate();
  const { canAccess, isPending: checking } = useCanAccess({ resource: 'marketplace', action: 'list' });
  const { canAccess: mayConfigure } = useCanAccess({ resource: 'marketplace', action: 'create' });
  const marketplace = useMarketplace(canAccess === true);
  const [params, setParams] = useSearchParams();
  const category = params.get(CATEGORY);
  const search = params.get(SEARCH) ?? '';
  const [configuring, setConfiguring] = useState<Integration | null>(null);

  const categoryName = (id: string) =>
    translate(`resources.marketplace.categories.${id}`, { _: id.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase()) });
  const integrations = useMemo(() => marketplace.data ?? [], [marketplace.data]);
  const categories = useMemo(() => categoriesOf(integrations), [integrations]);
  const shown = filterIntegrations(integrations, category, search, categoryName);

  const setParam = (key: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  if (checking) return <PageLoading />;
  const title = translate('resources.marketplace.title');
  return (
    <Box sx={{ py: 2 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: 880 }}>
        {translate('resources.marketplace.intro')}
      </Typography>
      {canAccess !== true ? (
        <Alert severity="warning">{translate('resources.marketplace.no_access')}</Alert>
      ) : marketplace.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void marketplace.refetch()}>
              {translate('resources.marketplace.retry')}
            </Button>
          }
        >
          {translate('resources.marketplace.load_error', { message: failureText(marketplace.error) })}
        </Alert>
      ) : marketplace.isPending ? (
        <Box sx={GRID} role="status" aria-label={translate('resources.marketplace.loading')}>
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <Skeleton key={n} variant="rounded" height={180} />
          ))}
        </Box>
      ) : (
        <>
          {mayConfigure === false && <ConfigureNotAllowed />}
          <Box
            role="search"
            aria-label={translate('resources.marketplace.filters')}
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, my: 2 }}
          >
            <ToggleButtonGroup
              exclusive
              size="small"
              value={category ?? ''}
              onChange={(_event, value: string | null) => value !== null && setParam(CATEGORY, value || null)}
              aria-label={translate('resources.marketplace.category')}
            >
              <ToggleButton value="">{translate('resources.marketplace.all')}</ToggleButton>
              {categories.map((id) => (
                <ToggleButton key={id} value={id}>
                  {categoryName(id)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <TextField
              type="search"
              size="small"
              label={translate('resources.marketplace.search')}
              value={search}
              onChange={(event) => setParam(SEARCH, event.target.value)}
              fullWidth={false}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
              sx={{ width: { xs: '100%', sm: 320 } }}
            />
            <Typography variant="body2" color="text.secondary" role="status">
              {translate('resources.marketplace.count', { smart_count: shown.length })}
            </Typography>
          </Box>
          {shown.length === 0 ? (
            <Alert severity="info">{translate('resources.marketplace.none_match')}</Alert>
          ) : (
            categories
              .filter((id) => shown.some((integration) => integration.category === id))
              .map((id) => (
                <Box key={id} component="section" aria-labelledby={`category-${id}`} data-category={id} sx={{ mb: 3 }}>
                  <Typography id={`category-${id}`} variant="h6" component="h2" sx={{ mb: 1 }}>
                    {categoryName(id)}
                  </Typography>
                  <Box sx={GRID}>
                    {shown
                      .filter((integration) => integration.category === id)
                      .map((integration) => (
                        <IntegrationCard
                          key={integration.id}
                          integration={integration}
                          mayConfigure={mayConfigure === true}
                          onConfigure={() => setConfiguring(integration)}
                        />
                      ))}
                  </Box>
                </Box>
              ))
          )}
        </>
      )}
      {configuring && <ConfigureDialog integration={configuring} onClose={() => setConfiguring(null)} />}
    </Box>
  );
}
