// "Paste log text": text copied from a terminal or a CI page, analysed as one more file of the job on screen.
import { useModal } from './useModal';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useAppStore } from '../state/index';
import { Rich, useT } from './i18n';
import './ingest.css';

/** The topbar button and, while it is open, its dialog. */
export function PasteButton({ disabled }: { disabled: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const pasteText = useAppStore((s) => s.pasteText);
  const nextPasteName = useAppStore((s) => s.nextPasteName);
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => setOpen(true)}
        disabled={disabled}
        aria-haspopup="dialog"
        data-testid="paste-open"
      >
        {t('topbar.paste')}
      </button>
      {open && (
        <PasteDialog
          defaultName={nextPasteName()}
          onAnalyse={(name, text) => {
            setOpen(false);
            pasteText(name, text);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

interface DialogProps {
  defaultName: string;
  onAnalyse(name: string, text: string): void;
  onClose(): void;
}

export function PasteDialog({ defaultName, onAnalyse, onClose }: DialogProps) {
  const t = useT();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [name, setName] = useState(defaultName);
  // The text stays in the textarea (a paste can be megabytes); only whether there is any is state.
  const [hasText, setHasText] = useState(false);
  const titleId = useId();
  const hintId = useId();
  const nameId = useId();
  const nameHintId = useId();
  const textId = useId();

  // The textarea focused when it opens.
  const { dialogRef, onKeyDown, onCancel } = useModal(onClose, () => textRef.current?.focus());

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = textRef.current?.value ?? '';
    if (!/\S/.test(text)) return;
    onAnalyse(name, text);
  };

  return (
    <dialog
      ref={dialogRef}
      className="modal paste-dialog"
      aria-labelledby={titleId}
      aria-describedby={hintId}
      data-testid="paste-dialog"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
    >
      <form className="paste-dialog__form" onSubmit={submit}>
        <h2 id={titleId} className="paste-dialog__title">
          {t('paste.title')}
        </h2>
        <p id={hintId} className="paste-dialog__hint">
          {t('paste.hint')}
        </p>
        <label className="paste-dialog__label" htmlFor={nameId}>
          {t('paste.name')}
        </label>
        <input
          id={nameId}
          className="paste-dialog__name mono"
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          aria-describedby={nameHintId}
          spellCheck={false}
          autoComplete="off"
        />
        <p id={nameHintId} className="paste-dialog__hint paste-dialog__hint--small">
          <Rich text={t('paste.nameHint')} />
        </p>
        <label className="paste-dialog__label" htmlFor={textId}>
          {t('paste.text')}
        </label>
        <textarea
          id={textId}
          ref={textRef}
          className="paste-dialog__text mono"
          rows={14}
          wrap="off"
          spellCheck={false}
          autoComplete="off"
          onInput={(e) => setHasText(/\S/.test(e.currentTarget.value))}
        />
        <div className="paste-dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
          <button type="submit" className="button paste-dialog__go" disabled={!hasText}>
            {t('paste.analyse')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
