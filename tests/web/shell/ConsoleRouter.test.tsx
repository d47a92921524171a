import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, use, useState } from 'react';
import { Route, Routes, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleRouter, useNavigationPacer, type NavigationPace, type NavigationPacer } from '../../../src/shell/ConsoleRouter';

/** A page whose data never comes in these tests: it suspends for as long as it is drawn. */
const never = new Promise<void>(() => undefined);
function Waiting() {
  use(never);
  return <p>never shown</p>;
}

let navigate: ReturnType<typeof useNavigate>;
function Navigator() {
  navigate = useNavigate();
  return null;
}

/** Registers `pacer` while shown (as the console's app does once loaded). */
function Pacer({ pacer }: { pacer: NavigationPacer }) {
  const [stable] = useState(() => pacer);
  useNavigationPacer(stable);
  return null;
}

function renderRouter(pacer?: NavigationPacer) {
  return render(
    <ConsoleRouter>
      <Navigator />
      {pacer && <Pacer pacer={pacer} />}
      <Suspense fallback={<p>Loading page</p>}>
        <Routes>
          <Route path="/a" element={<p>Page A</p>} />
          <Route path="/b" element={<p>Page B</p>} />
          <Route path="/c" element={<p>Page C</p>} />
          <Route path="/slow" element={<Waiting />} />
        </Routes>
      </Suspense>
    </ConsoleRouter>,
  );
}

/** A promise settled from the test. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

beforeEach(() => {
  window.history.replaceState(null, '', '/a');
});
afterEach(cleanup);

describe('ConsoleRouter', () => {
  it('follows the address bar, and moves with navigate', async () => {
    renderRouter();
    expect(screen.getByText('Page A')).toBeInTheDocument();
    await act(async () => navigate('/b'));
    expect(screen.getByText('Page B')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/b');
  });

  it('moves as a transition when no page gives its pace: the page shown stays while the next one waits', async () => {
    renderRouter();
    await act(async () => navigate('/slow'));
    expect(window.location.pathname).toBe('/slow');
    expect(screen.getByText('Page A')).toBeVisible();
    expect(screen.queryByText('Loading page')).not.toBeInTheDocument();
  });

  it('draws a page that says it is ready at once, not as a transition (which would keep the page shown)', async () => {
    renderRouter((location) => (location.pathname === '/slow' ? 'at-once' : 'transition'));
    await act(async () => navigate('/slow'));
    // Drawn in one go: a page that still waits shows the Suspense fallback instead of staying on A.
    expect(screen.getByText('Loading page')).toBeInTheDocument();
    expect(screen.getByText('Page A')).not.toBeVisible();
  });

  it('keeps the page shown until what the next one needs has come, then draws it', async () => {
    const arrival = deferred();
    renderRouter((location) => (location.pathname === '/b' ? arrival.promise : 'transition'));
    await act(async () => navigate('/b'));
    expect(window.location.pathname).toBe('/b');
    expect(screen.getByText('Page A')).toBeInTheDocument();
    await act(async () => arrival.resolve());
    expect(screen.getByText('Page B')).toBeInTheDocument();
  });

  it('draws the page even when what it waited for failed', async () => {
    let fail!: () => void;
    const failing = new Promise<void>((_, reject) => {
      fail = () => reject(new Error('the call failed'));
    });
    renderRouter((location) => (location.pathname === '/b' ? failing : 'transition'));
    await act(async () => navigate('/b'));
    expect(screen.getByText('Page A')).toBeInTheDocument();
    await act(async () => fail());
    expect(screen.getByText('Page B')).toBeInTheDocument();
  });

  it('a later move replaces one still waiting: the first page is not drawn when its data comes', async () => {
    const arrival = deferred();
    const paces: Record<string, NavigationPace> = { '/b': arrival.promise, '/c': 'at-once' };
    renderRouter((location) => paces[location.pathname] ?? 'transition');
    await act(async () => navigate('/b'));
    await act(async () => navigate('/c'));
    expect(screen.getByText('Page C')).toBeInTheDocument();
    await act(async () => arrival.resolve());
    expect(screen.getByText('Page C')).toBeInTheDocument();
    expect(screen.queryByText('Page B')).not.toBeInTheDocument();
    expect(window.location.pathname).toBe('/c');
  });

  it('moves back in history at the pace of the page moved to', async () => {
    renderRouter(() => 'at-once');
    await act(async () => navigate('/b'));
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(screen.getByText('Page A')).toBeInTheDocument();
  });

  it('forgets the pace of pages no longer mounted: moves are transitions again', async () => {
    const view = render(
      <ConsoleRouter>
        <Navigator />
        <Suspense fallback={<p>Loading page</p>}>
          <Routes>
            <Route
              path="/a"
              element={
                <>
                  <p>Page A</p>
                  <Pacer pacer={() => 'at-once'} />
                </>
              }
            />
            <Route path="/b" element={<p>Page B</p>} />
            <Route path="/slow" element={<Waiting />} />
          </Routes>
        </Suspense>
      </ConsoleRouter>,
    );
    await act(async () => navigate('/b'));
    expect(screen.getByText('Page B')).toBeInTheDocument();
    // Page A (and its pacer) is gone: the move to a page that waits keeps B on screen.
    await act(async () => navigate('/slow'));
    expect(screen.getByText('Page B')).toBeInTheDocument();
    expect(screen.queryByText('Loading page')).not.toBeInTheDocument();
    view.unmount();
  });
});
