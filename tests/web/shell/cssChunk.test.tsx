import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChunkOutlet } from '../../../src/shell/ChunkOutlet';
import { defineChunk } from '../../../src/shell/lazyChunk';
import { EntryStylesheets, failedEntryStylesheets, stylesheetChunkName } from '../../../src/shell/EntryStylesheets';

function Styled() {
  return <p>Styled content</p>;
}

const SHEET = 'http://localhost:3000/assets/AuthApp-1a2b.css';
const cssFailure = () => new Error(`Unable to preload CSS for ${SHEET}`);

/** The `<link>` the chunk adds to fetch its style sheet again, once it is there. */
async function reloadedSheet(): Promise<HTMLLinkElement> {
  let link: HTMLLinkElement | null = null;
  await waitFor(() => {
    link = document.head.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${SHEET}"]`);
    expect(link).not.toBeNull();
  });
  return link!;
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  document.head.querySelectorAll('link[rel="stylesheet"]').forEach((link) => link.remove());
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('a style chunk that fails to load', () => {
  it('says "Loading CSS chunk … failed", and Retry fetches the style sheet again before drawing the chunk', async () => {
    // As Vite does: the first import fails on the style sheet; the next one skips it and returns the script alone.
    const importer = vi
      .fn<() => Promise<{ default: typeof Styled }>>()
      .mockRejectedValueOnce(cssFailure())
      .mockResolvedValue({ default: Styled });
    render(<ChunkOutlet chunk={defineChunk('auth', importer)} />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Loading CSS chunk auth failed');

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const link = await reloadedSheet();
    // Not drawn unstyled: the chunk waits for its style sheet.
    expect(screen.queryByText('Styled content')).not.toBeInTheDocument();
    link.dispatchEvent(new Event('load'));
    expect(await screen.findByText('Styled content')).toBeInTheDocument();
  });

  it('after a failed preload, shows the failure rather than an unstyled page when the style sheet fails again', async () => {
    const importer = vi
      .fn<() => Promise<{ default: typeof Styled }>>()
      .mockRejectedValueOnce(cssFailure())
      .mockResolvedValue({ default: Styled });
    const chunk = defineChunk('auth', importer);
    await chunk.preload();

    render(<ChunkOutlet chunk={chunk} />);
    const link = await reloadedSheet();
    link.dispatchEvent(new Event('error'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading CSS chunk auth failed');
    expect(screen.queryByText('Styled content')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    (await reloadedSheet()).dispatchEvent(new Event('load'));
    expect(await screen.findByText('Styled content')).toBeInTheDocument();
  });
});

describe("the console's first style sheet, linked from index.html", () => {
  const ENTRY = 'http://localhost:3000/assets/index-Dq_OZrdA.css';

  it('is found failed at start when its <link> holds an empty sheet or none, waiting for one on its way; and named by its chunk', async () => {
    const link = (href: string, sheet: unknown) => {
      const element = document.createElement('link');
      element.rel = 'stylesheet';
      element.href = href;
      Object.defineProperty(element, 'sheet', { value: sheet, configurable: true });
      document.head.append(element);
      return element;
    };
    link('http://localhost:3000/assets/fonts-9xYz12ab.css', { cssRules: [{}] });
    // Chromium: a sheet that failed is one whose rules cannot be read (or an empty one).
    const unreadable = {
      get cssRules(): never {
        throw new DOMException('Cannot access rules', 'SecurityError');
      },
    };
    link(ENTRY, unreadable);
    link('http://localhost:3000/assets/empty-4Rt6yU8i.css', { cssRules: [] });
    // Another origin's sheet without CORS cannot be read either, and is there.
    link('https://fonts.example.com/css2-1aB2c3D4.css', unreadable);
    // Still loading at start: its end decides.
    const late = link('http://localhost:3000/assets/late-7Qw3rT5u.css', null);
    const found = failedEntryStylesheets();
    Object.defineProperty(late, 'sheet', { value: null });
    late.dispatchEvent(new Event('error'));
    expect(await found).toEqual([
      ENTRY,
      'http://localhost:3000/assets/empty-4Rt6yU8i.css',
      'http://localhost:3000/assets/late-7Qw3rT5u.css',
    ]);
    expect(stylesheetChunkName(ENTRY)).toBe('index');
  });

  it('failed: says "Loading CSS chunk index failed" instead of an unstyled console; Retry fetches it and shows the console', async () => {
    let settle!: { resolve: () => void; reject: (error: Error) => void };
    const reload = vi.fn(
      () =>
        new Promise<void>((resolve, reject) => {
          settle = { resolve, reject };
        }),
    );
    render(
      <EntryStylesheets failed={[ENTRY]} reload={reload}>
        <p>Styled content</p>
      </EntryStylesheets>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading CSS chunk index failed');
    expect(screen.queryByText('Styled content')).not.toBeInTheDocument();

    // A retry that fails again says so again, and offers a reload of the page.
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledWith(ENTRY);
    await act(async () => settle.reject(new Error(`Unable to preload CSS for ${ENTRY}`)));
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading CSS chunk index failed');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.queryByText('Styled content')).not.toBeInTheDocument();
    await act(async () => settle.resolve());
    expect(await screen.findByText('Styled content')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('loaded: shows the console at once', () => {
    render(
      <EntryStylesheets failed={[]}>
        <p>Styled content</p>
      </EntryStylesheets>,
    );
    expect(screen.getByText('Styled content')).toBeInTheDocument();
  });
});
