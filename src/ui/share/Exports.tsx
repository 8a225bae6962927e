// Exports of the diagnosis on screen: the Markdown report (copied and downloaded), the JSON of
// `skewscope analyze --json`, and PNGs of the timeline and of the skew chart — all made in the page.
import { useState, type ReactNode } from 'react';
import type { Diagnosis } from '../../core/findings';
import type { JobModel } from '../../core/model';
import { limitsInForce } from '../../core/thresholds';
import { buildTimeline } from '../../core/timeline';
import type { Lang } from '../../core/i18n';
import { diagnosisJson, shareMarkdown } from '../../share/index';
import { ShareButton } from './ShareDialog';
import { canvasPng, drawSvg, drawTimeline } from './timelinePng';
import './share.css';

interface Props {
  job: JobModel;
  diagnosis: Diagnosis;
  /** The Markdown report, built when asked for. */
  markdown(): string;
  /** Other controls to show first (the Share button). */
  children?: ReactNode;
}

export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export function Exports({ job, diagnosis, markdown, children }: Props) {
  const [status, setStatus] = useState('');

  const run = async (what: () => Promise<string>) => {
    try {
      setStatus(await what());
    } catch (error) {
      setStatus(error instanceof Error ? error.message : String(error));
    }
  };

  const onMarkdown = () =>
    run(async () => {
      const text = markdown();
      download(new Blob([text], { type: 'text/markdown;charset=utf-8' }), 'skewscope-report.md');
      try {
        await navigator.clipboard.writeText(text);
        return 'Markdown report copied and downloaded (skewscope-report.md).';
      } catch {
        return 'Markdown report downloaded (skewscope-report.md); it could not be copied here.';
      }
    });

  const onJson = () =>
    run(async () => {
      download(new Blob([diagnosisJson(job, diagnosis)], { type: 'application/json' }), 'skewscope-diagnosis.json');
      return 'Diagnosis JSON downloaded (skewscope-diagnosis.json).';
    });

  const onTimeline = () =>
    run(async () => {
      const model = buildTimeline(job, diagnosis.thresholds.length ? diagnosis.thresholds : limitsInForce(job));
      const canvas = drawTimeline(model, 'skewscope — startup timeline');
      download(await canvasPng(canvas), 'skewscope-timeline.png');
      return 'Timeline image downloaded (skewscope-timeline.png).';
    });

  const onChart = () =>
    run(async () => {
      const svg = document.querySelector<SVGSVGElement>('[data-testid="skew-chart"] svg.recharts-surface');
      if (!svg) return 'There is no skew chart to save: no node has a launch time.';
      const card = svg.closest('.card') ?? document.body;
      const canvas = await drawSvg(svg, getComputedStyle(card).backgroundColor || '#ffffff');
      download(await canvasPng(canvas), 'skewscope-skew.png');
      return 'Skew chart image downloaded (skewscope-skew.png).';
    });

  return (
    <div className="exports" role="group" aria-label="Share and export" data-testid="exports">
      {children}
      <button type="button" className="button" onClick={onMarkdown} data-testid="export-markdown">
        Markdown
      </button>
      <button type="button" className="button" onClick={onJson} data-testid="export-json">
        JSON
      </button>
      <button type="button" className="button" onClick={onTimeline} data-testid="export-timeline-png">
        Timeline PNG
      </button>
      <button type="button" className="button" onClick={onChart} data-testid="export-skew-png">
        Skew chart PNG
      </button>
      <span className="exports__status muted" role="status" data-testid="export-status">
        {status}
      </span>
    </div>
  );
}

/** Under the verdict of an analysis: Share, and the exports (the Markdown with the sharing defaults). */
export function ResultExports({ job, diagnosis, lang }: { job: JobModel; diagnosis: Diagnosis; lang: Lang }) {
  return (
    <Exports job={job} diagnosis={diagnosis} markdown={() => shareMarkdown(job, diagnosis, {}, lang)}>
      <ShareButton job={job} diagnosis={diagnosis} />
    </Exports>
  );
}
