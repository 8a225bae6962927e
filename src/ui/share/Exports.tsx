// Exports of the diagnosis on screen: the Markdown report (copied and downloaded), the JSON of
// `skewscope analyze --json`, and PNGs of the timeline and of the skew chart — all made in the page.
import { useState, type ReactNode } from 'react';
import type { ResultView } from '../../ingest/index';
import { useAppStore } from '../../state/index';
import { saidOf, type Sentence } from '../../i18n/index';
import { Said, useT, WordedError } from '../i18n';
import { ShareButton } from './ShareDialog';
import { canvasPng, drawSvg, drawTimeline } from './timelinePng';
import './share.css';

interface Props {
  view: ResultView;
  /** The Markdown report, built when asked for (where the job is). */
  markdown(): Promise<string>;
  /** The JSON of `skewscope analyze --json`, built when asked for. */
  json(): Promise<string>;
  /** Other controls to show first (the Share button). */
  children?: ReactNode;
  /** Nothing was a log: only the JSON (which says so) can be exported. */
  noLogs?: boolean;
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

export function Exports({ view, markdown, json, children, noLogs = false }: Props) {
  const t = useT();
  // What the last export did or why it failed, in our words; or the program's own words for a failure.
  const [status, setStatus] = useState<{ text: string } | { failed: Sentence | string }>({ text: '' });

  const run = async (what: () => Promise<string>) => {
    try {
      setStatus({ text: await what() });
    } catch (error) {
      setStatus(error instanceof WordedError ? { text: error.message } : { failed: saidOf(error) });
    }
  };

  const onMarkdown = () =>
    run(async () => {
      const text = await markdown();
      download(new Blob([text], { type: 'text/markdown;charset=utf-8' }), 'skewscope-report.md');
      try {
        await navigator.clipboard.writeText(text);
        return t('exports.mdCopied', { file: 'skewscope-report.md' });
      } catch {
        return t('exports.mdDownloaded', { file: 'skewscope-report.md' });
      }
    });

  const onJson = () =>
    run(async () => {
      download(new Blob([await json()], { type: 'application/json' }), 'skewscope-diagnosis.json');
      return t('exports.jsonDone', { file: 'skewscope-diagnosis.json' });
    });

  const onTimeline = () =>
    run(async () => {
      // The button waits for the timeline (it comes a moment after the verdict on a large job).
      const canvas = drawTimeline(view.timeline!, t);
      download(await canvasPng(canvas, t), 'skewscope-timeline.png');
      return t('exports.pngDone', { file: 'skewscope-timeline.png' });
    });

  const onChart = () =>
    run(async () => {
      const svg = document.querySelector<SVGSVGElement>(
        '[data-testid="skew-chart"] svg.skew-svg, [data-testid="skew-chart"] svg.recharts-surface',
      );
      if (!svg) return t('exports.noChart');
      const card = svg.closest('.card') ?? document.body;
      const canvas = await drawSvg(svg, getComputedStyle(card).backgroundColor || '#ffffff', t);
      download(await canvasPng(canvas, t), 'skewscope-skew.png');
      return t('exports.pngDone', { file: 'skewscope-skew.png' });
    });

  return (
    <div className="exports" role="group" aria-label={t('exports.label')} data-testid="exports">
      {children}
      <button
        type="button"
        className="button"
        onClick={onMarkdown}
        disabled={noLogs}
        title={noLogs ? t('exports.noLogs') : t('exports.mdTitle')}
        data-testid="export-markdown"
      >
        {t('exports.markdown')}
      </button>
      <button
        type="button"
        className="button"
        onClick={onJson}
        title={t('exports.jsonTitle')}
        data-testid="export-json"
      >
        {t('exports.json')}
      </button>
      <button
        type="button"
        className="button"
        onClick={onTimeline}
        disabled={noLogs || !view.timeline}
        title={noLogs ? t('exports.noLogs') : undefined}
        data-testid="export-timeline-png"
      >
        {t('exports.timelinePng')}
      </button>
      <button
        type="button"
        className="button"
        onClick={onChart}
        disabled={noLogs || !view.skew?.points.length}
        title={noLogs ? t('exports.noLogs') : undefined}
        data-testid="export-skew-png"
      >
        {t('exports.skewPng')}
      </button>
      <span className="exports__status muted" role="status" data-testid="export-status">
        {'text' in status ? status.text : <Said what={status.failed} />}
      </span>
    </div>
  );
}

/** Under the verdict of an analysis: Share, and the exports (the Markdown with the sharing defaults). */
export function ResultExports({ view, noLogs = false }: { view: ResultView; noLogs?: boolean }) {
  const t = useT();
  const ask = useAppStore((s) => s.ask);
  return (
    <Exports
      view={view}
      markdown={() => ask({ kind: 'markdown', lang: t.lang })}
      json={() => ask({ kind: 'json' })}
      noLogs={noLogs}
    >
      <ShareButton view={view} disabled={noLogs} />
    </Exports>
  );
}
