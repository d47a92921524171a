import { Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../../framework/feedback';
import { applyPlanGrant, type Subscription } from './api';

/** The server names the field in its refusals ("token: this plan grant expired …"); the field says it alone. */
const withoutFieldName = (message: string) => message.replace(/^token:\s*/, '');

/** "Paste a plan grant": an operator's signed grant, applied by POST /subscription/verify. */
export function GrantForm({ onApplied }: { onApplied: (next: Subscription) => void }) {
  const translate = useTranslate();
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim()) {
      setProblem(translate('app.subscription.grant.required'));
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      const answer = await applyPlanGrant(token.trim());
      onApplied(answer.data);
      setToken('');
      alerts.success(answer.message ?? '');
    } catch (error) {
      setProblem(withoutFieldName(failureText(error)));
    } finally {
      setSending(false);
    }
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="grant-title">
      <CardContent>
        <Typography variant="h6" component="h2" id="grant-title">
          {translate('app.subscription.grant.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('app.subscription.grant.help')}
        </Typography>
        <Stack component="form" spacing={1.5} onSubmit={submit} noValidate sx={{ alignItems: 'flex-start' }}>
          <TextField
            label={translate('app.subscription.grant.label')}
            value={token}
            onChange={(event) => {
              setToken(event.target.value);
              setProblem(null);
            }}
            error={problem !== null}
            helperText={problem ?? ' '}
            multiline
            minRows={3}
            fullWidth
            slotProps={{
              htmlInput: { spellCheck: false, autoComplete: 'off', style: { fontFamily: 'monospace', wordBreak: 'break-all' } },
            }}
          />
          <Button type="submit" variant="contained" disabled={sending}>
            {translate('app.subscription.grant.apply')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
