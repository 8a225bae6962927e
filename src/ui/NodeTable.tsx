import { Fragment, useId, useMemo, useState, type FormEvent } from 'react';
import type { ClockOffset, FileExtract, JobModel, JobNode, Overrides } from '../core/model';
import { useAppStore, useViewStore } from '../state/index';
import { formatHours, formatSeconds } from '../i18n/index';
import { formatInstant } from './format';
import { CoreText, Rich, useT, type T } from './i18n';
import './nodes.css';

interface Props {
  job: JobModel;
}

const SHOWN_FILES = 3;
const COLUMNS = 8;
const NEW_NODE = '\u0000new';

/** UTC offsets in 15-minute steps, as time zones use them (UTC−12:00 … UTC+14:00). */
const OFFSETS: number[] = Array.from({ length: (14 * 60 + 12 * 60) / 15 + 1 }, (_, i) => -12 * 60 + i * 15);

function offsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Which of a file's timestamps lack a year or a zone: only those can be corrected. */
function timeGaps(extracts: FileExtract[]): Map<string, { yearless: boolean; zoneless: boolean }> {
  const out = new Map<string, { yearless: boolean; zoneless: boolean }>();
  for (const x of extracts) {
    const gaps = { yearless: false, zoneless: false };
    for (const s of x.streams) {
      const lines = [...s.events, ...(s.firstLine ? [s.firstLine] : []), ...(s.lastLine ? [s.lastLine] : [])];
      for (const l of lines)
        for (const c of l.clocks) {
          if (c.year === null) gaps.yearless = true;
          if (c.offsetMinutes === null) gaps.zoneless = true;
        }
    }
    out.set(x.file, gaps);
  }
  return out;
}

/** The name the logs gave a node (before the user's rename). */
function logNameOf(id: string, overrides: Overrides): string {
  for (const [auto, name] of Object.entries(overrides.nodeName ?? {})) if (name === id) return auto;
  return id;
}

function correctionCount(o: Overrides): number {
  return (
    [o.fileNode, o.nodeName, o.fileYear, o.fileOffsetMinutes].reduce((n, m) => n + (m ? Object.keys(m).length : 0), 0) +
    (o.correctClocks ? 1 : 0)
  );
}

/** Drops empty maps so "no corrections" is `{}`. */
function tidy(o: Overrides): Overrides {
  const out: Overrides = {};
  if (o.fileNode && Object.keys(o.fileNode).length) out.fileNode = o.fileNode;
  if (o.nodeName && Object.keys(o.nodeName).length) out.nodeName = o.nodeName;
  if (o.fileYear && Object.keys(o.fileYear).length) out.fileYear = o.fileYear;
  if (o.fileOffsetMinutes && Object.keys(o.fileOffsetMinutes).length) out.fileOffsetMinutes = o.fileOffsetMinutes;
  if (o.correctClocks) out.correctClocks = true;
  return out;
}

function FileList({ files }: { files: string[] }) {
  const t = useT();
  const shown = files.slice(0, SHOWN_FILES);
  return (
    <ul className="node-files">
      {shown.map((f) => (
        <li key={f} className="mono ellipsis" title={f}>
          {f}
        </li>
      ))}
      {files.length > SHOWN_FILES && (
        <li className="muted">{t('nodes.moreFiles', { n: files.length - SHOWN_FILES })}</li>
      )}
    </ul>
  );
}

function LagCell({ node, maxLag }: { node: JobNode; maxLag: number }) {
  const t = useT();
  if (node.lagSeconds === null) return <span className="muted">—</span>;
  const width = maxLag > 0 ? Math.max(2, (node.lagSeconds / maxLag) * 100) : 0;
  return (
    <div className="lag">
      <span className="lag__value">
        {node.lagSeconds === 0 ? t('unit.s', { n: '0' }) : `+${formatSeconds(t.lang, node.lagSeconds)}`}
      </span>
      <span className="lag__track" aria-hidden="true">
        <span className="lag__bar" style={{ width: `${width}%` }} />
      </span>
    </div>
  );
}

function offsetValue(t: T, o: ClockOffset): string {
  const sign = o.offsetSeconds < 0 ? '−' : '+';
  const abs = Math.abs(o.offsetSeconds);
  if (o.kind === 'time-zone') return formatHours(t.lang, o.offsetSeconds / 3600);
  return `${sign}${formatSeconds(t.lang, abs)}`;
}

function ClockCell({ offset }: { offset: ClockOffset | undefined }) {
  const t = useT();
  if (!offset)
    return (
      <span className="muted" title={t('nodes.clock.none')}>
        —
      </span>
    );
  const kind = offset.kind === 'time-zone' ? 'zone' : 'clock';
  return (
    <span className="clock-cell">
      <span className="nowrap">
        {offsetValue(t, offset)} <span className="muted">± {formatSeconds(t.lang, offset.boundSeconds)}</span>
      </span>
      <span className={`tag nodes-tag ${offset.kind === 'time-zone' ? 'nodes-tag--zone' : 'nodes-tag--clock'}`}>
        {t(offset.applied ? `nodes.clock.${kind}Corrected` : `nodes.clock.${kind}`)}
      </span>
    </span>
  );
}

export function NodeTable({ job }: Props) {
  const t = useT();
  const overrides = useAppStore((s) => s.overrides);
  const setOverrides = useAppStore((s) => s.setOverrides);
  const extracts = useAppStore((s) => s.extracts);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const baseId = useId();
  const late = new Set(job.failure?.lateNodes ?? []);
  const maxLag = Math.max(0, ...job.nodes.map((n) => n.lagSeconds ?? 0));
  const offsets = new Map(job.clockOffsets.map((o) => [o.node, o]));
  const gaps = useMemo(() => timeGaps(extracts), [extracts]);
  const corrections = correctionCount(overrides);

  // How many nodes each file feeds: a file holding several nodes (Slurm, pdsh) cannot move as a whole.
  const nodesPerFile = new Map<string, number>();
  for (const n of job.nodes) for (const f of n.files) nodesPerFile.set(f, (nodesPerFile.get(f) ?? 0) + 1);

  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const reopen = (from: string | null, to: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (from !== null) next.delete(from);
      next.add(to);
      return next;
    });

  const rename = (node: JobNode, name: string) => {
    const logName = logNameOf(node.id, overrides);
    const nodeName = { ...overrides.nodeName };
    for (const [k, v] of Object.entries(nodeName)) if (v === node.id) delete nodeName[k];
    if (name !== logName) nodeName[logName] = name;
    reopen(node.id, name);
    setOverrides(tidy({ ...overrides, nodeName }));
  };

  const applyFile = (
    file: string,
    node: JobNode,
    change: { dest: string | null; newName: string; year: number | null; offset: number | null },
  ) => {
    const next: Overrides = {
      ...overrides,
      fileNode: { ...overrides.fileNode },
      fileYear: { ...overrides.fileYear },
      fileOffsetMinutes: { ...overrides.fileOffsetMinutes },
    };
    let shownAs = node.id;
    if (change.dest !== null && change.dest !== node.id) {
      const target = change.dest === NEW_NODE ? undefined : job.nodes.find((n) => n.id === change.dest);
      if (target) {
        // Joining a node: its own files are pinned to it too, so they stay together with the newcomer.
        const key = logNameOf(target.id, overrides);
        for (const f of target.files) next.fileNode![f] = key;
        next.fileNode![file] = key;
        shownAs = target.id;
      } else {
        next.fileNode![file] = change.newName;
        shownAs = change.newName;
      }
    }
    if (change.year === null) delete next.fileYear![file];
    else next.fileYear![file] = change.year;
    if (change.offset === null) delete next.fileOffsetMinutes![file];
    else next.fileOffsetMinutes![file] = change.offset;
    reopen(null, shownAs);
    setOverrides(tidy(next));
  };

  return (
    <section className="card" aria-labelledby="nodes-title">
      <div className="nodes-head">
        <h2 id="nodes-title">{t('nodes.title')}</h2>
        <p className="nodes-head__hint muted">{t('nodes.hint')}</p>
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setOverrides({});
          }}
          disabled={corrections === 0}
          data-testid="reset-corrections"
        >
          {corrections > 0 ? t('nodes.resetN', { n: corrections }) : t('nodes.reset')}
        </button>
      </div>
      {(overrides.correctClocks || job.clockOffsets.some((o) => o.kind === 'clock')) && (
        <label className="nodes-correct-clocks">
          <input
            type="checkbox"
            checked={overrides.correctClocks === true}
            onChange={(e) => setOverrides(tidy({ ...overrides, correctClocks: e.target.checked }))}
            data-testid="correct-clocks"
          />{' '}
          {t('nodes.correctClocks')}
        </label>
      )}
      {job.nodes.length === 0 ? (
        <p className="muted">{t('nodes.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="node-table" data-testid="node-table">
            <thead>
              <tr>
                <th scope="col">{t('nodes.col.node')}</th>
                <th scope="col">{t('nodes.col.hostname')}</th>
                <th scope="col">{t('nodes.col.groupRank')}</th>
                <th scope="col">{t('nodes.col.files')}</th>
                <th scope="col">{t('nodes.col.launch')}</th>
                <th scope="col">{t('nodes.col.lag')}</th>
                <th scope="col">{t('nodes.col.clock')}</th>
                <th scope="col">{t('nodes.col.failure')}</th>
              </tr>
            </thead>
            <tbody>
              {job.nodes.map((node, i) => {
                const expanded = open.has(node.id);
                const detailId = `${baseId}-node-${i}`;
                const renamed = logNameOf(node.id, overrides) !== node.id;
                return (
                  <Fragment key={node.id}>
                    <tr
                      className={
                        [late.has(node.id) && 'is-late', expanded && 'is-open'].filter(Boolean).join(' ') || undefined
                      }
                      data-node={node.id}
                    >
                      <th scope="row">
                        <span className="nodes-name">
                          <button
                            type="button"
                            className="nodes-toggle"
                            aria-expanded={expanded}
                            aria-controls={expanded ? detailId : undefined}
                            aria-label={t('nodes.details', { node: node.id })}
                            onClick={() => toggle(node.id)}
                          >
                            <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                              <path d="M6 3.5 10.5 8 6 12.5" />
                            </svg>
                          </button>
                          <span className="node-id">{node.id}</span>
                          {late.has(node.id) && <span className="tag tag--danger">{t('nodes.tag.late')}</span>}
                          {node.isStoreHost && <span className="tag">{t('nodes.tag.host')}</span>}
                          {renamed && <span className="tag nodes-tag nodes-tag--edited">{t('nodes.tag.renamed')}</span>}
                        </span>
                      </th>
                      <td>{node.hostname ?? <span className="muted">—</span>}</td>
                      <td className="num">{node.groupRank ?? <span className="muted">—</span>}</td>
                      <td>
                        <FileList files={node.files} />
                      </td>
                      <td className="mono nowrap">
                        {node.launchTime ? (
                          formatInstant(node.launchTime)
                        ) : (
                          <span className="muted">{t('verdict.unknown')}</span>
                        )}
                      </td>
                      <td data-testid="lag">
                        <LagCell node={node} maxLag={maxLag} />
                      </td>
                      <td data-testid="clock">
                        <ClockCell offset={offsets.get(node.id)} />
                      </td>
                      <td>
                        {node.failureStage ? (
                          t(`stage.short.${node.failureStage}`)
                        ) : (
                          <span className="muted">{t('nodes.none')}</span>
                        )}
                      </td>
                    </tr>
                    {expanded && (
                      <tr className="node-detail" id={detailId} data-node-detail={node.id}>
                        <td colSpan={COLUMNS}>
                          <NodeDetail
                            node={node}
                            job={job}
                            overrides={overrides}
                            offset={offsets.get(node.id)}
                            gaps={gaps}
                            nodesPerFile={nodesPerFile}
                            onRename={(name) => rename(node, name)}
                            onApplyFile={(file, change) => applyFile(file, node, change)}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

interface FileChange {
  dest: string | null;
  newName: string;
  year: number | null;
  offset: number | null;
}

function NodeDetail({
  node,
  job,
  overrides,
  offset,
  gaps,
  nodesPerFile,
  onRename,
  onApplyFile,
}: {
  node: JobNode;
  job: JobModel;
  overrides: Overrides;
  offset: ClockOffset | undefined;
  gaps: Map<string, { yearless: boolean; zoneless: boolean }>;
  nodesPerFile: Map<string, number>;
  onRename(name: string): void;
  onApplyFile(file: string, change: FileChange): void;
}) {
  const t = useT();
  const openEvidence = useViewStore((s) => s.openEvidence);
  const logName = logNameOf(node.id, overrides);
  return (
    <div className="node-detail__grid">
      <div className="node-detail__col">
        <RenameForm
          key={node.id}
          node={node}
          others={job.nodes.map((n) => n.id)}
          logName={logName}
          onRename={onRename}
        />
        <h3 className="node-detail__title">{t('nodes.why', { node: node.id })}</h3>
        {node.identity.length === 0 ? (
          <p className="muted node-detail__empty">{t('nodes.whyNone')}</p>
        ) : (
          <ul className="node-ident" data-testid="identity">
            {node.identity.map((h, i) => (
              <li key={`${h.kind}:${h.value}:${i}`}>
                <span className="node-ident__kind">{t(`nodes.kind.${h.kind}`)}</span>
                <code className="node-ident__value">{h.value}</code>
                <span className={`node-conf node-conf--${h.confidence}`}>{t(`nodes.conf.${h.confidence}`)}</span>
                <span className="node-ident__evidence">
                  <CoreText>{h.evidence}</CoreText>
                </span>
              </li>
            ))}
          </ul>
        )}
        <h3 className="node-detail__title">{t('nodes.clockTitle')}</h3>
        {offset ? (
          <div className="node-clock">
            <p>
              <Rich
                text={t(
                  offset.kind === 'time-zone'
                    ? offset.applied
                      ? 'nodes.clock.zoneText'
                      : 'nodes.clock.zoneTextRaw'
                    : offset.applied
                      ? 'nodes.clock.clockText'
                      : 'nodes.clock.clockTextRaw',
                  { value: offsetValue(t, offset), bound: formatSeconds(t.lang, offset.boundSeconds) },
                )}
              />
            </p>
            <button
              type="button"
              data-testid="clock-evidence"
              className="node-clock__evidence"
              onClick={() => openEvidence({ file: offset.evidence.file, line: offset.evidence.line })}
            >
              <span className="mono muted">
                {offset.evidence.file}:{offset.evidence.line}
              </span>
              <code>{offset.evidence.text}</code>
            </button>
          </div>
        ) : (
          <p className="muted node-detail__empty">{t('nodes.clock.noneLong')}</p>
        )}
      </div>
      <div className="node-detail__col">
        <h3 className="node-detail__title">{t('nodes.col.files')}</h3>
        <ul className="file-fixes">
          {node.files.map((f) => (
            <li
              key={`${f}|${JSON.stringify([overrides.fileNode?.[f], overrides.fileYear?.[f], overrides.fileOffsetMinutes?.[f]])}`}
            >
              <FileFix
                file={f}
                node={node}
                nodes={job.nodes}
                overrides={overrides}
                gaps={gaps.get(f)}
                shared={(nodesPerFile.get(f) ?? 0) > 1}
                nodesPerFile={nodesPerFile}
                onApply={(change) => onApplyFile(f, change)}
              />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function RenameForm({
  node,
  others,
  logName,
  onRename,
}: {
  node: JobNode;
  others: string[];
  logName: string;
  onRename(name: string): void;
}) {
  const t = useT();
  const id = useId();
  const [name, setName] = useState(node.id);
  const [error, setError] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (next === '') return setError(t('nodes.rename.empty'));
    if (next === node.id) return setError('');
    if (others.includes(next)) return setError(t('nodes.rename.taken', { name: next }));
    setError('');
    onRename(next);
  };
  return (
    <form className="node-rename" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-name`} className="node-detail__label">
        {t('nodes.rename.label')}
      </label>
      <div className="node-rename__row">
        <input
          id={`${id}-name`}
          className="nodes-input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-label={t('nodes.rename.aria', { node: node.id })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="button button--small" disabled={name.trim() === node.id}>
          {t('nodes.rename.go')}
        </button>
        {logName !== node.id && (
          <button type="button" className="button button--small button--link" onClick={() => onRename(logName)}>
            {t('nodes.rename.back', { name: logName })}
          </button>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="nodes-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function FileFix({
  file,
  node,
  nodes,
  overrides,
  gaps,
  shared,
  nodesPerFile,
  onApply,
}: {
  file: string;
  node: JobNode;
  nodes: JobNode[];
  overrides: Overrides;
  gaps: { yearless: boolean; zoneless: boolean } | undefined;
  shared: boolean;
  nodesPerFile: Map<string, number>;
  onApply(change: FileChange): void;
}) {
  const t = useT();
  const id = useId();
  const initialYear = overrides.fileYear?.[file];
  const initialOffset = overrides.fileOffsetMinutes?.[file];
  const [dest, setDest] = useState(node.id);
  const [newName, setNewName] = useState('');
  const [year, setYear] = useState(initialYear === undefined ? '' : String(initialYear));
  const [offset, setOffset] = useState(initialOffset === undefined ? '' : String(initialOffset));
  const [error, setError] = useState('');
  const base = file.split('/').pop() ?? file;
  const named = file;
  const guessedYear = node.launchTime?.slice(0, 4) ?? node.firstLine?.time?.slice(0, 4) ?? null;

  const dirty =
    dest !== node.id ||
    year !== (initialYear === undefined ? '' : String(initialYear)) ||
    offset !== (initialOffset === undefined ? '' : String(initialOffset));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    let target: string | null = dest === node.id ? null : dest;
    const name = newName.trim();
    if (dest === NEW_NODE) {
      if (name === '') return setError(t('nodes.file.nameNew'));
      // Naming an existing node moves the file there.
      target = nodes.some((n) => n.id === name) ? name : NEW_NODE;
      if (target === node.id) target = null;
    }
    const y = year.trim() === '' ? null : Number(year);
    if (y !== null && (!Number.isInteger(y) || y < 1970 || y > 2100)) return setError(t('nodes.file.yearRange'));
    setError('');
    onApply({ dest: target, newName: name, year: y, offset: offset === '' ? null : Number(offset) });
  };

  // A node can take a file when its own files hold it alone (files are pinned to the node as a whole).
  const canJoin = (n: JobNode) => n.id === node.id || n.files.every((f) => (nodesPerFile.get(f) ?? 0) <= 1);

  return (
    <form className="file-fix" onSubmit={submit} noValidate data-file={file}>
      <div className="file-fix__name mono ellipsis" title={file}>
        {file}
        {overrides.fileNode?.[file] !== undefined && (
          <span className="tag nodes-tag nodes-tag--edited">{t('nodes.file.byHand')}</span>
        )}
      </div>
      <div className="file-fix__fields">
        <label className="file-fix__field">
          <span className="node-detail__label">{t('nodes.col.node')}</span>
          <select
            className="nodes-input"
            value={dest}
            onChange={(e) => setDest(e.target.value)}
            disabled={shared}
            aria-label={t('nodes.file.nodeOf', { file: named })}
            title={shared ? t('nodes.file.sharedTitle') : undefined}
          >
            {nodes.map((n) => (
              <option key={n.id} value={n.id} disabled={!canJoin(n)}>
                {n.id === node.id ? t('nodes.file.current', { node: n.id }) : n.id}
              </option>
            ))}
            <option value={NEW_NODE}>{t('nodes.file.newNode')}</option>
          </select>
        </label>
        {dest === NEW_NODE && (
          <label className="file-fix__field">
            <span className="node-detail__label">{t('nodes.file.newName')}</span>
            <input
              className="nodes-input"
              value={newName}
              onChange={(e) => setNewName(e.target.value)}
              aria-label={t('nodes.file.newNameOf', { file: named })}
              placeholder={base.replace(/\.[^.]*$/, '')}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
        )}
        {gaps?.yearless && (
          <label className="file-fix__field">
            <span className="node-detail__label">{t('nodes.file.year')}</span>
            <input
              className="nodes-input nodes-input--year"
              type="number"
              inputMode="numeric"
              min={1970}
              max={2100}
              value={year}
              onChange={(e) => setYear(e.target.value)}
              placeholder={guessedYear ? `${guessedYear}?` : t('nodes.file.auto')}
              aria-label={t('nodes.file.yearOf', { file: named })}
              aria-describedby={`${id}-year-hint`}
            />
            <span id={`${id}-year-hint`} className="visually-hidden">
              {guessedYear ? t('nodes.file.noYearAssumed', { year: guessedYear }) : t('nodes.file.noYear')}
            </span>
          </label>
        )}
        {gaps?.zoneless && (
          <label className="file-fix__field">
            <span className="node-detail__label">{t('nodes.file.utc')}</span>
            <select
              className="nodes-input"
              value={offset}
              onChange={(e) => setOffset(e.target.value)}
              aria-label={t('nodes.file.utcOf', { file: named })}
            >
              <option value="">{t('nodes.file.notSet')}</option>
              {OFFSETS.map((m) => (
                <option key={m} value={String(m)}>
                  {offsetLabel(m)}
                </option>
              ))}
            </select>
          </label>
        )}
        <button
          type="submit"
          className="button button--small file-fix__apply"
          disabled={!dirty}
          aria-label={t('nodes.file.applyTo', { file: named })}
        >
          {t('nodes.file.apply')}
        </button>
      </div>
      {!gaps?.yearless && !gaps?.zoneless && <p className="file-fix__note muted">{t('nodes.file.complete')}</p>}
      {shared && <p className="file-fix__note muted">{t('nodes.file.shared')}</p>}
      {error && (
        <p className="nodes-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
