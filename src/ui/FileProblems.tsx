import { useState } from 'react';
import type { ProblemCode, ProblemGroup } from '../ingest/index';
import { folderOf } from '../ingest/index';
import type { FileRow } from '../state/index';
import { formatNumber, type Sentence } from '../i18n/index';
import { CoreText, useT } from './i18n';
import { VirtualList } from './VirtualList';

// Files set aside, folded by reason and folder: one row for a lone file (its path, its reason), one entry for
// many ("20,000 files with no torchrun lines in archive/…: f000000.log, f000001.log, … show all"), its files in a
// windowed list when opened.

interface Props {
  problems: readonly ProblemGroup[];
  /** Files left unread because the run was cancelled. */
  unread: FileRow[];
  /** On the error-first screen the list is the page's subject, not a side note. */
  lead?: boolean;
}

export type { ProblemCode };

/** File names named in a folded entry before "show all". */
const NAMED = 3;
const ROW_H = 26;

/** A file's reason: the core's sentence, or (for a cancelled run) our own words, already in the language. */
type Reason = Sentence | string;
type Group = Omit<ProblemGroup, 'code' | 'messages' | 'common'> & {
  code: ProblemCode | 'cancelled';
  messages: Reason[];
  common: Reason | null;
};

/** The cancelled files folded like the others, by folder. */
function cancelledGroups(t: ReturnType<typeof useT>, unread: FileRow[]): Group[] {
  const byFolder = new Map<string, string[]>();
  for (const row of unread) {
    const folder = folderOf(row.path);
    const files = byFolder.get(folder);
    if (files) files.push(row.path);
    else byFolder.set(folder, [row.path]);
  }
  const message = t('problem.cancelledMessage');
  return [...byFolder].map(([folder, files]) => ({
    code: 'cancelled',
    folder,
    files,
    messages: files.map(() => message),
    common: message,
  }));
}

export function FileProblems({ problems, unread, lead = false }: Props) {
  const t = useT();
  if (problems.length === 0 && unread.length === 0) return null;
  const groups: Group[] = [...problems, ...cancelledGroups(t, unread)];
  const list = (
    <ul className="problems" data-testid="file-problems">
      {groups.map((g) =>
        g.files.length === 1 ? (
          <OneFile key={`${g.code}:${g.files[0]}`} code={g.code} file={g.files[0]!} message={g.messages[0]!} />
        ) : (
          <Folded key={`${g.code}:${g.folder}`} group={g} />
        ),
      )}
    </ul>
  );
  if (lead) return list;
  return (
    <section className="card" aria-labelledby="problems-title">
      <h2 id="problems-title">{t('problems.title')}</h2>
      {list}
    </section>
  );
}

function Tag({ code }: { code: Group['code'] }) {
  const t = useT();
  return <span className={code === 'cancelled' ? 'tag' : 'tag tag--warn'}>{t(`problem.${code}`)}</span>;
}

/** The core's sentence for a file, or one of ours. */
function Message({ text }: { text: Reason }) {
  return typeof text === 'string' ? <>{text}</> : <CoreText sentence={text} />;
}

function OneFile({ code, file, message }: { code: Group['code']; file: string; message: Reason }) {
  return (
    <li data-problem={code}>
      <Tag code={code} />
      <span className="mono ellipsis problems__file" title={file}>
        {file}
      </span>
      <span className="problems__message">
        <Message text={message} />
      </span>
    </li>
  );
}

function Folded({ group }: { group: Group }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const { code, folder, files } = group;
  const n = formatNumber(t.lang, files.length, 0);
  const where = folder ? t('problems.in', { folder }) : t('problems.inTop');
  const names = files.slice(0, NAMED).map((f) => f.slice(folder.length));
  return (
    <li data-problem={code} data-count={files.length} className="problems__group">
      <Tag code={code} />
      <span className="problems__summary">
        {t(`problems.group.${code}`, { n, where })}:{' '}
        <span className="mono" title={files.slice(0, 50).join('\n')}>
          {names.join(t('list.sep'))}
          {files.length > NAMED ? '…' : ''}
        </span>{' '}
        <button
          type="button"
          className="button button--link problems__toggle"
          aria-expanded={open}
          onClick={() => setOpen((v) => !v)}
          data-testid="problems-show-all"
        >
          {open ? t('problems.hide') : t('problems.showAll', { n })}
        </button>
      </span>
      {group.common && (
        <span className="problems__message">
          <Message text={group.common} />
        </span>
      )}
      {open && (
        <VirtualList
          items={files}
          rowHeight={ROW_H}
          maxHeight={ROW_H * 12}
          label={t('problems.list')}
          className="problems__files"
          testId="problems-files"
          keyOf={(f) => f}
          render={(f, i) => (
            <span className="problems__file-row" data-file={f}>
              <span className="mono ellipsis" title={f}>
                {f}
              </span>
              {!group.common && (
                <span className="problems__file-message muted ellipsis">
                  <Message text={group.messages[i]!} />
                </span>
              )}
            </span>
          )}
        />
      )}
    </li>
  );
}
