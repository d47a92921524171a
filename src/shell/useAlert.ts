import { useSyncExternalStore } from 'react';
import { alerts, type AlertState } from '../../providers/alerts';

/** The current alert of providers/alerts.ts, re-rendering on every change. */
export function useAlert(): AlertState {
  return useSyncExternalStore(alerts.subscribe, alerts.get, alerts.get);
}
