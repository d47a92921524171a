/** A web analytics service (spec sections 2 and 9): page views and outbound links. */
export interface AnalyticsProvider {
  /** A page view of `path`, tagged with the user's analytics id or ANONYMOUS_USER_ID. */
  pageView(path: string, userId: string): void;
  /**
   * An outbound link click. `done` is called exactly once, when the hit is sent or when the
   * outbound-link timeout passes, whichever comes first: the caller then follows the link.
   */
  outboundLink(url: string, done: () => void): void;
}

export const ANONYMOUS_USER_ID = 'anonymous';
