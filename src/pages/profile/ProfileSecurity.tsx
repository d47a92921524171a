import { Box, Button, Card, CardContent, FormControlLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { LinkBase, useTranslate } from 'react-admin';
import { mpinSchema } from '../../../common/schemas/users';
import { alerts } from '../../../providers/alerts';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { createMpin, setAiNotification } from '../../../resources/users/api';
import type { User } from '../../../resources/users/types';
import { failureText } from '../../framework/feedback';

/** The AI-notification preference: saved as it is switched; a refusal puts the switch back. */
export function AiNotificationSwitch({ user, onSaved }: { user: User; onSaved: (aiNotification: boolean) => void }) {
  const translate = useTranslate();
  const [checked, setChecked] = useState(user.aiNotification);
  const [saving, setSaving] = useState(false);
  const heading = translate('resources.users.profile.notifications');

  const change = async (wanted: boolean) => {
    setChecked(wanted);
    setSaving(true);
    alerts.loading();
    try {
      const result = await setAiNotification(wanted);
      setChecked(result.data.aiNotification);
      onSaved(result.data.aiNotification);
      alerts.success(result.message ?? translate('app.form.saved'));
    } catch (error) {
      setChecked(!wanted);
      alerts.error(failureText(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" aria-label={heading}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {heading}
        </Typography>
        <FormControlLabel
          control={<Switch checked={checked} disabled={saving} onChange={(event) => change(event.target.checked)} />}
          label={translate('resources.users.profile.ai_notification')}
        />
        <Typography variant="body2" color="text.secondary">
          {translate('resources.users.profile.ai_notification_help')}
        </Typography>
      </CardContent>
    </Card>
  );
}

function mpinProblem(mpin: string): string | null {
  const result = mpinSchema.safeParse({ mpin });
  return result.success ? null : result.error.issues[0].message;
}

/** A new MPIN, typed twice; nothing is sent until both agree and follow the rule. */
export function MpinForm({ userId }: { userId: string }) {
  const translate = useTranslate();
  const [mpin, setMpin] = useState('');
  const [again, setAgain] = useState('');
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const problem = mpinProblem(mpin);
  const mismatch = again !== mpin;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem || mismatch) return;
    setSaving(true);
    alerts.loading();
    try {
      alerts.success((await createMpin(userId, mpin)) ?? translate('app.form.saved'));
      setMpin('');
      setAgain('');
      setTried(false);
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setSaving(false);
    }
  };

  const digits = (value: string) => value.replace(/\D/g, '').slice(0, 6);
  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={translate('resources.users.profile.mpin')}>
      <Typography variant="subtitle1" component="h3">
        {translate('resources.users.profile.mpin')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 1 }}>
        <TextField
          size="small"
          type="password"
          label={translate('resources.users.profile.mpin_new')}
          value={mpin}
          onChange={(event) => setMpin(digits(event.target.value))}
          error={tried && Boolean(problem)}
          helperText={tried && problem ? problem : translate('resources.users.profile.mpin_help')}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'new-password', maxLength: 6 } }}
        />
        <TextField
          size="small"
          type="password"
          label={translate('resources.users.profile.mpin_again')}
          value={again}
          onChange={(event) => setAgain(digits(event.target.value))}
          error={tried && mismatch}
          helperText={tried && mismatch ? translate('resources.users.profile.mpin_mismatch') : ' '}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'new-password', maxLength: 6 } }}
        />
      </Stack>
      <Button type="submit" variant="outlined" disabled={saving}>
        {translate('resources.users.profile.mpin_save')}
      </Button>
    </Box>
  );
}

/** MPIN and the way to the password change (the sign-in part's own screen). */
export function ProfileSecurity({ user }: { user: User }) {
  const translate = useTranslate();
  const heading = translate('resources.users.profile.security');
  return (
    <Card component="section" aria-label={heading}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {heading}
        </Typography>
        <MpinForm userId={String(user.id)} />
        <Box sx={{ mt: 2 }}>
          <Button component={LinkBase} to={AUTH_PATHS.changePassword}>
            {translate('resources.users.profile.change_password')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
