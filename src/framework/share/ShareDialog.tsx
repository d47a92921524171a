import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import { SHARE_MESSAGE_MAX, SHARE_TITLE_MAX, type ShareBody } from '../../../common/schemas/reports';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../feedback';
import { ActiveUsersInput } from './ActiveUsersInput';
import { share, shareProblem, type ActiveUser, type Share } from './shares';

/** What is shared: one of the company's reports, or a view of the console by its path (with a title the sharer may edit). */
export type ShareTarget = { kind: 'report'; reportId: string; title: string } | { kind: 'list'; path: string; title: string };

export interface ShareDialogProps {
  open: boolean;
  target: ShareTarget;
  onClose: () => void;
  onShared?: (share: Share) => void;
}

/**
 * Chooses users of the company and an optional message, and shares the target with them
 * (`POST /shares`): each is notified in the console and mailed. The body is checked by the same
 * rules the server applies before anything is sent.
 */
export function ShareDialog({ open, target, onClose, onShared }: ShareDialogProps) {
  const translate = useTranslate();
  const [chosen, setChosen] = useState<ActiveUser[]>([]);
  const [message, setMessage] = useState('');
  const [title, setTitle] = useState(target.title);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!open) return;
    setChosen([]);
    setMessage('');
    setTitle(target.title);
    setProblem(null);
  }, [open, target.title]);

  const body = (): ShareBody => {
    const userIds = chosen.map((user) => user.id);
    return target.kind === 'report'
      ? { kind: 'report', reportId: target.reportId, userIds, message }
      : { kind: 'list', path: target.path, title, userIds, message };
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = body();
    const found = shareProblem(wanted);
    if (found) {
      setProblem(found.startsWith('userIds:') ? translate('resources.reports.share.users_required') : found);
      return;
    }
    setSending(true);
    setProblem(null);
    try {
      const saved = await share(wanted);
      alerts.success(saved.message ?? translate('resources.reports.share.done'));
      onShared?.(saved.data);
      onClose();
    } catch (error) {
      setProblem(failureText(error));
    } finally {
      setSending(false);
    }
  };

  const heading = translate('resources.reports.share.title', { what: target.title });
  return (
    <Dialog open={open} onClose={sending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="share-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="share-dialog-title">{heading}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {problem && <Alert severity="error">{problem}</Alert>}
            {target.kind === 'list' && (
              <TextField
                label={translate('resources.reports.share.title_field')}
                value={title}
                onChange={(event) => setTitle(event.target.value)}
                required
                slotProps={{ htmlInput: { maxLength: SHARE_TITLE_MAX } }}
              />
            )}
            <ActiveUsersInput
              enabled={open}
              value={chosen}
              onChange={setChosen}
              label={translate('resources.reports.share.users')}
              helperText={translate('resources.reports.share.users_help')}
            />
            <TextField
              label={translate('resources.reports.share.message')}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              multiline
              minRows={3}
              slotProps={{ htmlInput: { maxLength: SHARE_MESSAGE_MAX } }}
              helperText={`${message.length} / ${SHARE_MESSAGE_MAX}`}
            />
            <Typography variant="body2" color="text.secondary">
              {translate(target.kind === 'report' ? 'resources.reports.share.report_help' : 'resources.reports.share.view_help')}
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={sending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={sending} aria-busy={sending}>
            {translate(sending ? 'resources.reports.share.sending' : 'resources.reports.share.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
