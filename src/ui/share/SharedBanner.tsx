// Shared mode's banner (what this is, who made it, that no logs came with it) and the state of a link that
// could not be opened. Everything from the link is shown as React text, never as markup.
import type { ShareError, ShareSnapshot } from '../../share/index';
import { LANG_TAG } from '../../i18n/index';
import { CoreText, Rich, useT } from '../i18n';
import './share.css';

function madeAt(iso: string, lang: 'en' | 'zh'): string {
  const made = new Date(iso);
  return Number.isNaN(made.getTime())
    ? iso
    : made.toLocaleString(LANG_TAG[lang], { dateStyle: 'medium', timeStyle: 'short' });
}

export function SharedBanner({ snapshot, onLeave }: { snapshot: ShareSnapshot; onLeave(): void }) {
  const t = useT();
  return (
    <section className="card shared-banner" aria-labelledby="shared-title" data-testid="shared-banner">
      <p className="shared-banner__kicker">{t('shared.kicker')}</p>
      <h2 id="shared-title" className="shared-banner__title" data-testid="shared-title">
        {/* What the sender typed, in their words: not ours to translate. */}
        {snapshot.title ? <span translate="no">{snapshot.title}</span> : t('shared.untitled')}
      </h2>
      <p className="shared-banner__meta">
        <Rich
          text={t('shared.meta', {
            when: madeAt(snapshot.createdAt, t.lang),
            app: snapshot.app,
            version: snapshot.version,
          })}
        />
      </p>
      {snapshot.omitted.length > 0 && (
        <p className="shared-banner__meta muted" data-testid="shared-omitted">
          {t('shared.omitted', { what: snapshot.omitted.map((o) => t(`share.omission.${o}`)).join(t('list.sep')) })}
        </p>
      )}
      <p className="shared-banner__actions">
        <button type="button" className="button button--small" onClick={onLeave} data-testid="shared-leave">
          {t('shared.close')}
        </button>{' '}
        <span className="muted">{t('shared.orDrop')}</span>
      </p>
    </section>
  );
}

/** The last diagnosis, restored from this browser after a reload: no logs came back with it. */
export function SavedBanner({ snapshot, onForget }: { snapshot: ShareSnapshot; onForget(): void }) {
  const t = useT();
  return (
    <section
      className="card shared-banner shared-banner--saved"
      aria-labelledby="saved-title"
      data-testid="saved-banner"
    >
      <p className="shared-banner__kicker">{t('saved.kicker')}</p>
      <h2 id="saved-title" className="shared-banner__title">
        {t('saved.title', { when: madeAt(snapshot.createdAt, t.lang) })}
      </h2>
      <p className="shared-banner__meta">{t('saved.meta')}</p>
      <p className="shared-banner__actions">
        <button type="button" className="button button--small" onClick={onForget} data-testid="forget-diagnosis">
          {t('kept.forget')}
        </button>{' '}
        <span className="muted">{t('saved.orDrop')}</span>
      </p>
    </section>
  );
}

export function ShareLinkError({ error, onLeave }: { error: ShareError; onLeave(): void }) {
  const t = useT();
  return (
    <section
      className="card shared-error"
      role="alert"
      aria-labelledby="shared-error-title"
      data-testid="share-link-error"
    >
      <h2 id="shared-error-title">{t('shared.errorTitle')}</h2>
      <p data-testid="share-link-error-message" data-code={error.code}>
        <CoreText sentence={error.sentence} />
      </p>
      <p className="muted">
        {t('shared.errorHint')}{' '}
        <button type="button" className="button button--small" onClick={onLeave}>
          {t('shared.dismiss')}
        </button>
      </p>
    </section>
  );
}
