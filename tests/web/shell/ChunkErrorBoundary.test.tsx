import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChunkOutlet } from '../../../src/shell/ChunkOutlet';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, defineChunk, loadChunk } from '../../../src/shell/lazyChunk';
import { hasPreloadFailed, installPreloadErrorListener, resetPreloadFailure } from '../../../src/shell/preloadErrors';

function Loaded() {
  return <p>Chunk content</p>;
}

beforeEach(() => {
  // React reports errors caught by a boundary on the console; they are expected here.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  resetPreloadFailure();
});

describe('lazy chunks', () => {
  it('shows a friendly message when a chunk fails, and Retry imports it again', async () => {
    const importer = vi
      .fn<() => Promise<{ default: typeof Loaded }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: /assets/MainApp-abc.js'))
      .mockResolvedValue({ default: Loaded });
    render(<ChunkOutlet chunk={defineChunk('main', importer)} />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This part of the console could not be loaded');
    expect(alert).toHaveTextContent('Loading chunk main failed');
    expect(screen.queryByRole('button', { name: 'Reload the page' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Chunk content')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('offers a reload once a retry has failed too', async () => {
    const importer = vi.fn<() => Promise<{ default: typeof Loaded }>>().mockRejectedValue(new TypeError('Failed to fetch'));
    const chunk = defineChunk('main', importer);
    render(<ChunkOutlet chunk={chunk} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('fails a chunk that has not arrived after 120000 ms', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const settled = vi.fn();
    loadChunk('auth', () => new Promise<never>(() => undefined)).catch(settled);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toHaveBeenCalledWith(expect.any(ChunkLoadError));
    expect((settled.mock.calls[0][0] as Error).message).toBe('Loading chunk auth failed');
  });

  it('shows the timeout through the boundary as well', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(<ChunkOutlet chunk={defineChunk('auth', () => new Promise<never>(() => undefined))} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS));
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading chunk auth failed');
  });

  it('names a failed style chunk as a CSS chunk', async () => {
    await expect(loadChunk('auth', () => Promise.reject(new Error('Unable to preload CSS for /assets/AuthApp-1.css')))).rejects.toThrow(
      'Loading CSS chunk auth failed',
    );
  });

  it('recommends a reload straight away after a vite:preloadError', async () => {
    const uninstall = installPreloadErrorListener();
    window.dispatchEvent(Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: new Error('x') }));
    uninstall();
    expect(hasPreloadFailed()).toBe(true);
    render(<ChunkOutlet chunk={defineChunk('main', () => Promise.reject(new TypeError('Failed to fetch')))} />);
    expect(await screen.findByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('A newer version of the console may have been released');
  });

  it('also catches a crash inside a loaded chunk instead of leaving a white screen', async () => {
    function Broken(): never {
      throw new Error('Cannot read properties of undefined');
    }
    render(<ChunkOutlet chunk={defineChunk('main', async () => ({ default: Broken }))} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong while showing this page');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
  });
});

describe('chunk preload', () => {
  it('shares one import between preload and render, and forgets a failed one', async () => {
    const importer = vi
      .fn<() => Promise<{ default: typeof Loaded }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({ default: Loaded });
    const chunk = defineChunk('main', importer);
    await chunk.preload();
    await chunk.preload();
    expect(importer).toHaveBeenCalledTimes(2);
    render(<ChunkOutlet chunk={chunk} />);
    expect(await screen.findByText('Chunk content')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
