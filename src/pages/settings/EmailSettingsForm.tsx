import { Alert, AlertTitle, Button, Stack, TextField, Toolbar } from '@mui/material';
import { useMemo, useState } from 'react';
import { BooleanInput, Form, NumberInput, PasswordInput, SaveButton, TextInput, useTranslate } from 'react-admin';
import { useFormContext, type FieldValues } from 'react-hook-form';
import { emailSettingsForm, SETTING_LIMITS } from '../../../common/settings';
import { getStoredUser } from '../../../providers/storage';
import { zodResolver } from '../../framework';
import { failureText } from '../../framework/feedback';
import { FormProblem } from '../../framework/form/DeclaredForm';
import { saveEmailSettings, sendTestMail, type EmailChange, type EmailGroup } from './api';
import { FieldRow, LastChange, SettingsSection } from './SettingsSection';
import { useSettingsSubmit } from './useSettingsSubmit';

const FIELDS = ['host', 'port', 'secure', 'username', 'password', 'fromAddress', 'fromName'] as const;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The body of PUT /settings/email (and a test's unsaved settings): the password only when one was typed, a blank keeping the saved one. */
export function emailChangeOf(values: FieldValues): EmailChange {
  const change: EmailChange = {
    host: text(values.host),
    port: values.port,
    secure: values.secure === true,
    username: text(values.username),
    fromAddress: text(values.fromAddress),
    fromName: text(values.fromName),
  };
  return typeof values.password === 'string' && values.password !== '' ? { ...change, password: values.password } : change;
}

interface TestResult {
  ok: boolean;
  title: string;
  detail: string;
}

/** "Send a test mail": through the form's settings as they are now, to the address typed (oneself by default). */
function TestMail() {
  const translate = useTranslate();
  const { getValues, trigger } = useFormContext();
  const [to, setTo] = useState(() => getStoredUser()?.email ?? '');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);

  const send = async () => {
    setResult(null);
    // The form's own rules first: a test of settings that could not be saved tells nothing.
    if (!(await trigger())) return;
    setSending(true);
    try {
      const answer = await sendTestMail({ to: to.trim() || undefined, settings: emailChangeOf(getValues()) });
      const { ok, detail, server } = answer.data;
      setResult({
        ok,
        title: ok
          ? translate('resources.settings.email.test_ok', { to: answer.data.to, server })
          : translate('resources.settings.email.test_failed', { server }),
        detail,
      });
    } catch (error) {
      const message = failureText(error);
      setResult({ ok: false, title: message, detail: '' });
    } finally {
      setSending(false);
    }
  };

  return (
    <SettingsSection title="resources.settings.email.test" intro="resources.settings.email.test_intro">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mb: 1 }}>
        <TextField
          size="small"
          type="email"
          label={translate('resources.settings.email.test_to')}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          sx={{ minWidth: 280 }}
        />
        <Button variant="outlined" onClick={send} disabled={sending} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
          {translate(sending ? 'resources.settings.email.test_sending' : 'resources.settings.email.test_send')}
        </Button>
      </Stack>
      {result && (
        <Alert severity={result.ok ? 'success' : 'error'} role="status" data-testid="test-mail-result">
          <AlertTitle>{result.title}</AlertTitle>
          {result.detail && translate('resources.settings.email.test_answer', { detail: result.detail })}
        </Alert>
      )}
    </SettingsSection>
  );
}

/** The company's SMTP server and sender, the password sealed on the server (blank keeps it), and a test mail. */
export function EmailSettingsForm({
  group,
  canUpdate,
  onSaved,
}: {
  group: EmailGroup;
  canUpdate: boolean;
  onSaved: (group: EmailGroup) => void;
}) {
  const translate = useTranslate();
  const { passwordSet } = group.values;
  const resolver = useMemo(() => zodResolver(emailSettingsForm(passwordSet)), [passwordSet]);
  const record = useMemo(() => {
    const { passwordSet: _shown, ...values } = group.values;
    return { ...values, password: '' };
  }, [group.values]);
  const readOnly = !canUpdate;

  const submit = useSettingsSubmit((values) => saveEmailSettings(emailChangeOf(values)), onSaved, FIELDS);

  return (
    <>
      <LastChange updatedAt={group.updatedAt} updatedByName={group.updatedByName} />
      <Alert severity="info" sx={{ mb: 2 }}>
        {translate(
          group.instanceTransport === 'smtp' ? 'resources.settings.email.fallback_smtp' : 'resources.settings.email.fallback_outbox',
        )}
      </Alert>
      <Form key={group.updatedAt ?? 'defaults'} record={record} resolver={resolver} onSubmit={submit} noValidate warnWhenUnsavedChanges>
        <SettingsSection title="resources.settings.email.server">
          <FieldRow columns="1fr 200px">
            <TextInput
              source="host"
              label="resources.settings.email.host"
              helperText="resources.settings.email.host_help"
              readOnly={readOnly}
            />
            <NumberInput
              source="port"
              label="resources.settings.email.port"
              helperText="resources.settings.email.port_help"
              min={SETTING_LIMITS.smtpPort.min}
              max={SETTING_LIMITS.smtpPort.max}
              readOnly={readOnly}
            />
          </FieldRow>
          <BooleanInput source="secure" label="resources.settings.email.secure" helperText={false} readOnly={readOnly} />
          <FieldRow columns="1fr 1fr">
            <TextInput
              source="username"
              label="resources.settings.email.username"
              helperText="resources.settings.email.username_help"
              autoComplete="off"
              readOnly={readOnly}
            />
            <PasswordInput
              source="password"
              label="resources.settings.email.password"
              helperText={passwordSet ? 'resources.settings.email.password_saved' : 'resources.settings.email.password_none'}
              autoComplete="new-password"
              readOnly={readOnly}
            />
          </FieldRow>
        </SettingsSection>
        <SettingsSection title="resources.settings.email.sender">
          <FieldRow columns="1fr 1fr">
            <TextInput source="fromAddress" type="email" label="resources.settings.email.from_address" readOnly={readOnly} />
            <TextInput
              source="fromName"
              label="resources.settings.email.from_name"
              helperText="resources.settings.email.from_name_help"
              readOnly={readOnly}
            />
          </FieldRow>
        </SettingsSection>
        {canUpdate && (
          <>
            <Toolbar disableGutters sx={{ mb: 2 }}>
              <SaveButton label="resources.settings.email.save" />
              <FormProblem />
            </Toolbar>
            <TestMail />
          </>
        )}
      </Form>
    </>
  );
}
