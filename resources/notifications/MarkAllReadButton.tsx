import DoneAllIcon from '@mui/icons-material/DoneAll';
import { useState } from 'react';
import { Button } from 'react-admin';
import { useMarkAllRead, useUnreadCount } from './api';

/** Marks every one of the caller's notifications read (`PUT /notification`). */
export function MarkAllReadButton() {
  const markAll = useMarkAllRead();
  const count = useUnreadCount();
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    await markAll();
    setRunning(false);
  };
  return (
    <Button label="resources.notifications.mark_all_read" onClick={run} disabled={running || count.data?.unread === 0}>
      <DoneAllIcon />
    </Button>
  );
}
