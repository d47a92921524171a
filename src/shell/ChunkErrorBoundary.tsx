import { Component, type ReactNode } from 'react';
import { ChunkLoadError } from './lazyChunk';
import { hasPreloadFailed } from './preloadErrors';
import { translate } from './translate';
import './shell.css';

interface Props {
  children: ReactNode;
  /** Called before the boundary renders its children again. */
  onRetry: () => void;
  reload?: () => void;
}

interface State {
  error: Error | null;
  /** Retries so far: once one has failed too, a reload is offered as the last resort. */
  retries: number;
}

/** Never a white screen: a failed chunk (or a crash inside it) shows a message and a way out. */
export class ChunkErrorBoundary extends Component<Props, State> {
  state: State = { error: null, retries: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  private retry = () => {
    this.props.onRetry();
    this.setState((state) => ({ error: null, retries: state.retries + 1 }));
  };

  private reload = () => {
    (this.props.reload ?? (() => window.location.reload()))();
  };

  render() {
    const { error, retries } = this.state;
    if (!error) return this.props.children;
    const chunkFailed = error instanceof ChunkLoadError;
    const offerReload = !chunkFailed || retries > 0 || hasPreloadFailed();
    return (
      <div className="chunk-error" role="alert">
        <h1 className="chunk-error-title">{translate('shell.chunk.title')}</h1>
        <p>{translate(chunkFailed ? 'shell.chunk.body' : 'shell.chunk.crashed')}</p>
        {chunkFailed && hasPreloadFailed() && <p>{translate('shell.chunk.stale')}</p>}
        <p className="chunk-error-detail">{error.message}</p>
        <div className="chunk-error-actions">
          <button type="button" className="shell-button shell-button-primary" onClick={this.retry}>
            {translate('shell.chunk.retry')}
          </button>
          {offerReload && (
            <button type="button" className="shell-button" onClick={this.reload}>
              {translate('shell.chunk.reload')}
            </button>
          )}
        </div>
      </div>
    );
  }
}
