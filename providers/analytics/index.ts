import { getStoredUser, isSignedIn } from '../storage';
import type { SessionUser } from '../types';
import { createGa4Analytics } from './ga4';
import { ANONYMOUS_USER_ID, type AnalyticsProvider } from './types';

export { ANONYMOUS_USER_ID, type AnalyticsProvider } from './types';
export { createGa4Analytics, OUTBOUND_LINK_TIMEOUT_MS } from './ga4';

export const noopAnalytics: AnalyticsProvider = {
  pageView() {},
  outboundLink(_url, done) {
    done();
  },
};

let current: AnalyticsProvider = noopAnalytics;

export function getAnalytics(): AnalyticsProvider {
  return current;
}

/** Installs a provider (tests install a recording one); returns the previous one. */
export function setAnalytics(provider: AnalyticsProvider): AnalyticsProvider {
  const previous = current;
  current = provider;
  return previous;
}

/**
 * The Google Analytics 4 property to report to: the console's build setting
 * (VITE_GA_MEASUREMENT_ID), else the server's (GA_MEASUREMENT_ID, which it writes into the page
 * as `<meta name="ga-measurement-id">`), else none.
 */
export function configuredMeasurementId(
  doc: Document | undefined = typeof document === 'undefined' ? undefined : document,
): string | undefined {
  const built = import.meta.env.VITE_GA_MEASUREMENT_ID as string | undefined;
  if (built) return built;
  return doc?.querySelector<HTMLMetaElement>('meta[name="ga-measurement-id"]')?.content || undefined;
}

/** Called once at start-up: Google Analytics 4 when a measurement id is configured, else nothing. */
export function initAnalytics(measurementId: string | undefined = configuredMeasurementId()): void {
  if (measurementId) setAnalytics(createGa4Analytics({ measurementId }));
}

/** The id page views are tagged with: the signed-in user's ga_user_id, else 'anonymous'. */
export function analyticsUserId(user: SessionUser | null = getStoredUser()): string {
  return (isSignedIn(user) && user?.ga_user_id) || ANONYMOUS_USER_ID;
}

/** Reports an outbound link, then leaves the console for it. */
export function followOutboundLink(url: string, open: (url: string) => void = (target) => window.location.assign(target)): void {
  current.outboundLink(url, () => open(url));
}

export interface RecordingAnalytics extends AnalyticsProvider {
  pageViews: { path: string; userId: string }[];
  outboundLinks: string[];
}

/** A provider that remembers what it was told: for tests and for debugging in the browser. */
export function createRecordingAnalytics(): RecordingAnalytics {
  const recorder: RecordingAnalytics = {
    pageViews: [],
    outboundLinks: [],
    pageView(path, userId) {
      recorder.pageViews.push({ path, userId });
    },
    outboundLink(url, done) {
      recorder.outboundLinks.push(url);
      done();
    },
  };
  return recorder;
}
