import { Suspense, useReducer } from 'react';
import { ChunkErrorBoundary } from './ChunkErrorBoundary';
import type { LazyChunk } from './lazyChunk';
import { translate } from './translate';

function ChunkLoading() {
  return (
    <div className="chunk-loading" role="status">
      <span className="chunk-loading-bar" aria-hidden="true" />
      <span className="visually-hidden">{translate('shell.loading')}</span>
    </div>
  );
}

/** Renders a lazy chunk behind a loading line and an error boundary whose Retry imports again. */
export function ChunkOutlet({ chunk }: { chunk: LazyChunk }) {
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const Chunk = chunk.component();
  const retry = () => {
    chunk.retry();
    rerender();
  };
  return (
    <ChunkErrorBoundary key={chunk.name} onRetry={retry}>
      <Suspense fallback={<ChunkLoading />}>
        <Chunk />
      </Suspense>
    </ChunkErrorBoundary>
  );
}
