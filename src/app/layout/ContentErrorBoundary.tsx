import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Error as ErrorPage } from 'react-admin';

interface State {
  error: Error | null;
  errorInfo?: ErrorInfo;
}

/**
 * A page that throws shows react-admin's error page inside the frame, menu still usable;
 * react-admin's own layout does the same (with react-error-boundary, which we do not depend on).
 */
export class ContentErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(_error: unknown, errorInfo: ErrorInfo) {
    this.setState({ errorInfo });
  }

  private reset = () => this.setState({ error: null, errorInfo: undefined });

  render() {
    const { error, errorInfo } = this.state;
    if (!error) return this.props.children;
    return <ErrorPage error={error} errorInfo={errorInfo} resetErrorBoundary={this.reset} />;
  }
}
