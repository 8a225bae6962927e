import { useState } from 'react';
import type { Advice, Diagnosis, Finding } from '../ingest/index';
import { EvidenceLines } from './EvidenceList';
import { Prose, useT } from './i18n';

interface Props {
  diagnosis: Diagnosis;
}

export function FindingsPanel({ diagnosis }: Props) {
  const t = useT();
  const { findings, whatIf } = diagnosis;
  if (findings.length === 0) return null;
  // Advice is listed once, in the order the findings (most severe first) call for it.
  const seen = new Set<string>();
  const advice = findings.flatMap((f) => f.advice).filter((a) => !seen.has(a.id) && seen.add(a.id));
  return (
    <>
      <section className="card" aria-labelledby="findings-title" data-testid="findings">
        <h2 id="findings-title">{t('findings.title')}</h2>
        <ul className="findings">
          {findings.map((f, i) => (
            <FindingItem key={`${f.code}:${i}`} finding={f} />
          ))}
        </ul>
      </section>
      {advice.length > 0 && (
        <section className="card" aria-labelledby="advice-title" data-testid="advice">
          <h2 id="advice-title">{t('advice.title')}</h2>
          <ol className="advice">
            {advice.map((a) => (
              <AdviceItem key={a.id} advice={a} />
            ))}
          </ol>
          {whatIf && (
            <p className="advice__whatif" data-testid="what-if">
              {whatIf.allMadeIt
                ? t('advice.whatIfOk', {
                    t: String(whatIf.timeoutSeconds),
                    spare: String(Math.round(whatIf.spareSeconds)),
                  })
                : whatIf.blockedBy
                  ? t('advice.whatIfBlocked', {
                      t: String(whatIf.timeoutSeconds),
                      limit: String(whatIf.blockedBy.seconds),
                    })
                  : t('advice.whatIfShort', {
                      t: String(whatIf.timeoutSeconds),
                      short: String(Math.round(-whatIf.spareSeconds)),
                    })}
            </p>
          )}
        </section>
      )}
    </>
  );
}

function FindingItem({ finding }: { finding: Finding }) {
  const t = useT();
  return (
    <li className={`finding finding--${finding.severity}`} data-code={finding.code}>
      <div className="finding__head">
        <span className={`finding__badge finding__badge--${finding.severity}`}>
          {t(`severity.${finding.severity}`)}
        </span>
        <strong className="finding__title">{finding.title}</strong>
        <code className="finding__code">{finding.code}</code>
      </div>
      <p className="finding__detail">{finding.detail}</p>
      {finding.evidence.length > 0 && <EvidenceLines evidence={finding.evidence.slice(0, 4)} />}
    </li>
  );
}

function AdviceItem({ advice }: { advice: Advice }) {
  const t = useT();
  const [done, setDone] = useState(false);
  const onCopy = () => {
    if (!advice.command) return;
    void navigator.clipboard?.writeText(advice.command).then(
      () => {
        setDone(true);
        setTimeout(() => setDone(false), 1500);
      },
      () => setDone(false),
    );
  };
  return (
    <li className="advice__item" data-advice={advice.id}>
      <strong>
        <Prose text={advice.title} />
      </strong>
      <p className="muted">
        <Prose text={advice.reason} />
      </p>
      {advice.command && advice.goesIn && (
        <p className="advice__place muted" data-testid="advice-goes-in">
          {t(`advice.goesIn.${advice.goesIn}`)}
        </p>
      )}
      {advice.command && (
        <div className="advice__command">
          <code className="mono advice__code">{advice.command}</code>
          <button
            type="button"
            className="button button--small advice__copy"
            onClick={onCopy}
            aria-label={t('advice.copyLabel', { title: advice.title })}
          >
            {t(done ? 'advice.copied' : 'advice.copy')}
          </button>
        </div>
      )}
      {advice.caveat && (
        <p className="advice__caveat">
          <Prose text={advice.caveat} />
        </p>
      )}
    </li>
  );
}
