import { act, fireEvent, render, screen } from '@testing-library/react';
import { createGa4Analytics, createRecordingAnalytics, setAnalytics, type AnalyticsProvider } from '../../../providers/analytics';
import { OutboundButton, OutboundLink } from '../../../src/framework/OutboundLink';

const DOCS = 'https://docs.example.com/connectors/postgres';

let previous: AnalyticsProvider;
let open: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  open = vi.spyOn(window, 'open').mockImplementation(() => null);
});
afterEach(() => {
  setAnalytics(previous);
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('OutboundLink', () => {
  it('reports the link to analytics, then opens it in a new tab', () => {
    const recorder = createRecordingAnalytics();
    previous = setAnalytics(recorder);
    render(<OutboundLink href={DOCS}>Documentation</OutboundLink>);
    const link = screen.getByRole('link', { name: 'Documentation' });
    expect(link).toHaveAttribute('href', DOCS);
    expect(link).toHaveAttribute('target', '_blank');
    fireEvent.click(link);
    expect(recorder.outboundLinks).toEqual([DOCS]);
    expect(open).toHaveBeenCalledWith(DOCS, '_blank', 'noopener,noreferrer');
  });

  it('waits for the analytics hit at most 250 ms before following the link', async () => {
    vi.useFakeTimers();
    // gtag that never calls back: the link is followed when the spec's timeout passes.
    const gtag = vi.fn();
    previous = setAnalytics(createGa4Analytics({ measurementId: 'G-TEST', gtag, loadScript: () => undefined }));
    render(<OutboundButton href="https://dbc.example.net/#job/1/run/2">Open in Databricks</OutboundButton>);
    fireEvent.click(screen.getByRole('link', { name: 'Open in Databricks' }));
    expect(gtag).toHaveBeenCalledWith('event', 'click', expect.objectContaining({ link_url: 'https://dbc.example.net/#job/1/run/2' }));
    await act(() => vi.advanceTimersByTimeAsync(249));
    expect(open).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('follows at once when the hit is sent before the timeout', () => {
    const gtag = vi.fn((...args: unknown[]) => {
      const params = args[2] as { event_callback?: () => void } | undefined;
      params?.event_callback?.();
    });
    previous = setAnalytics(createGa4Analytics({ measurementId: 'G-TEST', gtag, loadScript: () => undefined }));
    render(<OutboundLink href={DOCS}>Documentation</OutboundLink>);
    fireEvent.click(screen.getByRole('link', { name: 'Documentation' }));
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('leaves a modified click to the browser, still reporting it', () => {
    const recorder = createRecordingAnalytics();
    previous = setAnalytics(recorder);
    render(<OutboundLink href={DOCS}>Documentation</OutboundLink>);
    fireEvent.click(screen.getByRole('link', { name: 'Documentation' }), { ctrlKey: true });
    expect(recorder.outboundLinks).toEqual([DOCS]);
    expect(open).not.toHaveBeenCalled();
  });
});
