import {
  ANONYMOUS_USER_ID,
  analyticsUserId,
  configuredMeasurementId,
  createGa4Analytics,
  createRecordingAnalytics,
  followOutboundLink,
  getAnalytics,
  noopAnalytics,
  OUTBOUND_LINK_TIMEOUT_MS,
  setAnalytics,
} from '../../../providers/analytics';
import { sessionUser, storeUser } from '../fixtures';

afterEach(() => {
  vi.useRealTimers();
  setAnalytics(noopAnalytics);
});

function fakeGa4() {
  const calls: unknown[][] = [];
  const gtag = vi.fn((...args: unknown[]) => {
    calls.push(args);
  });
  const loadScript = vi.fn();
  const provider = createGa4Analytics({ measurementId: 'G-TEST123', gtag, loadScript });
  const events = (name: string) =>
    calls.filter((args) => args[0] === 'event' && args[1] === name).map((args) => args[2] as Record<string, unknown>);
  return { provider, gtag, loadScript, calls, events };
}

describe('Google Analytics 4 provider', () => {
  it('loads gtag.js once, lazily, from the standard URL, and configures without an automatic page view', () => {
    const { provider, loadScript, calls } = fakeGa4();
    expect(loadScript).not.toHaveBeenCalled();
    provider.pageView('/tables', 'ga-1');
    provider.pageView('/users', 'ga-1');
    expect(loadScript).toHaveBeenCalledTimes(1);
    expect(loadScript).toHaveBeenCalledWith('https://www.googletagmanager.com/gtag/js?id=G-TEST123');
    expect(calls).toContainEqual(['config', 'G-TEST123', { send_page_view: false }]);
  });

  it('sends page_view with the user id, and none for anonymous visitors', () => {
    const { provider, events } = fakeGa4();
    provider.pageView('/tables?x=1', 'ga-1');
    provider.pageView('/auth/signin', ANONYMOUS_USER_ID);
    const [signedIn, anonymous] = events('page_view');
    expect(signedIn).toMatchObject({ page_path: '/tables?x=1', user_id: 'ga-1' });
    expect(anonymous).toMatchObject({ page_path: '/auth/signin', user_id: undefined, user_status: 'anonymous' });
  });

  it('reports an outbound click as a beacon and calls done after 250 ms when gtag never answers', () => {
    vi.useFakeTimers();
    const { provider, events } = fakeGa4();
    const done = vi.fn();
    provider.outboundLink('https://docs.example.com', done);
    expect(events('click')[0]).toMatchObject({ event_label: 'https://docs.example.com', transport_type: 'beacon' });
    expect(OUTBOUND_LINK_TIMEOUT_MS).toBe(250);
    vi.advanceTimersByTime(249);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(done).toHaveBeenCalledTimes(1);
    // A late callback from gtag does not follow the link twice.
    (events('click')[0].event_callback as () => void)();
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('calls done once, at the event callback, when gtag answers first', () => {
    vi.useFakeTimers();
    const { provider, events } = fakeGa4();
    const done = vi.fn();
    provider.outboundLink('https://docs.example.com', done);
    vi.advanceTimersByTime(100);
    (events('click')[0].event_callback as () => void)();
    expect(done).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(done).toHaveBeenCalledTimes(1);
  });
});

describe('the analytics property', () => {
  it('is the one the server writes into the page when the build names none, and none when neither does', () => {
    const page = document.implementation.createHTMLDocument('console');
    expect(configuredMeasurementId(page)).toBeUndefined();
    const meta = page.createElement('meta');
    meta.name = 'ga-measurement-id';
    meta.content = 'G-FROMSERVER1';
    page.head.appendChild(meta);
    expect(configuredMeasurementId(page)).toBe('G-FROMSERVER1');
  });
});

describe('analytics provider registry', () => {
  it('is a no-op by default and can be replaced by a recording provider', () => {
    expect(getAnalytics()).toBe(noopAnalytics);
    const recorder = createRecordingAnalytics();
    setAnalytics(recorder);
    getAnalytics().pageView('/x', 'ga-1');
    const open = vi.fn();
    followOutboundLink('https://example.com', open);
    expect(recorder.pageViews).toEqual([{ path: '/x', userId: 'ga-1' }]);
    expect(recorder.outboundLinks).toEqual(['https://example.com']);
    expect(open).toHaveBeenCalledWith('https://example.com');
  });

  it('tags with ga_user_id when signed in, anonymous otherwise', () => {
    expect(analyticsUserId()).toBe('anonymous');
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    expect(analyticsUserId()).toBe('anonymous');
    storeUser(sessionUser({ ga_user_id: 'ga-42' }));
    expect(analyticsUserId()).toBe('ga-42');
  });
});
