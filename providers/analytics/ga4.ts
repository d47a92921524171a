import { ANONYMOUS_USER_ID, type AnalyticsProvider } from './types';

export const GTAG_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';
/** Spec section 9: an outbound link is followed at most this long after the click. */
export const OUTBOUND_LINK_TIMEOUT_MS = 250;

export type Gtag = (...args: unknown[]) => void;

interface GtagWindow {
  dataLayer?: unknown[];
  gtag?: Gtag;
}

export interface Ga4Options {
  measurementId: string;
  /** Tests pass a fake; by default the standard `window.gtag` command queue is used. */
  gtag?: Gtag;
  /** How gtag.js is fetched; by default a script tag from Google's standard URL. */
  loadScript?: (src: string) => void;
  outboundTimeoutMs?: number;
}

function injectScript(src: string): void {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

/** gtag's standard command queue: gtag.js reads `arguments` objects from dataLayer when it loads. */
function standardGtag(): Gtag {
  const w = window as unknown as GtagWindow;
  w.dataLayer = w.dataLayer ?? [];
  if (!w.gtag) {
    const queue = w.dataLayer;
    w.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params
      queue.push(arguments);
    };
  }
  return w.gtag;
}

function once(callback: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    callback();
  };
}

/**
 * Google Analytics 4. gtag.js is only fetched on the first hit, so a console without a
 * measurement id, or a visitor who never gets past the first paint, pays nothing for it.
 */
export function createGa4Analytics(options: Ga4Options): AnalyticsProvider {
  const { measurementId, outboundTimeoutMs = OUTBOUND_LINK_TIMEOUT_MS } = options;
  let gtag: Gtag | null = null;

  function ready(): Gtag {
    if (gtag) return gtag;
    gtag = options.gtag ?? standardGtag();
    gtag('js', new Date());
    // Page views are sent by the console on each route change, not by gtag on load.
    gtag('config', measurementId, { send_page_view: false });
    (options.loadScript ?? injectScript)(`${GTAG_SCRIPT_URL}?id=${encodeURIComponent(measurementId)}`);
    return gtag;
  }

  return {
    pageView(path, userId) {
      const anonymous = userId === ANONYMOUS_USER_ID;
      ready()('event', 'page_view', {
        send_to: measurementId,
        page_path: path,
        page_location: `${window.location.origin}${path}`,
        page_title: document.title,
        // A shared 'anonymous' user_id would merge every signed-out visitor into one user.
        user_id: anonymous ? undefined : userId,
        user_status: anonymous ? ANONYMOUS_USER_ID : 'signed_in',
      });
    },

    outboundLink(url, done) {
      const finish = once(done);
      const timer = setTimeout(finish, outboundTimeoutMs);
      ready()('event', 'click', {
        send_to: measurementId,
        event_category: 'outbound',
        event_label: url,
        link_url: url,
        outbound: true,
        transport_type: 'beacon',
        event_callback: () => {
          clearTimeout(timer);
          finish();
        },
      });
    },
  };
}
