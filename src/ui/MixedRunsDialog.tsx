// "These files are from another run": asked when files dropped onto the job on screen were printed by another
// torchrun run (the core tells runs apart by their rendezvous ids and endpoints). It shows each run — its key,
// when its lines were printed, its nodes and files — and lets the user add the files to this job or start a new
// job with them. The job on screen stays as it was until the answer.
import { useId, useRef, type Ref } from 'react';
import { formatDuration, listSome } from '../i18n/index';
import { useAppStore } from '../state/index';
import type { MixedQuestion, MixedRun } from '../state/mixedRuns';
import { useModal } from './useModal';
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

/** One answer: a large button named by its title and described by its hint. */
function Choice({
  ref,
  title,
  hint,
  onClick,
  testId,
  primary = false,
}: {
  ref?: Ref<HTMLButtonElement>;
  title: string;
  hint: string;
  onClick(): void;
  testId: string;
  primary?: boolean;
}) {
  const titleId = useId();
  const hintId = useId();
  return (
    <button
      ref={ref}
      type="button"
      className={primary ? 'mixed-choice mixed-choice--primary' : 'mixed-choice'}
      onClick={onClick}
      aria-labelledby={titleId}
      aria-describedby={hintId}
      data-testid={testId}
    >
      <span id={titleId} className="mixed-choice__title">
        {title}
      </span>
      <span id={hintId} className="mixed-choice__hint">
        {hint}
      </span>
    </button>
  );
}

function Dialog({ question, onAnswer }: { question: MixedQuestion; onAnswer(choice: 'add' | 'new'): void }) {
  const t = useT();
  const addRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const leadId = useId();
  const chooseId = useId();

  // The first choice focused; Esc answers as a drop always did: the files are added.
  const { dialogRef, onKeyDown, onCancel } = useModal(
    () => onAnswer('add'),
    () => addRef.current?.focus(),
  );

  return (
    <dialog
      ref={dialogRef}
      className="modal mixed-dialog"
      aria-labelledby={titleId}
      aria-describedby={leadId}
      data-testid="mixed-dialog"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
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
          <Choice
            ref={addRef}
            title={t('mixed.add')}
            hint={t('mixed.addHint')}
            onClick={() => onAnswer('add')}
            testId="mixed-add"
          />
          <Choice
            primary
            title={t('mixed.new')}
            hint={t('mixed.newHint', { n: question.addedFiles })}
            onClick={() => onAnswer('new')}
            testId="mixed-new"
          />
        </div>
        <p className="mixed-dialog__esc muted">
          <Rich text={t('mixed.esc')} />
        </p>
      </div>
    </dialog>
  );
}
