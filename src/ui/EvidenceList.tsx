import type { EvidenceLine } from '../core/model';

interface Props {
  evidence: EvidenceLine[];
}

export function EvidenceList({ evidence }: Props) {
  if (evidence.length === 0) return null;
  return (
    <section className="card" aria-labelledby="evidence-title">
      <h2 id="evidence-title">Evidence</h2>
      <EvidenceLines evidence={evidence} testId="evidence" />
    </section>
  );
}

export function EvidenceLines({ evidence, testId }: { evidence: EvidenceLine[]; testId?: string }) {
  return (
    <ol className="evidence" data-testid={testId}>
      {evidence.map((e, i) => (
        <li key={`${e.file}:${e.line}:${i}`}>
          <span className="evidence__where mono" title={e.file}>
            {e.file}:{e.line}
          </span>
          <code className="evidence__text">{e.text}</code>
        </li>
      ))}
    </ol>
  );
}
