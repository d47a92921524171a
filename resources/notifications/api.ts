import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { notificationsContract, type Notification as ContractNotification } from '../../common/contract/notifications';
import { alerts } from '../../providers/alerts';
import { followOutboundLink } from '../../providers/analytics';
import { callAction } from '../../providers/dataProvider';
import { getStoredUser } from '../../providers/storage';
import { pollUnlessLive } from '../../src/app/live/liveState';
import { failureText } from '../../src/framework/feedback';

/** A notification (docs/api/notifications.md): one row per recipient. */
export type Notification = ContractNotification;

export interface NotificationCount {
  unread: number;
  total: number;
  countExact?: boolean;
}

const { actions } = notificationsContract;

/**
 * Every notification query of the console starts with the resource's name, react-admin's list
 * queries included: invalidating this prefix after a mark-read refreshes the app bar's bell,
 * its popover and any notifications list at once.
 */
export const NOTIFICATIONS_QUERY = ['notifications'] as const;
export const unreadCountKey = ['notifications', 'bell', 'count'] as const;
export const latestKey = ['notifications', 'bell', 'latest'] as const;

/** The bell asks again this often while the tab is visible (react-query pauses it in the background). */
export const BELL_POLL_MS = 30_000;

export async function getNotificationCount(signal?: AbortSignal): Promise<NotificationCount> {
  const answer = await callAction(actions.counts, { signal });
  return { unread: Number(answer?.data?.unread ?? 0), total: Number(answer?.data?.total ?? 0), countExact: answer?.data?.countExact };
}

export async function getLatestNotifications(signal?: AbortSignal): Promise<Notification[]> {
  const answer = await callAction(actions.latest, { signal });
  return Array.isArray(answer?.data) ? answer.data : [];
}

export async function markNotificationRead(notificationId: string): Promise<string | undefined> {
  const answer = await callAction(actions.markRead, { body: { notificationId } });
  return answer?.message;
}

export async function markAllNotificationsRead(): Promise<string | undefined> {
  const answer = await callAction(actions.markAllRead);
  return answer?.message;
}

/** After any change of reading state: the bell, its popover and the lists ask the server again. */
export function notificationsChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY });
}

/** Only the recipient may mark a notification read (an admin's list shows everyone's). */
export function isOwnUnread(notification: Pick<Notification, 'userId' | 'status'>): boolean {
  return notification.status === 'unread' && notification.userId === getStoredUser()?.id;
}

/** The unread count of the bell: polled while the tab is visible, asked again when the window regains focus. */
export function useUnreadCount() {
  return useQuery({
    queryKey: unreadCountKey,
    queryFn: ({ signal }) => getNotificationCount(signal),
    // The live stream rings the bell at once (src/app/live); polling is its stand-in while it is not open.
    refetchInterval: () => pollUnlessLive(BELL_POLL_MS),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 5_000,
    retry: false,
  });
}

export function useLatestNotifications(enabled: boolean) {
  return useQuery({
    queryKey: latestKey,
    queryFn: ({ signal }) => getLatestNotifications(signal),
    enabled,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
    retry: false,
  });
}

/** Marks one read; the server's message is the alert unless `quiet`, and every notification query refreshes. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useCallback(
    (notificationId: string, { quiet = false }: { quiet?: boolean } = {}): Promise<boolean> =>
      markAndRefresh(queryClient, async () => {
        const message = await markNotificationRead(notificationId);
        if (!quiet && message) alerts.success(message);
      }),
    [queryClient],
  );
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useCallback((): Promise<boolean> => {
    alerts.loading();
    return markAndRefresh(queryClient, async () => alerts.success((await markAllNotificationsRead()) ?? ''));
  }, [queryClient]);
}

/** Runs a marking: a failure is the alert, and every notification query refreshes either way. Whether it went through. */
async function markAndRefresh(queryClient: QueryClient, mark: () => Promise<void>): Promise<boolean> {
  try {
    await mark();
    return true;
  } catch (error) {
    alerts.error(failureText(error));
    return false;
  } finally {
    await notificationsChanged(queryClient);
  }
}

/** A link of the console is followed in place; a full address is reported to analytics as an outbound link, then opened. */
function follow(link: string, navigate: (to: string) => void) {
  if (/^https?:\/\//i.test(link)) followOutboundLink(link);
  else navigate(link.startsWith('/') ? link : `/${link}`);
}

/**
 * Opening a notification: it is marked read (the caller's own, when unread), then its link is
 * followed. The mark is quiet: the page it leads to is what the user wanted to see.
 */
export function useOpenNotification() {
  const markRead = useMarkRead();
  const navigate = useNavigate();
  return useCallback(
    async (notification: Notification) => {
      if (isOwnUnread(notification)) await markRead(notification.id, { quiet: true });
      if (notification.link) follow(notification.link, navigate);
    },
    [markRead, navigate],
  );
}
