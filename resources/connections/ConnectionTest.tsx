import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import { Alert, AlertTitle, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useFormContext } from 'react-hook-form';
import { useCanAccess, useGetRecordRepresentation, useRecordContext, useTranslate } from 'react-admin';
import { connectionTypeOf } from '../../common/connections';
import { stopRowClick } from '../../src/framework/feedback';
import { checkSettings, settingsChanged } from './form';
import { useConnectionTest, type TestState } from './hooks';
import type { Connection } from './types';
import { Spinner } from '../../src/framework/Spinner';

/** What a test answered: OK with the latency and what the source says of itself, or the failure in the source's words. */
export function TestResultPanel({ state }: { state: TestState }) {
  const translate = useTranslate();
  if (state.state === 'idle') return null;
  if (state.state === 'running') {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 1 }}>
        <Spinner size={18} />
        {translate('resources.connections.test.running')}
      </Box>
    );
  }
  if (state.state === 'failed') {
    return (
      <Alert severity="error" role="status" data-test-result="error">
        <AlertTitle>{translate('resources.connections.test.not_run')}</AlertTitle>
        {state.message}
      </Alert>
    );
  }
  const { result } = state;
  return result.ok ? (
    <Alert severity="success" icon={<CheckCircleIcon />} role="status" data-test-result="ok">
      <AlertTitle>{translate('resources.connections.test.ok_latency', { ms: result.latencyMs ?? '—' })}</AlertTitle>
      {result.detail}
    </Alert>
  ) : (
    <Alert severity="error" icon={<ErrorIcon />} role="status" data-test-result="failed">
      <AlertTitle>{translate('resources.connections.test.failed')}</AlertTitle>
      {result.message}
    </Alert>
  );
}

/**
 * "Test connection" for the record in context (a row of the list, the show view): tests the
 * stored settings and shows the result in a dialog; the list's status follows.
 */
export function TestConnectionButton() {
  const record = useRecordContext<Connection>();
  const translate = useTranslate();
  const representation = useGetRecordRepresentation('connections');
  const { canAccess } = useCanAccess({ resource: 'connections', action: 'edit', record });
  const test = useConnectionTest(record?.id);
  if (!record || !canAccess) return null;
  const name = String(representation(record) ?? record.name);
  const open = test.state.state !== 'idle';
  return (
    <Box component="span" onClick={stopRowClick}>
      <Button
        size="small"
        startIcon={<NetworkCheckIcon />}
        aria-label={translate('resources.connections.test.button_of', { name })}
        disabled={test.state.state === 'running'}
        onClick={() => test.run()}
      >
        {translate('resources.connections.test.button')}
      </Button>
      <Dialog open={open} onClose={test.reset} aria-labelledby={`connection-test-${record.id}`} maxWidth="sm" fullWidth>
        <DialogTitle id={`connection-test-${record.id}`}>{translate('resources.connections.test.title', { name })}</DialogTitle>
        <DialogContent>
          <TestResultPanel state={test.state} />
        </DialogContent>
        <DialogActions>
          <Button onClick={test.reset} disabled={test.state.state === 'running'}>
            {translate('ra.action.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

/**
 * "Test connection" on the edit form: settings changed and not saved yet are checked by their
 * declarations and sent along, so they are tried before they are saved; otherwise the stored
 * ones are tested. The result shows under the button.
 */
export function FormConnectionTest({ record }: { record: Connection }) {
  const translate = useTranslate();
  const { getValues, setError } = useFormContext();
  const { canAccess } = useCanAccess({ resource: 'connections', action: 'edit', record });
  const test = useConnectionTest(record.id, { keepRecord: true });
  const declaration = connectionTypeOf(record.type);
  if (!canAccess || !declaration) return null;

  const run = () => {
    const checked = checkSettings(declaration, getValues('settings'), new Set(record.secretsSet ?? []));
    if (!checked.ok) {
      for (const [key, message] of Object.entries(checked.problems)) setError(`settings.${key}`, { type: 'settings', message });
      return;
    }
    void test.run(settingsChanged(declaration, checked.settings, record) ? checked.settings : undefined);
  };

  return (
    <Box component="section" aria-label={translate('resources.connections.test.section')} sx={{ width: '100%', my: 1 }}>
      <Button
        variant="outlined"
        startIcon={<NetworkCheckIcon />}
        onClick={run}
        disabled={test.state.state === 'running'}
        aria-busy={test.state.state === 'running'}
      >
        {translate('resources.connections.test.button')}
      </Button>
      <Box sx={{ mt: 1 }}>
        <TestResultPanel state={test.state} />
      </Box>
    </Box>
  );
}
