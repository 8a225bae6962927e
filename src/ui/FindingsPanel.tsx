import { useState } from 'react';
import type { Advice, Diagnosis, Finding } from '../ingest/index';
import type { Lang } from '../state/index';
import { EvidenceLines } from './EvidenceList';

interface Props {
  diagnosis: Diagnosis;
  lang: Lang;
}

const HEAD: Record<Lang, Record<string, string>> = {
  en: {
    findings: 'Findings',
    change: 'What to change',
    copy: 'Copy',
    copied: 'Copied',
    whatIfOk: 'With a rendezvous limit of {t} s every node would have made it, with {spare} s to spare.',
    whatIfShort: 'With a rendezvous limit of {t} s the last node would still be {short} s late.',
    whatIfBlocked:
      'Raising the rendezvous limit to {t} s would not be enough: the {limit} s rank-assignment wait of this torch version does not move with it.',
  },
  zh: {
    findings: '发现',
    change: '需要修改的地方',
    copy: '复制',
    copied: '已复制',
    whatIfOk: 'rendezvous 期限为 {t} 秒时，所有节点都能赶上，还有 {spare} 秒余量。',
    whatIfShort: 'rendezvous 期限为 {t} 秒时，最后一个节点仍会迟到 {short} 秒。',
    whatIfBlocked: '把 rendezvous 期限调到 {t} 秒也不够：该 torch 版本中 {limit} 秒的 rank 分配等待不会随之改变。',
  },
};

const fill = (t: string, v: Record<string, number>) => t.replace(/\{(\w+)\}/g, (_, k: string) => String(v[k] ?? ''));

export function FindingsPanel({ diagnosis, lang }: Props) {
  const h = HEAD[lang];
  const { findings, whatIf } = diagnosis;
  if (findings.length === 0) return null;
  // Advice is listed once, in the order the findings (most severe first) call for it.
  const seen = new Set<string>();
  const advice = findings.flatMap((f) => f.advice).filter((a) => !seen.has(a.id) && seen.add(a.id));
  return (
    <>
      <section className="card" aria-labelledby="findings-title" data-testid="findings">
        <h2 id="findings-title">{h.findings}</h2>
        <ul className="findings">
          {findings.map((f, i) => (
            <FindingItem key={`${f.code}:${i}`} finding={f} />
          ))}
        </ul>
      </section>
      {advice.length > 0 && (
        <section className="card" aria-labelledby="advice-title" data-testid="advice">
          <h2 id="advice-title">{h.change}</h2>
          <ol className="advice">
            {advice.map((a) => (
              <AdviceItem key={a.id} advice={a} copy={h.copy!} copied={h.copied!} />
            ))}
          </ol>
          {whatIf && (
            <p className="advice__whatif" data-testid="what-if">
              {whatIf.allMadeIt
                ? fill(h.whatIfOk!, { t: whatIf.timeoutSeconds, spare: Math.round(whatIf.spareSeconds) })
                : whatIf.blockedBy
                  ? fill(h.whatIfBlocked!, { t: whatIf.timeoutSeconds, limit: whatIf.blockedBy.seconds })
                  : fill(h.whatIfShort!, { t: whatIf.timeoutSeconds, short: Math.round(-whatIf.spareSeconds) })}
            </p>
          )}
        </section>
      )}
    </>
  );
}

function FindingItem({ finding }: { finding: Finding }) {
  return (
    <li className={`finding finding--${finding.severity}`} data-code={finding.code}>
      <div className="finding__head">
        <span className={`finding__badge finding__badge--${finding.severity}`}>{finding.severity}</span>
        <strong className="finding__title">{finding.title}</strong>
        <code className="finding__code">{finding.code}</code>
      </div>
      <p className="finding__detail">{finding.detail}</p>
      {finding.evidence.length > 0 && <EvidenceLines evidence={finding.evidence.slice(0, 4)} />}
    </li>
  );
}

function AdviceItem({ advice, copy, copied }: { advice: Advice; copy: string; copied: string }) {
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
      <strong>{advice.title}</strong>
      <p className="muted">{advice.reason}</p>
      {advice.command && (
        <div className="advice__command">
          <code className="mono">{advice.command}</code>
          <button
            type="button"
            className="button button--small"
            onClick={onCopy}
            aria-label={`${copy}: ${advice.command}`}
          >
            {done ? copied : copy}
          </button>
        </div>
      )}
      {advice.caveat && <p className="advice__caveat">{advice.caveat}</p>}
    </li>
  );
}
