// "These files are from another run": asked when files dropped onto the job on screen were printed by another
// torchrun run (the core tells runs apart by their rendezvous ids and endpoints). It shows each run — its key,
// when its lines were printed, its nodes and files — and lets the user add the files to this job or start a new
// job with them. The job on screen stays as it was until the answer.
import { useId, useLayoutEffect, useRef, type KeyboardEvent, type SyntheticEvent } from 'react';
import { formatDuration, listSome } from '../i18n/index';
import { useAppStore } from '../state/index';
import type { MixedQuestion, MixedRun } from '../state/mixedRuns';
import { dialogKeys } from './dialogKeys';
import { Rich, useT, type T } from './i18n';
import { formatClock } from './timeline/scale';
import './mixed.css';

/** Names shown in a line before "and N more" (the run's card lists up to the question's kept names). */
const NAMES_IN_LINE = 6;

export function MixedRunsDialog() {
  const question = useAppStore((s) => s.mixed);
  const answer = useAppStore((s) => s.answerMixed);
  if (!question) return null;
  return <Dialog question={question} onAnswer={answer} />;
}

function timeText(t: T, run: MixedRun): string {
  if (run.startMs === null || run.endMs === null) return t('mixed.noTime');
  const sameDay = new Date(run.startMs).toISOString().slice(0, 10) === new Date(run.endMs).toISOString().slice(0, 10);
  return t('mixed.time', {
    from: formatClock(run.startMs, true),
    to: sameDay ? formatClock(run.endMs) : formatClock(run.endMs, true),
    span: formatDuration(t.lang, (run.endMs - run.startMs) / 1000),
  });
}

function Run({ t, run, n }: { t: T; run: MixedRun; n: number }) {
  return (
    <li className={`mixed-run mixed-run--${run.source}`} data-testid="mixed-run" data-source={run.source}>
      <div className="mixed-run__head">
        <span className="mixed-run__n" aria-hidden="true">
          {n}
        </span>
        <span className="mixed-run__source">{t(`mixed.source.${run.source}`)}</span>
        <code className="mixed-run__key" data-testid="mixed-run-key">
          {run.key || t('mixed.noKey')}
        </code>
      </div>
      <p className="mixed-run__time" data-testid="mixed-run-time">
        {timeText(t, run)}
      </p>
      <p className="mixed-run__names">
        <span className="mixed-run__label">{t('mixed.nodes', { n: run.nodeCount })}</span>{' '}
        <span className="mixed-run__list" data-testid="mixed-run-nodes">
          {listSome(t.lang, run.nodes, NAMES_IN_LINE, run.nodeCount)}
        </span>
      </p>
      <p className="mixed-run__names">
        <span className="mixed-run__label">{t('mixed.files', { n: run.fileCount })}</span>{' '}
        <span className="mixed-run__list mono" data-testid="mixed-run-files">
          {listSome(t.lang, run.files, NAMES_IN_LINE, run.fileCount)}
        </span>
      </p>
    </li>
  );
}

function Dialog({ question, onAnswer }: { question: MixedQuestion; onAnswer(choice: 'add' | 'new'): void }) {
  const t = useT();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const leadId = useId();
  const chooseId = useId();
  const ids = { add: useId(), addHint: useId(), new: useId(), newHint: useId() };

  // Modal from the start; the first choice focused (it is what a drop does without the question).
  useLayoutEffect(() => {
    const dialog = dialogRef.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    addRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // Esc answers as a drop always did: the files are added.
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => dialogKeys(e, dialogRef.current, () => onAnswer('add'));

  return (
    <dialog
      ref={dialogRef}
      className="modal mixed-dialog"
      aria-labelledby={titleId}
      aria-describedby={leadId}
      data-testid="mixed-dialog"
      onKeyDown={onKeyDown}
      onCancel={(e: SyntheticEvent<HTMLDialogElement>) => {
        e.preventDefault();
        onAnswer('add');
      }}
    >
      <div className="mixed-dialog__body">
        <h2 id={titleId} className="mixed-dialog__title">
          {t('mixed.title')}
        </h2>
        <p id={leadId} className="mixed-dialog__lead">
          <Rich text={t(`mixed.lead.${question.by}`)} />
        </p>
        <ol className="mixed-dialog__runs" aria-label={t('mixed.runs')} data-testid="mixed-runs">
          {question.runs.map((run, i) => (
            <Run key={`${run.key}:${i}`} t={t} run={run} n={i + 1} />
          ))}
        </ol>
        <div className="mixed-dialog__choices" role="group" aria-labelledby={chooseId}>
          <h3 id={chooseId} className="visually-hidden">
            {t('mixed.choose')}
          </h3>
          <button
            ref={addRef}
            type="button"
            className="mixed-choice"
            onClick={() => onAnswer('add')}
            aria-labelledby={ids.add}
            aria-describedby={ids.addHint}
            data-testid="mixed-add"
          >
            <span id={ids.add} className="mixed-choice__title">
              {t('mixed.add')}
            </span>
            <span id={ids.addHint} className="mixed-choice__hint">
              {t('mixed.addHint')}
            </span>
          </button>
          <button
            type="button"
            className="mixed-choice mixed-choice--primary"
            onClick={() => onAnswer('new')}
            aria-labelledby={ids.new}
            aria-describedby={ids.newHint}
            data-testid="mixed-new"
          >
            <span id={ids.new} className="mixed-choice__title">
              {t('mixed.new')}
            </span>
            <span id={ids.newHint} className="mixed-choice__hint">
              {t('mixed.newHint', { n: question.addedFiles })}
            </span>
          </button>
        </div>
        <p className="mixed-dialog__esc muted">
          <Rich text={t('mixed.esc')} />
        </p>
      </div>
    </dialog>
  );
}
