// Shared mode's banner (what this is, who made it, that no logs came with it) and the state of a link that
// could not be opened. Everything from the link is shown as React text, never as markup.
import type { ShareError, ShareSnapshot } from '../../share/index';
import { OMISSION_WORDS } from './words';
import './share.css';

export function SharedBanner({ snapshot, onLeave }: { snapshot: ShareSnapshot; onLeave(): void }) {
  const made = new Date(snapshot.createdAt);
  const when = Number.isNaN(made.getTime())
    ? snapshot.createdAt
    : made.toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="card shared-banner" aria-labelledby="shared-title" data-testid="shared-banner">
      <p className="shared-banner__kicker">Shared diagnosis · read-only</p>
      <h2 id="shared-title" className="shared-banner__title" data-testid="shared-title">
        {snapshot.title || 'Untitled diagnosis'}
      </h2>
      <p className="shared-banner__meta">
        Made <time dateTime={snapshot.createdAt}>{when}</time> with skewscope {snapshot.app} (share format{' '}
        {snapshot.version}). <strong>No logs are in this link</strong>: only the diagnosis the sender chose to share, so
        log lines cannot be opened and nothing can be corrected here.
      </p>
      {snapshot.omitted.length > 0 && (
        <p className="shared-banner__meta muted" data-testid="shared-omitted">
          The sender&apos;s link left out {snapshot.omitted.map((o) => OMISSION_WORDS[o]).join(', ')}.
        </p>
      )}
      <p className="shared-banner__actions">
        <button type="button" className="button button--small" onClick={onLeave} data-testid="shared-leave">
          Close the shared diagnosis
        </button>{' '}
        <span className="muted">or drop your own logs to analyse them.</span>
      </p>
    </section>
  );
}

export function ShareLinkError({ error, onLeave }: { error: ShareError; onLeave(): void }) {
  return (
    <section
      className="card shared-error"
      role="alert"
      aria-labelledby="shared-error-title"
      data-testid="share-link-error"
    >
      <h2 id="shared-error-title">This share link cannot be opened</h2>
      <p data-testid="share-link-error-message" data-code={error.code}>
        {error.message}
      </p>
      <p className="muted">
        You can still drop logs below, or open the example job, to start an analysis of your own.{' '}
        <button type="button" className="button button--small" onClick={onLeave}>
          Dismiss
        </button>
      </p>
    </section>
  );
}
