import { causedNotLate } from '../core/blame';
import type { Diagnosis } from '../core/findings';
import { nodeLabels, words, type Lang } from '../core/i18n';
import type { JobModel, JobNode } from '../core/model';
import { maxOf, minOf } from '../core/numbers';
import type { Omission } from './wire';

// The diagnosis as Markdown to paste into a GitHub issue: the verdict, the findings, the commands to copy (in
// code blocks), the nodes with their lag. Every string from the logs or a link is escaped, or sits in a code
// span or block, so it cannot turn into markup, links, images or @-mentions.

export interface MarkdownMeta {
  title?: string;
  /** skewscope version, for the footer. */
  app?: string;
  /** What a share link left out (said under the report). */
  omitted?: Omission[];
  /** A share link to this diagnosis, shown under the report. */
  link?: string | null;
}

/** Words core's i18n does not have (a heading for the node table, the late tag, the footer). */
const MD_WORDS: Record<Lang, Record<'nodes' | 'late' | 'more' | 'footer' | 'omitted' | 'open', string>> = {
  en: {
    nodes: 'Nodes',
    late: 'late',
    more: '… and {n} more nodes',
    footer: 'diagnosis only, no log attached.',
    omitted: 'The share link it came from left out: {x}.',
    open: 'Open this diagnosis in skewscope',
  },
  zh: {
    nodes: '节点',
    late: '迟到',
    more: '……另有 {n} 个节点',
    footer: '仅含诊断结果，未附日志。',
    omitted: '来源分享链接省略了：{x}。',
    open: '在 skewscope 中打开此诊断',
  },
};

/** Rows of the node table beyond which only the nodes that matter are listed. */
const MAX_NODE_ROWS = 40;
const MARK = { error: '✗', warning: '!', info: '·' } as const;

export function markdownReport(job: JobModel, dx: Diagnosis, lang: Lang = 'en', meta: MarkdownMeta = {}): string {
  const w = words(lang);
  const u = w.ui;
  const md = MD_WORDS[lang] ?? MD_WORDS.en;
  const sec = (s: number | null) => (s === null ? '–' : `${s.toFixed(Math.abs(s) < 10 ? 1 : 0)} ${u.seconds}`);
  const out: string[] = [];
  const f = job.failure;
  out.push(`## skewscope: ${w.verdict[job.verdict]}${f ? ` — ${esc(w.stage[f.stage])}` : ''}`, '');
  if (meta.title?.trim()) out.push(`**${esc(meta.title.trim())}**`, '');

  const j = job.job;
  const facts = [
    `${u.torch} ${code(j.torchVersion ?? u.unknown!)}`,
    `${u.backend} ${code(j.backend ?? u.unknown!)}`,
    `${u.nodes} ${j.nnodes ?? job.nodes.length}${j.nprocPerNode ? ` × ${j.nprocPerNode}` : ''}`,
    `${u.skew} ${sec(job.skewSeconds)}`,
    ...(j.rdzvConfigs ? [`${u.rdzvConfigs} ${code(JSON.stringify(j.rdzvConfigs))}`] : []),
  ];
  out.push(`**${u.job}:** ${facts.join(' · ')}`);
  if (f) {
    const names = (xs: string[], none: string) =>
      (xs.length ? xs.slice(0, 12).map(code).join(', ') : none) + more(xs, 12);
    out.push(
      '',
      [
        `**${u.stage}:** ${code(f.stage)}`,
        `**${u.reportedBy}:** ${names(f.reportedBy, u.none!)}`,
        `**${causedNotLate(f) ? u.causedBy : u.lateNodes}:** ${names(f.lateNodes, u.unknown!)}`,
        // Where the value comes from goes with it: an assumed default is never stated as what fired.
        ...(f.limit
          ? [
              `**${u.timeout}:** ${code(f.limit.id)} = ${f.limit.seconds} ${u.seconds} (${f.limit.from === 'logs' ? u.fromLogs : f.limit.from === 'inferred' ? u.fromInferred : u.fromDefault})`,
            ]
          : []),
      ].join(' · '),
    );
  }

  if (dx.findings.length) {
    out.push('', `### ${u.findings}`, '');
    for (const fd of dx.findings) {
      out.push(`- ${MARK[fd.severity]} **${esc(fd.title)}** ${code(fd.code)}  `, `  ${esc(fd.detail)}`);
      const ev = fd.evidence.filter((e) => e.text).slice(0, 2);
      if (ev.length)
        out.push(
          ...block(
            ev.map((e) => `${e.file}:${e.line}  ${e.text}`),
            '',
            '  ',
          ),
        );
    }
  }

  const seen = new Set<string>();
  const advice = dx.findings.flatMap((fd) => fd.advice).filter((a) => !seen.has(a.id) && seen.add(a.id));
  if (advice.length) {
    out.push('', `### ${u.whatToChange}`, '');
    advice.forEach((a, i) => {
      out.push(`${i + 1}. **${esc(a.title)}**  `, `   ${esc(a.reason)}`);
      if (a.command && a.goesIn !== 'shell')
        out.push('', `   ${esc(`${a.goesIn === 'script' ? u.goesInScript : u.goesInTorchrun}`)}:`);
      if (a.command) out.push('', ...block([a.command], a.goesIn === 'script' ? 'python' : 'sh', '   '));
      if (a.caveat) out.push('', `   > ${esc(a.caveat)}`);
      out.push('');
    });
  }
  if (dx.whatIf) {
    const wi = dx.whatIf;
    const t = String(wi.timeoutSeconds);
    out.push(
      '',
      esc(
        wi.allMadeIt
          ? u.whatIfOk!.replace('{t}', t).replace('{spare}', String(Math.round(wi.spareSeconds)))
          : wi.blockedBy
            ? u.whatIfBlocked!.replace('{t}', t).replace('{limit}', String(wi.blockedBy.seconds))
            : u.whatIfShort!.replace('{t}', t).replace('{short}', String(Math.round(-wi.spareSeconds))),
      ),
    );
  }

  if (job.nodes.length) {
    const late = new Set(f?.lateNodes ?? []);
    const rows = nodeRows(job, late);
    out.push('', `### ${md.nodes}`, '');
    out.push(
      `| ${u.node} | ${u.groupRank} | ${u.launch} (UTC) | ${u.lag} | ${u.failure} |`,
      '| --- | ---: | --- | ---: | --- |',
    );
    for (const n of rows) {
      const tags = [n.isStoreHost ? `★ ${u.storeHost}` : '', late.has(n.id) ? `**${md.late}**` : '']
        .filter(Boolean)
        .join(' · ');
      out.push(
        `| ${cell(code(n.id))}${tags ? ` ${tags}` : ''} | ${n.groupRank ?? '–'} | ${
          n.launchTime ? n.launchTime.slice(11, 23) : '–'
        } | ${sec(n.lagSeconds)} | ${n.failureStage ? code(n.failureStage) : ''} |`,
      );
    }
    const hidden = job.nodes.length - rows.length;
    if (hidden > 0) {
      const lags = job.nodes.filter((n) => !rows.includes(n) && n.lagSeconds !== null).map((n) => n.lagSeconds!);
      const range = lags.length ? ` (${u.lag} ${sec(minOf(lags))} – ${sec(maxOf(lags))})` : '';
      out.push('', md.more.replace('{n}', String(hidden)) + range);
    }
  }
  if (job.missingNodes.length)
    out.push(
      '',
      `**${u.missing}:** ${job.missingNodes
        .slice(0, 12)
        .map((x) => code(nodeLabels(lang, x)))
        .join(', ')}${more(job.missingNodes, 12)}`,
    );
  const limits = dx.thresholds.filter((t) => t.applies && t.id !== 'recommended');
  if (limits.length)
    out.push(
      '',
      `**${u.limits}:** ${limits.map((t) => `${code(t.id)} ${t.seconds} ${u.seconds} (${t.from})`).join(', ')}`,
    );

  // Only a link skewscope made goes into a Markdown link (the angle brackets keep it one token).
  if (meta.link && /^https?:\/\/[^\s<>]+$/.test(meta.link)) out.push('', `[${md.open}](<${meta.link}>)`);
  const omitted = meta.omitted?.length ? ` ${md.omitted.replace('{x}', meta.omitted.join(', '))}` : '';
  out.push('', `<sub>skewscope${meta.app ? ` ${esc(meta.app)}` : ''}: ${md.footer}${esc(omitted)}</sub>`, '');
  return out.join('\n');
}

/** All nodes up to the limit; past it, the ones that matter (store host, late, failed, most lag) in job order. */
function nodeRows(job: JobModel, late: Set<string>): JobNode[] {
  if (job.nodes.length <= MAX_NODE_ROWS) return job.nodes;
  const keep = new Set<JobNode>();
  const reporters = new Set(job.failure?.reportedBy ?? []);
  for (const n of job.nodes) if (n.isStoreHost || late.has(n.id)) keep.add(n);
  for (const n of job.nodes) if (keep.size < MAX_NODE_ROWS / 2 && (n.failureStage || reporters.has(n.id))) keep.add(n);
  const byLag = job.nodes.filter((n) => n.lagSeconds !== null).sort((a, b) => b.lagSeconds! - a.lagSeconds!);
  for (const n of byLag) if (keep.size < MAX_NODE_ROWS) keep.add(n);
  return job.nodes.filter((n) => keep.has(n));
}

const more = (xs: string[], shown: number) => (xs.length > shown ? ` +${xs.length - shown}` : '');

/** Prose from the logs or a link: no emphasis, links, HTML, mentions or issue references. */
export function esc(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]<>|~&!#]/g, (c) => `\\${c}`)
    .replace(/@(?=[A-Za-z0-9])/g, '@\u200b')
    .replace(/#(?=\d)/g, '#\u200b');
}

/** An inline code span that survives backticks inside it. */
export function code(s: string): string {
  const text = s.replace(/[\r\n]+/g, ' ');
  const longest = longestRun(text);
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A table cell: pipes end cells even inside code spans unless escaped. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** A fenced code block longer than any backtick run inside it. */
function block(lines: string[], lang: string, indent: string): string[] {
  const clean = lines.map((l) => l.replace(/[\r\n]+/g, ' '));
  const longest = maxOf([0, ...clean.map(longestRun)]);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${indent}${fence}${lang}`, ...clean.map((l) => indent + l), `${indent}${fence}`];
}

/** The longest run of backticks in a text (a loop: a long line may hold more runs than a call takes arguments). */
function longestRun(text: string): number {
  let best = 0;
  for (const m of text.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}
