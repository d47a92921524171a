import DoneAllIcon from '@mui/icons-material/DoneAll';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import NotificationsIcon from '@mui/icons-material/Notifications';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone';
import {
  Alert,
  Badge,
  Box,
  Button,
  Divider,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Popover,
  Skeleton,
  Tooltip,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { LinkBase, useLocaleState, useTranslate } from 'react-admin';
import { useServerText } from '../../../providers/i18n/useServerText';
import {
  isOwnUnread,
  useLatestNotifications,
  useMarkAllRead,
  useMarkRead,
  useOpenNotification,
  useUnreadCount,
  type Notification,
} from '../../../resources/notifications/api';
import { failureText } from '../../framework/feedback';

const NOTIFICATIONS_PATH = '/notifications';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago": how long ago, in the largest unit that fits, in the given language. */
export function timeAgo(iso: string, now = Date.now(), locale = 'en'): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return '';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}

function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: (notification: Notification) => void }) {
  const translate = useTranslate();
  const serverText = useServerText();
  const [locale] = useLocaleState();
  const markRead = useMarkRead();
  const unread = notification.status === 'unread';
  const canMark = isOwnUnread(notification);
  return (
    <ListItem
      disablePadding
      data-notification={notification.id}
      data-unread={unread || undefined}
      secondaryAction={
        canMark ? (
          <Tooltip title={translate('resources.notifications.mark_read')}>
            <IconButton
              edge="end"
              size="small"
              aria-label={translate('resources.notifications.bell.mark_read', { title: serverText(notification.title) })}
              onClick={() => void markRead(notification.id, { quiet: true })}
            >
              <MarkEmailReadIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : undefined
      }
    >
      <ListItemButton onClick={() => onOpen(notification)} sx={{ alignItems: 'flex-start', pr: canMark ? 6 : 2 }}>
        {unread && (
          <Box
            component="span"
            aria-label={translate('resources.notifications.bell.unread')}
            sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: 'info.main', mt: 1, mr: 1, flexShrink: 0 }}
          />
        )}
        <ListItemText
          primary={serverText(notification.title)}
          secondary={
            <>
              <Box component="span" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                {serverText(notification.message)}
              </Box>
              <Box component="span" sx={{ display: 'block', mt: 0.5, fontSize: '0.75rem' }}>
                <time dateTime={notification.createdAt} title={new Date(notification.createdAt).toLocaleString()}>
                  {timeAgo(notification.createdAt, Date.now(), locale)}
                </time>
                {notification.createdByName ? ` · ${notification.createdByName}` : ''}
              </Box>
            </>
          }
          slotProps={{ primary: { sx: { fontWeight: unread ? 700 : 400 } } }}
        />
      </ListItemButton>
    </ListItem>
  );
}

function BellPanel({ unread, onClose, titleId }: { unread: number; onClose: () => void; titleId: string }) {
  const translate = useTranslate();
  const latest = useLatestNotifications(true);
  const openNotification = useOpenNotification();
  const markAll = useMarkAllRead();
  const [marking, setMarking] = useState(false);

  const open = (notification: Notification) => {
    onClose();
    void openNotification(notification);
  };
  const markAllRead = async () => {
    setMarking(true);
    await markAll();
    setMarking(false);
  };

  let body;
  if (latest.isPending) {
    body = (
      <Box sx={{ p: 2 }} aria-label={translate('resources.notifications.bell.loading')}>
        <Skeleton />
        <Skeleton />
        <Skeleton width="60%" />
      </Box>
    );
  } else if (latest.isError) {
    body = (
      <Alert severity="error" sx={{ m: 2 }}>
        {translate('resources.notifications.bell.load_error', { message: failureText(latest.error) })}
      </Alert>
    );
  } else if (latest.data.length === 0) {
    body = (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {translate('resources.notifications.bell.empty')}
      </Typography>
    );
  } else {
    body = (
      <List dense disablePadding aria-labelledby={titleId} sx={{ maxHeight: 420, overflowY: 'auto' }}>
        {latest.data.map((notification) => (
          <NotificationItem key={notification.id} notification={notification} onOpen={open} />
        ))}
      </List>
    );
  }

  return (
    <Box sx={{ width: { xs: 'calc(100vw - 32px)', sm: 380 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {translate('resources.notifications.bell.title')}
        </Typography>
        <Button size="small" startIcon={<DoneAllIcon />} onClick={markAllRead} disabled={marking || unread === 0}>
          {translate('resources.notifications.bell.mark_all_read')}
        </Button>
      </Box>
      <Divider />
      {body}
      <Divider />
      <Box sx={{ p: 1, textAlign: 'center' }}>
        <Button size="small" component={LinkBase} to={NOTIFICATIONS_PATH} onClick={onClose}>
          {translate('resources.notifications.bell.see_all')}
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The app bar's bell: the caller's unread count (polled every 30 s while the tab is visible,
 * asked again when the window regains focus and after any mark-read in the console, since every
 * notification query shares one key prefix), and the latest ten in a popover.
 */
export function NotificationBell() {
  const translate = useTranslate();
  const titleId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const count = useUnreadCount();
  const unread = count.data?.unread ?? 0;
  const label =
    unread > 0
      ? translate('resources.notifications.bell.label_unread', { smart_count: unread })
      : translate('resources.notifications.bell.label');
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          {/* No badge at all without unread ones: a hidden badge keeps its last count as text. */}
          {unread > 0 ? (
            <Badge badgeContent={unread} max={99} color="error" data-testid="notification-badge">
              <NotificationsIcon />
            </Badge>
          ) : (
            <NotificationsNoneIcon />
          )}
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': titleId } as object }}
      >
        <BellPanel unread={unread} onClose={close} titleId={titleId} />
      </Popover>
    </>
  );
}
