// Around every result view: a view that throws while rendering (a node with an odd value, a bug) is replaced by a
// card that says which view failed and why, and the rest of the page is still shown. Rendering errors only:
// event handlers and the workers report their own.
import { Component, type ReactNode } from 'react';
import { saidOf } from '../i18n/index';
import { Said, useT } from './i18n';

export type ViewName =
  | 'verdict'
  | 'findings'
  | 'timeline'
  | 'skew'
  | 'whatif'
  | 'nodes'
  | 'evidence'
  | 'problems'
  | 'notes'
  | 'files'
  | 'exports';

interface Props {
  view: ViewName;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class ViewBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown): void {
    // Still seen in the console (and by the e2e's page-error watch when it looks for it).
    console.error(`skewscope: the ${this.props.view} view failed`, error);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <ViewFailed view={this.props.view} error={error} onRetry={() => this.setState({ error: null })} />;
  }
}

function ViewFailed({ view, error, onRetry }: { view: ViewName; error: Error; onRetry(): void }) {
  const t = useT();
  return (
    <section className="card view-failed" role="alert" data-testid="view-failed" data-view={view}>
      <h2>
        {t('boundary.title')}: {t(`boundary.view.${view}`)}
      </h2>
      <p>
        {t('boundary.detail')} <Said what={saidOf(error)} />
      </p>
      <button type="button" className="button button--small" onClick={onRetry}>
        {t('boundary.retry')}
      </button>
    </section>
  );
}
