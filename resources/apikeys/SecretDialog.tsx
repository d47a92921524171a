import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';

export interface SecretDialogProps {
  /** The key just made: its name and, this once, its secret. Null: closed. */
  created: { name: string; key: string | null } | null;
  onDone: () => void;
}

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The secret of a new key, shown once. It lives only in this dialog's props: closing it (only
 * by the button, so a stray click outside cannot lose it) drops it for good.
 */
export function SecretDialog({ created, onDone }: SecretDialogProps) {
  const translate = useTranslate();
  const [copy, setCopy] = useState<CopyState>('idle');

  const copyKey = async () => {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard');
      await navigator.clipboard.writeText(created!.key!);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  const done = () => {
    setCopy('idle');
    onDone();
  };

  return (
    <Dialog open={created !== null} aria-labelledby="apikey-secret-title" maxWidth="sm" fullWidth>
      <DialogTitle id="apikey-secret-title">{translate('resources.apikeys.secret.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('resources.apikeys.secret.intro', { name: created?.name ?? '' })}</DialogContentText>
        {created?.key ? (
          <>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <TextField
                label={translate('resources.apikeys.secret.label')}
                value={created.key}
                fullWidth
                size="small"
                onFocus={(event) => event.target.select()}
                slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
              />
              <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copyKey} sx={{ flexShrink: 0 }}>
                {translate('resources.apikeys.secret.copy')}
              </Button>
            </Box>
            {copy !== 'idle' && (
              <Alert severity={copy === 'copied' ? 'success' : 'error'} sx={{ mt: 1 }} role="status">
                {translate(copy === 'copied' ? 'resources.apikeys.secret.copied' : 'resources.apikeys.secret.copy_failed')}
              </Alert>
            )}
            <Alert severity="warning" icon={<WarningAmberIcon />} sx={{ mt: 2 }}>
              {translate('resources.apikeys.secret.warning')}
            </Alert>
          </>
        ) : (
          <Alert severity="error">{translate('resources.apikeys.secret.missing')}</Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={done}>
          {translate('resources.apikeys.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
