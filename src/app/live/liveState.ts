import { useSyncExternalStore } from 'react';

/**
 * Where the live stream stands, for the polling it stands in for: the run page, the run lists and
 * the bell poll often while it is not open, and only as a safety net while it is. A small store
 * outside React, since react-query reads polling intervals in plain functions.
 */
export type LiveStatus =
  /** Not signed in, or not started yet. */
  | 'off'
  | 'connecting'
  | 'open'
  /** Dropped; trying again after a pause. The console polls meanwhile. */
  | 'down'
  /** The server has no live stream (404): the console polls, and does not ask again. */
  | 'unavailable';

let status: LiveStatus = 'off';
const listeners = new Set<() => void>();

export const liveState = {
  get(): LiveStatus {
    return status;
  },
  set(next: LiveStatus) {
    if (next === status) return;
    status = next;
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Whether changes arrive through the stream now (polling can slow down to a safety net). */
export function isLiveStreamOpen(): boolean {
  return status === 'open';
}

/** While the stream is open, what is followed is still read again this often, in case a signal was missed. */
export const LIVE_SAFETY_MS = 30_000;

/** A polling interval: `pollMs` while the stream is not open, the safety net while it is. */
export function pollUnlessLive(pollMs: number): number {
  return isLiveStreamOpen() ? Math.max(pollMs, LIVE_SAFETY_MS) : pollMs;
}

/** The stream's status, for views that say how they follow what they show. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(liveState.subscribe, liveState.get);
}
