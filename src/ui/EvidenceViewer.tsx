// The evidence viewer: a modal dialog showing a log file's lines around an evidence line, read from the
// original File in a worker a window at a time. Opens whenever the view store holds an evidence target.
import { FOCUSABLE } from './dialogKeys';
import { useModal } from './useModal';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import {
  findRecognisedLine,
  findText,
  isAbortError,
  lineSourceFor,
  readArchiveMember,
  readLineWindow,
  type LineSource,
  type LineWindow,
} from '../ingest/lines';
import { formatNumber, saidOf, type Sentence } from '../i18n/index';
import { useAppStore, useViewStore, type EvidenceTarget } from '../state/index';
import { Said, useT } from './i18n';
import './evidence.css';

/** Row height in px; `.ev-row` in evidence.css has the same. */
const ROW = 20;
/** Lines loaded above a line jumped to, and lines per load. */
const BEFORE = 150;
const CHUNK = 400;
/** Lines kept loaded; beyond this the far end is dropped as more is loaded. */
const MAX_LOADED = 4000;
/** More lines are loaded when the view comes this close to an end of the loaded window. */
const EDGE = 60;
const OVERSCAN = 12;
const LABEL_CHARS = 240;

export function EvidenceViewer() {
  const target = useViewStore((s) => s.evidence);
  if (!target) return null;
  return <EvidenceDialog target={target} />;
}

function EvidenceDialog({ target }: { target: EvidenceTarget }) {
  const t = useT();
  const close = useViewStore((s) => s.closeEvidence);
  const sources = useAppStore((s) => s.sources);
  const files = useAppStore((s) => s.view?.job.files);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();
  const pathId = useId();
  const source = useMemo(() => lineSourceFor(target.file, sources), [target.file, sources]);
  const knownLines = useMemo(() => files?.find((f) => f.file === target.file)?.lines ?? null, [files, target.file]);

  const {
    dialogRef,
    onKeyDown: modalKeys,
    onCancel,
  } = useModal(close, (dialog) =>
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE))?.focus(),
  );

  // A new analysis replaces the files: the line shown is gone.
  const firstSources = useRef(sources);
  useEffect(() => {
    if (sources !== firstSources.current) close();
  }, [sources, close]);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    // Ctrl+F (⌘F) finds in this file, not in the page behind the dialog.
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
      const find = dialogRef.current?.querySelector<HTMLInputElement>('[data-find]');
      if (find) {
        e.preventDefault();
        find.focus();
        find.select();
        return;
      }
    }
    modalKeys(e);
  };

  const name = target.file.split('/').pop() || target.file;
  return (
    <dialog
      ref={dialogRef}
      role="dialog"
      className="ev-dialog"
      aria-labelledby={titleId}
      aria-describedby={pathId}
      data-testid="evidence-viewer"
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      onMouseDown={(e) => {
        pressedOnBackdrop.current = e.target === dialogRef.current;
      }}
      onClick={(e) => {
        // The dialog box fills the element: a click on the element itself is on the backdrop.
        if (e.target === dialogRef.current && pressedOnBackdrop.current) close();
      }}
    >
      <div className="ev-box">
        <header className="ev-head">
          <div className="ev-head__title">
            <h2 id={titleId}>
              {name} <span className="muted">· {t('viewer.line', { n: formatNumber(t.lang, target.line, 0) })}</span>
            </h2>
            <p id={pathId} className="ev-head__path mono" data-testid="evidence-path" title={target.file}>
              {target.file}
            </p>
          </div>
          <button
            type="button"
            className="button button--small ev-close"
            onClick={close}
            aria-label={t('dialog.close')}
            title={t('dialog.close')}
          >
            <span aria-hidden="true">×</span>
          </button>
        </header>
        {source.kind === 'file' ? (
          <LinesView key={target.file} file={source.file} path={target.file} target={target} knownLines={knownLines} />
        ) : source.kind === 'archive-member' && source.file ? (
          <MemberView
            key={target.file}
            archive={source.file}
            archiveName={source.archive}
            member={source.member}
            target={target}
            knownLines={knownLines}
          />
        ) : (
          <Unavailable source={source} target={target} />
        )}
      </div>
    </dialog>
  );
}

/** The line as the analysis read it, asked of the job worker (which has every event) when the file is gone. */
function useEvidenceText(target: EvidenceTarget): string | null {
  const ask = useAppStore((s) => s.ask);
  const [text, setText] = useState<{ key: string; text: string | null } | null>(null);
  const key = `${target.file}:${target.line}`;
  useEffect(() => {
    let live = true;
    ask({ kind: 'evidence-text', file: target.file, line: target.line }).then(
      (found) => live && setText({ key, text: found }),
      () => live && setText({ key, text: null }),
    );
    return () => {
      live = false;
    };
  }, [ask, key, target.file, target.line]);
  return text?.key === key ? text.text : null;
}

/** A file inside an archive: unpacked from the archive's File in the worker, then read like any other. */
function MemberView({
  archive,
  archiveName,
  member,
  target,
  knownLines,
}: {
  archive: Blob;
  archiveName: string;
  member: string;
  target: EvidenceTarget;
  knownLines: number | null;
}) {
  const t = useT();
  const [state, setState] = useState<{ blob: Blob } | { error: Sentence | string } | null>(null);
  useEffect(() => {
    let live = true;
    readArchiveMember(archive, archiveName, target.file).then(
      (blob) => live && setState({ blob }),
      (e: unknown) => live && setState({ error: saidOf(e) }),
    );
    return () => {
      live = false;
    };
  }, [archive, archiveName, target.file]);
  if (state && 'blob' in state)
    return <LinesView file={state.blob} path={target.file} target={target} knownLines={knownLines} focus />;
  if (state && 'error' in state)
    return (
      <Unavailable
        source={{ kind: 'archive-member', archive: archiveName, member, file: null }}
        target={target}
        error={state.error}
      />
    );
  return (
    <p className="ev-unpacking muted" role="status" data-testid="evidence-unpacking">
      {t('viewer.unpacking', { member, archive: archiveName })}
    </p>
  );
}

function Unavailable({
  source,
  target,
  error,
}: {
  source: Exclude<LineSource, { kind: 'file' }>;
  target: EvidenceTarget;
  error?: Sentence | string;
}) {
  const t = useT();
  const close = useViewStore((s) => s.closeEvidence);
  const text = useEvidenceText(target);
  return (
    <div className="ev-unavailable" data-testid="evidence-unavailable">
      {source.kind === 'archive-member' ? (
        <p>
          {t(error ? 'viewer.memberFailed' : 'viewer.memberGone', { member: source.member, archive: source.archive })}
          {error && (
            <>
              {' '}
              <Said what={error} />
            </>
          )}
        </p>
      ) : (
        <p>{t('viewer.missing')}</p>
      )}
      {text && (
        <figure className="ev-unavailable__line">
          <figcaption className="muted">{t('viewer.asRead', { n: formatNumber(t.lang, target.line, 0) })}</figcaption>
          <code>{text}</code>
        </figure>
      )}
      <button type="button" className="button" data-autofocus onClick={close}>
        {t('dialog.close')}
      </button>
    </div>
  );
}

interface Loaded {
  /** Which jump loaded it: later loads for an older jump are dropped. */
  gen: number;
  from: number;
  lines: string[];
  ids: (string | null)[];
  cut: boolean[];
}

type Scroll = { kind: 'center' | 'near' | 'reveal'; line: number } | { kind: 'shift'; px: number };

// ANSI colour codes (ESC [ … m) some launchers print: shown as plain text without them.
const SGR = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');
const display = (text: string) => text.replace(SGR, '');

function LinesView({
  file,
  path,
  target,
  knownLines,
  focus = false,
}: {
  file: Blob;
  path: string;
  target: EvidenceTarget;
  knownLines: number | null;
  /** Take the focus when shown (it appears after the dialog opened: an archive member unpacked first). */
  focus?: boolean;
}) {
  const t = useT();
  const [win, setWin] = useState<Loaded | null>(null);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<number | null>(null);
  const [total, setTotal] = useState<number | null>(knownLines);
  const [active, setActive] = useState(target.line);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Sentence | string | null>(null);
  const [note, setNote] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [viewH, setViewH] = useState(400);
  const [goto, setGoto] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const winRef = useRef<Loaded | null>(null);
  const totalRef = useRef<number | null>(knownLines);
  const genRef = useRef(0);
  const busy = useRef({ up: false, down: false });
  const pending = useRef<Scroll | null>(null);
  const lifetime = useRef<AbortController | null>(null);
  const jumpAbort = useRef<AbortController | null>(null);
  const rowId = useId();

  const commit = (next: Loaded) => {
    winRef.current = next;
    setWin(next);
  };
  const learnTotal = (t: number | null) => {
    if (t === null || t === totalRef.current) return;
    totalRef.current = t;
    setTotal(t);
  };
  const failed = (e: unknown) => {
    if (!isAbortError(e)) setError(saidOf(e));
  };

  useEffect(() => {
    const controller = new AbortController();
    lifetime.current = controller;
    return () => controller.abort();
  }, []);

  const signal = () => {
    const parent = lifetime.current?.signal;
    return parent ?? new AbortController().signal;
  };

  const scrollTo = useCallback((el: HTMLElement, w: Loaded, line: number, kind: 'center' | 'near' | 'reveal') => {
    const top = (line - w.from) * ROW;
    const view = el.clientHeight;
    const visible = top >= el.scrollTop + ROW && top + ROW <= el.scrollTop + view - ROW;
    if (kind === 'center' || (kind === 'near' && !visible)) el.scrollTop = top - (view - ROW) / 2;
    else if (kind === 'reveal') {
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW > el.scrollTop + view) el.scrollTop = top + ROW - view;
    }
  }, []);

  /** Shows a line: within the loaded window at once, otherwise after loading a window around it. */
  const jump = useCallback(
    async (line: number, kind: 'center' | 'near' | 'reveal') => {
      const t = totalRef.current;
      const want = Math.max(1, t !== null && t > 0 ? Math.min(line, t) : line);
      const w = winRef.current;
      const el = listRef.current;
      if (w && want >= w.from && want < w.from + w.lines.length) {
        setActive(want);
        if (el) {
          scrollTo(el, w, want, kind);
          setScrollTop(el.scrollTop);
        }
        return;
      }
      jumpAbort.current?.abort();
      const controller = new AbortController();
      jumpAbort.current = controller;
      const stop = () => controller.abort();
      lifetime.current?.signal.addEventListener('abort', stop, { once: true });
      const gen = ++genRef.current;
      setLoading(true);
      try {
        const r: LineWindow = await readLineWindow(file, Math.max(1, want - BEFORE), CHUNK, controller.signal);
        if (gen !== genRef.current) return;
        learnTotal(r.total);
        if (r.lines.length === 0) {
          commit({ gen, from: 1, lines: [], ids: [], cut: [] });
          setError(null);
          return;
        }
        commit({ gen, from: r.from, lines: r.lines, ids: r.ids, cut: r.cut });
        const at = Math.min(Math.max(want, r.from), r.from + r.lines.length - 1);
        setActive(at);
        setError(null);
        pending.current = { kind, line: at };
      } catch (e) {
        if (gen === genRef.current) failed(e);
      } finally {
        lifetime.current?.signal.removeEventListener('abort', stop);
        if (gen === genRef.current) setLoading(false);
      }
    },
    [file, scrollTo],
  );

  // Open at the evidence line (again when another line of the same file is asked for).
  useEffect(() => {
    void jump(target.line, 'center');
  }, [jump, target.line]);

  // Scroll as the change of window asked, once its rows are in the DOM (before the browser paints).
  useLayoutEffect(() => {
    const el = listRef.current;
    const p = pending.current;
    if (!el || !p || !win) return;
    pending.current = null;
    if (p.kind === 'shift') el.scrollTop += p.px;
    else scrollTo(el, win, p.line, p.kind);
    setScrollTop(el.scrollTop);
  }, [win, scrollTo]);

  useLayoutEffect(() => {
    if (focus) listRef.current?.focus();
  }, [focus]);

  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    setViewH(el.clientHeight);
    const observer = new ResizeObserver(() => setViewH(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Near an end of the loaded window: load the next window that way (and drop the far end beyond MAX_LOADED).
  useEffect(() => {
    const w = win;
    if (!w || loading || w.lines.length === 0) return;
    const end = w.from + w.lines.length - 1;
    const firstSeen = w.from + Math.floor(scrollTop / ROW);
    const lastSeen = w.from + Math.ceil((scrollTop + viewH) / ROW) - 1;
    if (firstSeen - w.from < EDGE && w.from > 1 && !busy.current.up) {
      busy.current.up = true;
      const count = Math.min(CHUNK, w.from - 1);
      readLineWindow(file, w.from - count, count, signal())
        .then((r) => {
          const cur = winRef.current;
          if (!cur || cur.gen !== w.gen || cur.from !== w.from || r.from !== w.from - count) return;
          learnTotal(r.total);
          let { lines, ids, cut } = cur;
          lines = [...r.lines, ...lines];
          ids = [...r.ids, ...ids];
          cut = [...r.cut, ...cut];
          if (lines.length > MAX_LOADED) {
            lines = lines.slice(0, MAX_LOADED);
            ids = ids.slice(0, MAX_LOADED);
            cut = cut.slice(0, MAX_LOADED);
          }
          pending.current = { kind: 'shift', px: r.lines.length * ROW };
          const next = { gen: cur.gen, from: r.from, lines, ids, cut };
          setActive((a) => Math.min(a, next.from + lines.length - 1));
          commit(next);
        })
        .catch(failed)
        .finally(() => {
          busy.current.up = false;
        });
    }
    const t = totalRef.current;
    if (end - lastSeen < EDGE && (t === null || end < t) && !busy.current.down) {
      busy.current.down = true;
      readLineWindow(file, end + 1, CHUNK, signal())
        .then((r) => {
          learnTotal(r.total);
          const cur = winRef.current;
          if (!cur || cur.gen !== w.gen || cur.from + cur.lines.length !== end + 1 || r.from !== end + 1) {
            // Past the end: the count is known now, and nothing is added.
            if (r.total !== null) learnTotal(Math.max(r.total, end));
            return;
          }
          let { from, lines, ids, cut } = cur;
          lines = [...lines, ...r.lines];
          ids = [...ids, ...r.ids];
          cut = [...cut, ...r.cut];
          const drop = lines.length - MAX_LOADED;
          if (drop > 0) {
            lines = lines.slice(drop);
            ids = ids.slice(drop);
            cut = cut.slice(drop);
            from += drop;
            pending.current = { kind: 'shift', px: -drop * ROW };
          }
          setActive((a) => Math.max(a, from));
          commit({ gen: cur.gen, from, lines, ids, cut });
        })
        .catch(failed)
        .finally(() => {
          busy.current.down = false;
        });
    }
  }, [win, scrollTop, viewH, loading, file]);

  const end = win ? win.from + win.lines.length - 1 : 0;
  const pageRows = Math.max(1, Math.floor(viewH / ROW) - 1);
  const idOf = (line: number) => (win ? (win.ids[line - win.from] ?? null) : null);

  const move = (line: number) => {
    if (!win || win.lines.length === 0) return;
    void jump(Math.max(win.from, Math.min(end, line)), 'reveal');
    setNote('');
  };

  const findNext = async (dir: 1 | -1) => {
    const w = winRef.current;
    if (!w || w.lines.length === 0) return;
    const e = w.from + w.lines.length - 1;
    for (let l = active + dir; l >= w.from && l <= e; l += dir) {
      if (w.ids[l - w.from]) {
        setNote('');
        void jump(l, 'near');
        return;
      }
    }
    const none = t(dir === 1 ? 'viewer.noneAfter' : 'viewer.noneBefore', { n: formatNumber(t.lang, active, 0) });
    const known = totalRef.current;
    if ((dir === 1 && known !== null && e >= known) || (dir === -1 && w.from <= 1)) {
      setNote(none);
      return;
    }
    setNote(t('viewer.searching'));
    try {
      const r = await findRecognisedLine(file, dir === 1 ? e : w.from, dir, signal());
      learnTotal(r.total);
      if (r.line === null) setNote(none);
      else {
        setNote('');
        await jump(r.line, 'center');
      }
    } catch (err) {
      setNote('');
      failed(err);
    }
  };

  /** The next (or previous) line holding the text typed in the find field, from the active line on. */
  const findQuery = async (dir: 1 | -1) => {
    const q = query.trim();
    if (!q) return;
    const lower = q.toLowerCase();
    const w = winRef.current;
    // Within the loaded lines first: no round trip to the worker.
    if (w && w.lines.length > 0) {
      const e = w.from + w.lines.length - 1;
      for (let l = active + dir; l >= w.from && l <= e; l += dir) {
        if (
          display(w.lines[l - w.from] ?? '')
            .toLowerCase()
            .includes(lower)
        ) {
          setNote('');
          setFound(l);
          void jump(l, 'near');
          return;
        }
      }
    }
    setNote(t('viewer.searching'));
    try {
      const r = await findText(file, active, dir, q, signal());
      learnTotal(r.total);
      if (r.line === null) {
        setNote(t(dir === 1 ? 'viewer.find.noneAfter' : 'viewer.find.noneBefore', { query: q }));
        return;
      }
      setNote('');
      setFound(r.line);
      await jump(r.line, 'center');
    } catch (err) {
      setNote('');
      failed(err);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowDown':
        move(active + 1);
        break;
      case 'ArrowUp':
        move(active - 1);
        break;
      case 'PageDown':
        move(active + pageRows);
        break;
      case 'PageUp':
        move(active - pageRows);
        break;
      case 'Home':
        move(win?.from ?? 1);
        break;
      case 'End':
        move(end);
        break;
      case 'n':
      case 'N':
        void findNext(1);
        break;
      case 'p':
      case 'P':
        void findNext(-1);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const onGoto = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(goto);
    if (!Number.isInteger(n) || n < 1) {
      setNote(t('viewer.gotoInvalid'));
      return;
    }
    setNote(total !== null && n > total ? t('viewer.gotoPast', { n: formatNumber(t.lang, total, 0) }) : '');
    void jump(n, 'center').then(() => listRef.current?.focus());
  };

  // Rows on screen, plus the active row so the list's active descendant always exists.
  const rows: number[] = [];
  if (win && win.lines.length > 0) {
    const a = Math.max(0, Math.floor(scrollTop / ROW) - OVERSCAN);
    const b = Math.min(win.lines.length, Math.ceil((scrollTop + viewH) / ROW) + OVERSCAN);
    for (let i = a; i < b; i++) rows.push(win.from + i);
    if (active >= win.from && active <= end && (active < win.from + a || active >= win.from + b)) rows.push(active);
  }
  const activeId = idOf(active);
  const activeInWindow = win !== null && active >= win.from && active <= end;

  return (
    <>
      <div className="ev-tools">
        <form className="ev-goto" onSubmit={onGoto}>
          <label htmlFor={`${rowId}-goto`}>{t('viewer.goto')}</label>
          <input
            id={`${rowId}-goto`}
            className="ev-goto__input"
            type="number"
            inputMode="numeric"
            min={1}
            value={goto}
            placeholder={String(target.line)}
            onChange={(e) => setGoto(e.target.value)}
          />
          <button type="submit" className="button button--small">
            {t('viewer.go')}
          </button>
        </form>
        <form
          className="ev-find"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void findQuery(1);
          }}
        >
          <label htmlFor={`${rowId}-find`} className="visually-hidden">
            {t('viewer.find.label')}
          </label>
          <input
            id={`${rowId}-find`}
            className="ev-find__input"
            type="search"
            value={query}
            placeholder={t('viewer.find.placeholder')}
            data-find=""
            data-testid="evidence-find"
            aria-keyshortcuts="Control+F"
            onChange={(e) => {
              setQuery(e.target.value);
              setFound(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void findQuery(e.shiftKey ? -1 : 1);
              } else if (e.key === 'Escape' && query) {
                e.preventDefault();
                e.stopPropagation();
                setQuery('');
                setFound(null);
              }
            }}
          />
          <button
            type="button"
            className="button button--small"
            onClick={() => void findQuery(-1)}
            disabled={!query.trim()}
            aria-label={t('viewer.find.prev')}
            title={t('viewer.find.prev')}
          >
            <span aria-hidden="true">↑</span>
          </button>
          <button
            type="submit"
            className="button button--small"
            disabled={!query.trim()}
            aria-label={t('viewer.find.next')}
            title={t('viewer.find.next')}
            data-testid="evidence-find-next"
          >
            <span aria-hidden="true">↓</span>
          </button>
        </form>
        <div className="ev-tools__nav" role="group" aria-label={t('viewer.recognised')}>
          <button
            type="button"
            className="button button--small"
            onClick={() => void findNext(-1)}
            aria-keyshortcuts="p"
          >
            <span aria-hidden="true">↑</span> {t('viewer.prevRecognised')} <kbd>p</kbd>
          </button>
          <button type="button" className="button button--small" onClick={() => void findNext(1)} aria-keyshortcuts="n">
            <span aria-hidden="true">↓</span> {t('viewer.nextRecognised')} <kbd>n</kbd>
          </button>
          <button
            type="button"
            className="button button--small"
            onClick={() => void jump(target.line, 'center').then(() => listRef.current?.focus())}
          >
            {t('viewer.evidenceLine', { n: formatNumber(t.lang, target.line, 0) })}
          </button>
        </div>
      </div>

      <div
        ref={listRef}
        className="ev-lines"
        role="listbox"
        tabIndex={0}
        data-autofocus
        aria-label={t('viewer.linesOf', { file: path })}
        aria-busy={loading}
        aria-activedescendant={activeInWindow ? `${rowId}-${active}` : undefined}
        onKeyDown={onKeyDown}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        data-testid="evidence-lines"
      >
        <div className="ev-lines__space" style={{ height: (win?.lines.length ?? 0) * ROW }}>
          {win &&
            rows.map((line) => {
              const i = line - win.from;
              const text = win.lines[i] ?? '';
              const id = win.ids[i] ?? null;
              const isTarget = line === target.line;
              const label = `${t('viewer.line', { n: String(line) })}${isTarget ? t('viewer.row.target') : ''}${
                id ? t('viewer.row.recognised', { id }) : ''
              }: ${text.length > LABEL_CHARS ? text.slice(0, LABEL_CHARS) + '…' : text}`;
              return (
                <div
                  key={line}
                  id={`${rowId}-${line}`}
                  role="option"
                  aria-selected={line === active}
                  aria-posinset={line}
                  aria-setsize={total ?? -1}
                  aria-label={label}
                  className={[
                    'ev-row',
                    isTarget && 'ev-row--target',
                    id && 'ev-row--recognised',
                    line === active && 'ev-row--active',
                    win.cut[i] && 'ev-row--cut',
                    line === found && 'ev-row--found',
                  ]
                    .filter(Boolean)
                    .join(' ')}
                  style={{ top: i * ROW }}
                  data-line={line}
                  data-recognised={id ?? undefined}
                  title={id ? t('viewer.row.title', { id }) : undefined}
                  onClick={() => {
                    setActive(line);
                    setNote('');
                  }}
                >
                  <span className="ev-row__num" aria-hidden="true">
                    <span className="ev-row__mark" />
                    {line}
                  </span>
                  <span className="ev-row__text">
                    <Highlight text={display(text)} query={query.trim()} />
                  </span>
                  {id && (
                    <span className="ev-row__id" aria-hidden="true">
                      {id}
                    </span>
                  )}
                </div>
              );
            })}
        </div>
        {win && win.lines.length === 0 && !loading && <p className="ev-lines__empty muted">{t('viewer.empty')}</p>}
      </div>

      <footer className="ev-status">
        <span className="ev-status__pos" data-testid="evidence-position">
          {activeInWindow ? (
            <>
              {total !== null
                ? t('viewer.posOf', { n: formatNumber(t.lang, active, 0), total: formatNumber(t.lang, total, 0) })
                : t('viewer.line', { n: formatNumber(t.lang, active, 0) })}
              {' · '}
              {activeId ? (
                <>
                  {t('viewer.recognisedAs')} <code className="ev-status__id">{activeId}</code>
                </>
              ) : (
                <span className="muted">{t('viewer.notRecognised')}</span>
              )}
            </>
          ) : loading ? (
            t('viewer.reading')
          ) : null}
        </span>
        <span className="ev-status__note" role="status">
          {error ? (
            <span className="ev-status__error">
              {t('viewer.readFailed')} <Said what={error} />
            </span>
          ) : (
            note
          )}
        </span>
        <span className="ev-status__keys muted" aria-hidden="true">
          <kbd>↑</kbd>
          <kbd>↓</kbd> <kbd>PgUp</kbd>
          <kbd>PgDn</kbd> <kbd>Home</kbd>
          <kbd>End</kbd> {t('viewer.keys.move')} · <kbd>n</kbd>
          <kbd>p</kbd> {t('viewer.keys.recognised')} · <kbd>Ctrl F</kbd> {t('viewer.keys.find')} · <kbd>Esc</kbd>{' '}
          {t('viewer.keys.close')}
        </span>
      </footer>
    </>
  );
}

/** The occurrences of `query` in a line, marked (case-insensitive). */
function Highlight({ text, query }: { text: string; query: string }) {
  if (!query) return <>{text}</>;
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const out: ReactNode[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, i + q.length)) {
    if (i > at) out.push(text.slice(at, i));
    out.push(<mark key={i}>{text.slice(i, i + q.length)}</mark>);
    at = i + q.length;
  }
  if (out.length === 0) return <>{text}</>;
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}
