// "Share": a dialog that builds the link (`#share=…`, read in the page, never sent to a server), shows exactly
// what it will contain — the link decoded again — and copies it.
import { dialogKeys } from '../dialogKeys';
import {
  useDeferredValue,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type SyntheticEvent,
} from 'react';
import type { Diagnosis } from '../../core/findings';
import type { JobModel } from '../../core/model';
import { DEFAULT_REDACTION, previewShare, restore, type ShareResult, type ShareSnapshot } from '../../share/index';
import { useAppStore, useViewStore } from '../../state/index';
import { useShareStore } from '../../state/share';
import { formatSeconds } from '../format';
import { VERDICT_LABEL } from '../words';
import './share.css';

const MAX_TITLE = 120;

interface Props {
  job: JobModel;
  diagnosis: Diagnosis;
}

export function ShareButton({ job, diagnosis }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="share-open"
      >
        Share
      </button>
      {open && <ShareDialog job={job} diagnosis={diagnosis} onClose={() => setOpen(false)} />}
    </>
  );
}

interface Redaction {
  hostnames: boolean;
  ips: boolean;
  paths: boolean;
  evidence: boolean;
}

const CHECKS: { key: keyof Redaction; label: string; testId: string }[] = [
  { key: 'hostnames', label: 'Replace hostnames with node-00, node-01…', testId: 'redact-hostnames' },
  { key: 'ips', label: 'Replace IP addresses with <ip>', testId: 'redact-ips' },
  { key: 'paths', label: 'Shorten file paths to the file name', testId: 'redact-paths' },
  { key: 'evidence', label: 'Include evidence lines (file, line number, text)', testId: 'include-evidence' },
];

function ShareDialog({ job, diagnosis, onClose }: Props & { onClose(): void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
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
  const zoom = useShareStore((s) => s.zoom);
  const headingId = useId();
  const hintId = useId();
  const titleId = useId();
  const urlId = useId();

  // Typing a title rebuilds the link; on a big job the preview may lag a keystroke behind, the field never does.
  const options = useDeferredValue({ title, redaction });
  const result = useMemo<ShareResult>(
    () =>
      previewShare(job, diagnosis, {
        base: location.origin + location.pathname,
        title: options.title.trim(),
        hostnames: options.redaction.hostnames,
        ips: options.redaction.ips,
        paths: options.redaction.paths ? 'basename' : 'keep',
        evidence: options.redaction.evidence,
        lang,
        selectedNode: selectedNode && job.nodes.some((n) => n.id === selectedNode) ? selectedNode : null,
        zoom,
      }),
    [job, diagnosis, options, lang, selectedNode, zoom],
  );

  useLayoutEffect(() => {
    const dialog = dialogRef.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    titleRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => dialogKeys(e, dialogRef.current, onClose);

  const copy = () => {
    if (!result.ok) return;
    const url = result.url;
    if (!navigator.clipboard) {
      setCopied('Copying is not available here: select the link above and copy it.');
      return;
    }
    navigator.clipboard.writeText(url).then(
      () => setCopied('Link copied. Whoever opens it sees this diagnosis, not your logs.'),
      () => setCopied('The link could not be copied: select it above and copy it.'),
    );
  };

  return (
    <dialog
      ref={dialogRef}
      className="modal share-dialog"
      aria-labelledby={headingId}
      aria-describedby={hintId}
      data-testid="share-dialog"
      onKeyDown={onKeyDown}
      onCancel={(e: SyntheticEvent<HTMLDialogElement>) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div className="share-dialog__body">
        <h2 id={headingId} className="share-dialog__title">
          Share this diagnosis
        </h2>
        <p id={hintId} className="muted share-dialog__hint">
          The link carries the diagnosis, not the logs. It is all in the part after <code>#</code>, which browsers never
          send to a server; whoever opens it needs skewscope at the same address.
        </p>

        <label className="share-dialog__label" htmlFor={titleId}>
          Title
        </label>
        <input
          id={titleId}
          ref={titleRef}
          className="share-dialog__input"
          value={title}
          maxLength={MAX_TITLE}
          placeholder="e.g. Job 1234 died at startup again"
          onChange={(e) => {
            setTitle(e.currentTarget.value);
            setCopied(null);
          }}
          autoComplete="off"
          data-testid="share-title"
        />

        <fieldset className="share-dialog__redaction">
          <legend>Before it leaves this page</legend>
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
              {c.label}
            </label>
          ))}
        </fieldset>

        {result.ok ? (
          <>
            <SharePreviewPanel snapshot={result.snapshot} lang={lang} />
            <div className="share-preview__size" data-testid="share-size">
              <p>
                The link is {result.urlLength.toLocaleString('en')} characters long;{' '}
                {result.fits
                  ? `within the ${result.budget.toLocaleString('en')} characters that chat tools and issue trackers keep intact.`
                  : `longer than the ${result.budget.toLocaleString('en')} characters aimed at for ${job.nodes.length} nodes, even with everything below left out. It still opens, but some tools may cut it.`}
              </p>
              {result.dropped.length === 0 ? (
                <p>Nothing was left out to make it fit.</p>
              ) : (
                <ul data-testid="share-dropped">
                  {result.dropped.map((d, i) => (
                    <li key={i}>{d.message}</li>
                  ))}
                </ul>
              )}
              <p>{redactedSentence(result.redacted)}</p>
            </div>
            <label className="share-dialog__label" htmlFor={urlId}>
              Link
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
          <p className="banner banner--error" role="alert" data-testid="share-error">
            {result.error.message}
          </p>
        )}

        <div className="share-dialog__actions">
          <p className="share-dialog__status" role="status" data-testid="share-status">
            {copied}
          </p>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="button share-dialog__go"
            onClick={copy}
            disabled={!result.ok}
            data-testid="share-copy"
          >
            Copy link
          </button>
        </div>
      </div>
    </dialog>
  );
}

function redactedSentence(r: { hostnames: number; ips: number; paths: number }): string {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  if (r.hostnames + r.ips + r.paths === 0) return 'Nothing in it needed replacing.';
  return `Replaced ${n(r.hostnames, 'hostname', 'hostnames')}, ${n(r.ips, 'IP address', 'IP addresses')} and ${n(r.paths, 'file path', 'file paths')}.`;
}

/** The decoded link in words: what the receiver will see, as plain text. */
function SharePreviewPanel({ snapshot, lang }: { snapshot: ShareSnapshot; lang: 'en' | 'zh' }) {
  const findings = useMemo(() => restore(snapshot, lang).diagnosis.findings, [snapshot, lang]);
  const evidence = useMemo(() => {
    const all = [...(snapshot.failure?.evidence ?? []), ...snapshot.findings.flatMap((f) => f.evidence)];
    return all.filter((e, i) => all.findIndex((o) => o.file === e.file && o.line === e.line) === i);
  }, [snapshot]);
  return (
    <section className="share-preview" aria-label="What the link contains" data-testid="share-preview">
      <h3 className="share-preview__head">What the link contains</h3>
      <p>
        <strong>{snapshot.title || 'No title'}</strong> · {VERDICT_LABEL[snapshot.verdict]}
        {snapshot.skewSeconds !== null && <> · launch skew {formatSeconds(snapshot.skewSeconds)}</>}
      </p>
      <h4>Nodes ({snapshot.nodes.length})</h4>
      <ul className="share-preview__nodes" data-testid="share-preview-nodes">
        {snapshot.nodes.slice(0, 32).map((n) => (
          <li key={n.id}>
            <span className="mono">{n.id}</span>{' '}
            <span className="muted">
              {n.lagSeconds === null ? 'no launch time' : `+${formatSeconds(n.lagSeconds)}`}
            </span>
          </li>
        ))}
        {snapshot.nodes.length > 32 && <li className="muted">… and {snapshot.nodes.length - 32} more</li>}
      </ul>
      <h4>Findings ({findings.length})</h4>
      <ul data-testid="share-preview-findings">
        {findings.map((f, i) => (
          <li key={i}>{f.title}</li>
        ))}
      </ul>
      <h4>Evidence lines ({evidence.length})</h4>
      {evidence.length === 0 ? (
        <p className="muted">No log lines are in the link.</p>
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
