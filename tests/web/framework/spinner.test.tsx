import { screen } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { LoadingIndicator } from '../../../src/app/layout/LoadingIndicator';
import { PageLoading, Spinner } from '../../../src/framework/Spinner';
import { RENDER_TIMEOUT_MS, renderInConsole } from '../app/render';

/** A call that never answers: react-admin counts it as loading for as long as the test runs. */
function PendingCall() {
  useQuery({ queryKey: ['never'], queryFn: () => new Promise<never>(() => undefined) });
  return null;
}

describe('progress indicators have a name a screen reader can say', () => {
  it(
    'the app bar spins while a call is in flight, and the spinner is named',
    async () => {
      renderInConsole(
        <>
          {/* First, so that it listens before the call starts, as in the app bar. */}
          <LoadingIndicator />
          <PendingCall />
        </>,
      );
      expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    },
    RENDER_TIMEOUT_MS,
  );

  it(
    'the app bar shows only its refresh button when nothing is in flight',
    async () => {
      renderInConsole(<LoadingIndicator />);
      expect(await screen.findByRole('button', { name: 'Refresh' })).toBeInTheDocument();
      expect(screen.queryByRole('progressbar')).toBeNull();
    },
    RENDER_TIMEOUT_MS,
  );

  it('a spinner says what is in progress when it is told', () => {
    renderInConsole(<Spinner label="Ending the session" />);
    expect(screen.getByRole('progressbar', { name: 'Ending the session' })).toBeInTheDocument();
  });

  it(
    'a page on its way shows nothing for a second, then a named spinner and "Loading"',
    async () => {
      renderInConsole(<PageLoading />);
      expect(screen.queryByRole('progressbar')).toBeNull();
      expect(await screen.findByRole('progressbar', { name: 'Loading' }, { timeout: 3000 })).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Loading' })).toBeInTheDocument();
    },
    RENDER_TIMEOUT_MS,
  );
});
