import LogoutIcon from '@mui/icons-material/Logout';
import { Box } from '@mui/material';
import { useState } from 'react';
import { Button, Confirm, useCanAccess, useDataProvider, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { failureText, stopRowClick } from '../../src/framework/feedback';
import type { Session } from '../../common/contract/sessions';
import { Spinner } from '../../src/framework/Spinner';

/**
 * Ends another session (`PUT /session/logout { sessionId }`, the declaration's delete route),
 * after a confirmation, then reloads the list. Needs the `sessions` delete permission. Not on
 * a session already over, nor on the caller's own: ending that one is signing out, which the
 * user menu offers.
 */
export function EndSessionButton() {
  const session = useRecordContext<Session>();
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'sessions', action: 'delete' });
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  if (!session || !canAccess || session.current || session.isDeleted) return null;

  const name = session.userName || session.email || String(session.userId);
  const run = async () => {
    setConfirming(false);
    setRunning(true);
    alerts.loading();
    try {
      const { meta } = await dataProvider.delete('sessions', { id: session.id, previousData: session });
      alerts.success((meta as { message?: string } | undefined)?.message ?? translate('resources.sessions.end.done'));
      refresh();
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    // A click in the confirmation dialog bubbles through the portal to the row.
    <Box sx={{ display: 'inline-flex', alignItems: 'center' }} onClick={stopRowClick}>
      <Button
        label="resources.sessions.end.button"
        aria-label={translate('resources.sessions.end.label', { name })}
        color="error"
        disabled={running}
        onClick={(event) => {
          event.stopPropagation();
          setConfirming(true);
        }}
      >
        {running ? <Spinner size={16} /> : <LogoutIcon />}
      </Button>
      <Confirm
        isOpen={confirming}
        title={translate('resources.sessions.end.title', { name })}
        content={translate('resources.sessions.end.content')}
        confirm="resources.sessions.end.button"
        onConfirm={run}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
