import type { ReactNode } from 'react';
import { Rich, useT } from './i18n';

interface Props {
  dropZone: ReactNode;
  onExample: () => void;
}

export function EmptyState({ dropZone, onExample }: Props) {
  const t = useT();
  return (
    <section className="empty" aria-labelledby="empty-title">
      <h1 id="empty-title" className="empty__title">
        {t('empty.title')}
      </h1>
      <p className="empty__lead">
        <Rich text={t('empty.lead')} />
      </p>
      {dropZone}
      <p className="empty__example">
        {t('empty.exampleLead')}{' '}
        <button type="button" className="button button--link" onClick={onExample} data-testid="open-example">
          {t('empty.exampleButton')}
        </button>{' '}
        {t('empty.exampleWhat')}
      </p>
      <div className="empty__grid">
        <div className="card">
          <h2>{t('empty.whatTitle')}</h2>
          <ul>
            <li>
              <Rich text={t('empty.what.perNode')} />
            </li>
            <li>
              <Rich text={t('empty.what.folders')} />
            </li>
            <li>
              <Rich text={t('empty.what.logdir')} />
            </li>
            <li>
              <Rich text={t('empty.what.archives')} />
            </li>
          </ul>
        </div>
        <div className="card">
          <h2>{t('empty.knowTitle')}</h2>
          <ul>
            <li>{t('empty.know.allNodes')}</li>
            <li>{t('empty.know.problems')}</li>
            <li>
              <Rich text={t('empty.know.local')} />
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}
