import { Alert, Box, Card, CardContent, CircularProgress, Tab, Tabs, Typography } from '@mui/material';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router';
import type { SettingsGroupId } from '../../../common/settings';
import { failureText } from '../../framework/feedback';
import { EmailSettingsForm } from './EmailSettingsForm';
import { ServiceSettingsForm } from './ServiceSettingsForm';
import { useSettings } from './useSettings';

const TAB_PARAM = 'group';

/**
 * The company's settings (`/settings`): the service group (sessions, password rules, two-factor
 * for everyone, allowed email domains, retention) and the email group (its own SMTP server, with a
 * test mail). Reading needs `settings` read; without `settings` update the forms are read-only.
 * The open group is in the address (`?group=email`), so it can be shared.
 */
export default function SettingsPage() {
  const translate = useTranslate();
  const settings = useSettings();
  const { canAccess: canUpdate, isPending: checking } = useCanAccess({ resource: 'settings', action: 'update' });
  const [params, setParams] = useSearchParams();
  const tab: SettingsGroupId = params.get(TAB_PARAM) === 'email' ? 'email' : 'service';
  const title = translate('resources.settings.title');

  const choose = (group: SettingsGroupId) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(TAB_PARAM, group);
        return next;
      },
      { replace: true },
    );

  return (
    <Box sx={{ py: 2, maxWidth: 960 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('resources.settings.intro')}
      </Typography>
      {settings.isError ? (
        <Alert severity="error">{translate('resources.settings.load_error', { message: failureText(settings.error) })}</Alert>
      ) : !settings.data || checking ? (
        <CircularProgress aria-label={translate('ra.page.loading')} />
      ) : (
        <>
          {!canUpdate && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {translate('resources.settings.read_only')}
            </Alert>
          )}
          <Tabs value={tab} onChange={(_, value: SettingsGroupId) => choose(value)} aria-label={translate('resources.settings.tabs.label')}>
            <Tab
              value="service"
              id="settings-tab-service"
              aria-controls="settings-panel"
              label={translate('resources.settings.tabs.service')}
            />
            <Tab value="email" id="settings-tab-email" aria-controls="settings-panel" label={translate('resources.settings.tabs.email')} />
          </Tabs>
          <Card variant="outlined" role="tabpanel" id="settings-panel" aria-labelledby={`settings-tab-${tab}`}>
            <CardContent>
              {tab === 'service' ? (
                <ServiceSettingsForm group={settings.data.service} canUpdate={canUpdate === true} onSaved={settings.replace} />
              ) : (
                <EmailSettingsForm group={settings.data.email} canUpdate={canUpdate === true} onSaved={settings.replace} />
              )}
            </CardContent>
          </Card>
        </>
      )}
    </Box>
  );
}
