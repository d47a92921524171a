import { act, screen } from '@testing-library/react';
import { ListPrimer } from '../../../src/framework/list/ListPrimer';
import { admin, mockPreferencesServer, signIn } from '../app/fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from '../app/render';
import { server } from '../msw';

describe('the list primer', { timeout: RENDER_TIMEOUT_MS }, () => {
  const idle: (() => void)[] = [];
  beforeEach(() => {
    idle.length = 0;
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
  });
  afterEach(() => vi.unstubAllGlobals());

  const nextIdle = () => act(() => idle.splice(0).forEach((callback) => callback()));

  it("draws a list's table out of sight at the first idle moment, removes it at the next, asks the server nothing, once per page", async () => {
    signIn(admin);
    mockPreferencesServer();
    const asked: string[] = [];
    const record = ({ request }: { request: Request }) => asked.push(new URL(request.url).pathname);
    server.events.on('request:start', record);
    try {
      const view = renderInConsole(<ListPrimer />);
      expect(document.querySelector('[data-list-primer]')).toBeNull();
      await nextIdle();
      const primer = document.querySelector<HTMLElement>('[data-list-primer]')!;
      expect(primer).not.toBeNull();
      expect(primer).toHaveAttribute('aria-hidden', 'true');
      expect(primer.hidden).toBe(true);
      // The table itself, with its header, a row of the usual column kinds and the paging.
      expect(primer.querySelectorAll('thead th').length).toBeGreaterThan(8);
      expect(primer.querySelector('tbody tr')).toHaveTextContent('name@example.com');
      expect(primer.querySelector('tbody tr')).toHaveTextContent('Active');
      // Out of sight: no role a person or a test looks for reaches it.
      expect(screen.queryByRole('table')).toBeNull();
      await nextIdle();
      expect(document.querySelector('[data-list-primer]')).toBeNull();
      view.unmount();

      // Once per page load: a later console frame does not draw it again.
      renderInConsole(<ListPrimer />);
      await nextIdle();
      expect(document.querySelector('[data-list-primer]')).toBeNull();
      expect(asked.filter((path) => path.includes('list-primer'))).toEqual([]);
    } finally {
      server.events.removeListener('request:start', record);
    }
  });
});
