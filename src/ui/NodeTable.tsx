// The node table: one row per node with its files, launch, lag, clock and own failure; a row opens to its
// details and corrections (NodeDetail.tsx). Rows are windowed, so a 4,096-node job renders a screenful of them,
// and the filter and the column sorts work on values prepared once per job (nodeRows.ts).
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ClockOffset, Overrides } from '../core/model';
import type { JobView, NodeView, TimeGaps } from '../ingest/index';
import { useAppStore } from '../state/index';
import { formatNumber, formatSeconds } from '../i18n/index';
import { formatInstant } from './format';
import { useT } from './i18n';
import { ScrollBox } from './ScrollBox';
import { NEW_NODE, NodeDetail, logNameOf, offsetValue, type FileChange } from './NodeDetail';
import { nodeRows, prepareNodes, type NodeSort, type NodeSortKey } from './nodeRows';
import { useVirtualList } from './useVirtualList';
import { fitName } from './timeline/fitName';
import './views.css';
import './nodes.css';

interface Props {
  job: JobView;
  /** Ids of the late nodes (marked in their rows). */
  late: ReadonlySet<string>;
  gaps: Readonly<Record<string, TimeGaps>>;
}

const SHOWN_FILES = 3;
const COLUMNS = 8;
/** Height of a row in px: `.node-row` in nodes.css holds every row to it. */
const ROW_H = 56;
/** A detail's height until it is measured. */
const DETAIL_GUESS = 360;

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

/** The node's files on one line: the first few, then how many more (all of them in the tooltip). */
function FileList({ files }: { files: string[] }) {
  const t = useT();
  const shown = files.slice(0, SHOWN_FILES).join(t('list.sep'));
  return (
    <span className="node-files mono ellipsis" title={files.join('\n')}>
      {shown}
      {files.length > SHOWN_FILES && (
        <span className="muted"> {t('nodes.moreFiles', { n: files.length - SHOWN_FILES })}</span>
      )}
    </span>
  );
}

function LagCell({ node, maxLag }: { node: NodeView; maxLag: number }) {
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

/** A name shortened in the middle to fit its column; the whole name (cut by the box) where text cannot be measured. */
function shortName(name: string, fit: { px: number; font: string } | null): string {
  if (!fit) return name;
  try {
    return fitName(name, fit.px - 1, fit.font);
  } catch {
    return name;
  }
}

const SORTABLE: {
  key: NodeSortKey;
  label: 'nodes.col.node' | 'nodes.col.groupRank' | 'nodes.col.launch' | 'nodes.col.lag' | 'nodes.col.failure';
}[] = [
  { key: 'node', label: 'nodes.col.node' },
  { key: 'rank', label: 'nodes.col.groupRank' },
  { key: 'launch', label: 'nodes.col.launch' },
  { key: 'lag', label: 'nodes.col.lag' },
  { key: 'failure', label: 'nodes.col.failure' },
];

function SortHeader({
  column,
  sort,
  onSort,
  className,
}: {
  column: (typeof SORTABLE)[number];
  sort: NodeSort | null;
  onSort(key: NodeSortKey): void;
  className?: string;
}) {
  const t = useT();
  const active = sort?.key === column.key;
  return (
    <th
      scope="col"
      className={className}
      aria-sort={active ? (sort!.desc ? 'descending' : 'ascending') : 'none'}
      data-sort={column.key}
    >
      <button type="button" className="nodes-sort" onClick={() => onSort(column.key)}>
        {t(column.label)}
        <span className="nodes-sort__arrow" aria-hidden="true">
          {active ? (sort!.desc ? '▼' : '▲') : ''}
        </span>
      </button>
    </th>
  );
}

/** An opened node's details, spanning the row; reports its height as laid out (the rows below move by it). */
function DetailRow({
  id,
  node,
  onHeight,
  children,
}: {
  id: string;
  node: string;
  onHeight(node: string, height: number): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLTableRowElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const report = () => onHeight(node, Math.round(el.getBoundingClientRect().height));
    report();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(report);
    ro?.observe(el);
    return () => ro?.disconnect();
  }, [node, onHeight]);
  return (
    <tr ref={ref} className="node-detail" id={id} data-node-detail={node}>
      <td colSpan={COLUMNS}>
        <div className="node-detail__box">{children}</div>
      </td>
    </tr>
  );
}

export const NodeTable = memo(function NodeTable({ job, late, gaps }: Props) {
  const t = useT();
  const overrides = useAppStore((s) => s.overrides);
  const setOverrides = useAppStore((s) => s.setOverrides);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<NodeSort | null>(null);
  const [detailHeights, setDetailHeights] = useState<ReadonlyMap<string, number>>(() => new Map());
  const baseId = useId();
  const viewport = useRef<HTMLDivElement>(null);
  const deferredQuery = useDeferredValue(query);

  const prepared = useMemo(() => prepareNodes(job.nodes, late), [job.nodes, late]);
  const rows = useMemo(() => nodeRows(prepared, deferredQuery, sort), [prepared, deferredQuery, sort]);
  const maxLag = useMemo(() => job.nodes.reduce((m, n) => Math.max(m, n.lagSeconds ?? 0), 0), [job.nodes]);
  const offsets = useMemo(() => new Map(job.clockOffsets.map((o) => [o.node, o])), [job.clockOffsets]);
  // How many nodes each file feeds: a file holding several nodes (Slurm, pdsh) cannot move as a whole.
  const nodesPerFile = useMemo(() => {
    const out = new Map<string, number>();
    for (const n of job.nodes) for (const f of n.files) out.set(f, (out.get(f) ?? 0) + 1);
    return out;
  }, [job.nodes]);
  const corrections = correctionCount(overrides);

  const extras = useMemo(() => {
    if (open.size === 0) return [];
    const out: { index: number; height: number }[] = [];
    rows.forEach((r, index) => {
      if (open.has(r.node.id)) out.push({ index, height: detailHeights.get(r.node.id) ?? DETAIL_GUESS });
    });
    return out;
  }, [rows, open, detailHeights]);
  const win = useVirtualList(rows.length, ROW_H, viewport, extras);

  // The room a name has in its column and its font, as laid out: a longer name is shortened in the middle, so
  // `trainjob-worker-12` and `-13` stay apart (cutting the end would make both `trainjob-wor…`).
  const [nameFit, setNameFit] = useState<{ px: number; font: string } | null>(null);
  const hasNodes = job.nodes.length > 0;
  useLayoutEffect(() => {
    const table = viewport.current?.querySelector('table');
    if (!table) return;
    const read = () => {
      const el = table.querySelector<HTMLElement>('.node-row .node-id');
      if (!el) return;
      const s = getComputedStyle(el);
      const next = { px: el.clientWidth, font: `${s.fontWeight} ${s.fontSize} ${s.fontFamily}` };
      setNameFit((prev) => (prev && prev.px === next.px && prev.font === next.font ? prev : next));
    };
    read();
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(read);
    ro?.observe(table);
    return () => ro?.disconnect();
  }, [hasNodes]);

  // A new order or filter starts from the top.
  useEffect(() => {
    viewport.current?.scrollTo({ top: 0 });
  }, [deferredQuery, sort]);

  // Each open detail's height, as laid out: the rows below it sit that much lower.
  const onDetailHeight = useCallback(
    (id: string, h: number) => setDetailHeights((prev) => (prev.get(id) === h ? prev : new Map(prev).set(id, h))),
    [],
  );

  const onSort = (key: NodeSortKey) =>
    setSort((s) =>
      s?.key === key ? (s.desc === (key === 'lag') ? { key, desc: !s.desc } : null) : { key, desc: key === 'lag' },
    );

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

  const rename = (node: NodeView, name: string) => {
    const logName = logNameOf(node.id, overrides);
    const nodeName = { ...overrides.nodeName };
    for (const [k, v] of Object.entries(nodeName)) if (v === node.id) delete nodeName[k];
    if (name !== logName) nodeName[logName] = name;
    reopen(node.id, name);
    setOverrides(tidy({ ...overrides, nodeName }));
  };

  const applyFile = (file: string, node: NodeView, change: FileChange) => {
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

  const shown = rows.slice(win.first, win.last + 1);
  const filtering = deferredQuery.trim() !== '';

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
        <>
          <div className="nodes-tools">
            <input
              type="search"
              className="nodes-input nodes-filter"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('nodes.filter.placeholder')}
              aria-label={t('nodes.filter.label')}
              autoComplete="off"
              spellCheck={false}
              data-testid="node-filter"
            />
            <span className="muted nodes-count" role="status" data-testid="node-count">
              {filtering
                ? t('nodes.filter.count', {
                    shown: formatNumber(t.lang, rows.length, 0),
                    total: formatNumber(t.lang, job.nodes.length, 0),
                  })
                : t('nodes.count', { n: formatNumber(t.lang, job.nodes.length, 0) })}
            </span>
          </div>
          <ScrollBox className="table-scroll node-table-scroll" boxRef={viewport}>
            <table className="node-table" data-testid="node-table" aria-rowcount={rows.length + 1}>
              <colgroup>
                <col className="node-col--node" />
                <col className="node-col--host" />
                <col className="node-col--rank" />
                <col className="node-col--files" />
                <col className="node-col--launch" />
                <col className="node-col--lag" />
                <col className="node-col--clock" />
                <col className="node-col--failure" />
              </colgroup>
              <thead>
                <tr>
                  <SortHeader column={SORTABLE[0]!} sort={sort} onSort={onSort} />
                  <th scope="col">{t('nodes.col.hostname')}</th>
                  <SortHeader column={SORTABLE[1]!} sort={sort} onSort={onSort} className="num" />
                  <th scope="col">{t('nodes.col.files')}</th>
                  <SortHeader column={SORTABLE[2]!} sort={sort} onSort={onSort} />
                  <SortHeader column={SORTABLE[3]!} sort={sort} onSort={onSort} />
                  <th scope="col">{t('nodes.col.clock')}</th>
                  <SortHeader column={SORTABLE[4]!} sort={sort} onSort={onSort} />
                </tr>
              </thead>
              <tbody>
                {win.before > 0 && <tr className="node-spacer" style={{ height: win.before }} aria-hidden="true" />}
                {shown.map(({ node }, k) => {
                  const index = win.first + k;
                  const expanded = open.has(node.id);
                  const detailId = `${baseId}-node-${index}`;
                  const renamed = logNameOf(node.id, overrides) !== node.id;
                  const isLate = late.has(node.id);
                  return [
                    <tr
                      key={node.id}
                      className={['node-row', isLate && 'is-late', expanded && 'is-open'].filter(Boolean).join(' ')}
                      data-node={node.id}
                      aria-rowindex={index + 2}
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
                          <span className="node-id ellipsis" title={node.id} data-full={node.id} translate="no">
                            {shortName(node.id, nameFit)}
                          </span>
                          {(isLate || node.isStoreHost || renamed) && (
                            <span className="nodes-tags">
                              {isLate && (
                                <span className="tag tag--danger" title={t('nodes.tag.late')}>
                                  {t('nodes.tag.late')}
                                </span>
                              )}
                              {node.isStoreHost && (
                                <span className="tag" title={t('nodes.tag.host')}>
                                  {t('nodes.tag.host')}
                                </span>
                              )}
                              {renamed && (
                                <span className="tag nodes-tag nodes-tag--edited" title={t('nodes.tag.renamed')}>
                                  {t('nodes.tag.renamed')}
                                </span>
                              )}
                            </span>
                          )}
                        </span>
                      </th>
                      <td className="ellipsis" title={node.hostname ?? undefined}>
                        {node.hostname ?? <span className="muted">—</span>}
                      </td>
                      <td className="num">{node.groupRank ?? <span className="muted">—</span>}</td>
                      <td>
                        <FileList files={node.files} />
                      </td>
                      <td className="mono nowrap" title={node.launchTime ? formatInstant(node.launchTime) : undefined}>
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
                      <td title={node.failureStage ? t(`stage.short.${node.failureStage}`) : undefined}>
                        {node.failureStage ? (
                          <span className="node-failure">{t(`stage.short.${node.failureStage}`)}</span>
                        ) : (
                          <span className="muted">{t('nodes.none')}</span>
                        )}
                      </td>
                    </tr>,
                    expanded && (
                      <DetailRow key={`${node.id}:detail`} id={detailId} node={node.id} onHeight={onDetailHeight}>
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
                      </DetailRow>
                    ),
                  ];
                })}
                {win.after > 0 && <tr className="node-spacer" style={{ height: win.after }} aria-hidden="true" />}
              </tbody>
            </table>
            {rows.length === 0 && <p className="muted nodes-none">{t('nodes.filter.none')}</p>}
          </ScrollBox>
        </>
      )}
    </section>
  );
});
