import type { EvidenceLine } from '../core/model';
import { useViewStore } from '../state/index';
import { useShareStore } from '../state/share';
import { useT } from './i18n';
import './evidence.css';

interface Props {
  evidence: EvidenceLine[];
}

export function EvidenceList({ evidence }: Props) {
  const t = useT();
  if (evidence.length === 0) return null;
  return (
    <section className="card" aria-labelledby="evidence-title">
      <h2 id="evidence-title">{t('evidence.title')}</h2>
      <EvidenceLines evidence={evidence} testId="evidence" />
    </section>
  );
}

/** Evidence lines as buttons: each opens the evidence viewer at its line. */
export function EvidenceLines({ evidence, testId }: { evidence: EvidenceLine[]; testId?: string }) {
  const t = useT();
  const openEvidence = useViewStore((s) => s.openEvidence);
  // A shared diagnosis has no logs: its evidence is the text the link carries, with nothing to open.
  const shared = useShareStore((s) => s.snapshot !== null);
  if (shared)
    return (
      <ol className="evidence" data-testid={testId}>
        {evidence.map((e, i) => (
          <li key={`${e.file}:${e.line}:${i}`}>
            <div className="evidence__open evidence__static" data-file={e.file} data-line={e.line}>
              <span className="evidence__where mono" title={e.file}>
                {e.file}:{e.line}
              </span>
              <code className="evidence__text">{e.text}</code>
            </div>
          </li>
        ))}
      </ol>
    );
  return (
    <ol className="evidence" data-testid={testId}>
      {evidence.map((e, i) => (
        <li key={`${e.file}:${e.line}:${i}`}>
          <button
            type="button"
            className="evidence__open"
            data-file={e.file}
            data-line={e.line}
            onClick={() => openEvidence({ file: e.file, line: e.line })}
          >
            <span className="evidence__where">
              <span className="mono evidence__loc" title={e.file}>
                {e.file}:{e.line}
              </span>{' '}
              <span className="evidence__hint">{t('evidence.open')}</span>
            </span>
            <code className="evidence__text">{e.text}</code>
          </button>
        </li>
      ))}
    </ol>
  );
}
