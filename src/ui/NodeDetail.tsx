// A node's details under its row in the node table: its attempts when it restarted, why its files are this
// node (the identity evidence), its clock against the others, and the corrections the user can make (rename
// it, move a file, set a file's year or zone).
import { useId, useState, type FormEvent } from 'react';
import type { ClockOffset, Overrides } from '../core/model';
import type { JobView, NodeView, TimeGaps } from '../ingest/index';
import { useViewStore } from '../state/index';
import { formatHours, formatSeconds } from '../i18n/index';
import { CoreText, Rich, useT, type T } from './i18n';
import { NodeAttempts } from './NodeAttempts';

export const NEW_NODE = '\u0000new';

/** UTC offsets in 15-minute steps, as time zones use them (UTC−12:00 … UTC+14:00). */
const OFFSETS: number[] = Array.from({ length: (14 * 60 + 12 * 60) / 15 + 1 }, (_, i) => -12 * 60 + i * 15);

function offsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export /** The name the logs gave a node (before the user's rename). */
function logNameOf(id: string, overrides: Overrides): string {
  for (const [auto, name] of Object.entries(overrides.nodeName ?? {})) if (name === id) return auto;
  return id;
}

export function offsetValue(t: T, o: ClockOffset): string {
  const sign = o.offsetSeconds < 0 ? '−' : '+';
  const abs = Math.abs(o.offsetSeconds);
  if (o.kind === 'time-zone') return formatHours(t.lang, o.offsetSeconds / 3600);
  return `${sign}${formatSeconds(t.lang, abs)}`;
}

export interface FileChange {
  dest: string | null;
  newName: string;
  year: number | null;
  offset: number | null;
}

export function NodeDetail({
  node,
  job,
  overrides,
  offset,
  gaps,
  nodesPerFile,
  onRename,
  onApplyFile,
}: {
  node: NodeView;
  job: JobView;
  overrides: Overrides;
  offset: ClockOffset | undefined;
  gaps: Readonly<Record<string, TimeGaps>>;
  nodesPerFile: Map<string, number>;
  onRename(name: string): void;
  onApplyFile(file: string, change: FileChange): void;
}) {
  const t = useT();
  const openEvidence = useViewStore((s) => s.openEvidence);
  const logName = logNameOf(node.id, overrides);
  return (
    <>
      <NodeAttempts node={node} />
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
                    <CoreText sentence={h.sentence} />
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
                  gaps={gaps[f]}
                  shared={(nodesPerFile.get(f) ?? 0) > 1}
                  nodesPerFile={nodesPerFile}
                  onApply={(change) => onApplyFile(f, change)}
                />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}

function RenameForm({
  node,
  others,
  logName,
  onRename,
}: {
  node: NodeView;
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
  node: NodeView;
  nodes: NodeView[];
  overrides: Overrides;
  gaps: TimeGaps | undefined;
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
  const canJoin = (n: NodeView) => n.id === node.id || n.files.every((f) => (nodesPerFile.get(f) ?? 0) <= 1);

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
