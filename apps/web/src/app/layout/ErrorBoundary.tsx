import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
}
interface State {
  error: Error | null;
}

/**
 * Shows a friendly message instead of a blank page when a screen crashes or its code cannot be
 * downloaded (a new deployment replaced the chunk). The layout keys it by path, so navigating resets it.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Page crashed:', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section role="alert" className="mx-auto max-w-2xl px-4 py-16 text-center">
        <h1 className="pixel-heading mb-6 text-xl text-fuchsia-400">Game over?</h1>
        <p className="mb-8 text-zinc-200">
          Something went wrong while showing this page. Please reload it, or head back to the shop.
        </p>
        <div className="flex flex-wrap justify-center gap-4">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <a href="/" className="btn btn-secondary">
            Back to the shop
          </a>
        </div>
      </section>
    );
  }
}
