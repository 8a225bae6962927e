// "Share": a dialog that builds the link (`#share=…`, read in the page, never sent to a server), shows exactly
// what it will contain — the link decoded again — and copies it.
import { useModal } from '../useModal';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ResultView } from '../../ingest/index';
import { DEFAULT_REDACTION, restore, shareError, type ShareResult, type ShareSnapshot } from '../../share/index';
import {
  BUILD_SHARE_BASE,
  checkShareBase,
  currentShareBase,
  isLocalOnly,
  storeShareBase,
  useAppStore,
  useViewStore,
  type BaseSource,
} from '../../state/index';
import { formatNumber, formatSeconds, sentence, type Lang } from '../../i18n/index';
import { CoreText, Rich, useT, type T } from '../i18n';
import './share.css';

const MAX_TITLE = 120;

interface Props {
  view: ResultView;
}

export function ShareButton({ view, disabled = false }: Props & { disabled?: boolean }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="share-open"
        disabled={disabled}
        title={disabled ? t('exports.noLogs') : undefined}
      >
        {t('share.open')}
      </button>
      {open && <ShareDialog view={view} onClose={() => setOpen(false)} />}
    </>
  );
}

interface Redaction {
  hostnames: boolean;
  ips: boolean;
  paths: boolean;
  evidence: boolean;
}

const CHECKS: { key: keyof Redaction; label: `share.redact.${keyof Redaction}`; testId: string }[] = [
  { key: 'hostnames', label: 'share.redact.hostnames', testId: 'redact-hostnames' },
  { key: 'ips', label: 'share.redact.ips', testId: 'redact-ips' },
  { key: 'paths', label: 'share.redact.paths', testId: 'redact-paths' },
  { key: 'evidence', label: 'share.redact.evidence', testId: 'include-evidence' },
];

const pageAddress = () => location.origin + location.pathname;

const SOURCE_NOTE: Record<BaseSource, `share.base.${BaseSource}`> = {
  yours: 'share.base.yours',
  build: 'share.base.build',
  page: 'share.base.page',
};

function ShareDialog({ view, onClose }: Props & { onClose(): void }) {
  const t = useT();
  const titleRef = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [redaction, setRedaction] = useState<Redaction>({
    hostnames: DEFAULT_REDACTION.hostnames,
    ips: DEFAULT_REDACTION.ips,
    paths: DEFAULT_REDACTION.paths !== 'keep',
    evidence: DEFAULT_REDACTION.evidence,
  });
  const [copied, setCopied] = useState<string | null>(null);
  const lang = useAppStore((s) => s.lang);
  const selectedNode = useViewStore((s) => s.selectedNode);
  const zoom = useViewStore((s) => s.zoom);
  const [base, setBase] = useState(() => currentShareBase(pageAddress()));
  const [baseText, setBaseText] = useState(base.base);
  const baseCheck = checkShareBase(baseText);
  const headingId = useId();
  const hintId = useId();
  const titleId = useId();
  const urlId = useId();
  const baseId = useId();
  const baseNoteId = useId();

  // Typing a title rebuilds the link (in the job worker, which has the job); the preview may lag a keystroke
  // behind, the field never does. The options are memoised on their values: a fresh object each render would
  // ask again after every answer, forever. The creation time is the dialog's, so the link the user reads and
  // the one Copy puts on the clipboard are the same text even when a rebuild crosses a second.
  const ask = useAppStore((s) => s.ask);
  const [openedAt] = useState(() => Date.now());
  const wanted = useMemo(() => ({ title, redaction, base: base.base }), [title, redaction, base.base]);
  const options = useDeferredValue(wanted);
  const [result, setResult] = useState<ShareResult | null>(null);
  const nodes = view.job.nodes;
  useEffect(() => {
    let live = true;
    ask({
      kind: 'share',
      options: {
        base: options.base,
        title: options.title.trim(),
        hostnames: options.redaction.hostnames,
        ips: options.redaction.ips,
        paths: options.redaction.paths ? 'basename' : 'keep',
        evidence: options.redaction.evidence,
        lang,
        selectedNode: selectedNode && nodes.some((n) => n.id === selectedNode) ? selectedNode : null,
        zoom,
        now: openedAt,
      },
    }).then(
      (r) => live && setResult(r),
      (e: unknown) =>
        live &&
        setResult({
          ok: false,
          error: shareError(
            'invalid',
            sentence('link.previewFailed', { reason: e instanceof Error ? e.message : String(e) }),
          ),
        }),
    );
    return () => {
      live = false;
    };
  }, [ask, nodes, options, lang, selectedNode, zoom, openedAt]);

  const { dialogRef, onKeyDown, onCancel } = useModal(onClose, () => titleRef.current?.focus());

  const copy = () => {
    if (!result?.ok) return;
    const url = result.url;
    if (!navigator.clipboard) {
      setCopied(t('share.copyUnavailable'));
      return;
    }
    navigator.clipboard.writeText(url).then(
      () => setCopied(t('share.copied')),
      () => setCopied(t('share.copyFailed')),
    );
  };

  const onBase = (text: string) => {
    setBaseText(text);
    setCopied(null);
    const check = checkShareBase(text);
    if (!check.ok) return;
    // What the user types is theirs and remembered; typing the default back forgets the choice.
    const fallback = BUILD_SHARE_BASE && checkShareBase(BUILD_SHARE_BASE).ok ? BUILD_SHARE_BASE : pageAddress();
    storeShareBase(check.base === fallback ? null : check.base);
    setBase(currentShareBase(pageAddress()));
  };
  const resetBase = () => {
    storeShareBase(null);
    const next = currentShareBase(pageAddress());
    setBase(next);
    setBaseText(next.base);
    setCopied(null);
  };
  const localOnly = isLocalOnly(base.base);

  return (
    <dialog
      ref={dialogRef}
      className="modal share-dialog"
      aria-labelledby={headingId}
      aria-describedby={hintId}
      data-testid="share-dialog"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
    >
      <div className="share-dialog__body">
        <h2 id={headingId} className="share-dialog__title">
          {t('share.title')}
        </h2>
        <p id={hintId} className="muted share-dialog__hint">
          <Rich text={t('share.hint')} />
        </p>

        <label className="share-dialog__label" htmlFor={baseId}>
          {t('share.base.label')}
        </label>
        <div className="share-base">
          <input
            id={baseId}
            className="share-dialog__input mono"
            value={baseText}
            onChange={(e) => onBase(e.currentTarget.value)}
            aria-describedby={baseNoteId}
            aria-invalid={baseCheck.ok ? undefined : true}
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            data-testid="share-base"
          />
          {base.source === 'yours' && (
            <button type="button" className="button button--small" onClick={resetBase} data-testid="share-base-reset">
              {t(BUILD_SHARE_BASE ? 'share.base.resetBuild' : 'share.base.resetPage')}
            </button>
          )}
        </div>
        <p id={baseNoteId} className="muted share-dialog__hint share-base__note" data-testid="share-base-note">
          {baseCheck.ok ? t(SOURCE_NOTE[base.source]) : t(`share.base.invalid.${baseCheck.reason}`)}
        </p>
        {localOnly && (
          <p className="banner share-base__warning" role="note" data-testid="share-base-warning">
            {t('share.base.local', { host: hostOf(base.base) })}
          </p>
        )}

        <label className="share-dialog__label" htmlFor={titleId}>
          {t('share.titleLabel')}
        </label>
        <input
          id={titleId}
          ref={titleRef}
          className="share-dialog__input"
          value={title}
          maxLength={MAX_TITLE}
          placeholder={t('share.titlePlaceholder')}
          onChange={(e) => {
            setTitle(e.currentTarget.value);
            setCopied(null);
          }}
          autoComplete="off"
          data-testid="share-title"
        />

        <fieldset className="share-dialog__redaction">
          <legend>{t('share.redact.legend')}</legend>
          {CHECKS.map((c) => (
            <label key={c.key} className="share-dialog__check">
              <input
                type="checkbox"
                checked={redaction[c.key]}
                onChange={(e) => {
                  const checked = e.currentTarget.checked;
                  setRedaction((r) => ({ ...r, [c.key]: checked }));
                  setCopied(null);
                }}
                data-testid={c.testId}
              />{' '}
              {t(c.label)}
            </label>
          ))}
        </fieldset>

        {result === null ? (
          <p className="muted" role="status" data-testid="share-building">
            {t('share.building')}
          </p>
        ) : result.ok ? (
          <>
            <SharePreviewPanel snapshot={result.snapshot} lang={lang} />
            <div className="share-preview__size" data-testid="share-size">
              <p>
                {t(result.fits ? 'share.size.fits' : 'share.size.long', {
                  length: formatNumber(t.lang, result.urlLength, 0),
                  budget: formatNumber(t.lang, result.budget, 0),
                  nodes: view.nodeCount,
                })}
              </p>
              {result.dropped.length === 0 ? (
                <p>{t('share.dropped.none')}</p>
              ) : (
                <ul data-testid="share-dropped">
                  {result.dropped.map((d, i) => (
                    <li key={i}>{t('share.dropped.item', { what: t(`share.omission.${d.what}`) })}</li>
                  ))}
                </ul>
              )}
              <p>{redactedSentence(t, result.redacted)}</p>
            </div>
            <label className="share-dialog__label" htmlFor={urlId}>
              {t('share.link')}
            </label>
            <textarea
              id={urlId}
              className="share-dialog__url mono"
              readOnly
              rows={3}
              value={result.url}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="share-url"
            />
          </>
        ) : (
          <p className="banner banner--error" role="alert" data-testid="share-error" data-code={result.error.code}>
            <CoreText sentence={result.error.sentence} />
          </p>
        )}

        <div className="share-dialog__actions">
          <p className="share-dialog__status" role="status" data-testid="share-status">
            {copied}
          </p>
          <button type="button" className="button" onClick={onClose}>
            {t('dialog.close')}
          </button>
          <button
            type="button"
            className="button share-dialog__go"
            onClick={copy}
            disabled={!result?.ok}
            data-testid="share-copy"
          >
            {t('share.copy')}
          </button>
        </div>
      </div>
    </dialog>
  );
}

function redactedSentence(t: T, r: { hostnames: number; ips: number; paths: number }): string {
  if (r.hostnames + r.ips + r.paths === 0) return t('share.redacted.none');
  return t('share.redacted', { hostnames: r.hostnames, ips: r.ips, paths: r.paths });
}

function hostOf(base: string): string {
  try {
    return new URL(base).host || base;
  } catch {
    return base;
  }
}

/** The decoded link in words: what the receiver will see, as plain text. */
function SharePreviewPanel({ snapshot, lang }: { snapshot: ShareSnapshot; lang: Lang }) {
  const t = useT();
  const findings = useMemo(() => restore(snapshot, lang).diagnosis.findings, [snapshot, lang]);
  const evidence = useMemo(() => {
    const all = [...(snapshot.failure?.evidence ?? []), ...snapshot.findings.flatMap((f) => f.evidence)];
    return all.filter((e, i) => all.findIndex((o) => o.file === e.file && o.line === e.line) === i);
  }, [snapshot]);
  return (
    <section className="share-preview" aria-label={t('share.preview.title')} data-testid="share-preview">
      <h3 className="share-preview__head">{t('share.preview.title')}</h3>
      <p>
        <strong>{snapshot.title ? <span translate="no">{snapshot.title}</span> : t('share.preview.noTitle')}</strong> ·{' '}
        {t(`verdict.label.${snapshot.verdict}`)}
        {snapshot.skewSeconds !== null && (
          <> · {t('share.preview.skew', { skew: formatSeconds(t.lang, snapshot.skewSeconds) })}</>
        )}
      </p>
      <h4>{t('share.preview.nodes', { n: snapshot.nodes.length })}</h4>
      <ul className="share-preview__nodes" data-testid="share-preview-nodes">
        {snapshot.nodes.slice(0, 32).map((n) => (
          <li key={n.id}>
            <span className="mono">{n.id}</span>{' '}
            <span className="muted">
              {n.lagSeconds === null ? t('share.preview.noLaunch') : `+${formatSeconds(t.lang, n.lagSeconds)}`}
            </span>
          </li>
        ))}
        {snapshot.nodes.length > 32 && <li className="muted">{t('tip.andMore', { n: snapshot.nodes.length - 32 })}</li>}
      </ul>
      <h4>{t('share.preview.findings', { n: findings.length })}</h4>
      <ul data-testid="share-preview-findings">
        {findings.map((f, i) => (
          <li key={i}>{f.title}</li>
        ))}
      </ul>
      <h4>{t('share.preview.evidence', { n: evidence.length })}</h4>
      {evidence.length === 0 ? (
        <p className="muted">{t('share.preview.noEvidence')}</p>
      ) : (
        <ul className="share-preview__evidence" data-testid="share-preview-evidence">
          {evidence.map((e, i) => (
            <li key={i}>
              <span className="mono muted">
                {e.file}:{e.line}
              </span>{' '}
              <code>{e.text}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
