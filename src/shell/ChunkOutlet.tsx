import { Suspense, useState } from 'react';
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
  return <ChunkView key={chunk.name} chunk={chunk} />;
}

function ChunkView({ chunk }: { chunk: LazyChunk }) {
  // Chosen once: the component type must not change under a mounted chunk (it would remount).
  const [Chunk, setChunk] = useState(() => chunk.component());
  const retry = () => {
    chunk.retry();
    setChunk(() => chunk.component());
  };
  return (
    <ChunkErrorBoundary onRetry={retry}>
      <Suspense fallback={<ChunkLoading />}>
        <Chunk />
      </Suspense>
    </ChunkErrorBoundary>
  );
}
