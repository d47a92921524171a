import { IconButton, Link, Tooltip, Typography } from '@mui/material';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import { useRecordContext, useTranslate } from 'react-admin';
import { useServerText } from '../../providers/i18n/useServerText';
import { stopRowClick } from '../../src/framework/feedback';
import { OutboundLink } from '../../src/framework/OutboundLink';
import { isOwnUnread, useMarkRead, useOpenNotification, type Notification } from './api';

const isOutbound = (link: string) => /^https?:\/\//i.test(link);

/** The title: bold while unread; a click marks it read and follows its link. */
export function NotificationTitle({ notification }: { notification: Notification }) {
  const open = useOpenNotification();
  const markRead = useMarkRead();
  const serverText = useServerText();
  const unread = notification.status === 'unread';
  const sx = { font: 'inherit', fontWeight: unread ? 700 : 400, textAlign: 'left' } as const;
  if (notification.link && isOutbound(notification.link)) {
    // An address outside the console: a real link, reported to analytics as it is followed.
    return (
      <OutboundLink
        href={notification.link}
        underline="hover"
        color="inherit"
        onClick={(event) => {
          stopRowClick(event);
          if (isOwnUnread(notification)) void markRead(notification.id, { quiet: true });
        }}
        sx={sx}
        data-unread={unread || undefined}
      >
        {serverText(notification.title)}
      </OutboundLink>
    );
  }
  return (
    <Link
      component="button"
      type="button"
      underline="hover"
      color="inherit"
      onClick={(event) => {
        stopRowClick(event);
        void open(notification);
      }}
      sx={sx}
      data-unread={unread || undefined}
    >
      {serverText(notification.title)}
    </Link>
  );
}

/** Who caused it; the system when no one did. */
export function NotificationSender({ notification }: { notification: Notification }) {
  const translate = useTranslate();
  if (notification.createdByName) return <>{notification.createdByName}</>;
  return (
    <Typography component="span" variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
      {translate('resources.notifications.system')}
    </Typography>
  );
}

/** "Mark read" in a row: the caller's own unread notifications only (an admin sees everyone's). */
export function MarkReadButton() {
  const record = useRecordContext<Notification>();
  const translate = useTranslate();
  const markRead = useMarkRead();
  const serverText = useServerText();
  if (!record || !isOwnUnread(record)) return null;
  const label = translate('resources.notifications.mark_read_one', { title: serverText(record.title) });
  return (
    <Tooltip title={translate('resources.notifications.mark_read')}>
      <IconButton
        size="small"
        aria-label={label}
        onClick={(event) => {
          stopRowClick(event);
          void markRead(record.id);
        }}
      >
        <MarkEmailReadIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
