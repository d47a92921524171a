import { useState, type ReactNode } from 'react';
import { ChunkErrorBoundary } from './ChunkErrorBoundary';
import { ChunkLoadError, reloadStylesheet } from './lazyChunk';

/** How long a linked sheet still on its way at start is waited for. */
const PENDING_SHEET_WAIT_MS = 10_000;

/**
 * Whether a linked sheet is in. A failed one is null in some browsers; in Chromium it is a sheet
 * whose rules cannot be read (as if from another origin), or an empty one.
 */
function sheetState(link: HTMLLinkElement, doc: Document): 'loaded' | 'failed' | 'pending' {
  const sheet = link.sheet;
  if (!sheet) return 'pending';
  try {
    return sheet.cssRules.length > 0 ? 'loaded' : 'failed';
  } catch {
    // Unreadable: failed when it is the console's own; another origin's sheet without CORS is there.
    return new URL(link.href, doc.baseURI).origin === new URL(doc.baseURI).origin ? 'failed' : 'loaded';
  }
}

/**
 * The style sheets index.html links (the console's first one) that failed to load: a release
 * replaced the file, or the network dropped it. Without this the console would be drawn
 * unstyled with no word of why. A sheet still on its way is waited for.
 */
export async function failedEntryStylesheets(doc: Document = document): Promise<string[]> {
  const links = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
  const states = await Promise.all(
    links.map(async (link) => {
      if (sheetState(link, doc) === 'pending') {
        await new Promise<void>((settle) => {
          link.addEventListener('load', () => settle(), { once: true });
          link.addEventListener('error', () => settle(), { once: true });
          // Its end may have passed unseen (a browser that leaves a failed sheet null): not for ever.
          setTimeout(settle, PENDING_SHEET_WAIT_MS);
        });
        if (!link.sheet) return 'failed';
      }
      return sheetState(link, doc);
    }),
  );
  return links.filter((_, index) => states[index] === 'failed').map((link) => link.href);
}

/** A style sheet's chunk name as the spec's message names it: its file name without the hash (index-Dq_OZ.css → index). */
export function stylesheetChunkName(href: string): string {
  const file = href.split(/[?#]/)[0].split('/').pop() ?? href;
  return file.replace(/\.css$/, '').replace(/-[A-Za-z0-9_-]{6,}$/, '') || file;
}

type Status = 'failed' | 'loading' | 'loaded';

/** Throws the failure to the boundary around it while the sheets are missing; nothing while they load again. */
function Gate({ status, failed, children }: { status: Status; failed: string[]; children: ReactNode }) {
  if (status === 'failed') throw new ChunkLoadError(stylesheetChunkName(failed[0]), 'css');
  return status === 'loaded' ? children : null;
}

/**
 * Shows "Loading CSS chunk {id} failed" with Retry instead of the console while one of the
 * entry style sheets failed; Retry fetches them again and shows the console once they are in
 * (a second failure offers a reload of the page too).
 */
export function EntryStylesheets({
  failed,
  children,
  reload = reloadStylesheet,
}: {
  failed: string[];
  children: ReactNode;
  reload?: (href: string) => Promise<void>;
}) {
  const [status, setStatus] = useState<Status>(failed.length === 0 ? 'loaded' : 'failed');
  if (status === 'loaded') return children;
  const retry = () => {
    setStatus('loading');
    Promise.all(failed.map((href) => reload(href))).then(
      () => setStatus('loaded'),
      () => setStatus('failed'),
    );
  };
  return (
    <ChunkErrorBoundary onRetry={retry}>
      <Gate status={status} failed={failed}>
        {children}
      </Gate>
    </ChunkErrorBoundary>
  );
}
