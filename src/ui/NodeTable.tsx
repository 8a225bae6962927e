import { Fragment, useId, useMemo, useState, type FormEvent } from 'react';
import type { ClockOffset, FileExtract, IdentityHint, JobModel, JobNode, Overrides } from '../core/model';
import { useAppStore, useViewStore } from '../state/index';
import { formatInstant, formatSeconds } from './format';
import { STAGE_SHORT } from './words';
import './nodes.css';

interface Props {
  job: JobModel;
}

const SHOWN_FILES = 3;
const COLUMNS = 8;
const NEW_NODE = '\u0000new';

const KIND_LABEL: Record<IdentityHint['kind'], string> = {
  hostname: 'Hostname',
  'node-rank': 'Node rank',
  'group-rank': 'Group rank',
  name: 'Name',
  label: 'Label',
  logdir: 'Log folder',
  'store-host': 'Store host',
};

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
  const shown = files.slice(0, SHOWN_FILES);
  return (
    <ul className="node-files">
      {shown.map((f) => (
        <li key={f} className="mono ellipsis" title={f}>
          {f}
        </li>
      ))}
      {files.length > SHOWN_FILES && <li className="muted">+{files.length - SHOWN_FILES} more</li>}
    </ul>
  );
}

function LagCell({ node, maxLag }: { node: JobNode; maxLag: number }) {
  if (node.lagSeconds === null) return <span className="muted">—</span>;
  const width = maxLag > 0 ? Math.max(2, (node.lagSeconds / maxLag) * 100) : 0;
  return (
    <div className="lag">
      <span className="lag__value">{node.lagSeconds === 0 ? '0 s' : `+${formatSeconds(node.lagSeconds)}`}</span>
      <span className="lag__track" aria-hidden="true">
        <span className="lag__bar" style={{ width: `${width}%` }} />
      </span>
    </div>
  );
}

function offsetValue(o: ClockOffset): string {
  const sign = o.offsetSeconds < 0 ? '−' : '+';
  const abs = Math.abs(o.offsetSeconds);
  if (o.kind === 'time-zone') return `${sign}${+(abs / 3600).toFixed(2)} h`;
  return `${sign}${formatSeconds(abs)}`;
}

function ClockCell({ offset }: { offset: ClockOffset | undefined }) {
  if (!offset)
    return (
      <span className="muted" title="No offset found: the clocks agree, or the logs give no instant to compare them at">
        —
      </span>
    );
  return (
    <span className="clock-cell">
      <span className="nowrap">
        {offsetValue(offset)} <span className="muted">± {formatSeconds(offset.boundSeconds)}</span>
      </span>
      <span className={`tag nodes-tag ${offset.kind === 'time-zone' ? 'nodes-tag--zone' : 'nodes-tag--clock'}`}>
        {offset.kind === 'time-zone' ? 'time zone' : 'clock'}
        {offset.applied ? ', corrected' : ''}
      </span>
    </span>
  );
}

export function NodeTable({ job }: Props) {
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
        <h2 id="nodes-title">Nodes</h2>
        <p className="nodes-head__hint muted">
          Open a node to see why its files belong to it, and to correct its name, its files, or their time zone.
        </p>
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            setOverrides({});
          }}
          disabled={corrections === 0}
          data-testid="reset-corrections"
        >
          Reset corrections{corrections > 0 ? ` (${corrections})` : ''}
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
          Correct the clock offsets measured at the rendezvous (every agent leaves it at the same instant), so lags and
          skew count launch times, not clock errors
        </label>
      )}
      {job.nodes.length === 0 ? (
        <p className="muted">No node could be identified in these files.</p>
      ) : (
        <div className="table-scroll">
          <table className="node-table" data-testid="node-table">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Hostname</th>
                <th scope="col">Group rank</th>
                <th scope="col">Files</th>
                <th scope="col">Launch time</th>
                <th scope="col">Lag</th>
                <th scope="col">Clock offset</th>
                <th scope="col">Own failure</th>
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
                            aria-label={`Details and corrections for ${node.id}`}
                            onClick={() => toggle(node.id)}
                          >
                            <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                              <path d="M6 3.5 10.5 8 6 12.5" />
                            </svg>
                          </button>
                          <span className="node-id">{node.id}</span>
                          {late.has(node.id) && <span className="tag tag--danger">late</span>}
                          {node.isStoreHost && <span className="tag">store host</span>}
                          {renamed && <span className="tag nodes-tag nodes-tag--edited">renamed</span>}
                        </span>
                      </th>
                      <td>{node.hostname ?? <span className="muted">—</span>}</td>
                      <td className="num">{node.groupRank ?? <span className="muted">—</span>}</td>
                      <td>
                        <FileList files={node.files} />
                      </td>
                      <td className="mono nowrap">
                        {node.launchTime ? formatInstant(node.launchTime) : <span className="muted">unknown</span>}
                      </td>
                      <td data-testid="lag">
                        <LagCell node={node} maxLag={maxLag} />
                      </td>
                      <td data-testid="clock">
                        <ClockCell offset={offsets.get(node.id)} />
                      </td>
                      <td>
                        {node.failureStage ? STAGE_SHORT[node.failureStage] : <span className="muted">none</span>}
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
        <h3 className="node-detail__title">Why these files are {node.id}</h3>
        {node.identity.length === 0 ? (
          <p className="muted node-detail__empty">Nothing in the files names this node.</p>
        ) : (
          <ul className="node-ident" data-testid="identity">
            {node.identity.map((h, i) => (
              <li key={`${h.kind}:${h.value}:${i}`}>
                <span className="node-ident__kind">{KIND_LABEL[h.kind]}</span>
                <code className="node-ident__value">{h.value}</code>
                <span className={`node-conf node-conf--${h.confidence}`}>{h.confidence}</span>
                <span className="node-ident__evidence">{h.evidence}</span>
              </li>
            ))}
          </ul>
        )}
        <h3 className="node-detail__title">Clock</h3>
        {offset ? (
          <div className="node-clock">
            <p>
              {offset.kind === 'time-zone' ? (
                <>
                  Its clock reads <strong>{offsetValue(offset)}</strong> from the others (±{' '}
                  {formatSeconds(offset.boundSeconds)}): a whole number of hours, so a time-zone difference
                  {offset.applied ? ', corrected before the lags were computed.' : '.'}
                </>
              ) : (
                <>
                  Its clock reads <strong>{offsetValue(offset)}</strong> ± {formatSeconds(offset.boundSeconds)} from the
                  job’s median, measured where all agents left the rendezvous together
                  {offset.applied
                    ? '; corrected.'
                    : '. Not corrected: its lag includes this offset (the CLI corrects it with --correct-clocks).'}
                </>
              )}
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
          <p className="muted node-detail__empty">
            No offset found: its clock agrees with the others within the timestamps’ resolution, or the logs have no
            common instant (a completed rendezvous) to compare them at.
          </p>
        )}
      </div>
      <div className="node-detail__col">
        <h3 className="node-detail__title">Files</h3>
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
  const id = useId();
  const [name, setName] = useState(node.id);
  const [error, setError] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (next === '') return setError('Type a name.');
    if (next === node.id) return setError('');
    if (others.includes(next)) return setError(`Another node is already called ${next}.`);
    setError('');
    onRename(next);
  };
  return (
    <form className="node-rename" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-name`} className="node-detail__label">
        Name
      </label>
      <div className="node-rename__row">
        <input
          id={`${id}-name`}
          className="nodes-input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-label={`Name of ${node.id}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="button button--small" disabled={name.trim() === node.id}>
          Rename
        </button>
        {logName !== node.id && (
          <button type="button" className="button button--small button--link" onClick={() => onRename(logName)}>
            Back to {logName}
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
      if (name === '') return setError('Name the new node.');
      // Naming an existing node moves the file there.
      target = nodes.some((n) => n.id === name) ? name : NEW_NODE;
      if (target === node.id) target = null;
    }
    const y = year.trim() === '' ? null : Number(year);
    if (y !== null && (!Number.isInteger(y) || y < 1970 || y > 2100)) return setError('The year must be 1970 … 2100.');
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
          <span className="tag nodes-tag nodes-tag--edited">placed by hand</span>
        )}
      </div>
      <div className="file-fix__fields">
        <label className="file-fix__field">
          <span className="node-detail__label">Node</span>
          <select
            className="nodes-input"
            value={dest}
            onChange={(e) => setDest(e.target.value)}
            disabled={shared}
            aria-label={`Node of ${named}`}
            title={shared ? 'This file holds several nodes; it cannot be moved as a whole.' : undefined}
          >
            {nodes.map((n) => (
              <option key={n.id} value={n.id} disabled={!canJoin(n)}>
                {n.id}
                {n.id === node.id ? ' (current)' : ''}
              </option>
            ))}
            <option value={NEW_NODE}>New node…</option>
          </select>
        </label>
        {dest === NEW_NODE && (
          <label className="file-fix__field">
            <span className="node-detail__label">New node’s name</span>
            <input
              className="nodes-input"
              value={newName}
              onChange={(e) => setNewName(e.target.value)}
              aria-label={`New node name for ${named}`}
              placeholder={base.replace(/\.[^.]*$/, '')}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
        )}
        {gaps?.yearless && (
          <label className="file-fix__field">
            <span className="node-detail__label">Year</span>
            <input
              className="nodes-input nodes-input--year"
              type="number"
              inputMode="numeric"
              min={1970}
              max={2100}
              value={year}
              onChange={(e) => setYear(e.target.value)}
              placeholder={guessedYear ? `${guessedYear}?` : 'auto'}
              aria-label={`Year of ${named}’s timestamps`}
              aria-describedby={`${id}-year-hint`}
            />
            <span id={`${id}-year-hint`} className="visually-hidden">
              Its timestamps carry no year{guessedYear ? `; ${guessedYear} was assumed` : ''}.
            </span>
          </label>
        )}
        {gaps?.zoneless && (
          <label className="file-fix__field">
            <span className="node-detail__label">UTC offset</span>
            <select
              className="nodes-input"
              value={offset}
              onChange={(e) => setOffset(e.target.value)}
              aria-label={`UTC offset of ${named}’s times`}
            >
              <option value="">not set</option>
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
          aria-label={`Apply changes to ${named}`}
        >
          Apply
        </button>
      </div>
      {!gaps?.yearless && !gaps?.zoneless && (
        <p className="file-fix__note muted">Its timestamps carry a year and a zone (or it has none).</p>
      )}
      {shared && <p className="file-fix__note muted">This file holds several nodes, so it stays where it is.</p>}
      {error && (
        <p className="nodes-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
