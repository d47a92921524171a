import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_BASE } from '../../../providers/http';
import { getAccessToken } from '../../../providers/storage';
import { applyLiveEvent, createInvalidator, LIVE_RESOURCES } from './applyLiveEvent';
import { liveProgress } from './liveProgress';
import { liveState } from './liveState';
import { startLiveConnection } from './liveStream';

export const LIVE_EVENTS_URL = `${API_BASE}/events`;

/**
 * The signed-in console's live stream (see liveStream.ts), mounted once under react-admin's
 * query client for a signed-in session (`sessionKey` changes with the session). Its events
 * refresh what they name; when it drops (or opens again after a drop) everything it stands in for
 * is read again, which also puts the pages back on their polling until it is open.
 */
export function LiveUpdates({ sessionKey }: { sessionKey: string | null }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!sessionKey) return;
    const invalidator = createInvalidator(queryClient);
    let wasOpen = false;
    const stop = startLiveConnection({
      url: LIVE_EVENTS_URL,
      token: getAccessToken,
      onMessage: (message) => applyLiveEvent(queryClient, invalidator, message),
      onStatus: (status) => {
        liveState.set(status);
        if (status === 'open' && wasOpen) invalidator.add(LIVE_RESOURCES);
        if (status === 'down' && wasOpen) invalidator.add(LIVE_RESOURCES);
        if (status === 'open') wasOpen = true;
      },
    });
    return () => {
      stop();
      invalidator.cancel();
      liveState.set('off');
      liveProgress.clear();
    };
  }, [queryClient, sessionKey]);
  return null;
}
