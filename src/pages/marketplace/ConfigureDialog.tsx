import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Alert, Box, Button, DialogActions, DialogContent, Typography } from '@mui/material';
import { OutboundLink } from '../../framework/OutboundLink';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { LinkBase, ResourceContextProvider, useCreatePath, useTranslate } from 'react-admin';
import { alerts } from '../../../providers/alerts';
import { connections } from '../../../resources/connections';
import { ConnectionFields } from '../../../resources/connections/ConnectionForm';
import { TestResultPanel } from '../../../resources/connections/ConnectionTest';
import { connectionResolver, FORM_FIELDS, typeChanged } from '../../../resources/connections/form';
import { useTypeTexts } from '../../../resources/connections/typeTexts';
import { DeclarationProvider } from '../../framework/DeclarationContext';
import { failureText } from '../../framework/feedback';
import { FormDialog } from '../../framework/form/FormDialog';
import { configureIntegration, MARKETPLACE_KEY, settingsFormOf, type Configured, type Integration } from './api';

const NO_KEPT_SECRETS: ReadonlySet<string> = new Set();

/** The settings of this integration's form, and every other field a 400 may name: its own are marked on their inputs. */
function fieldsOf(integration: Integration): string[] {
  return [...new Set([...FORM_FIELDS, ...integration.settings.map((setting) => `settings.${setting.key}`)])];
}

/** What configuring answered: the test's result in the service's words, and where the connection now is. */
function ConfiguredResult({ configured, onAnother, onClose }: { configured: Configured; onAnother: () => void; onClose: () => void }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const { connection, test } = configured;
  return (
    <>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <TestResultPanel state={{ state: 'done', result: { ...test, detail: test.detail ?? null, message: test.message ?? null } }} />
        <Typography variant="body2">
          {translate(test.ok ? 'resources.marketplace.configure.saved_ok' : 'resources.marketplace.configure.saved_failing', {
            name: connection.name,
          })}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onAnother}>{translate('resources.marketplace.configure.another')}</Button>
        <Button onClick={onClose}>{translate('resources.marketplace.configure.close')}</Button>
        <Button variant="contained" component={LinkBase} to={createPath({ resource: 'connections', type: 'show', id: connection.id })}>
          {translate('resources.marketplace.configure.open')}
        </Button>
      </DialogActions>
    </>
  );
}

/**
 * "Configure" of a marketplace card: the connection's form drawn from the integration's declared
 * settings (the connection forms' own fields, checked by the same rules before anything is sent),
 * then `POST /marketplace/configure`, which saves the connection and tests it at once. The result
 * shows here with a link to the new connection; a connection that could not connect is saved too,
 * to be corrected on its own page. A refusal (400, 409) is the alert, and marks the field it names.
 */
export function ConfigureDialog({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const translate = useTranslate();
  const texts = useTypeTexts();
  const queryClient = useQueryClient();
  const form = useMemo(() => settingsFormOf(integration), [integration]);
  const resolver = useMemo(() => connectionResolver('create', NO_KEPT_SECRETS, form), [form]);
  const defaultValues = useMemo(() => ({ type: integration.connectionType, name: '', ...typeChanged(form) }), [integration, form]);
  const fields = useMemo(() => fieldsOf(integration), [integration]);
  const [configured, setConfigured] = useState<Configured | null>(null);
  const name = texts.label({ type: integration.connectionType, label: integration.name });

  const submit = async (values: FieldValues) => {
    alerts.loading();
    try {
      const { type: _type, ...body } = values;
      const answer = await configureIntegration({
        ...(body as Omit<Parameters<typeof configureIntegration>[0], 'integrationId'>),
        integrationId: integration.id,
      });
      setConfigured(answer);
      const message =
        answer.message ??
        translate(answer.test.ok ? 'resources.marketplace.configure.saved_ok' : 'resources.marketplace.configure.saved_failing', {
          name: answer.connection.name,
        });
      if (answer.test.ok) alerts.success(message);
      else alerts.error(message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: MARKETPLACE_KEY }),
        queryClient.invalidateQueries({ queryKey: ['connections'] }),
      ]);
      return null;
    } catch (error) {
      const message = failureText(error);
      alerts.error(message);
      return message;
    }
  };

  return (
    <ResourceContextProvider value={connections.name}>
      <DeclarationProvider declaration={connections}>
        {/* After a save the result shows in its place; "Configure another" is a new form, so nothing typed before carries over. */}
        <FormDialog
          title={translate('resources.marketplace.configure.title', { name })}
          defaultValues={defaultValues}
          resolver={resolver}
          onSubmit={submit}
          onClose={onClose}
          onSaved={() => undefined}
          problemFields={fields}
          saveLabel="resources.marketplace.configure.submit"
          saveIcon={<NetworkCheckIcon />}
          cancelLabel="resources.marketplace.configure.cancel"
          contentSx={{ pt: 0 }}
          result={configured && <ConfiguredResult configured={configured} onClose={onClose} onAnother={() => setConfigured(null)} />}
        >
          <Typography variant="body2" color="text.secondary">
            {translate(`resources.connections.types.${integration.connectionType}.description`, { _: integration.description })}
          </Typography>
          {integration.docsUrl && (
            <OutboundLink
              href={integration.docsUrl}
              variant="body2"
              sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}
            >
              {translate('resources.marketplace.configure.docs')}
              <OpenInNewIcon fontSize="inherit" />
            </OutboundLink>
          )}
          <Box sx={{ mt: 2 }}>
            <ConnectionFields keptSecrets={NO_KEPT_SECRETS} declaration={form} />
          </Box>
        </FormDialog>
      </DeclarationProvider>
    </ResourceContextProvider>
  );
}

/** Shown instead of the form to someone who may read the marketplace but not configure in it. */
export function ConfigureNotAllowed() {
  const translate = useTranslate();
  return <Alert severity="info">{translate('resources.marketplace.configure.no_permission')}</Alert>;
}
