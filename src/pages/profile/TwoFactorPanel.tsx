import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LinkBase, PasswordInput, TextInput, useTranslate } from 'react-admin';
import type { OtpStatus } from '../../../common/contract/security';
import { alerts } from '../../../providers/alerts';
import { AUTH_PATHS } from '../../../providers/authPaths';
import type { User } from '../../../resources/users/types';
import { failureText } from '../../framework/feedback';
import { FormDialog } from '../../framework/form/FormDialog';
import { disableOtp, regenerateRecoveryCodes } from './securityApi';
import { OTP_STATUS_KEY, useOtpStatus } from './useSecurity';

const t = (key: string) => `resources.users.profile.two_factor.${key}`;

/** A refusal naming the code (`otp:` or `recoveryCode:`) is shown on the form's one code field. */
function onCodeField(message: string): string {
  return message.replace(/^(otp|recoveryCode): /, 'code: ');
}

function TurnOffDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  return (
    <FormDialog<{ password: string; code: string }>
      title={translate(t('turn_off_title'))}
      saveLabel={t('turn_off')}
      problemFields={['password', 'code']}
      onClose={onClose}
      onSaved={onDone}
      onSubmit={async ({ password, code }) => {
        if (!password) return `password: ${translate(t('password_required'))}`;
        if (!code?.trim()) return `code: ${translate(t('code_required'))}`;
        try {
          alerts.success((await disableOtp(password, code)) ?? translate(t('turned_off')));
          return null;
        } catch (error) {
          return onCodeField(failureText(error));
        }
      }}
    >
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(t('turn_off_content'))}
      </Typography>
      <PasswordInput source="password" label={t('password')} autoComplete="current-password" fullWidth />
      <TextInput source="code" label={t('code')} helperText={t('code_help')} autoComplete="one-time-code" fullWidth />
    </FormDialog>
  );
}

/** The ten new codes, shown once with a way to copy or download them. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  return (
    <Box>
      <Box
        component="ul"
        aria-label={translate(t('codes_label'))}
        sx={{
          columns: 2,
          fontFamily: 'monospace',
          fontSize: '1rem',
          listStyle: 'none',
          p: 2,
          m: 0,
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(text);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {translate(copied ? t('copied') : t('copy'))}
        </Button>
        <Button component="a" download="recovery-codes.txt" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`}>
          {translate(t('download'))}
        </Button>
      </Stack>
    </Box>
  );
}

function RegenerateDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const [codes, setCodes] = useState<string[] | null>(null);
  const close = codes ? onDone : onClose;
  return (
    <FormDialog<{ password: string }>
      title={translate(t('regenerate_title'))}
      saveLabel={t('regenerate')}
      problemFields={['password']}
      onClose={close}
      onSaved={() => undefined}
      onSubmit={async ({ password }) => {
        if (!password) return `password: ${translate(t('password_required'))}`;
        try {
          const answer = await regenerateRecoveryCodes(password);
          setCodes(answer.codes);
          alerts.success(translate(t('regenerated')));
          return null;
        } catch (error) {
          return failureText(error);
        }
      }}
      result={
        codes ? (
          <>
            <Box sx={{ px: 3, pb: 1 }}>
              <Alert severity="warning" sx={{ mb: 2 }}>
                {translate(t('shown_once'))}
              </Alert>
              <RecoveryCodeList codes={codes} />
            </Box>
            <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 3, pb: 2 }}>
              <Button variant="contained" onClick={onDone}>
                {translate(t('saved_them'))}
              </Button>
            </Box>
          </>
        ) : undefined
      }
    >
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(t('regenerate_content'))}
      </Typography>
      <PasswordInput source="password" label={t('password')} autoComplete="current-password" fullWidth />
    </FormDialog>
  );
}

/**
 * Two-factor in the profile: whether it is on; "Set up" when off; "Turn off" (password and a
 * current code) when on and not required; the recovery codes left and "Regenerate". Against a
 * server without the status call, the user record's flags stand in and only set-up is offered.
 */
export function TwoFactorPanel({ user }: { user: User }) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const status = useOtpStatus();
  const [dialog, setDialog] = useState<'off' | 'regenerate' | null>(null);
  const known: OtpStatus | null = status.data ?? null;
  const on = known ? known.otpEnabled : user.otpEnabled;
  const required = known ? known.otpRequired : user.otpRequired;
  const refresh = () => {
    setDialog(null);
    void queryClient.invalidateQueries({ queryKey: OTP_STATUS_KEY });
  };

  return (
    <Box component="section" aria-labelledby="two-factor-heading">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" component="h3" id="two-factor-heading">
          {translate(t('title'))}
        </Typography>
        <Chip
          size="small"
          color={on ? 'success' : 'default'}
          variant={on ? 'filled' : 'outlined'}
          label={translate(on ? t('on') : t('off'))}
          data-testid="two-factor-state"
        />
      </Stack>
      {status.isError && <Alert severity="error">{failureText(status.error)}</Alert>}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(on ? t('on_help') : t('off_help'))}
      </Typography>
      {on && required && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(t('required'))}
        </Typography>
      )}
      {!on ? (
        <Button variant="outlined" component={LinkBase} to={AUTH_PATHS.registerTwoFactor}>
          {translate(t('set_up'))}
        </Button>
      ) : (
        known && (
          <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Typography variant="body2" data-testid="recovery-codes-left">
              {translate(t('codes_left'), { smart_count: known.recoveryCodesLeft, count: known.recoveryCodesLeft })}
            </Typography>
            <Stack direction="row" spacing={1}>
              <Button variant="outlined" onClick={() => setDialog('regenerate')}>
                {translate(t('regenerate'))}
              </Button>
              {!required && (
                <Button variant="outlined" color="error" onClick={() => setDialog('off')}>
                  {translate(t('turn_off'))}
                </Button>
              )}
            </Stack>
          </Stack>
        )
      )}
      {dialog === 'off' && <TurnOffDialog onClose={() => setDialog(null)} onDone={refresh} />}
      {dialog === 'regenerate' && <RegenerateDialog onClose={() => setDialog(null)} onDone={refresh} />}
    </Box>
  );
}
