import { memo, useMemo, useState } from 'react';
import { byLag, type Advice, type Diagnosis, type Finding, type NodeLag } from '../ingest/index';
import { formatNumber } from '../i18n/index';
import { useViewStore } from '../state/index';
import { EvidenceLines } from './EvidenceList';
import { Prose, useT } from './i18n';
import { nodeLagText } from './lateNodes';
import { VirtualList } from './VirtualList';

interface Props {
  diagnosis: Diagnosis;
  /** Each node's lag, once the nodes are in (the late-node list is sorted by it). */
  lags: ReadonlyMap<string, number | null> | null;
}

/**
 * One card per finding, except late nodes: however many LATE_NODE findings there are (one per node in links of
 * format 1, one for all of them today), they are one card that names the worst and lists the rest.
 */
export function foldFindings(findings: readonly Finding[]): Finding[] {
  const late = findings.filter((f) => f.code === 'LATE_NODE');
  if (late.length <= 1) return [...findings];
  const first = late[0]!;
  const nodes = [...new Set(late.flatMap((f) => f.nodes))];
  const seen = new Set<string>();
  const merged: Finding = {
    ...first,
    nodes,
    evidence: late
      .flatMap((f) => f.evidence)
      .filter((e) => !seen.has(`${e.file}:${e.line}`) && seen.add(`${e.file}:${e.line}`)),
    advice: [...new Map(late.flatMap((f) => f.advice).map((a) => [a.id, a])).values()],
  };
  return findings.flatMap((f) => (f === first ? [merged] : f.code === 'LATE_NODE' ? [] : [f]));
}

export const FindingsPanel = memo(function FindingsPanel({ diagnosis, lags }: Props) {
  const t = useT();
  const { whatIf } = diagnosis;
  const findings = useMemo(() => foldFindings(diagnosis.findings), [diagnosis.findings]);
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
            <FindingItem key={`${f.code}:${i}`} finding={f} lags={lags} />
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
});

function FindingItem({ finding, lags }: { finding: Finding; lags: Props['lags'] }) {
  const t = useT();
  return (
    <li className={`finding finding--${finding.severity}`} data-code={finding.code}>
      <div className="finding__head">
        <span className={`finding__badge finding__badge--${finding.severity}`}>
          {t(`severity.${finding.severity}`)}
        </span>
        <strong className="finding__title">
          <Prose text={finding.title} />
        </strong>
        <code className="finding__code">{finding.code}</code>
      </div>
      <p className="finding__detail">
        <Prose text={finding.detail} />
      </p>
      {finding.evidence.length > 0 && <EvidenceLines evidence={finding.evidence.slice(0, 4)} />}
      {finding.code === 'LATE_NODE' && finding.nodes.length > 1 && lags && (
        <LateList nodes={finding.nodes} lags={lags} />
      )}
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

const LATE_ROW_H = 28;

/** Every late node, latest first (node9 before node10 on a tie), behind a disclosure; a click selects one. */
function LateList({ nodes, lags }: { nodes: string[]; lags: ReadonlyMap<string, number | null> }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const select = useViewStore((s) => s.selectNode);
  const sorted = useMemo<NodeLag[]>(
    () => (open ? nodes.map((id) => ({ id, lag: lags.get(id) ?? null })).sort(byLag) : []),
    [open, nodes, lags],
  );
  return (
    <div className="finding__late" data-testid="late-list">
      <button type="button" className="button button--link" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        {open ? t('findings.lateHide') : t('findings.lateAll', { n: formatNumber(t.lang, nodes.length, 0) })}
      </button>
      {open && (
        <VirtualList
          items={sorted}
          rowHeight={LATE_ROW_H}
          maxHeight={LATE_ROW_H * 10}
          label={t('findings.lateAll', { n: formatNumber(t.lang, nodes.length, 0) })}
          className="finding__late-list"
          keyOf={(n) => n.id}
          render={(n) => (
            <button
              type="button"
              className="button--link finding__late-node mono"
              data-node={n.id}
              onClick={() => select(n.id)}
            >
              {nodeLagText(t, n)}
            </button>
          )}
        />
      )}
    </div>
  );
}
