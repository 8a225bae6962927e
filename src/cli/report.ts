import { causedNotLate, missingIsCulprit } from '../core/blame';
import { noteText } from '../core/notesText';
import type { Diagnosis } from '../core/findings';
import { missingLabel, words, type Lang } from '../core/i18n';
import type { JobModel } from '../core/model';
import { maxOf } from '../core/numbers';
import { sentenceText } from '../i18n/sentence';

// The human summary: a short verdict line first, then the findings by severity with their evidence, then the
// commands to copy, then the nodes.

const fmtSec = (s: number | null, unit: string) => (s === null ? '–' : `${s.toFixed(s < 10 ? 1 : 0)} ${unit}`);
const MARK = { error: '✗', warning: '!', info: '·' } as const;

const PUNCT: Record<Lang, { colon: string; semi: string; comma: string; list: string; open: string; close: string }> = {
  en: { colon: ': ', semi: '; ', comma: ', ', list: ', ', open: ' (', close: ')' },
  zh: { colon: '：', semi: '；', comma: '，', list: '、', open: '（', close: '）' },
};

export function renderReport(job: JobModel, dx: Diagnosis, lang: Lang): string {
  const w = words(lang);
  const u = w.ui;
  const lines: string[] = [];
  const f = job.failure;
  const head = [`skewscope: ${w.verdict[job.verdict]}`];
  if (f) head.push(`— ${w.stage[f.stage]}`);
  lines.push(head.join(' '));
  const j = job.job;
  // Chinese prose takes full-width punctuation and 、 between names; identifiers and values stay as they are.
  const p = PUNCT[lang];
  const list = (xs: string[]) => xs.join(p.list);
  lines.push(
    `${u.job}${p.colon}${u.torch} ${j.torchVersion ?? u.unknown}${p.comma}${u.backend} ${j.backend ?? u.unknown}${p.comma}${u.nodes} ${
      j.nnodes ?? job.nodes.length
    }${j.nprocPerNode ? ` × ${j.nprocPerNode}` : ''}${p.comma}${u.skew} ${skewText(job, u)}${
      j.rdzvConfigs ? `${p.comma}${u.rdzvConfigs} ${JSON.stringify(j.rdzvConfigs)}` : ''
    }`,
  );
  if (f) {
    lines.push(
      `${u.stage}${p.colon}${f.stage}${p.semi}${u.reportedBy}${p.colon}${list(f.reportedBy) || u.none}${p.semi}${causedNotLate(f) ? u.causedBy : u.lateNodes}${p.colon}${
        list(f.lateNodes) || u.unknown
      }${f.limit ? `${p.semi}${u.timeout}${p.colon}${f.limit.id} = ${f.limit.seconds} ${u.seconds}${p.open}${limitSource(f.limit.from, u)}${p.close}` : ''}`,
    );
    if (missingIsCulprit(f))
      lines.push(`${u.missingLikely}${p.colon}${list(job.missingNodes.map((m) => missingLabel(lang, m)))}`);
  }

  if (dx.findings.length) {
    lines.push('', `${u.findings}:`);
    for (const fd of dx.findings) {
      lines.push(`${MARK[fd.severity]} [${fd.code}] ${fd.title}`);
      lines.push(indent(fd.detail, '    '));
      for (const e of fd.evidence.slice(0, 4)) lines.push(`    ${e.file}:${e.line}  ${e.text.trim().slice(0, 150)}`);
    }
  }
  const advice = dx.findings.flatMap((fd) => fd.advice);
  const seen = new Set<string>();
  const unique = advice.filter((a) => !seen.has(a.id) && seen.add(a.id));
  if (unique.length) {
    lines.push('', `${u.whatToChange}:`);
    unique.forEach((a, i) => {
      lines.push(`${i + 1}. ${a.title}`);
      lines.push(indent(a.reason, '   '));
      if (a.command && a.goesIn === 'shell') lines.push(`     $ ${a.command}`);
      else if (a.command) {
        lines.push(`     ${a.goesIn === 'script' ? u.goesInScript : u.goesInTorchrun}:`);
        lines.push(`       ${a.command}`);
      }
      if (a.caveat) lines.push(indent(`(${a.caveat})`, '   '));
    });
  }
  if (dx.whatIf) {
    const wi = dx.whatIf;
    lines.push(
      '',
      wi.allMadeIt
        ? u.whatIfOk!.replace('{t}', String(wi.timeoutSeconds)).replace('{spare}', String(Math.round(wi.spareSeconds)))
        : wi.blockedBy
          ? u.whatIfBlocked!.replace('{t}', String(wi.timeoutSeconds)).replace('{limit}', String(wi.blockedBy.seconds))
          : u
              .whatIfShort!.replace('{t}', String(wi.timeoutSeconds))
              .replace('{short}', String(Math.round(-wi.spareSeconds))),
    );
  }

  if (job.nodes.length) {
    lines.push('');
    const rows = job.nodes.map((n) => [
      n.id + (n.isStoreHost ? ' *' : ''),
      n.groupRank === null ? '–' : String(n.groupRank),
      n.launchTime ? n.launchTime.replace('T', ' ').replace('Z', '') : '–',
      fmtSec(n.lagSeconds, u.seconds!),
      n.failureStage ?? '',
    ]);
    const header = [u.node!, u.groupRank!, u.launch!, u.lag!, u.failure!];
    const widths = header.map((h, i) => maxOf([h.length, ...rows.map((r) => r[i]!.length)]));
    const fmt = (r: string[]) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    lines.push(fmt(header));
    for (const r of rows) lines.push(fmt(r));
    if (job.nodes.some((n) => n.isStoreHost)) lines.push(`* ${u.storeHost}`);
  }
  const limits = dx.thresholds.filter((t) => t.applies && t.id !== 'recommended');
  if (limits.length) {
    lines.push('', `${u.limits}: ${limits.map((t) => `${t.id} ${t.seconds} ${u.seconds} (${t.from})`).join(', ')}`);
  }
  if (job.notes.length) {
    lines.push('', `${u.notes}:`);
    for (const n of job.notes) lines.push(`  - ${noteText(lang, n)}`);
  }
  const bad = job.files.filter((x) => x.problem);
  if (bad.length) {
    lines.push('', `${u.files}:`);
    for (const b of bad) lines.push(`  - ${sentenceText(lang, b.problem!.sentence)}`);
  }
  return lines.join('\n') + '\n';
}

function indent(text: string, pad: string): string {
  return wrap(text, 100 - pad.length)
    .map((l) => pad + l)
    .join('\n');
}

/** Wrap at spaces; CJK text (no spaces) is cut at the width. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
    while (line.length > width * 1.5) {
      out.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line) out.push(line);
  return out;
}

function skewText(job: JobModel, u: Record<string, string>): string {
  if (job.skewSeconds !== null || !job.skewAmongPlaced) return fmtSec(job.skewSeconds, u.seconds!);
  const p = job.skewAmongPlaced;
  return u
    .skewAmong!.replace('{s}', String(Math.round(p.seconds * 10) / 10))
    .replace('{placed}', String(p.placed))
    .replace('{total}', String(p.total));
}

function limitSource(from: 'logs' | 'inferred' | 'default', u: Record<string, string>): string {
  return from === 'logs' ? u.fromLogs! : from === 'inferred' ? u.fromInferred! : u.fromDefault!;
}
