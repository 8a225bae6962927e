import type { JobModel } from '../core/model';
import type { FileRow } from '../state/index';
import type { Diagnosis } from '../ingest/index';
import type { Lang } from '../state/index';
import { EvidenceList } from './EvidenceList';
import { EvidenceViewer } from './EvidenceViewer';
import { FindingsPanel } from './FindingsPanel';
import { FileProblems } from './FileProblems';
import { formatBytes } from './format';
import { noteText } from '../core/notesText';
import { NodeTable } from './NodeTable';
import { SkewChart } from './LazySkewChart';
import { Timeline } from './timeline/Timeline';
import { VerdictHeader } from './VerdictHeader';
import { ResultExports } from './share/Exports';
import { WhatIfSlider } from './WhatIfSlider';

interface Props {
  job: JobModel | null;
  diagnosis: Diagnosis | null;
  lang: Lang;
  files: FileRow[];
  cancelled: boolean;
}

export function Results({ job, diagnosis, lang, files, cancelled }: Props) {
  const unread = cancelled ? files.filter((f) => f.status !== 'done') : [];
  const read = files.length - unread.length;

  return (
    <div className="results">
      {cancelled && (
        <p className="banner" role="note">
          Cancelled: the results below cover {read} of {files.length} files.
        </p>
      )}
      {job ? (
        <>
          <VerdictHeader job={job} />
          {diagnosis && <ResultExports job={job} diagnosis={diagnosis} lang={lang} />}
          {diagnosis && <FindingsPanel diagnosis={diagnosis} lang={lang} />}
          <Timeline job={job} diagnosis={diagnosis} />
          <SkewChart job={job} diagnosis={diagnosis} />
          <WhatIfSlider job={job} diagnosis={diagnosis} />
          <NodeTable job={job} />
          <EvidenceList evidence={job.failure?.evidence ?? []} />
          <EvidenceViewer />
        </>
      ) : (
        <p className="card muted">No file was analysed, so there is no verdict.</p>
      )}
      <FileProblems job={job} unread={unread} />
      {job && job.notes.length > 0 && (
        <section className="card" aria-labelledby="notes-title">
          <h2 id="notes-title">Notes on this analysis</h2>
          <ul className="notes">
            {job.notes.map((note, i) => (
              <li key={i}>{noteText(lang, note)}</li>
            ))}
          </ul>
        </section>
      )}
      {job && (
        <details className="card files-summary">
          <summary>
            All {job.files.length} files · {formatBytes(job.files.reduce((sum, f) => sum + f.bytes, 0))}
          </summary>
          <ul>
            {job.files.map((f) => (
              <li key={f.file}>
                <span className="mono ellipsis" title={f.file}>
                  {f.file}
                </span>
                <span className="muted nowrap">
                  {f.lines.toLocaleString('en')} lines · {formatBytes(f.bytes)}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
